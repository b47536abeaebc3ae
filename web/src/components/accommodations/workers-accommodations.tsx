/**
 * The staff who take worker tests with their accommodations profiles (docs/accommodations.md):
 * a searchable table, one worker's dialog, the same profile for the selected. The admin's
 * `/admin/workers` (every school, a school filter) and the coordinator's `/coordinator/workers`
 * (the server keeps them to their own school) are this table with their own title and filters.
 */
import type { AccommodationWorker, Accommodations } from '@attesta/contract';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '../lite/notify';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { call } from '../../lib/call';
import { fullName } from '../staff-format';
import { DataTable, type Column } from '../data-table/data-table';
import type { FetchPage } from '../data-table/list-request';
import { useFilter } from '../data-table/use-filter';
import { useAccommodationColumns } from './accommodation-columns';
import { BulkAccommodationsModal } from './bulk-accommodations-modal';
import { useAccommodationsT } from './locales';
import { StudentAccommodationsModal, type AccommodationsCalls } from './student-accommodations-modal';

const inline = { suppressRedirect: true } as const;

/** A worker's profile: the same calls for both roles, the server scopes them. */
export const workerAccommodationsCalls: AccommodationsCalls = {
  kind: 'worker',
  load: (workerId, signal) =>
    call('GET /api/accommodations/workers/{workerId}', { params: { workerId } }, { ...inline, signal }),
  save: (workerId, accommodations) =>
    call(
      'PUT /api/accommodations/workers/{workerId}',
      { params: { workerId }, body: { accommodations } },
      inline,
    ),
};

const bulkWorkerAccommodations = (workerIds: number[], accommodations: Accommodations | null) =>
  call('PUT /api/accommodations/workers', { body: { workerIds, accommodations } }, inline);

export const workerKeys = { all: ['accommodation-workers'] as const };

interface WorkerFilter {
  search?: string;
  schoolId?: number;
}

const fetchWorkers: FetchPage<AccommodationWorker, string, WorkerFilter> = (request, signal) =>
  call(
    'GET /api/accommodations/workers',
    {
      query: {
        page: String(request.page),
        pageSize: String(request.pageSize),
        ...(request.filter?.search ? { search: request.filter.search } : {}),
        ...(request.filter?.schoolId ? { schoolId: String(request.filter.schoolId) } : {}),
      },
    },
    { ...inline, signal },
  );

const nameOf = (w: AccommodationWorker) => fullName(w);

export function WorkersAccommodations({
  schoolId,
  schoolFilter,
  school,
}: {
  /** Only this school's workers (the admin's filter). */
  schoolId?: number;
  /** The admin's school picker, beside the search. */
  schoolFilter?: ReactNode;
  /** How the school column shows a worker's school; no column without it (a coordinator's own). */
  school?: (w: AccommodationWorker) => ReactNode;
}) {
  const { t } = useAccommodationsT();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useFilter<WorkerFilter>({});
  const { selected, clearSelected, selectColumn, markColumn } = useAccommodationColumns(nameOf, 'worker');
  const [bulkIds, setBulkIds] = useState<number[] | null>(null);
  const [accommodationsOf, setAccommodationsOf] = useState<AccommodationWorker | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: workerKeys.all });

  const columns: Column<AccommodationWorker, string>[] = [
    selectColumn,
    {
      key: 'name',
      header: t('accommodations.workers.fullName'),
      render: (w) => (
        <Text size="sm" c={w.isBlocked ? 'dimmed' : undefined}>
          {nameOf(w)}
          {w.isBlocked ? ` (${t('accommodations.workers.blocked')})` : ''}
        </Text>
      ),
      csv: nameOf,
    },
    {
      key: 'email',
      header: t('accommodations.workers.email'),
      render: (w) => w.email ?? '—',
      csv: (w) => w.email,
    },
    {
      key: 'position',
      header: t('accommodations.workers.position'),
      render: (w) => w.positionName ?? '—',
      csv: (w) => w.positionName,
    },
    ...(school
      ? [
          {
            key: 'school',
            header: t('accommodations.workers.school'),
            render: (w: AccommodationWorker) => (w.schoolId === null ? '—' : school(w)),
            csv: (w: AccommodationWorker) => w.schoolName,
          },
        ]
      : []),
    markColumn,
    {
      key: 'actions',
      header: t('accommodations.workers.actions'),
      render: (w) => (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => setAccommodationsOf(w)}
          aria-label={t('accommodations.title', { name: nameOf(w) })}
          data-testid={`worker-accommodations-${w.id}`}
        >
          {t('accommodations.open')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('accommodations.workers.search')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={220}
          maw="100%"
        />
        {schoolFilter}
        <Button
          variant="default"
          disabled={selected.size === 0}
          onClick={() => setBulkIds([...selected])}
          data-testid="workers-accommodations-bulk"
        >
          {t('accommodations.bulkOpen', { count: selected.size })}
        </Button>
      </Group>
      <DataTable
        caption={t('accommodations.workers.caption')}
        queryKey={workerKeys.all}
        fetchPage={fetchWorkers}
        filter={{ ...filter, ...(schoolId ? { schoolId } : {}) }}
        pageSize={50}
        columns={columns}
        rowKey={(w) => w.id}
        exportName="workers"
        testId="workers-table"
      />
      <StudentAccommodationsModal
        student={accommodationsOf}
        calls={workerAccommodationsCalls}
        onClose={() => setAccommodationsOf(null)}
        onSaved={() => {
          notifications.show({ color: 'green', message: t('accommodations.saved') });
          setAccommodationsOf(null);
          void refresh();
        }}
      />
      <BulkAccommodationsModal
        ids={bulkIds}
        who="workers"
        save={bulkWorkerAccommodations}
        onClose={() => setBulkIds(null)}
        onSaved={(count) => {
          notifications.show({ color: 'green', message: t('accommodations.workers.bulkSaved', { count }) });
          setBulkIds(null);
          clearSelected();
          void refresh();
        }}
      />
    </Stack>
  );
}
