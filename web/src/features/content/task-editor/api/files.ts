/**
 * Task files: uploaded to the task as their owner (the upload call with `ownerType=task`,
 * multipart) and served by the files call, which is the address the task html uses for them.
 */
import type { FileInfo } from '@attesta/contract';
import { call, callPath, type CallInput } from '../../../../lib/call';

const UPLOAD = 'POST /api/files/upload/{id}' as const;

export function uploadTaskFiles(taskId: number, files: File[]): Promise<FileInfo[]> {
  const form = new FormData();
  form.append('ownerType', 'task');
  for (const file of files) form.append('file', file, file.name);
  // The row declares no JSON body (the server reads the multipart stream); the client sends a
  // FormData body as multipart and checks the answer with the row's schema.
  const input = { params: { id: taskId }, query: { ownerType: 'task' }, body: form };
  return call(UPLOAD, input as unknown as CallInput<typeof UPLOAD>, { suppressRedirect: true });
}

/** Where the task html and the runner read a file. */
export const taskFileUrl = (fileId: number) => callPath('GET /api/files/{id}', { id: fileId });
