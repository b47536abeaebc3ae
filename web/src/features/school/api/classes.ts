import type { StaffClass, StaffClassListRequest } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet, schoolKeys, type ListCall, type StaffRole } from './shared';

export const listClasses =
  (role: StaffRole): ListCall<StaffClass, StaffClassListRequest> =>
  (request, signal) =>
    call(`POST /api/${role}/class/list`, { body: request }, { ...quiet, signal });

/** Every class in scope, for selects (a school has far fewer than 500). */
export function allClassesQuery(role: StaffRole) {
  return {
    queryKey: [...schoolKeys.classes(role), 'all'] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      listClasses(role)({ page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } }, signal),
  };
}
