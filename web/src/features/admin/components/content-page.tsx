import type {
  SubjectListItem,
  SubjectSortField,
  SubjectTestListItem,
  SubjectTestSortField,
  VariantListItem,
  VariantSortField,
} from '@attesta/contract';
import { Badge, Button, Checkbox, Group, Stack, Tabs, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageTitle } from '../../../components/ui/page-title';
import { adminKeys, listSubjects, listSubjectTests, listVariants } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { ListTable, type Column } from '../../../components/list-table/list-table';
import { useListState } from '../../../components/list-table/use-list-state';
import { TaskViewModal } from './task-view-modal';

function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const t = useAdminT();
  return (
    <TextInput
      aria-label={t('common.search')}
      placeholder={t('common.search')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={240}
    />
  );
}

function SubjectsTab() {
  const t = useAdminT();
  const list = useListState<SubjectSortField, { search?: string }>({ sort: { field: 'name', dir: 'asc' } });
  const query = useQuery({
    queryKey: [...adminKeys.content, 'subjects', list.request],
    queryFn: () => listSubjects(list.request),
    placeholderData: keepPreviousData,
  });
  const columns: Column<SubjectListItem, SubjectSortField>[] = [
    { key: 'id', header: 'ID', cell: (r) => r.id, csv: (r) => r.id, sortField: 'id' },
    { key: 'name', header: t('content.name'), cell: (r) => r.name, csv: (r) => r.name, sortField: 'name' },
    {
      key: 'code',
      header: t('content.code'),
      cell: (r) => r.code ?? '—',
      csv: (r) => r.code,
      sortField: 'code',
    },
    {
      key: 'tests',
      header: t('content.subjectTestCount'),
      cell: (r) => r.subjectTestCount,
      csv: (r) => r.subjectTestCount,
    },
  ];
  return (
    <ListTable
      caption={t('content.subjects')}
      toolbar={
        <SearchBox value={list.filter.search ?? ''} onChange={(search) => list.setFilter({ search })} />
      }
      columns={columns}
      rows={query.data?.items}
      total={query.data?.total}
      rowKey={(r) => r.id}
      isLoading={query.isFetching}
      error={query.error}
      onRetry={() => void query.refetch()}
      paging={list}
      sort={list.sort}
      onSort={list.toggleSort}
      csvName="subjects"
    />
  );
}

function SubjectTestsTab() {
  const t = useAdminT();
  const list = useListState<SubjectTestSortField, { search?: string }>({
    sort: { field: 'name', dir: 'asc' },
  });
  const query = useQuery({
    queryKey: [...adminKeys.content, 'subject-tests', list.request],
    queryFn: () => listSubjectTests(list.request),
    placeholderData: keepPreviousData,
  });
  const columns: Column<SubjectTestListItem, SubjectTestSortField>[] = [
    { key: 'id', header: 'ID', cell: (r) => r.id, csv: (r) => r.id, sortField: 'id' },
    { key: 'name', header: t('content.name'), cell: (r) => r.name, csv: (r) => r.name, sortField: 'name' },
    {
      key: 'subject',
      header: t('content.subject'),
      cell: (r) => r.subjectName,
      csv: (r) => r.subjectName,
      sortField: 'subjectName',
    },
    { key: 'kind', header: t('content.kind'), cell: (r) => r.kind, csv: (r) => r.kind },
    {
      key: 'parallels',
      header: t('content.parallels'),
      cell: (r) => r.parallels.join(', '),
      csv: (r) => r.parallels.join(', '),
    },
    {
      key: 'duration',
      header: t('content.duration'),
      cell: (r) => r.durationMinutes,
      csv: (r) => r.durationMinutes,
      sortField: 'durationMinutes',
    },
    {
      key: 'variants',
      header: t('content.variantCount'),
      cell: (r) => r.variantCount,
      csv: (r) => r.variantCount,
    },
  ];
  return (
    <ListTable
      caption={t('content.subjectTests')}
      toolbar={
        <SearchBox value={list.filter.search ?? ''} onChange={(search) => list.setFilter({ search })} />
      }
      columns={columns}
      rows={query.data?.items}
      total={query.data?.total}
      rowKey={(r) => r.id}
      isLoading={query.isFetching}
      error={query.error}
      onRetry={() => void query.refetch()}
      paging={list}
      sort={list.sort}
      onSort={list.toggleSort}
      csvName="subject-tests"
    />
  );
}

