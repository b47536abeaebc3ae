/**
 * A report file: a link to the call with the current filters (it opens or saves as any link
 * does), which the page downloads itself on a click so that it can say how far the file got — the
 * server builds a file before the first byte, and a big one in a queue item (202) whose progress
 * is followed until its file can be fetched — and show a failure by its code.
 */
import { Alert, Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { fileNameFromDisposition, rawRequest, saveBlob } from '../../../components/data-table/download';
import { ApiError, isSessionGone } from '../../../lib/api-client';
import { describeApiError, describeErrorCode } from '../../../lib/form-errors';
import { formatNumber } from '../../../lib/format';
import { queuedItemOf, reportQueueItem, resultFilePath } from '../api/report-queue';
import type { ReportFile } from '../api/reports';
import { useReportsT } from '../locales';

export function fileHref(file: ReportFile): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(file.query)) params.append(key, String(value));
  const qs = params.toString();
  return qs ? `${file.path}?${qs}` : file.path;
}

type Progress =
  | { phase: 'preparing' }
  | { phase: 'queued'; percent: number }
  | { phase: 'receiving'; received: number; total: number | null };

/** How often a queued file's progress is read. */
export const QUEUE_POLL_MS = 1000;

/** A queue item that ended without its file; the text comes from its code. */
class QueueFailure extends Error {
  constructor(readonly code: string | null) {
    super(code ?? 'queue item failed');
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readWithProgress(response: Response, onProgress: (received: number) => void): Promise<Blob> {
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const reader = response.body?.getReader();
  if (!reader) return response.blob();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received);
  }
  return new Blob(chunks as BlobPart[], { type });
}

export function DownloadLink({
  file,
  format,
  testId,
  disabled,
}: {
  file: ReportFile;
  format: 'xlsx' | 'pdf' | 'csv';
  testId: string;
  disabled?: boolean;
}) {
  const { t, lang } = useReportsT();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A queued file may take minutes: leaving the page stops following it.
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const href = fileHref(file);

  /** Follows a queue item until its file can be fetched; the file's answer. */
  const fromQueue = async (queueItemId: number): Promise<Response | null> => {
    for (;;) {
      if (!alive.current) return null;
      const item = await reportQueueItem(queueItemId);
      if (item.status === 'done' && item.resultFileId) return rawRequest(resultFilePath(item.resultFileId));
      if (item.status === 'done' || item.status === 'failed' || item.status === 'cancelled')
        throw new QueueFailure(item.errorCode);
      if (alive.current) setProgress({ phase: 'queued', percent: item.progress });
      await wait(QUEUE_POLL_MS);
    }
  };

  const size = (bytes: number) =>
    bytes >= 1024 * 1024
      ? t('reports.download.mb', { n: formatNumber(bytes / (1024 * 1024), lang, 1) })
      : t('reports.download.kb', { n: formatNumber(Math.max(1, Math.round(bytes / 1024)), lang, 0) });

  const run = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (progress || disabled) return;
    setError(null);
    setProgress({ phase: 'preparing' });
    try {
      const first = await rawRequest(file.path, { query: file.query });
      const queueItemId = await queuedItemOf(first);
      if (queueItemId !== null) setProgress({ phase: 'queued', percent: 0 });
      const response = queueItemId === null ? first : await fromQueue(queueItemId);
      if (!response) return;
      const length = Number(response.headers.get('content-length'));
      const total = Number.isFinite(length) && length > 0 ? length : null;
      setProgress({ phase: 'receiving', received: 0, total });
      const blob = await readWithProgress(response, (received) =>
        setProgress({ phase: 'receiving', received, total }),
      );
      const name = fileNameFromDisposition(response.headers.get('content-disposition')) ?? file.fallbackName;
      saveBlob(blob, name);
      notifications.show({ color: 'teal', message: t('reports.download.done', { name }) });
    } catch (failure) {
      if (isSessionGone(failure)) return;
      if (!alive.current) return;
      setError(
        t('reports.download.failed', {
          message:
            failure instanceof QueueFailure
              ? failure.code
                ? describeErrorCode(failure.code, t)
                : t('reports.download.queueFailed')
              : failure instanceof ApiError && failure.status === 403
                ? t('reports.download.forbidden')
                : describeApiError(failure, t),
        }),
      );
    } finally {
      if (alive.current) setProgress(null);
    }
  };

  return (
    <Stack gap={4}>
      <Button
        component="a"
        href={href}
        download
        variant="light"
        size="sm"
        onClick={run}
        loading={progress !== null}
        disabled={disabled}
        aria-busy={progress !== null || undefined}
        data-testid={testId}
      >
        {t(`reports.download.${format}`)}
      </Button>
      {progress && (
        <Group gap="xs" wrap="nowrap" aria-live="polite" data-testid={`${testId}-progress`}>
          {progress.phase === 'queued' ? (
            <Progress
              value={progress.percent}
              w={80}
              aria-label={t('reports.download.queued', { percent: progress.percent })}
            />
          ) : progress.phase === 'preparing' || !progress.total ? (
            <Loader size="xs" />
          ) : (
            <Progress
              value={Math.min(100, (progress.received / progress.total) * 100)}
              w={80}
              aria-label={t('reports.download.receivedOf', {
                size: size(progress.received),
                total: size(progress.total),
              })}
            />
          )}
          <Text size="xs" c="dimmed">
            {progress.phase === 'preparing'
              ? t('reports.download.preparing')
              : progress.phase === 'queued'
                ? t('reports.download.queued', { percent: progress.percent })
                : progress.total
                  ? t('reports.download.receivedOf', {
                      size: size(progress.received),
                      total: size(progress.total),
                    })
                  : t('reports.download.received', { size: size(progress.received) })}
          </Text>
        </Group>
      )}
      {error && (
        <Alert color="red" p="xs" role="alert" data-testid={`${testId}-error`}>
          {error}
        </Alert>
      )}
    </Stack>
  );
}

/** The downloads of a tab, side by side. */
export function Downloads({ children }: { children: ReactNode }) {
  return (
    <Group gap="sm" align="flex-start" data-testid="report-downloads">
      {children}
    </Group>
  );
}
