/** The admin's organisation calls (under /api/admin): ОО, schools, buildings, classes, students, diagnostics. */
import type {
  AdminBuildingSaveBody,
  AdminClassSaveBody,
  AdminDiagnosticListRequest,
  AdminOoListRequest,
  AdminOoSaveBody,
  AdminSchoolListRequest,
  AdminSchoolSaveBody,
  AdminStudentListRequest,
  AdminStudentSaveBody,
} from '@attesta/contract';
import { call } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;

export const orgKeys = {
  oo: ['admin', 'oo'] as const,
  schools: ['admin', 'schools'] as const,
  school: (id: number) => ['admin', 'schools', id] as const,
  buildings: (schoolId: number) => ['admin', 'schools', schoolId, 'buildings'] as const,
  classes: (schoolId: number) => ['admin', 'schools', schoolId, 'classes'] as const,
  students: ['admin', 'students'] as const,
  diagnostics: ['admin', 'diagnostics'] as const,
  diagnostic: (id: number) => ['admin', 'diagnostics', id] as const,
  expertCoverage: (id: number) => ['admin', 'diagnostics', id, 'expert-coverage'] as const,
  areas: ['admin', 'areas'] as const,
};

/** The areas of the region (docs/ugnik.md), for the school and ugnik user forms. */
export const listAreas = () => call('GET /api/admin/areas', {}, inline);

export const listOo = (body: AdminOoListRequest) => call('POST /api/admin/oo/list', { body }, inline);
export const createOo = (body: AdminOoSaveBody) => call('POST /api/admin/oo', { body }, inline);

export const listSchools = (body: AdminSchoolListRequest) =>
  call('POST /api/admin/schools/list', { body }, inline);
export const getSchool = (id: number) => call('GET /api/admin/schools/{id}', { params: { id } }, inline);
/** Create (no id) or update a school. */
export const saveSchool = (body: AdminSchoolSaveBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/schools', { body }, inline)
    : call('PUT /api/admin/schools/{id}', { params: { id }, body }, inline);

export const listBuildings = (schoolId: number) =>
  call('GET /api/admin/schools/{id}/buildings', { params: { id: schoolId } }, inline);
/** Add a building to the school, or update building `id`. */
export const saveBuilding = (body: AdminBuildingSaveBody, target: { schoolId: number } | { id: number }) =>
  'id' in target
    ? call('PUT /api/admin/buildings/{id}', { params: { id: target.id }, body }, inline)
    : call('POST /api/admin/schools/{id}/buildings', { params: { id: target.schoolId }, body }, inline);

export const listClasses = (schoolId: number) =>
  call('GET /api/admin/schools/{id}/classes', { params: { id: schoolId } }, inline);
/** Add a class to the school, or update class `id`. */
export const saveClass = (body: AdminClassSaveBody, target: { schoolId: number } | { id: number }) =>
  'id' in target
    ? call('PUT /api/admin/classes/{id}', { params: { id: target.id }, body }, inline)
    : call('POST /api/admin/schools/{id}/classes', { params: { id: target.schoolId }, body }, inline);
export const deleteClass = (id: number) => call('DELETE /api/admin/classes/{id}', { params: { id } }, inline);

export const listStudents = (body: AdminStudentListRequest) =>
  call('POST /api/admin/students/list', { body }, inline);
/** Create (no id) or update a student. */
export const saveStudent = (body: AdminStudentSaveBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/students', { body }, inline)
    : call('PUT /api/admin/students/{id}', { params: { id }, body }, inline);
export const deleteStudent = (id: number) =>
  call('DELETE /api/admin/students/{id}', { params: { id } }, inline);

export const listAdminDiagnostics = (body: AdminDiagnosticListRequest) =>
  call('POST /api/admin/diagnostics/list', { body }, inline);
/** Whether experts can grade the expert-graded tasks of a diagnostic's subject tests. */
export const getExpertCoverage = (diagnosticId: number) =>
  call('GET /api/expert/coverage', { query: { diagnosticId } }, inline);

export const getAdminDiagnostic = (id: number) =>
  call('GET /api/admin/diagnostics/{id}', { params: { id } }, inline);
