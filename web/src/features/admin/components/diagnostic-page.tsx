import type { AdminDiagnosticSchool } from '@attesta/contract';
import { Alert, Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { downloadParticipantsExcel } from '../api/admin-api';
import { getAdminDiagnostic, getExpertCoverage, orgKeys } from '../api/admin-org-api';
import { ExpertCoverageAlert } from '../../../components/expert-coverage';
import { useDiagnosticLabels } from '../hooks/use-diagnostic-labels';
import { useAdminT } from '../i18n';
import { DiagnosticParticipants } from './diagnostic-participants';
import { DiagnosticLinks, PublicationBadge, windowText } from './diagnostics-page';

/**
 * `/admin/diagnostics/:id`: one diagnostic, its schools with their counts, its participants, links to
 * its results and jobs, and a warning when its expert-graded tasks have too few experts.
 */
export function AdminDiagnosticPage() {
  const t = useAdminT();
  const { t: tr } = useTranslation();
  const labels = useDiagnosticLabels();
  const id = Number(useParams().id);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const diagnostic = useQuery({ queryKey: orgKeys.diagnostic(id), queryFn: () => getAdminDiagnostic(id) });
  const d = diagnostic.data;
  const coverage = useQuery({
    queryKey: orgKeys.expertCoverage(id),
    queryFn: () => getExpertCoverage(id),
    enabled: d !== undefined,
  });

  const columns: Column<AdminDiagnosticSchool>[] = [
    {
      key: 'name',
      header: t('org.name'),
      render: (s) => (
        <Anchor component={Link} to={`/admin/schools/${s.id}`}>
          {s.name}
        </Anchor>
      ),
      csv: (s) => s.name,
    },
    { key: 'code', header: t('org.code'), render: (s) => s.code ?? '—', csv: (s) => s.code },
    { key: 'oo', header: t('org.ooShort'), render: (s) => s.ooName, csv: (s) => s.ooName },
    {
      key: 'participants',
      header: t('diagnostics.participants'),
      render: (s) => s.participantTestCount,
      csv: (s) => s.participantTestCount,
    },
    {
      key: 'finished',
      header: t('diagnostics.finishedWorks'),
      render: (s) => s.finishedWorkCount,
      csv: (s) => s.finishedWorkCount,
    },
  ];

  if (diagnostic.error) {
    const missing = diagnostic.error instanceof ApiError && diagnostic.error.status === 404;
    return (
      <Stack>
        <Alert color="red" role="alert" data-testid="diagnostic-error">
          {missing ? t('diagnostics.notFound') : describeApiError(diagnostic.error, tr)}
        </Alert>
        <Anchor component={Link} to="/admin/diagnostics">
          {t('diagnostics.backToList')}
        </Anchor>
      </Stack>
    );
  }

  const fact = (label: string, value: ReactNode) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-diagnostic-title">{d ? `${d.code} — ${d.name}` : '…'}</PageTitle>
      <Anchor component={Link} to="/admin/diagnostics" size="sm">
        {t('diagnostics.backToList')}
      </Anchor>
      {d && (
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {fact(t('diagnostics.kind'), labels.kind(d.kind))}
            {fact(
              t('diagnostics.createdBy'),
              `${labels.creator(d.createdByRole)}${d.createdByLogin ? ` (${d.createdByLogin})` : ''}`,
            )}
            {fact(t('diagnostics.window'), windowText(d))}
            {fact(t('diagnostics.status'), labels.status(d))}
            {fact(t('diagnostics.publication'), <PublicationBadge d={d} t={t} />)}
            {fact(t('diagnostics.parallels'), d.parallels.join(', ') || '—')}
            {fact(t('diagnostics.subjectTests'), d.subjectTests.map((s) => s.name).join(', ') || '—')}
            {fact(t('diagnostics.participants'), d.participantTestCount)}
            {fact(t('diagnostics.finishedWorks'), d.finishedWorkCount)}
          </SimpleGrid>
          <Group mt="md" gap="sm">
            <DiagnosticLinks id={d.id} t={t} />
            <LoadingButton
              size="compact-xs"
              variant="light"
              onClick={() =>
                downloadParticipantsExcel(d.id, `${d.code}.xlsx`).catch((error: unknown) =>
                  setDownloadError(describeApiError(error, tr)),
                )
              }
            >
              {t('diagnostics.participantsExcel')}
            </LoadingButton>
          </Group>
          {downloadError && (
            <Alert color="red" mt="sm" role="alert">
              {downloadError}
            </Alert>
          )}
        </Paper>
      )}
      {coverage.data && (
        <ExpertCoverageAlert
          items={coverage.data.items}
          hint="admin"
          actionOf={(c) => (
            <Anchor
              component={Link}
              to={`/admin/content/tests/${c.subjectTestId}?tab=experts`}
              size="sm"
              data-testid={`assign-experts-${c.subjectTestId}`}
            >
              {t('diagnostics.assignExperts', { name: c.subjectTestName })}
            </Anchor>
          )}
        />
      )}
      <Title order={2} size="h4">
        {t('diagnostics.schools')}
      </Title>
      <RowsTable
        caption={t('diagnostics.schoolsCaption')}
        columns={columns}
        rows={d?.schools}
        rowKey={(s) => s.id}
        exportName={`diagnostic-${id}-schools`}
        testId="diagnostic-schools-table"
      />
      {d && <DiagnosticParticipants diagnostic={d} />}
    </Stack>
  );
}
