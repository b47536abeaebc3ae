/**
 * What the school staff's calls share: the role whose prefix a school-data call takes (the
 * coordinator's: own school; the organizator's: assigned rooms; the same bodies and answers), the
 * query keys, and the options of calls whose failure the page shows itself.
 */
import type { FetchPage } from '../../../components/data-table/list-request';

export type StaffRole = 'coordinator' | 'organizator';

/** Failures are shown on the page (lists inline, forms by field), never by a redirect. */
export const quiet = { suppressRedirect: true } as const;

export const schoolKeys = {
  all: (role: StaffRole) => ['staff', role] as const,
  students: (role: StaffRole) => ['staff', role, 'students'] as const,
  classes: (role: StaffRole) => ['staff', role, 'classes'] as const,
  buildings: (role: StaffRole) => ['staff', role, 'buildings'] as const,
  diagnostics: (role: StaffRole) => ['staff', role, 'diagnostics'] as const,
  participantTests: (role: StaffRole) => ['staff', role, 'participantTests'] as const,
  organizators: ['coordinator', 'organizators'] as const,
  queue: ['coordinator', 'queue'] as const,
  workerTests: ['coordinator', 'workerTests'] as const,
  subjectTests: ['coordinator', 'subjectTests'] as const,
  positions: ['coordinator', 'positions'] as const,
};

/** A list call as the data table pages it: its items, sort fields and filter, from the call's request type. */
export type ListCall<T, Request extends { sort?: unknown; filter?: unknown }> = FetchPage<
  T,
  Extract<NonNullable<Request['sort']>, { field: string }>['field'],
  NonNullable<Request['filter']>
>;
