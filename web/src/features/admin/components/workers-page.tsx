import type { AccommodationWorker } from '@attesta/contract';
import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AccommodationsMark } from '../../../components/accommodations/accommodations-mark';
import { BulkAccommodationsModal } from '../../../components/accommodations/bulk-accommodations-modal';
import { useAccommodationsT } from '../../../components/accommodations/locales';
import { StudentAccommodationsModal } from '../../../components/accommodations/student-accommodations-modal';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import type { FetchPage } from '../../../components/data-table/list-request';
import { useFilter } from '../../../components/data-table/use-filter';
import { PageTitle } from '../../../components/ui/page-title';
import {
  adminBulkWorkerAccommodations,
  adminWorkerAccommodationsCalls,
  listWorkers,
  workerKeys,
} from '../api/accommodations-api';
import { useAdminT } from '../i18n';
import { RemoteSelect } from './org-selects';
import { fullName } from './students-page';
import { useRowSelection } from '../../../components/accommodations/use-row-selection';

interface WorkerFilter {
  search?: string;
  schoolId?: number;
}

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

const fetchWorkers: FetchPage<AccommodationWorker, string, WorkerFilter> = (request, signal) =>
  listWorkers(
    {
      page: String(request.page),
      pageSize: String(request.pageSize),
      ...(request.filter?.search ? { search: request.filter.search } : {}),
      ...(request.filter?.schoolId ? { schoolId: String(request.filter.schoolId) } : {}),
    },
    signal,
  );

/**
 * `/admin/workers` (`?schoolId=`): the staff who take worker tests, any school, with their
 * accommodations profiles (docs/accommodations.md): one worker's dialog, or the same for the selected.
 */
export function WorkersPage() {
  const t = useAdminT();
  const { t: ta } = useAccommodationsT();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [filter, setFilter] = useFilter<WorkerFilter>({ schoolId: idParam(params.get('schoolId')) });
  const { selected, toggleSelected, clearSelected } = useRowSelection();
  const [bulkIds, setBulkIds] = useState<number[] | null>(null);
  const [accommodationsOf, setAccommodationsOf] = useState<AccommodationWorker | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: workerKeys.all });

  const columns: Column<AccommodationWorker, string>[] = [
    {
      key: 'select',
      header: <span className="visually-hidden">{ta('accommodations.selectColumn')}</span>,
      render: (w) => (
        <Checkbox
          aria-label={ta('accommodations.select', { name: fullName(w) })}
          checked={selected.has(w.id)}
          onChange={(e) => toggleSelected(w.id, e.currentTarget.checked)}
          data-testid={`worker-select-${w.id}`}
        />
      ),
    },
    {
      key: 'name',
      header: t('workers.fullName'),
      render: (w) => (
        <Text size="sm" c={w.isBlocked ? 'dimmed' : undefined}>
          {fullName(w)}
          {w.isBlocked ? ` (${t('workers.blocked')})` : ''}
        </Text>
      ),
      csv: fullName,
    },
    { key: 'email', header: t('workers.email'), render: (w) => w.email ?? '—', csv: (w) => w.email },
    {
      key: 'position',
      header: t('workers.position'),
      render: (w) => w.positionName ?? '—',
      csv: (w) => w.positionName,
    },
    {
      key: 'school',
      header: t('workers.school'),
      render: (w) =>
        w.schoolId === null ? (
          '—'
        ) : (
          <Anchor component={Link} to={`/admin/schools/${w.schoolId}`} size="sm">
            {w.schoolName}
          </Anchor>
        ),
      csv: (w) => w.schoolName,
    },
    {
      key: 'accommodations',
      header: ta('accommodations.column'),
      render: (w) => <AccommodationsMark student={w} />,
      csv: (w) => (w.hasAccommodations ? ta('accommodations.has') : ''),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (w) => (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => setAccommodationsOf(w)}
          data-testid={`worker-accommodations-${w.id}`}
        >
          {ta('accommodations.open')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-workers-title">{t('workers.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('workers.search')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={220}
        />
        <RemoteSelect
          kind="school"
          label={t('workers.school')}
          placeholder={t('common.any')}
          value={filter.schoolId ?? null}
          onChange={(id) => setFilter({ schoolId: id ?? undefined })}
          w={280}
          data-testid="workers-school-filter"
        />
        <Button
          variant="default"
          disabled={selected.size === 0}
          onClick={() => setBulkIds([...selected])}
          data-testid="workers-accommodations-bulk"
        >
          {ta('accommodations.bulkOpen', { count: selected.size })}
        </Button>
      </Group>
      <DataTable
        caption={t('workers.caption')}
        queryKey={workerKeys.all}
        fetchPage={fetchWorkers}
        filter={filter}
        pageSize={50}
        columns={columns}
        rowKey={(w) => w.id}
        exportName="workers"
        testId="workers-table"
      />
      <StudentAccommodationsModal
        student={accommodationsOf}
        calls={adminWorkerAccommodationsCalls}
        onClose={() => setAccommodationsOf(null)}
        onSaved={() => {
          notifications.show({ color: 'green', message: ta('accommodations.saved') });
          setAccommodationsOf(null);
          void refresh();
        }}
      />
      <BulkAccommodationsModal
        ids={bulkIds}
        who="workers"
        save={adminBulkWorkerAccommodations}
        onClose={() => setBulkIds(null)}
        onSaved={(count) => {
          notifications.show({ color: 'green', message: ta('accommodations.workers.bulkSaved', { count }) });
          setBulkIds(null);
          clearSelected();
          void refresh();
        }}
      />
    </Stack>
  );
}
