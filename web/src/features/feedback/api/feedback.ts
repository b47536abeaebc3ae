/**
 * Feedback calls: sending a message (POST /api/feedback/{id}, JSON or multipart with one file), one's
 * own messages (GET /api/feedback/mine) and the admins' inbox (/api/admin/feedback).
 */
import { feedbackResultSchema, type FeedbackListRequest, type FeedbackUpdate } from '@attesta/contract';
import { downloadFile } from '../../../components/data-table/download';
import { apiClient } from '../../../lib/api-client';
import { call, callPath } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

/**
 * What a message is about: the last number in the page's path (a task, a diagnostic, a work…), or
 * the sender's own id when the page names nothing in particular.
 */
export function subjectOf(pathname: string, userId: number): number {
  const numbers = pathname.split('/').filter((s) => /^\d{1,9}$/.test(s) && Number(s) > 0);
  return numbers.length ? Number(numbers[numbers.length - 1]) : userId;
}

/** Sends a message with the page it was sent from; with a file it goes as a multipart form. */
export function sendFeedback(input: { subjectId: number; text: string; page: string; file: File | null }) {
  const { subjectId, text, page, file } = input;
  let body: unknown = { text, page };
  if (file) {
    const form = new FormData();
    form.append('text', text);
    form.append('page', page);
    form.append('file', file, file.name);
    body = form;
  }
  // The row declares no body (the server reads JSON or a multipart stream itself).
  return apiClient.request(callPath('POST /api/feedback/{id}', { id: subjectId }), {
    method: 'POST',
    body,
    ...quiet,
    parse: (data) => feedbackResultSchema.parse(data),
  });
}

export const myFeedbackQuery = () => ({
  queryKey: ['feedback', 'mine'] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) => call('GET /api/feedback/mine', {}, { ...quiet, signal }),
});

export const feedbackInboxQuery = (body: FeedbackListRequest) => ({
  queryKey: ['feedback', 'inbox', body] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('POST /api/admin/feedback/list', { body }, { ...quiet, signal }),
});

export const feedbackDetailQuery = (id: number) => ({
  queryKey: ['feedback', 'detail', id] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('GET /api/admin/feedback/{id}', { params: { id } }, { ...quiet, signal }),
});

export const updateFeedback = (id: number, body: FeedbackUpdate) =>
  call('PUT /api/admin/feedback/{id}', { params: { id }, body }, quiet);

/** Downloads the file of a message (with the caller's session, under its stored name). */
export const downloadFeedbackFile = (fileId: number, name: string | null) =>
  downloadFile(callPath('GET /api/files/{id}', { id: fileId }), undefined, name ?? `feedback-file-${fileId}`);
