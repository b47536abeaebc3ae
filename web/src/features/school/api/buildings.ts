import type { StaffBuilding, StaffBuildingListRequest } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet, schoolKeys, type ListCall, type StaffRole } from './shared';

export const listBuildings =
  (role: StaffRole): ListCall<StaffBuilding, StaffBuildingListRequest> =>
  (request, signal) =>
    call(`POST /api/${role}/buildings/list`, { body: request }, { ...quiet, signal });

/** Every building in scope, for selects. */
export function allBuildingsQuery(role: StaffRole) {
  return {
    queryKey: [...schoolKeys.buildings(role), 'all'] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      listBuildings(role)({ page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } }, signal),
  };
}
