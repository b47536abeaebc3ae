/**
 * A download too big to build during the request answers 202 `{queueItemId}`: a queue item builds
 * the file (docs/reports.md, "Large reports"). Its progress is read here, and once done its file
 * is fetched from the files call.
 */
import { reportQueuedSchema, type QueueItem } from '@attesta/contract';
import { call, callPath } from '../../../lib/call';

/** The queue item of a 202 answer, or null when the answer is the file itself. */
export async function queuedItemOf(response: Response): Promise<number | null> {
  if (response.status !== 202) return null;
  return reportQueuedSchema.parse(await response.json()).queueItemId;
}

export const reportQueueItem = (queueItemId: number, signal?: AbortSignal): Promise<QueueItem> =>
  call(
    'GET /api/reports/queue/{queueItemId}',
    { params: { queueItemId } },
    { suppressRedirect: true, signal },
  );

/** Where a built file downloads from. */
export const resultFilePath = (id: number) => callPath('GET /api/files/{id}', { id });
