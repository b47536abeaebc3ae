/** The supervision authority's calls (/api/ugnik/*). Lists handle their failures inline. */
import type {
  ParticipantTestListRequest,
  UgnikDiagnosticCreateBody,
  UgnikDiagnosticListRequest,
  UgnikParticipantSaveBody,
  UgnikStudentListRequest,
} from '@attesta/contract';
import { call, callPath } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;

export const ugnikKeys = {
  diagnostics: ['ugnik', 'diagnostics'] as const,
  diagnostic: (id: number) => ['ugnik', 'diagnostics', id] as const,
  participants: ['ugnik', 'participants'] as const,
  reference: ['ugnik', 'reference'] as const,
  surnames: (id: number) => ['ugnik', 'surnames', id] as const,
  area: (search: string) => ['ugnik', 'area', search] as const,
  ownArea: ['ugnik', 'own-area'] as const,
  rooms: (schoolId: number) => ['ugnik', 'rooms', schoolId] as const,
  expertCoverage: (id: number) => ['ugnik', 'diagnostics', id, 'expert-coverage'] as const,
};

/** Whether experts can grade the expert-graded tasks of the diagnostic's subject tests (read-only). */
export const getExpertCoverage = (diagnosticId: number) =>
  call('GET /api/expert/coverage', { query: { diagnosticId } }, inline);

/** The ugnik's own area with the number of its schools (`area: null` when bound to none). */
export const getOwnArea = () => call('GET /api/ugnik/area', {}, inline);

/** The school diagnostics of the ugnik's area (docs/ugnik.md); its failure is shown in place. */
export const listAreaDiagnostics = (search: string, signal?: AbortSignal) =>
  call('GET /api/ugnik/area/diagnostics', { query: search ? { search } : {} }, { ...inline, signal });

export const listDiagnostics = (body: UgnikDiagnosticListRequest) =>
  call('POST /api/ugnik/diagnostic/list', { body }, inline);

export const getDiagnostic = (id: number) =>
  call('GET /api/ugnik/diagnostic/{id}', { params: { id } }, inline);

export const createDiagnostic = (body: UgnikDiagnosticCreateBody) =>
  call('POST /api/ugnik/diagnostic/create', { body }, inline);

export const deleteDiagnostic = (id: number) =>
  call('DELETE /api/ugnik/diagnostic/{id}', { params: { id } }, inline);

export const listMainSubjectTests = () =>
  call('POST /api/ugnik/mainSubjectTest/list', { body: { page: 1, pageSize: 500 } }, inline);

export const listSchools = (search: string) =>
  call(
    'POST /api/ugnik/school/list',
    { body: { page: 1, pageSize: 50, ...(search.trim() ? { filter: { search: search.trim() } } : {}) } },
    inline,
  );

export const listClasses = (schoolId: number) =>
  call('POST /api/ugnik/class/list', { body: { page: 1, pageSize: 500, filter: { schoolId } } }, inline);

export const listBuildings = (schoolId: number) =>
  call('POST /api/ugnik/building/list', { body: { page: 1, pageSize: 500, filter: { schoolId } } }, inline);

/** Students of the diagnostic's schools, by name (to register them). */
export const listStudents = (body: UgnikStudentListRequest) =>
  call('POST /api/ugnik/student/list', { body }, inline);

export const listParticipants = (body: ParticipantTestListRequest) =>
  call('POST /api/ugnik/participantTest/list', { body }, inline);

export const saveParticipants = (body: UgnikParticipantSaveBody) =>
  call('POST /api/ugnik/participantTest/save', { body }, inline);

export const deleteParticipant = (id: number) =>
  call('DELETE /api/ugnik/participantTest/{id}', { params: { id } }, inline);

export const getSurnames = (diagnosticId: number) =>
  call('GET /api/ugnik/reports/surnames', { query: { diagnosticId } }, inline);

/** The report files of a diagnostic (downloads): their path and query. */
export const participantCodesFile = (diagnosticId: number, format: 'xlsx' | 'pdf') => ({
  path: callPath('GET /api/ugnik/reports/participantCodes'),
  query: { diagnosticId, format },
});

export const surnamesFile = (diagnosticId: number) => ({
  path: callPath('GET /api/ugnik/reports/surnames'),
  query: { diagnosticId, format: 'xlsx' },
});
