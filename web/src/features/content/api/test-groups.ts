/** Test groups (admin/content/testGroups): a list and new groups. */
import { call } from '../../../lib/call';
import { contentKeys, quiet } from './shared';

export const listTestGroups = (signal?: AbortSignal) =>
  call('GET /api/admin/content/testGroups', {}, { ...quiet, signal });

export const testGroupsQuery = () => ({
  queryKey: contentKeys.testGroups,
  queryFn: ({ signal }: { signal?: AbortSignal }) => listTestGroups(signal),
  staleTime: 30_000,
});

export const createTestGroup = (name: string) =>
  call('POST /api/admin/content/testGroups', { body: { name } }, quiet);
