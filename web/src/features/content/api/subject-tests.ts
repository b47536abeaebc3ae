/** Subject tests (admin/content/subjectTests): list, read, write, validation, publication, export. */
import type { AuthoringSubjectTest } from '@attesta/contract';
import { call, callPath, type CallInput } from '../../../lib/call';
import { contentKeys, quiet, type ListCall } from './shared';

type ListRequest = CallInput<'POST /api/admin/content/subjectTests/list'>['body'];
export type SubjectTestBody = CallInput<'POST /api/admin/content/subjectTests'>['body'];

export const listSubjectTests: ListCall<AuthoringSubjectTest, ListRequest> = (body, signal) =>
  call('POST /api/admin/content/subjectTests/list', { body }, { ...quiet, signal });

export const getSubjectTest = (id: number, signal?: AbortSignal) =>
  call('GET /api/admin/content/subjectTests/{id}', { params: { id } }, { ...quiet, signal });

export const subjectTestQuery = (id: number) => ({
  queryKey: contentKeys.subjectTest(id),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getSubjectTest(id, signal),
});

/** Create a draft (no id) or change a subject test. */
export const saveSubjectTest = (body: SubjectTestBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/content/subjectTests', { body }, quiet)
    : call('PUT /api/admin/content/subjectTests/{id}', { params: { id }, body }, quiet);

export const getValidation = (id: number, signal?: AbortSignal) =>
  call('GET /api/admin/content/subjectTests/{id}/validation', { params: { id } }, { ...quiet, signal });

export const publishSubjectTest = (id: number) =>
  call('POST /api/admin/content/subjectTests/{id}/publish', { params: { id } }, quiet);

/** Where the subject test's IMS QTI 3.0 package (a zip) is downloaded from. */
export const qti3Export = (id: number) => ({
  path: callPath('GET /api/admin/content/subjectTests/{id}/export', { id }),
  query: { format: 'qti3' },
  fileName: `subject-test-${id}-qti3.zip`,
});
