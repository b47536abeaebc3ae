/**
 * School-data calls shared by the coordinator (`/api/coordinator/*`, own school) and the room
 * organizator (`/api/organizator/*`, assigned rooms): same bodies and answers, another prefix.
 * Lists suppress the redirect: the table shows a refusal inline.
 */
import type {
  ListResponse,
  StaffBuilding,
  StaffClass,
  StaffDiagnostic,
  StaffParticipantTest,
  StaffParticipantTestRegisterBody,
  StaffParticipantTestRegisterResult,
  StaffParticipantTestUpdateBody,
  StaffStudent,
  StaffStudentSaveBody,
} from '@attesta/contract';
import { apiClient } from '../../lib/api-client';
import type { PageRequest } from '../data-table/list-request';

export type StaffRole = 'coordinator' | 'organizator';

export const staffKeys = {
  all: (role: StaffRole) => ['staff', role] as const,
  students: (role: StaffRole) => ['staff', role, 'students'] as const,
  classes: (role: StaffRole) => ['staff', role, 'classes'] as const,
  buildings: (role: StaffRole) => ['staff', role, 'buildings'] as const,
  diagnostics: (role: StaffRole) => ['staff', role, 'diagnostics'] as const,
  participantTests: (role: StaffRole) => ['staff', role, 'participantTests'] as const,
};

const list =
  <T>(role: StaffRole, name: string) =>
  (request: PageRequest, signal?: AbortSignal): Promise<ListResponse<T>> =>
    apiClient.post(`/api/${role}/${name}/list`, request, { signal, suppressRedirect: true });

export const listStudents = (role: StaffRole) => list<StaffStudent>(role, 'student');
export const listClasses = (role: StaffRole) => list<StaffClass>(role, 'class');
export const listBuildings = (role: StaffRole) => list<StaffBuilding>(role, 'buildings');
export const listDiagnostics = (role: StaffRole) => list<StaffDiagnostic>(role, 'diagnostic');
export const listParticipantTests = (role: StaffRole) => list<StaffParticipantTest>(role, 'participantTest');

/** Every class in scope, for selects (a school has far fewer than 500). */
export function allClassesQuery(role: StaffRole) {
  return {
    queryKey: [...staffKeys.classes(role), 'all'] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      listClasses(role)({ page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } }, signal),
  };
}

export function allBuildingsQuery(role: StaffRole) {
  return {
    queryKey: [...staffKeys.buildings(role), 'all'] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      listBuildings(role)({ page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } }, signal),
  };
}

/** One diagnostic: the list has no id filter, so the page of the newest 500 is searched. */
export function diagnosticQuery(role: StaffRole, id: number) {
  return {
    queryKey: [...staffKeys.diagnostics(role), 'one', id] as const,
    queryFn: async ({ signal }: { signal?: AbortSignal }) => {
      const page = await listDiagnostics(role)(
        { page: 1, pageSize: 500, sort: { field: 'startsAt', dir: 'desc' } },
        signal,
      );
      return page.items.find((d) => d.id === id) ?? null;
    },
  };
}

export function saveStudent(role: StaffRole, body: StaffStudentSaveBody): Promise<StaffStudent> {
  return apiClient.post(`/api/${role}/student`, body, { suppressRedirect: true });
}

export function deleteStudent(id: number): Promise<unknown> {
  return apiClient.delete(`/api/coordinator/student/${id}`, { suppressRedirect: true });
}

export function registerParticipants(
  role: StaffRole,
  body: StaffParticipantTestRegisterBody,
): Promise<StaffParticipantTestRegisterResult> {
  return apiClient.post(`/api/${role}/participantTest/save`, body, { suppressRedirect: true });
}

export function updateParticipantTest(
  role: StaffRole,
  body: StaffParticipantTestUpdateBody,
): Promise<StaffParticipantTest> {
  return apiClient.post(`/api/${role}/participantTest/save`, body, { suppressRedirect: true });
}

export const participantCodesPath = (role: StaffRole) => `/api/reports/${role}/participantCodes`;
