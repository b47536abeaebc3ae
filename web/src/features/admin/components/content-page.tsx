import type {
  SubjectListItem,
  SubjectSortField,
  SubjectTestListItem,
  SubjectTestSortField,
  VariantListItem,
  VariantSortField,
} from '@attesta/contract';
import { Alert, Badge, Button, Checkbox, Group, Stack, Tabs, TextInput } from '@mantine/core';
import { useState } from 'react';
import { PageTitle } from '../../../components/ui/page-title';
import { adminKeys, listSubjects, listSubjectTests, listVariants } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { DataTable, type Column, type DataTableProps } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { useDiagnosticLabels } from '../hooks/use-diagnostic-labels';
import { PausePolicyModal } from './pause-policy-modal';
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

type SearchFilter = { search?: string };

/** A content list searched by name (subjects, subject tests), 20 rows a page. */
function SearchedList<T extends { id: number }, F extends string>(
  props: Omit<DataTableProps<T, F, SearchFilter>, 'filter' | 'filters' | 'rowKey' | 'pageSize'>,
) {
  const [filter, setFilter] = useFilter<SearchFilter>({});
  return (
    <DataTable
      {...props}
      filter={filter}
      filters={<SearchBox value={filter.search ?? ''} onChange={(search) => setFilter({ search })} />}
      rowKey={(r) => r.id}
      pageSize={20}
    />
  );
}

function SubjectsTab() {
  const t = useAdminT();
  const columns: Column<SubjectListItem, SubjectSortField>[] = [
    { key: 'name', header: t('content.name'), render: (r) => r.name, csv: (r) => r.name, sortField: 'name' },
    {
      key: 'code',
      header: t('content.code'),
      render: (r) => r.code ?? '—',
      csv: (r) => r.code,
      sortField: 'code',
    },
    {
      key: 'tests',
      header: t('content.subjectTestCount'),
      render: (r) => r.subjectTestCount,
      csv: (r) => r.subjectTestCount,
    },
  ];
  return (
    <SearchedList
      caption={t('content.subjects')}
      queryKey={[...adminKeys.content, 'subjects']}
      fetchPage={listSubjects}
      initialSort={{ field: 'name', dir: 'asc' }}
      columns={columns}
      exportName="subjects"
    />
  );
}

function SubjectTestsTab() {
  const t = useAdminT();
  const labels = useDiagnosticLabels();
  const [pauses, setPauses] = useState<SubjectTestListItem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const columns: Column<SubjectTestListItem, SubjectTestSortField>[] = [
    { key: 'name', header: t('content.name'), render: (r) => r.name, csv: (r) => r.name, sortField: 'name' },
    {
      key: 'subject',
      header: t('content.subject'),
      render: (r) => r.subjectName,
      csv: (r) => r.subjectName,
      sortField: 'subjectName',
    },
    {
      key: 'kind',
      header: t('content.kind'),
      render: (r) => labels.kind(r.kind),
      csv: (r) => labels.kind(r.kind),
    },
    {
      key: 'parallels',
      header: t('content.parallels'),
      render: (r) => r.parallels.join(', '),
      csv: (r) => r.parallels.join(', '),
    },
    {
      key: 'duration',
      header: t('content.duration'),
      render: (r) => r.durationMinutes,
      csv: (r) => r.durationMinutes,
      sortField: 'durationMinutes',
    },
    {
      key: 'variants',
      header: t('content.variantCount'),
      render: (r) => r.variantCount,
      csv: (r) => r.variantCount,
    },
    {
      key: 'pauses',
      header: t('content.pauses'),
      render: (r) => (
        <Button
          size="compact-xs"
          variant="default"
          aria-label={t('content.pausesEdit', { name: r.name })}
          onClick={() => {
            setNotice(null);
            setPauses(r);
          }}
          data-testid={`pause-policy-${r.id}`}
        >
          {t('common.edit')}
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="sm">
      {notice && (
        <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <SearchedList
        caption={t('content.subjectTests')}
        queryKey={[...adminKeys.content, 'subject-tests']}
        fetchPage={listSubjectTests}
        initialSort={{ field: 'name', dir: 'asc' }}
        columns={columns}
        exportName="subject-tests"
      />
      {pauses && (
        <PausePolicyModal
          subjectTest={pauses}
          onDone={(message) => {
            setPauses(null);
            if (message) setNotice(message);
          }}
        />
      )}
    </Stack>
  );
}

function VariantsTab() {
  const t = useAdminT();
  const [filter, setFilter] = useFilter<{ search?: string; incomplete?: boolean }>({});
  const [task, setTask] = useState<{ variant: VariantListItem; position: number } | null>(null);
  const columns: Column<VariantListItem, VariantSortField>[] = [
    {
      key: 'test',
      header: t('content.subjectTest'),
      render: (r) => `${r.subjectTestName} (${r.subjectName})`,
      csv: (r) => r.subjectTestName,
      sortField: 'subjectTestName',
    },
    {
      key: 'number',
      header: t('content.number'),
      render: (r) => r.number,
      csv: (r) => r.number,
      sortField: 'number',
    },
    {
      key: 'tasks',
      header: t('content.taskCount'),
      render: (r) => r.taskCount,
      csv: (r) => r.taskCount,
      sortField: 'taskCount',
    },
    { key: 'max', header: t('content.maxScore'), render: (r) => r.maxScore, csv: (r) => r.maxScore },
    {
      key: 'manual',
      header: t('content.manual'),
      render: (r) => r.manualTaskCount,
      csv: (r) => r.manualTaskCount,
    },
    {
      key: 'status',
      header: t('content.status'),
      render: (r) =>
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
      render: (r) => (
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
      <DataTable
        caption={t('content.variants')}
        queryKey={[...adminKeys.content, 'variants']}
        fetchPage={listVariants}
        filter={filter}
        initialSort={{ field: 'subjectTestName', dir: 'asc' }}
        pageSize={20}
        filters={
          <>
            <SearchBox value={filter.search ?? ''} onChange={(search) => setFilter({ search })} />
            <Checkbox
              label={t('content.onlyIncomplete')}
              checked={Boolean(filter.incomplete)}
              onChange={(e) => setFilter({ incomplete: e.currentTarget.checked || undefined })}
            />
          </>
        }
        columns={columns}
        rowKey={(r) => r.id}
        rowProps={(r) =>
          r.missingKeyPositions.length ? { style: { background: 'var(--mantine-color-red-0)' } } : {}
        }
        exportName="variants"
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
