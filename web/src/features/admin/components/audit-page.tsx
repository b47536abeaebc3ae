import type { AuditEvent, AuditSortField } from '@attesta/contract';
import { Group, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { PeriodFilter } from '../../../components/data-table/period-filter';
import { useFilter } from '../../../components/data-table/use-filter';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import { auditActions, auditKeys, listAudit } from '../api/audit-api';
import { AuditDetails, auditRecord, detailLines, type AuditWords } from './audit-details';
import { AUDIT_AREAS, useAuditTexts, type AuditTexts } from '../audit-i18n';

interface AuditFilter {
  search?: string;
  area?: string;
  action?: string;
  from?: string;
  to?: string;
}

const who = (e: AuditEvent, texts: AuditTexts) =>
  e.userId === null
    ? texts.t('page.system')
    : [e.userName, e.userLogin && `(${e.userLogin})`].filter(Boolean).join(' ');
const words = (e: AuditEvent, texts: AuditTexts): AuditWords => ({
  texts,
  lang: texts.lang,
  refs: e.refs ?? {},
});

/** `/admin/audit`: who did what and when — filtered by person, area, action and days; every page exports as CSV. */
export function AuditPage() {
  const texts = useAuditTexts();
  const { t } = texts;
  const [filter, setFilter] = useFilter<AuditFilter>({});
  const actions = useQuery({ queryKey: auditKeys.actions, queryFn: auditActions });
  const actionOptions = (actions.data?.actions ?? [])
    .filter((a) => !filter.area || a.action === filter.area || a.action.startsWith(`${filter.area}.`))
    .map((a) => ({
      value: a.action,
      label: t('page.count', { label: texts.action(a.action), count: a.count }),
    }));

  const columns: Column<AuditEvent, AuditSortField>[] = [
    {
      key: 'at',
      header: t('page.at'),
      render: (e) => formatDisplayDateTime(new Date(e.at)),
      csv: (e) => formatDisplayDateTime(new Date(e.at)),
      sortField: 'at',
    },
    {
      key: 'who',
      header: t('page.who'),
      render: (e) => who(e, texts),
      csv: (e) => who(e, texts),
      sortField: 'userLogin',
    },
    {
      key: 'what',
      header: t('page.what'),
      render: (e) => texts.action(e.action),
      csv: (e) => texts.action(e.action),
      sortField: 'action',
    },
    {
      key: 'record',
      header: t('page.record'),
      render: (e) => auditRecord(e, words(e, texts)).node,
      csv: (e) => auditRecord(e, words(e, texts)).text,
    },
    { key: 'reason', header: t('page.reason'), render: (e) => e.reason ?? '—', csv: (e) => e.reason },
    {
      key: 'details',
      header: t('page.details'),
      render: (e) => <AuditDetails event={e} words={words(e, texts)} />,
      csv: (e) =>
        detailLines(e, words(e, texts))
          .map((line) => `${line.label}: ${line.text}`)
          .join('; '),
    },
    { key: 'ip', header: t('page.address'), render: (e) => e.ip ?? '—', csv: (e) => e.ip },
  ];

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-audit-title">{t('page.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('page.search')}
          placeholder={t('page.searchPlaceholder')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={200}
          data-testid="audit-search"
        />
        <Select
          label={t('page.area')}
          clearable
          placeholder={t('page.any')}
          data={AUDIT_AREAS.map((area) => ({ value: area, label: texts.area(area) }))}
          value={filter.area ?? null}
          onChange={(v) => setFilter({ area: v ?? undefined, action: undefined })}
          w={220}
          data-testid="audit-area"
        />
        <Select
          label={t('page.action')}
          clearable
          searchable
          placeholder={t('page.any')}
          data={actionOptions}
          value={filter.action ?? null}
          onChange={(v) => setFilter({ action: v ?? undefined })}
          w={300}
          data-testid="audit-action"
        />
        <PeriodFilter
          value={{ from: filter.from, till: filter.to }}
          onChange={(p) => setFilter({ from: p.from, to: p.till })}
          fromLabel={t('page.from')}
          tillLabel={t('page.to')}
          width={160}
          testIdPrefix="audit"
        />
      </Group>
      <DataTable
        caption={t('page.caption')}
        queryKey={auditKeys.list}
        fetchPage={listAudit}
        filter={filter}
        initialSort={{ field: 'at', dir: 'desc' }}
        pageSize={50}
        columns={columns}
        rowKey={(e) => e.id}
        exportName="audit"
        testId="audit-table"
      />
    </Stack>
  );
}
