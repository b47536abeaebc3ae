import {
  QUEUE_ITEM_STATUSES,
  QUEUE_ITEM_TYPES,
  type QueueItem,
  type QueueItemStatus,
} from '@attesta/contract';
import { Badge, Button, Group, Progress, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { callPath } from '../../../lib/call';
import { formatDisplayDateTime } from '../../../lib/format';
import { describeErrorCode } from '../../../lib/form-errors';
import { adminKeys, listQueue } from '../api/admin-api';
import { useAdminT, type AdminKey } from '../i18n';
import { downloadFile } from '../../../components/data-table/download';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { queueProgressText, queueResultText } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { DiagnosticSelect } from './org-selects';

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
  const { t: tr } = useTranslation();
  // Why an item failed, by its code in the user's language (never the server's English `error`).
  const failure = (i: QueueItem) => (i.errorCode ? describeErrorCode(i.errorCode, tr) : null);
  const [params] = useSearchParams();
  const initialDiagnostic = Number(params.get('diagnosticId')) || undefined;
  const [filter, setFilter] = useFilter<QueueFilter>({ diagnosticId: initialDiagnostic });
  const { t: st, i18n: sti } = useBundleT(staffBundle);
  const resultText = (i: QueueItem) => queueResultText(i.result, st);
  const typeLabel = (type: string) =>
    (QUEUE_ITEM_TYPES as readonly string[]).includes(type) ? t(`queue.types.${type}` as AdminKey) : type;

  const columns: Column<QueueItem, QueueSortField>[] = [
    { key: 'id', header: t('queue.number'), render: (i) => i.id, csv: (i) => i.id, sortField: 'id' },
    {
      key: 'type',
      header: t('queue.type'),
      render: (i) => typeLabel(i.type),
      csv: (i) => typeLabel(i.type),
      sortField: 'type',
    },
    {
      key: 'status',
      header: t('queue.status'),
      render: (i) => <Badge color={STATUS_COLOR[i.status]}>{t(`queue.statuses.${i.status}`)}</Badge>,
      csv: (i) => t(`queue.statuses.${i.status}`),
      sortField: 'status',
    },
    {
      key: 'diagnostic',
      header: t('queue.diagnostic'),
      render: (i) => (i.diagnosticCode ? `${i.diagnosticCode} ${i.diagnosticName ?? ''}` : '—'),
      csv: (i) => i.diagnosticCode,
    },
    {
      key: 'progress',
      header: t('queue.progress'),
      render: (i) => (
        <Stack gap={2} miw={120}>
          <Progress value={i.progress} aria-label={`${i.progress}%`} animated={i.status === 'running'} />
          <Text size="xs">{queueProgressText(i.progressText, st, sti.language) ?? `${i.progress}%`}</Text>
        </Stack>
      ),
      csv: (i) => i.progress,
      sortField: 'progress',
    },
    {
      key: 'error',
      header: t('queue.error'),
      render: (i) =>
        i.errorCode ? (
          <Text size="sm" c="red" data-testid={`queue-error-${i.id}`}>
            {failure(i)}
          </Text>
        ) : (
          '—'
        ),
      csv: (i) => failure(i),
    },
    {
      key: 'result',
      header: t('queue.result'),
      render: (i) =>
        i.resultFileId ? (
          <Button
            size="compact-xs"
            variant="light"
            onClick={() =>
              void downloadFile(
                callPath('GET /api/files/{id}', { id: i.resultFileId }),
                undefined,
                `queue-${i.id}`,
              ).catch(() => undefined)
            }
          >
            {t('queue.download')}
          </Button>
        ) : i.result ? (
          <Text size="xs" data-testid={`queue-result-${i.id}`}>
            {resultText(i)}
          </Text>
        ) : (
          '—'
        ),
      csv: (i) => resultText(i),
    },
    {
      key: 'createdAt',
      header: t('queue.createdAt'),
      render: (i) => when(i.createdAt),
      csv: (i) => when(i.createdAt),
      sortField: 'createdAt',
    },
    {
      key: 'finishedAt',
      header: t('queue.finishedAt'),
      render: (i) => when(i.finishedAt),
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
          value={filter.type ?? ''}
          onChange={(v) => setFilter({ type: v || undefined })}
          allowDeselect={false}
          w={180}
        />
        <Select
          label={t('queue.status')}
          data={[
            { value: '', label: t('common.any') },
            ...QUEUE_ITEM_STATUSES.map((v) => ({ value: v, label: t(`queue.statuses.${v}`) })),
          ]}
          value={filter.status ?? ''}
          onChange={(v) => setFilter({ status: (v || undefined) as QueueItemStatus | undefined })}
          allowDeselect={false}
          w={180}
        />
        <DiagnosticSelect
          label={t('queue.diagnostic')}
          placeholder={t('common.any')}
          value={filter.diagnosticId ?? null}
          onChange={(id) => setFilter({ diagnosticId: id ?? undefined })}
          w={320}
        />
      </Group>
      <DataTable
        caption={t('queue.caption')}
        queryKey={adminKeys.queue}
        fetchPage={listQueue}
        filter={filter}
        initialSort={{ field: 'createdAt', dir: 'desc' }}
        pageSize={20}
        refreshInterval={(items) =>
          items.some((i) => i.status === 'queued' || i.status === 'running') ? REFRESH_MS : false
        }
        columns={columns}
        rowKey={(i) => i.id}
        exportName="queue"
        testId="queue-table"
      />
    </Stack>
  );
}
