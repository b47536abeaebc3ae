import type { CreateDiagnosticBody, StaffDiagnostic, StaffDiagnosticListRequest } from '@attesta/contract';
import { call, callPath } from '../../../lib/call';
import { quiet, schoolKeys, type ListCall, type StaffRole } from './shared';

export const listDiagnostics =
  (role: StaffRole): ListCall<StaffDiagnostic, StaffDiagnosticListRequest> =>
  (request, signal) =>
    call(`POST /api/${role}/diagnostic/list`, { body: request }, { ...quiet, signal });

/** One diagnostic: the list has no id filter, so the page of the newest 500 is searched. */
export function diagnosticQuery(role: StaffRole, id: number) {
  return {
    queryKey: [...schoolKeys.diagnostics(role), 'one', id] as const,
    queryFn: async ({ signal }: { signal?: AbortSignal }) => {
      const page = await listDiagnostics(role)(
        { page: 1, pageSize: 500, sort: { field: 'startsAt', dir: 'desc' } },
        signal,
      );
      return page.items.find((d) => d.id === id) ?? null;
    },
  };
}

/** Subject tests a coordinator may put in a diagnostic or a staff test. */
export const subjectTests = (signal?: AbortSignal) =>
  call('GET /api/createDiagnostic/subjectTests', {}, { ...quiet, signal });

export const createDiagnostic = (body: CreateDiagnosticBody) =>
  call('POST /api/createDiagnostic/create', { body }, quiet);

/** The xlsx of a diagnostic's participants (query `diagnosticId`). */
export const diagnosticExcelPath = () => callPath('GET /api/createDiagnostic/excel');

/** Whether experts can grade the expert-graded tasks of the diagnostic's subject tests (read-only). */
export const expertCoverage = (diagnosticId: number, signal?: AbortSignal) =>
  call('GET /api/expert/coverage', { query: { diagnosticId } }, { ...quiet, signal });
