import type { QUEUE_SORT_FIELDS, QueueItem } from '@attesta/contract';
import { Badge, Progress, Stack, Text } from '@mantine/core';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useDownload } from '../../../components/data-table/use-download';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { instant, queueProgressText, queueResultText } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { callPath } from '../../../lib/call';
import { describeErrorCode } from '../../../lib/form-errors';
import { listQueue } from '../api/queue';
import { schoolKeys } from '../api/shared';
import { useCoordinatorT } from '../locales';

const COLOR = { queued: 'gray', running: 'blue', done: 'green', failed: 'red', cancelled: 'dark' } as const;
export const QUEUE_REFRESH_MS = 3000;

/** Queue items: status and progress, refreshed every few seconds while something runs. */
export function QueuePage() {
  const { t } = useCoordinatorT();
  const { t: st, i18n: sti } = useBundleT(staffBundle);
  const download = useDownload();
  const typeLabel = (type: string) => t(`coordinatorPages.queue.types.${type}`, { defaultValue: type });
  // Why an item failed, by its code in the user's language (never the server's English `error`).
  const failure = (q: QueueItem) => (q.errorCode ? describeErrorCode(q.errorCode, t) : null);
  const columns: Column<QueueItem, (typeof QUEUE_SORT_FIELDS)[number]>[] = [
    { key: 'id', header: '№', sortField: 'id', render: (q) => q.id, csv: (q) => q.id },
    {
      key: 'type',
      header: t('coordinatorPages.queue.type'),
      sortField: 'type',
      render: (q) => typeLabel(q.type),
      csv: (q) => typeLabel(q.type),
    },
    {
      key: 'diagnostic',
      header: t('coordinatorPages.queue.diagnostic'),
      render: (q) => q.diagnosticName ?? q.diagnosticCode ?? '—',
      csv: (q) => q.diagnosticName ?? q.diagnosticCode,
    },
    {
      key: 'status',
      header: t('coordinatorPages.queue.status'),
      sortField: 'status',
      render: (q) => (
        <Badge color={COLOR[q.status]}>{t(`coordinatorPages.queue.statuses.${q.status}`)}</Badge>
      ),
      csv: (q) => t(`coordinatorPages.queue.statuses.${q.status}`),
    },
    {
      key: 'progress',
      header: t('coordinatorPages.queue.progress'),
      sortField: 'progress',
      render: (q) => (
        <Stack gap={2} miw={140}>
          <Progress value={q.progress} animated={q.status === 'running'} aria-label={`${q.progress}%`} />
          <Text size="xs" c="dimmed">
            {q.progress}%{q.progressText ? ` · ${queueProgressText(q.progressText, st, sti.language)}` : ''}
          </Text>
        </Stack>
      ),
      csv: (q) => q.progress,
    },
    {
      key: 'createdAt',
      header: t('coordinatorPages.queue.created'),
      sortField: 'createdAt',
      render: (q) => instant(q.createdAt),
      csv: (q) => instant(q.createdAt),
    },
    {
      key: 'finishedAt',
      header: t('coordinatorPages.queue.finished'),
      sortField: 'finishedAt',
      render: (q) => instant(q.finishedAt),
      csv: (q) => instant(q.finishedAt),
    },
    {
      key: 'result',
      header: t('coordinatorPages.queue.result'),
      render: (q) =>
        q.errorCode ? (
          <Text size="sm" c="red" data-testid={`queue-error-${q.id}`}>
            {failure(q)}
          </Text>
        ) : q.resultFileId ? (
          <LoadingButton
            size="xs"
            variant="light"
            onClick={() =>
              download(callPath('GET /api/files/{id}', { id: q.resultFileId }), undefined, `result-${q.id}`)
            }
          >
            {t('coordinatorPages.queue.download')}
          </LoadingButton>
        ) : q.result ? (
          <Text size="xs" data-testid={`queue-result-${q.id}`}>
            {queueResultText(q.result, st)}
          </Text>
        ) : (
          '—'
        ),
      csv: (q) => failure(q) ?? queueResultText(q.result, st) ?? '',
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle data-testid="coordinator-queue-title">{t('coordinatorPages.queue.title')}</PageTitle>
      <DataTable
        testId="queue"
        queryKey={schoolKeys.queue}
        fetchPage={listQueue}
        columns={columns}
        rowKey={(q) => q.id}
        initialSort={{ field: 'createdAt', dir: 'desc' }}
        exportName="queue"
        refreshInterval={(items) =>
          items.some((q) => q.status === 'queued' || q.status === 'running') ? QUEUE_REFRESH_MS : false
        }
      />
    </Stack>
  );
}
