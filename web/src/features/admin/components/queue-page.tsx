import {
  QUEUE_ITEM_STATUSES,
  QUEUE_ITEM_TYPES,
  type QueueItem,
  type QueueItemStatus,
} from '@attesta/contract';
import { Badge, Button, Group, Progress, Select, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import { adminKeys, listQueue } from '../api/admin-api';
import { useAdminT, type AdminKey } from '../i18n';
import { downloadFile } from '../../../components/list-table/download';
import { ListTable, type Column } from '../../../components/list-table/list-table';
import { useListState } from '../../../components/list-table/use-list-state';

type QueueSortField = 'id' | 'createdAt' | 'type' | 'status' | 'progress' | 'finishedAt';
interface QueueFilter {
  type?: string;
  status?: QueueItemStatus;
  diagnosticId?: number;
}

const STATUS_COLOR: Record<QueueItemStatus, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'dark',
};
const REFRESH_MS = 3000;
const when = (iso: string | null) => (iso ? formatDisplayDateTime(new Date(iso)) : '—');

/** `/admin/queue`: background jobs with progress, error and result file; refreshes while any runs. */
export function QueuePage() {
  const t = useAdminT();
  const [params] = useSearchParams();
  const initialDiagnostic = Number(params.get('diagnosticId')) || undefined;
  const list = useListState<QueueSortField, QueueFilter>({
    sort: { field: 'createdAt', dir: 'desc' },
    filter: { diagnosticId: initialDiagnostic },
  });
  const [diagnosticText, setDiagnosticText] = useState(initialDiagnostic ? String(initialDiagnostic) : '');
  const typeLabel = (type: string) =>
    (QUEUE_ITEM_TYPES as readonly string[]).includes(type) ? t(`queue.types.${type}` as AdminKey) : type;

  const query = useQuery({
    queryKey: [...adminKeys.queue, list.request],
    queryFn: () => listQueue(list.request),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.status === 'queued' || i.status === 'running') ? REFRESH_MS : false,
  });

  const columns: Column<QueueItem, QueueSortField>[] = [
    { key: 'id', header: 'ID', cell: (i) => i.id, csv: (i) => i.id, sortField: 'id' },
    {
      key: 'type',
      header: t('queue.type'),
      cell: (i) => typeLabel(i.type),
      csv: (i) => typeLabel(i.type),
      sortField: 'type',
    },
    {
      key: 'status',
      header: t('queue.status'),
      cell: (i) => <Badge color={STATUS_COLOR[i.status]}>{t(`queue.statuses.${i.status}`)}</Badge>,
      csv: (i) => t(`queue.statuses.${i.status}`),
      sortField: 'status',
    },
    {
      key: 'diagnostic',
      header: t('queue.diagnostic'),
      cell: (i) => (i.diagnosticCode ? `${i.diagnosticCode} ${i.diagnosticName ?? ''}` : '—'),
      csv: (i) => i.diagnosticCode,
    },
    {
      key: 'progress',
      header: t('queue.progress'),
      cell: (i) => (
        <Stack gap={2} miw={120}>
          <Progress value={i.progress} aria-label={`${i.progress}%`} animated={i.status === 'running'} />
          <Text size="xs">{i.progressText ?? `${i.progress}%`}</Text>
        </Stack>
      ),
      csv: (i) => i.progress,
      sortField: 'progress',
    },
    {
      key: 'error',
      header: t('queue.error'),
      cell: (i) =>
        i.error ? (
          <Text size="sm" c="red">
            {i.error}
          </Text>
        ) : (
          '—'
        ),
      csv: (i) => i.error,
    },
    {
      key: 'result',
      header: t('queue.result'),
      cell: (i) =>
        i.resultFileId ? (
          <Button
            size="compact-xs"
            variant="light"
            onClick={() =>
              void downloadFile(`/api/files/${i.resultFileId}`, `queue-${i.id}`).catch(() => undefined)
            }
          >
            {t('queue.download')}
          </Button>
        ) : i.result ? (
          <Text size="xs">{JSON.stringify(i.result)}</Text>
        ) : (
          '—'
        ),
      csv: (i) => (i.result ? JSON.stringify(i.result) : null),
    },
    {
      key: 'createdAt',
      header: t('queue.createdAt'),
      cell: (i) => when(i.createdAt),
      csv: (i) => when(i.createdAt),
      sortField: 'createdAt',
    },
    {
      key: 'finishedAt',
      header: t('queue.finishedAt'),
      cell: (i) => when(i.finishedAt),
      csv: (i) => when(i.finishedAt),
      sortField: 'finishedAt',
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle>{t('queue.title')}</PageTitle>
      <Text size="sm" c="dimmed">
        {t('queue.autoRefresh')}
      </Text>
      <Group align="flex-end" gap="sm" role="search">
        <Select
          label={t('queue.type')}
          data={[
            { value: '', label: t('common.any') },
            ...QUEUE_ITEM_TYPES.map((v) => ({ value: v, label: typeLabel(v) })),
          ]}
          value={list.filter.type ?? ''}
          onChange={(v) => list.setFilter({ type: v || undefined })}
          allowDeselect={false}
          w={180}
        />
        <Select
          label={t('queue.status')}
          data={[
            { value: '', label: t('common.any') },
            ...QUEUE_ITEM_STATUSES.map((v) => ({ value: v, label: t(`queue.statuses.${v}`) })),
          ]}
          value={list.filter.status ?? ''}
          onChange={(v) => list.setFilter({ status: (v || undefined) as QueueItemStatus | undefined })}
          allowDeselect={false}
          w={180}
        />
        <TextInput
          label={t('queue.diagnosticId')}
          value={diagnosticText}
          inputMode="numeric"
          onChange={(e) => {
            const value = e.currentTarget.value.trim();
            setDiagnosticText(value);
            list.setFilter({ diagnosticId: /^\d+$/.test(value) ? Number(value) : undefined });
          }}
          w={150}
        />
      </Group>
      <ListTable
        caption={t('queue.caption')}
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total}
        rowKey={(i) => i.id}
        isLoading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        paging={list}
        sort={list.sort}
        onSort={list.toggleSort}
        csvName="queue"
        testId="queue-table"
      />
    </Stack>
  );
}
