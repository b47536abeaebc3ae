/** The experts of a subject test (docs/design.md §3): who can grade it, assigning and taking off. */
import type { UserListItem } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet } from './shared';

export const expertKeys = {
  ofTest: (subjectTestId: number) => ['content', 'subjectTests', subjectTestId, 'experts'] as const,
  search: (text: string) => ['content', 'experts', 'search', text] as const,
};

export const getTestExperts = (subjectTestId: number, signal?: AbortSignal) =>
  call('GET /api/admin/subjectTests/{id}/experts', { params: { id: subjectTestId } }, { ...quiet, signal });

export const addTestExperts = (subjectTestId: number, expertIds: number[]) =>
  call(
    'POST /api/admin/subjectTests/{id}/experts',
    { params: { id: subjectTestId }, body: { expertIds } },
    quiet,
  );

export const removeTestExpert = (subjectTestId: number, expertId: number) =>
  call(
    'DELETE /api/admin/subjectTests/{id}/experts/{expertId}',
    { params: { id: subjectTestId, expertId } },
    quiet,
  );

/** Users with the expert role, searched on the server by login, e-mail or name. */
export const searchExperts = async (text: string, signal?: AbortSignal): Promise<UserListItem[]> =>
  (
    await call(
      'POST /api/user/list',
      {
        body: {
          page: 1,
          pageSize: 30,
          sort: { field: 'surname', dir: 'asc' },
          filter: { role: 'expert', blocked: false, ...(text ? { search: text } : {}) },
        },
      },
      { ...quiet, signal },
    )
  ).items;