function VariantsTab() {
  const t = useAdminT();
  const list = useListState<VariantSortField, { search?: string; incomplete?: boolean }>({
    sort: { field: 'subjectTestName', dir: 'asc' },
  });
  const [task, setTask] = useState<{ variant: VariantListItem; position: number } | null>(null);
  const query = useQuery({
    queryKey: [...adminKeys.content, 'variants', list.request],
    queryFn: () => listVariants(list.request),
    placeholderData: keepPreviousData,
  });
  const columns: Column<VariantListItem, VariantSortField>[] = [
    { key: 'id', header: 'ID', cell: (r) => r.id, csv: (r) => r.id, sortField: 'id' },
    {
      key: 'test',
      header: t('content.subjectTest'),
      cell: (r) => `${r.subjectTestName} (${r.subjectName})`,
      csv: (r) => r.subjectTestName,
      sortField: 'subjectTestName',
    },
    {
      key: 'number',
      header: t('content.number'),
      cell: (r) => r.number,
      csv: (r) => r.number,
      sortField: 'number',
    },
    {
      key: 'tasks',
      header: t('content.taskCount'),
      cell: (r) => r.taskCount,
      csv: (r) => r.taskCount,
      sortField: 'taskCount',
    },
    { key: 'max', header: t('content.maxScore'), cell: (r) => r.maxScore, csv: (r) => r.maxScore },
    {
      key: 'manual',
      header: t('content.manual'),
      cell: (r) => r.manualTaskCount,
      csv: (r) => r.manualTaskCount,
    },
    {
      key: 'status',
      header: t('content.status'),
      cell: (r) =>
        r.missingKeyPositions.length ? (
          <Badge color="red" data-testid={`variant-missing-${r.id}`}>
            {t('content.missingKeys', { positions: r.missingKeyPositions.join(', ') })}
          </Badge>
        ) : (
          <Badge color="green" variant="light">
            {t('content.complete')}
          </Badge>
        ),
      csv: (r) =>
        r.missingKeyPositions.length
          ? t('content.missingKeys', { positions: r.missingKeyPositions.join(', ') })
          : t('content.complete'),
    },
    {
      key: 'open',
      header: t('content.tasks'),
      cell: (r) => (
        <Group gap={2}>
          {Array.from({ length: r.taskCount }, (_, i) => i + 1).map((n) => {
            const missing = r.missingKeyPositions.includes(n);
            return (
              <Button
                key={n}
                size="compact-xs"
                variant={missing ? 'filled' : 'default'}
                color={missing ? 'red' : undefined}
                aria-label={missing ? t('content.openTaskMissing', { n }) : t('content.openTask', { n })}
                onClick={() => setTask({ variant: r, position: n })}
              >
                {n}
              </Button>
            );
          })}
        </Group>
      ),
    },
  ];
  return (
    <>
      <ListTable
        caption={t('content.variants')}
        toolbar={
          <>
            <SearchBox value={list.filter.search ?? ''} onChange={(search) => list.setFilter({ search })} />
            <Checkbox
              label={t('content.onlyIncomplete')}
              checked={Boolean(list.filter.incomplete)}
              onChange={(e) => list.setFilter({ incomplete: e.currentTarget.checked || undefined })}
            />
          </>
        }
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total}
        rowKey={(r) => r.id}
        rowProps={(r) =>
          r.missingKeyPositions.length ? { style: { background: 'var(--mantine-color-red-0)' } } : {}
        }
        isLoading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        paging={list}
        sort={list.sort}
        onSort={list.toggleSort}
        csvName="variants"
      />
      {task && (
        <TaskViewModal
          variantId={task.variant.id}
          variantNumber={task.variant.number}
          position={task.position}
          onClose={() => setTask(null)}
        />
      )}
    </>
  );
}

/** `/admin/content`: subjects, subject tests and variants with their content status. */
export function ContentPage() {
  const t = useAdminT();
  return (
    <Stack gap="md">
      <PageTitle>{t('content.title')}</PageTitle>
      <Tabs defaultValue="variants" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="subjects">{t('content.subjects')}</Tabs.Tab>
          <Tabs.Tab value="subject-tests">{t('content.subjectTests')}</Tabs.Tab>
          <Tabs.Tab value="variants">{t('content.variants')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="subjects" pt="md">
          <SubjectsTab />
        </Tabs.Panel>
        <Tabs.Panel value="subject-tests" pt="md">
          <SubjectTestsTab />
        </Tabs.Panel>
        <Tabs.Panel value="variants" pt="md">
          <VariantsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
