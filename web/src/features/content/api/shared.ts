/**
 * What the content calls share: the query keys, the options of calls whose failure the page shows
 * itself, the list-call type the data table pages, and multipart uploads through the typed client.
 */
import type { CallKey } from '@attesta/contract';
import type { FetchPage } from '../../../components/data-table/list-request';
import { call, type CallInput, type CallResult } from '../../../lib/call';

/** Failures are shown on the page (lists inline, forms by field), never by a redirect. */
export const quiet = { suppressRedirect: true } as const;

export const contentKeys = {
  all: ['content'] as const,
  subjects: ['content', 'subjects'] as const,
  exams: (subjectId: number) => ['content', 'subjects', subjectId, 'exams'] as const,
  testGroups: ['content', 'testGroups'] as const,
  subjectTests: ['content', 'subjectTests'] as const,
  subjectTest: (id: number) => ['content', 'subjectTests', id] as const,
  validation: (id: number) => ['content', 'subjectTests', id, 'validation'] as const,
  variants: (subjectTestId: number) => ['content', 'subjectTests', subjectTestId, 'variants'] as const,
  tasks: ['content', 'tasks'] as const,
  task: (id: number) => ['content', 'tasks', id] as const,
  taskVersions: (id: number) => ['content', 'tasks', id, 'versions'] as const,
  specifications: ['content', 'specifications'] as const,
  specification: (id: number) => ['content', 'specifications', id] as const,
  contentImport: (id: number) => ['content', 'import', id] as const,
};

/** A list call as the data table pages it: its items, sort fields and filter, from the call's request type. */
export type ListCall<T, Request extends { sort?: unknown; filter?: unknown }> = FetchPage<
  T,
  Extract<NonNullable<Request['sort']>, { field: string }>['field'],
  NonNullable<Request['filter']>
>;

/**
 * A multipart upload (a file and its form fields) through the typed client: the rows of upload
 * calls declare no JSON body, the client sends a FormData body as multipart.
 */
export function upload<K extends CallKey>(
  key: K,
  params: CallInput<K>['params'],
  form: FormData,
): Promise<CallResult<K>> {
  return call(key, { params, body: form } as unknown as CallInput<K>, quiet);
}
