/** `/admin/content/tests`: subject tests, drafts and published, with filters; the way to a new one. */
import type { AuthoringSubjectTest, SubjectExamKind } from '@attesta/contract';
import { Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { PageTitle } from '../../../components/ui/page-title';
import { instant } from '../../../components/staff-format';
import { contentKeys } from '../api/shared';
import { listSubjectTests } from '../api/subject-tests';
import { testGroupsQuery } from '../api/test-groups';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { SubjectSelect, TestGroupSelect } from './pickers';

interface TestFilter {
  search?: string;
  subjectId?: number;
  kind?: SubjectExamKind;
  testGroupId?: number;
  parallel?: number;
  status?: 'draft' | 'published';
}

export function StatusBadge({ status }: { status: string }) {
  const labels = useLabels();
  return (
    <Badge color={status === 'published' ? 'green' : 'gray'} variant="light" data-testid="test-status">
      {labels.status(status)}
    </Badge>
  );
}

export function SubjectTestsPage() {
  const t = useContentT();
  const labels = useLabels();
  const [filter, setFilter] = useFilter<TestFilter>({});
  const groups = useQuery(testGroupsQuery());
  const groupName = (id: number | null) =>
    id === null ? t('common.none') : (groups.data?.find((g) => g.id === id)?.name ?? `#${id}`);

  const columns: Column<AuthoringSubjectTest, 'id' | 'name' | 'createdAt' | 'updatedAt'>[] = [
    { key: 'id', header: t('common.id'), render: (r) => r.id, csv: (r) => r.id, sortField: 'id' },
    {
      key: 'name',
      header: t('common.name'),
      render: (r) => (
        <Anchor component={Link} to={`${CONTENT_BASE}/tests/${r.id}`} data-testid={`test-link-${r.id}`}>
          {r.name}
        </Anchor>
      ),
      csv: (r) => r.name,
      sortField: 'name',
    },
    { key: 'subject', header: t('common.subject'), render: (r) => r.subjectName, csv: (r) => r.subjectName },
    {
      key: 'kind',
      header: t('tests.kind'),
      render: (r) => labels.examKind(r.kind),
      csv: (r) => labels.examKind(r.kind),
    },
    {
      key: 'group',
      header: t('tests.group'),
      render: (r) => groupName(r.testGroupId),
      csv: (r) => groupName(r.testGroupId),
    },
    {
      key: 'parallels',
      header: t('tests.parallels'),
      render: (r) => r.parallels.map(labels.parallel).join(', ') || t('common.none'),
      csv: (r) => r.parallels.join(', '),
    },
    {
      key: 'duration',
      header: t('tests.duration'),
      render: (r) => r.durationMinutes,
      csv: (r) => r.durationMinutes,
    },
    {
      key: 'variants',
      header: t('tests.variants'),
      render: (r) => r.variantCount,
      csv: (r) => r.variantCount,
    },
    {
      key: 'status',
      header: t('tests.status'),
      render: (r) => <StatusBadge status={r.status} />,
      csv: (r) => labels.status(r.status),
    },
    {
      key: 'updated',
      header: t('tests.updated'),
      render: (r) => instant(r.updatedAt ?? r.createdAt),
      csv: (r) => instant(r.updatedAt ?? r.createdAt),
      sortField: 'updatedAt',
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle>{t('tests.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('tests.search')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={220}
          data-testid="tests-search"
        />
        <SubjectSelect
          label={t('common.subject')}
          placeholder={t('common.anySubject')}
          clearable
          value={filter.subjectId ?? null}
          onChange={(id) => setFilter({ subjectId: id ?? undefined })}
          w={220}
        />
        <Select
          label={t('tests.kind')}
          placeholder={t('common.any')}
          clearable
          data={labels.examKindOptions}
          value={filter.kind ?? null}
          onChange={(v) => setFilter({ kind: (v as SubjectExamKind | null) ?? undefined })}
          w={220}
        />
        <TestGroupSelect
          label={t('tests.group')}
          placeholder={t('common.any')}
          clearable
          value={filter.testGroupId ?? null}
          onChange={(id) => setFilter({ testGroupId: id ?? undefined })}
          w={200}
        />
        <Select
          label={t('tests.parallel')}
          placeholder={t('common.any')}
          clearable
          data={labels.parallelOptions}
          value={filter.parallel === undefined ? null : String(filter.parallel)}
          onChange={(v) => setFilter({ parallel: v === null ? undefined : Number(v) })}
          w={150}
        />
        <Select
          label={t('tests.status')}
          placeholder={t('common.any')}
          clearable
          data={[
            { value: 'draft', label: labels.status('draft') },
            { value: 'published', label: labels.status('published') },
          ]}
          value={filter.status ?? null}
          onChange={(v) => setFilter({ status: (v as TestFilter['status'] | null) ?? undefined })}
          w={160}
        />
        <Button component={Link} to={`${CONTENT_BASE}/tests/new`} data-testid="test-create">
          {t('tests.create')}
        </Button>
      </Group>
      <DataTable
        caption={t('tests.caption')}
        queryKey={contentKeys.subjectTests}
        fetchPage={listSubjectTests}
        filter={filter}
        initialSort={{ field: 'updatedAt', dir: 'desc' }}
        pageSize={20}
        columns={columns}
        rowKey={(r) => r.id}
        exportName="subject-tests"
        testId="tests-table"
      />
    </Stack>
  );
}
