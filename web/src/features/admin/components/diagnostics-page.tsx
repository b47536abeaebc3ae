import {
  ADMIN_DIAGNOSTIC_KINDS,
  CREATOR_ROLES,
  ROLE_LABELS,
  STAFF_DIAGNOSTIC_STATES,
  type AdminDiagnostic,
  type AdminDiagnosticListRequest,
  type AdminDiagnosticSortField,
} from '@attesta/contract';
import { Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '../../../components/list-table/list-table';
import { useListState } from '../../../components/list-table/use-list-state';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import { adminKeys, listSubjectTestOptions } from '../api/admin-api';
import { listAdminDiagnostics, orgKeys } from '../api/admin-org-api';
import { useAdminT, type AdminT } from '../i18n';

type Filter = NonNullable<AdminDiagnosticListRequest['filter']>;

export const windowText = (d: { startsAt: string; endsAt: string }) =>
  `${formatDisplayDateTime(new Date(d.startsAt))} — ${formatDisplayDateTime(new Date(d.endsAt))}`;

/** Labels of a diagnostic's kind, state, creator and publication, shared by the list and its page. */
export function useDiagnosticLabels() {
  const t = useAdminT();
  const { i18n } = useTranslation();
  return {
    kind: (kind: string) =>
      (ADMIN_DIAGNOSTIC_KINDS as readonly string[]).includes(kind)
        ? t(`diagnostics.kinds.${kind as (typeof ADMIN_DIAGNOSTIC_KINDS)[number]}`)
        : kind,
    creator: (role: string | null) =>
      role && role in ROLE_LABELS
        ? ROLE_LABELS[role as keyof typeof ROLE_LABELS][i18n.language === 'en' ? 'en' : 'ru']
        : '—',
    status: (d: AdminDiagnostic) => t(`diagnostics.statuses.${d.status}`),
  };
}

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
  const list = useListState<AdminDiagnosticSortField, Filter>({ sort: { field: 'startsAt', dir: 'desc' } });
  const diagnostics = useQuery({
    queryKey: [...orgKeys.diagnostics, list.request],
    queryFn: () => listAdminDiagnostics(list.request),
    placeholderData: keepPreviousData,
  });
  const tests = useQuery({ queryKey: adminKeys.subjectTestOptions, queryFn: listSubjectTestOptions });

  const columns: Column<AdminDiagnostic, AdminDiagnosticSortField>[] = [
    { key: 'code', header: t('content.code'), cell: (d) => d.code, csv: (d) => d.code, sortField: 'code' },
    {
      key: 'name',
      header: t('diagnostics.name'),
      cell: (d) => (
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
      cell: (d) => labels.kind(d.kind),
      csv: (d) => labels.kind(d.kind),
    },
    {
      key: 'createdBy',
      header: t('diagnostics.createdBy'),
      cell: (d) => labels.creator(d.createdByRole),
      csv: (d) => labels.creator(d.createdByRole),
    },
    {
      key: 'subjectTests',
      header: t('diagnostics.subjectTests'),
      cell: (d) => d.subjectTests.map((s) => s.name).join(', '),
      csv: (d) => d.subjectTests.map((s) => s.name).join(', '),
    },
    {
      key: 'window',
      header: t('diagnostics.window'),
      cell: windowText,
      csv: windowText,
      sortField: 'startsAt',
    },
    { key: 'status', header: t('diagnostics.status'), cell: labels.status, csv: labels.status },
    {
      key: 'schools',
      header: t('diagnostics.schoolCount'),
      cell: (d) => d.schoolCount,
      csv: (d) => d.schoolCount,
    },
    {
      key: 'participants',
      header: t('diagnostics.participants'),
      cell: (d) => d.participantTestCount,
      csv: (d) => d.participantTestCount,
      sortField: 'participantTestCount',
    },
    {
      key: 'finished',
      header: t('diagnostics.finishedWorks'),
      cell: (d) => d.finishedWorkCount,
      csv: (d) => d.finishedWorkCount,
    },
    {
      key: 'publication',
      header: t('diagnostics.publication'),
      cell: (d) => <PublicationBadge d={d} t={t} />,
      csv: (d) => (d.resultsPublished ? t('diagnostics.published') : t('diagnostics.notPublished')),
    },
    { key: 'actions', header: t('common.actions'), cell: (d) => <DiagnosticLinks id={d.id} t={t} /> },
  ];

  const choose = <K extends keyof Filter>(key: K, value: string | null, map: (v: string) => Filter[K]) =>
    list.setFilter({ [key]: value ? map(value) : undefined } as Partial<Filter>);

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-diagnostics-title">{t('diagnostics.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('common.search')}
          placeholder={t('diagnostics.search')}
          value={list.filter.search ?? ''}
          onChange={(e) => list.setFilter({ search: e.currentTarget.value })}
          w={200}
        />
        <TextInput
          type="date"
          label={t('diagnostics.from')}
          value={list.filter.dateFrom ?? ''}
          onChange={(e) => list.setFilter({ dateFrom: e.currentTarget.value || undefined })}
        />
        <TextInput
          type="date"
          label={t('diagnostics.till')}
          value={list.filter.dateTo ?? ''}
          onChange={(e) => list.setFilter({ dateTo: e.currentTarget.value || undefined })}
        />
        <Select
          label={t('diagnostics.subjectTest')}
          placeholder={t('common.any')}
          clearable
          searchable
          data={(tests.data ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
          value={list.filter.subjectTestId === undefined ? null : String(list.filter.subjectTestId)}
          onChange={(v) => choose('subjectTestId', v, Number)}
          w={220}
        />
        <Select
          label={t('diagnostics.kind')}
          placeholder={t('common.any')}
          clearable
          data={ADMIN_DIAGNOSTIC_KINDS.map((k) => ({ value: k, label: labels.kind(k) }))}
          value={list.filter.kind ?? null}
          onChange={(v) => choose('kind', v, (k) => k as Filter['kind'])}
          w={200}
        />
        <Select
          label={t('diagnostics.createdBy')}
          placeholder={t('common.any')}
          clearable
          data={CREATOR_ROLES.map((r) => ({ value: r, label: labels.creator(r) }))}
          value={list.filter.createdByRole ?? null}
          onChange={(v) => choose('createdByRole', v, (r) => r as Filter['createdByRole'])}
          w={200}
        />
        <Select
          label={t('diagnostics.status')}
          placeholder={t('common.any')}
          clearable
          data={STAFF_DIAGNOSTIC_STATES.map((s) => ({ value: s, label: t(`diagnostics.statuses.${s}`) }))}
          value={list.filter.status ?? null}
          onChange={(v) => choose('status', v, (s) => s as Filter['status'])}
          w={200}
        />
        <Button component={Link} to="/admin/diagnostics/new" data-testid="diagnostic-create">
          {t('diagnostics.create')}
        </Button>
      </Group>
      <ListTable
        caption={t('diagnostics.caption')}
        columns={columns}
        rows={diagnostics.data?.items}
        total={diagnostics.data?.total}
        rowKey={(d) => d.id}
        isLoading={diagnostics.isFetching}
        error={diagnostics.error}
        onRetry={() => void diagnostics.refetch()}
        paging={list}
        sort={list.sort}
        onSort={list.toggleSort}
        csvName="diagnostics"
        testId="admin-diagnostics-table"
      />
    </Stack>
  );
}
