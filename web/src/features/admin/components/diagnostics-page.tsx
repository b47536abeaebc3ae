import {
  ADMIN_DIAGNOSTIC_KINDS,
  CREATOR_ROLES,
  STAFF_DIAGNOSTIC_STATES,
  type AdminDiagnostic,
  type AdminDiagnosticListRequest,
  type AdminDiagnosticSortField,
} from '@attesta/contract';
import { Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { PeriodFilter } from '../../../components/data-table/period-filter';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import { adminKeys, listSubjectTestOptions } from '../api/admin-api';
import { listAdminDiagnostics, orgKeys } from '../api/admin-org-api';
import { useDiagnosticLabels } from '../hooks/use-diagnostic-labels';
import { useAdminT, type AdminT } from '../i18n';

type Filter = NonNullable<AdminDiagnosticListRequest['filter']>;

export const windowText = (d: { startsAt: string; endsAt: string }) =>
  `${formatDisplayDateTime(new Date(d.startsAt))} — ${formatDisplayDateTime(new Date(d.endsAt))}`;

export function PublicationBadge({ d, t }: { d: AdminDiagnostic; t: AdminT }) {
  return d.resultsPublished ? (
    <Badge color="green">{t('diagnostics.published')}</Badge>
  ) : (
    <Badge color="gray" variant="light">
      {t('diagnostics.notPublished')}
    </Badge>
  );
}

/** Links to the existing work places of one diagnostic: its results (publication) and queue items. */
export function DiagnosticLinks({ id, t }: { id: number; t: AdminT }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Button component={Link} to={`/admin/results?diagnosticId=${id}`} size="compact-xs" variant="light">
        {t('diagnostics.results')}
      </Button>
      <Button component={Link} to={`/admin/queue?diagnosticId=${id}`} size="compact-xs" variant="light">
        {t('diagnostics.queue')}
      </Button>
    </Group>
  );
}

/** `/admin/diagnostics`: every diagnostic, whoever created it, with filters; create a new one. */
export function AdminDiagnosticsPage() {
  const t = useAdminT();
  const labels = useDiagnosticLabels();
  const [filter, setFilter] = useFilter<Filter>({});
  const tests = useQuery({ queryKey: adminKeys.subjectTestOptions, queryFn: listSubjectTestOptions });

  const columns: Column<AdminDiagnostic, AdminDiagnosticSortField>[] = [
    { key: 'code', header: t('content.code'), render: (d) => d.code, csv: (d) => d.code, sortField: 'code' },
    {
      key: 'name',
      header: t('diagnostics.name'),
      render: (d) => (
        <Anchor component={Link} to={`/admin/diagnostics/${d.id}`}>
          {d.name}
        </Anchor>
      ),
      csv: (d) => d.name,
      sortField: 'name',
    },
    {
      key: 'kind',
      header: t('diagnostics.kind'),
      render: (d) => labels.kind(d.kind),
      csv: (d) => labels.kind(d.kind),
    },
    {
      key: 'createdBy',
      header: t('diagnostics.createdBy'),
      render: (d) => labels.creator(d.createdByRole),
      csv: (d) => labels.creator(d.createdByRole),
    },
    {
      key: 'subjectTests',
      header: t('diagnostics.subjectTests'),
      render: (d) => d.subjectTests.map((s) => s.name).join(', '),
      csv: (d) => d.subjectTests.map((s) => s.name).join(', '),
    },
    {
      key: 'window',
      header: t('diagnostics.window'),
      render: windowText,
      csv: windowText,
      sortField: 'startsAt',
    },
    { key: 'status', header: t('diagnostics.status'), render: labels.status, csv: labels.status },
    {
      key: 'schools',
      header: t('diagnostics.schoolCount'),
      render: (d) => d.schoolCount,
      csv: (d) => d.schoolCount,
    },
    {
      key: 'participants',
      header: t('diagnostics.participants'),
      render: (d) => d.participantTestCount,
      csv: (d) => d.participantTestCount,
      sortField: 'participantTestCount',
    },
    {
      key: 'finished',
      header: t('diagnostics.finishedWorks'),
      render: (d) => d.finishedWorkCount,
      csv: (d) => d.finishedWorkCount,
    },
    {
      key: 'publication',
      header: t('diagnostics.publication'),
      render: (d) => <PublicationBadge d={d} t={t} />,
      csv: (d) => (d.resultsPublished ? t('diagnostics.published') : t('diagnostics.notPublished')),
    },
    { key: 'actions', header: t('common.actions'), render: (d) => <DiagnosticLinks id={d.id} t={t} /> },
  ];

  const choose = <K extends keyof Filter>(key: K, value: string | null, map: (v: string) => Filter[K]) =>
    setFilter({ [key]: value ? map(value) : undefined } as Partial<Filter>);

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-diagnostics-title">{t('diagnostics.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('common.search')}
          placeholder={t('diagnostics.search')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={200}
        />
        <PeriodFilter
          value={{ from: filter.dateFrom, till: filter.dateTo }}
          onChange={(p) => setFilter({ dateFrom: p.from, dateTo: p.till })}
        />
        <Select
          label={t('diagnostics.subjectTest')}
          placeholder={t('common.any')}
          clearable
          searchable
          data={(tests.data ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
          value={filter.subjectTestId === undefined ? null : String(filter.subjectTestId)}
          onChange={(v) => choose('subjectTestId', v, Number)}
          w={220}
        />
        <Select
          label={t('diagnostics.kind')}
          placeholder={t('common.any')}
          clearable
          data={ADMIN_DIAGNOSTIC_KINDS.map((k) => ({ value: k, label: labels.kind(k) }))}
          value={filter.kind ?? null}
          onChange={(v) => choose('kind', v, (k) => k as Filter['kind'])}
          w={200}
        />
        <Select
          label={t('diagnostics.createdBy')}
          placeholder={t('common.any')}
          clearable
          data={CREATOR_ROLES.map((r) => ({ value: r, label: labels.creator(r) }))}
          value={filter.createdByRole ?? null}
          onChange={(v) => choose('createdByRole', v, (r) => r as Filter['createdByRole'])}
          w={200}
        />
        <Select
          label={t('diagnostics.status')}
          placeholder={t('common.any')}
          clearable
          data={STAFF_DIAGNOSTIC_STATES.map((s) => ({ value: s, label: t(`diagnostics.statuses.${s}`) }))}
          value={filter.status ?? null}
          onChange={(v) => choose('status', v, (s) => s as Filter['status'])}
          w={200}
        />
        <Button component={Link} to="/admin/diagnostics/new" data-testid="diagnostic-create">
          {t('diagnostics.create')}
        </Button>
      </Group>
      <DataTable
        caption={t('diagnostics.caption')}
        queryKey={orgKeys.diagnostics}
        fetchPage={listAdminDiagnostics}
        filter={filter}
        initialSort={{ field: 'startsAt', dir: 'desc' }}
        pageSize={20}
        columns={columns}
        rowKey={(d) => d.id}
        exportName="diagnostics"
        testId="admin-diagnostics-table"
      />
    </Stack>
  );
}
