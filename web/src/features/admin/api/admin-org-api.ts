/** The admin's organisation calls (`/api/admin/*`): ОО, schools, buildings, classes, students, diagnostics. */
import {
  adminBuildingSchema,
  adminClassSchema,
  adminDiagnosticDetailSchema,
  adminDiagnosticListResponseSchema,
  adminOoListResponseSchema,
  adminOoSchema,
  adminSchoolListResponseSchema,
  adminSchoolSchema,
  adminStudentListResponseSchema,
  adminStudentSchema,
  okSchema,
  type AdminBuildingSaveBody,
  type AdminClassSaveBody,
  type AdminDiagnosticListRequest,
  type AdminOoListRequest,
  type AdminOoSaveBody,
  type AdminSchoolListRequest,
  type AdminSchoolSaveBody,
  type AdminStudentListRequest,
  type AdminStudentSaveBody,
} from '@attesta/contract';
import { apiClient } from '../../../lib/api-client';
import { inlineCall } from '../../../lib/inline-call';

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
};

/** A read whose failure the page shows inline. */
const read = <T>(path: string, parse: (d: unknown) => T, body?: unknown) =>
  inlineCall(() =>
    body === undefined
      ? apiClient.get(path, { ...inline, parse })
      : apiClient.post(path, body, { ...inline, parse }),
  );

export const listOo = (body: AdminOoListRequest) =>
  read('/api/admin/oo/list', (d) => adminOoListResponseSchema.parse(d), body);
export const createOo = (body: AdminOoSaveBody) =>
  apiClient.post('/api/admin/oo', body, { ...inline, parse: (d) => adminOoSchema.parse(d) });

export const listSchools = (body: AdminSchoolListRequest) =>
  read('/api/admin/schools/list', (d) => adminSchoolListResponseSchema.parse(d), body);
export const getSchool = (id: number) => read(`/api/admin/schools/${id}`, (d) => adminSchoolSchema.parse(d));
/** Create (no id) or update a school. */
export const saveSchool = (body: AdminSchoolSaveBody, id?: number) =>
  id === undefined
    ? apiClient.post('/api/admin/schools', body, { ...inline, parse: (d) => adminSchoolSchema.parse(d) })
    : apiClient.put(`/api/admin/schools/${id}`, body, {
        ...inline,
        parse: (d) => adminSchoolSchema.parse(d),
      });

export const listBuildings = (schoolId: number) =>
  read(`/api/admin/schools/${schoolId}/buildings`, (d) => adminBuildingSchema.array().parse(d));
/** Add a building to the school, or update building `id`. */
export const saveBuilding = (body: AdminBuildingSaveBody, target: { schoolId: number } | { id: number }) =>
  'id' in target
    ? apiClient.put(`/api/admin/buildings/${target.id}`, body, {
        ...inline,
        parse: (d) => adminBuildingSchema.parse(d),
      })
    : apiClient.post(`/api/admin/schools/${target.schoolId}/buildings`, body, {
        ...inline,
        parse: (d) => adminBuildingSchema.parse(d),
      });

export const listClasses = (schoolId: number) =>
  read(`/api/admin/schools/${schoolId}/classes`, (d) => adminClassSchema.array().parse(d));
/** Add a class to the school, or update class `id`. */
export const saveClass = (body: AdminClassSaveBody, target: { schoolId: number } | { id: number }) =>
  'id' in target
    ? apiClient.put(`/api/admin/classes/${target.id}`, body, {
        ...inline,
        parse: (d) => adminClassSchema.parse(d),
      })
    : apiClient.post(`/api/admin/schools/${target.schoolId}/classes`, body, {
        ...inline,
        parse: (d) => adminClassSchema.parse(d),
      });
export const deleteClass = (id: number) =>
  apiClient.delete(`/api/admin/classes/${id}`, { ...inline, parse: (d) => okSchema.parse(d) });

export const listStudents = (body: AdminStudentListRequest) =>
  read('/api/admin/students/list', (d) => adminStudentListResponseSchema.parse(d), body);
/** Create (no id) or update a student. */
export const saveStudent = (body: AdminStudentSaveBody, id?: number) =>
  id === undefined
    ? apiClient.post('/api/admin/students', body, { ...inline, parse: (d) => adminStudentSchema.parse(d) })
    : apiClient.put(`/api/admin/students/${id}`, body, {
        ...inline,
        parse: (d) => adminStudentSchema.parse(d),
      });
export const deleteStudent = (id: number) =>
  apiClient.delete(`/api/admin/students/${id}`, { ...inline, parse: (d) => okSchema.parse(d) });

export const listAdminDiagnostics = (body: AdminDiagnosticListRequest) =>
  read('/api/admin/diagnostics/list', (d) => adminDiagnosticListResponseSchema.parse(d), body);
export const getAdminDiagnostic = (id: number) =>
  read(`/api/admin/diagnostics/${id}`, (d) => adminDiagnosticDetailSchema.parse(d));
