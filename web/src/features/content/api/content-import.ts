/** Content import (QTI, Moodle XML, GIFT) as a queued job, and its per-item report. */
import { contentImportQueuedSchema } from '@attesta/contract';
import { call } from '../../../lib/call';
import { contentKeys, quiet, upload } from './shared';

/** `subjectId` goes first, then the file (the server reads the fields before the file). */
export async function startImport(file: File, subjectId: number | null) {
  const form = new FormData();
  if (subjectId !== null) form.append('subjectId', String(subjectId));
  form.append('file', file, file.name);
  // The row declares no 200 answer (the call answers 202): the answer is checked here.
  return contentImportQueuedSchema.parse(await upload('POST /api/admin/content/import', undefined, form));
}

export const getImport = (importId: number, signal?: AbortSignal) =>
  call('GET /api/admin/content/import/{importId}', { params: { importId } }, { ...quiet, signal });

/** The full marks of a task the import held (its rules did not say them); answers the report. */
export const giveFullMarks = (importId: number, taskId: number, maxScore: number) =>
  call(
    'POST /api/admin/content/import/{importId}/fullMarks',
    { params: { importId }, body: { taskId, maxScore } },
    quiet,
  );

export const importQuery = (importId: number) => ({
  queryKey: contentKeys.contentImport(importId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getImport(importId, signal),
});
