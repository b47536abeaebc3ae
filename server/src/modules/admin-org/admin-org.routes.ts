import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminBuildingSaveBodySchema,
  adminBuildingSchema,
  adminClassSaveBodySchema,
  adminClassSchema,
  adminDiagnosticDetailSchema,
  adminDiagnosticListRequestSchema,
  adminDiagnosticListResponseSchema,
  adminOoListRequestSchema,
  adminOoListResponseSchema,
  adminOoSaveBodySchema,
  adminOoSchema,
  adminSchoolListRequestSchema,
  adminSchoolListResponseSchema,
  adminSchoolSaveBodySchema,
  adminSchoolSchema,
  adminStudentListRequestSchema,
  adminStudentListResponseSchema,
  adminStudentSaveBodySchema,
  adminStudentSchema,
  idParamSchema,
  okSchema,
} from '@attesta/contract';
import { authOf, type AccessRule } from '../../auth/access.js';
import { errorResponses as errors } from '../../lib/route-docs.js';
import * as service from './admin-org.service.js';

/**
 * `/api/admin/*`: the platform operator's pages for the organisation (oo, schools, buildings,
 * classes, students) and the list of every diagnostic. Not calls of the specification, which gives
 * admins no such list; admin only, like every call here. Writes are audited.
 */
const access: AccessRule = { roles: ['admin'] };
const config = { access };
const tags = ['admin-org'];
const idParams = z.strictObject({ id: idParamSchema });
const actor = (req: FastifyRequest): service.Actor => ({ userId: authOf(req).userId, ip: req.ip ?? null });
const WRITE_NOTE = 'Audited. Bad input (400) changes nothing.';

export const adminOrgRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  // ---------------------------------------------------------------- oo

  app.route({
    method: 'POST',
    url: '/api/admin/oo/list',
    config,
    schema: {
      summary: 'Page of educational organisations (ОО), with their school counts',
      description:
        'Filter: `search` (name, short name, INN). Sort fields: `name` (default), `schoolCount`, `id`.',
      tags,
      body: adminOoListRequestSchema,
      response: { 200: adminOoListResponseSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => service.listOo(db, req.body),
  });

  app.route({
    method: 'POST',
    url: '/api/admin/oo',
    config,
    schema: {
      summary: 'Create an educational organisation (ОО)',
      description: WRITE_NOTE,
      tags,
      body: adminOoSaveBodySchema,
      response: { 200: adminOoSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => service.createOo(db, actor(req), req.body),
  });

  // ---------------------------------------------------------------- schools

  app.route({
    method: 'POST',
    url: '/api/admin/schools/list',
    config,
    schema: {
      summary: 'Page of every school, with its ОО and building, class and student counts',
      description:
        'Filter: `search` (name, short name, code), `ooId`. Sort fields: `name` (default), `code`, ' +
        '`ooName`, `classCount`, `studentCount`, `createdAt`, `id`.',
      tags,
      body: adminSchoolListRequestSchema,
      response: { 200: adminSchoolListResponseSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => service.listSchools(db, req.body),
  });

  app.route({
    method: 'GET',
    url: '/api/admin/schools/:id',
    config,
    schema: {
      summary: 'One school with its counts',
      tags,
      params: idParams,
      response: { 200: adminSchoolSchema, ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.getSchool(db, req.params.id),
  });

  app.route({
    method: 'POST',
    url: '/api/admin/schools',
    config,
    schema: {
      summary: 'Create a school of an ОО',
      description: `400 \`validation_failed\` for an unknown \`ooId\`; 409 \`school_code_taken\`. ${WRITE_NOTE}`,
      tags,
      body: adminSchoolSaveBodySchema,
      response: { 200: adminSchoolSchema, ...errors(400, 401, 403, 409) },
    },
    handler: (req) => service.saveSchool(db, actor(req), req.body),
  });

  app.route({
    method: 'PUT',
    url: '/api/admin/schools/:id',
    config,
    schema: {
      summary: 'Update a school (name, short name, code, ОО)',
      description:
        'An omitted optional field keeps its value; null clears it. 404 unknown school; 400 ' +
        `\`validation_failed\` for an unknown \`ooId\`; 409 \`school_code_taken\`. ${WRITE_NOTE}`,
      tags,
      params: idParams,
      body: adminSchoolSaveBodySchema,
      response: { 200: adminSchoolSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: (req) => service.saveSchool(db, actor(req), req.body, req.params.id),
  });

  // ---------------------------------------------------------------- buildings

  app.route({
    method: 'GET',
    url: '/api/admin/schools/:id/buildings',
    config,
    schema: {
      summary: "A school's buildings, with class and student counts",
      tags,
      params: idParams,
      response: { 200: z.array(adminBuildingSchema), ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.listBuildings(db, req.params.id),
  });

  app.route({
    method: 'POST',
    url: '/api/admin/schools/:id/buildings',
    config,
    schema: {
      summary: 'Add a building to a school',
      description: `404 unknown school. ${WRITE_NOTE}`,
      tags,
      params: idParams,
      body: adminBuildingSaveBodySchema,
      response: { 200: adminBuildingSchema, ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.saveBuilding(db, actor(req), { schoolId: req.params.id }, req.body),
  });

  app.route({
    method: 'PUT',
    url: '/api/admin/buildings/:id',
    config,
    schema: {
      summary: 'Update a building (name, address)',
      description: `404 unknown building. ${WRITE_NOTE}`,
      tags,
      params: idParams,
      body: adminBuildingSaveBodySchema,
      response: { 200: adminBuildingSchema, ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.saveBuilding(db, actor(req), { id: req.params.id }, req.body),
  });

  // ---------------------------------------------------------------- classes

  app.route({
    method: 'GET',
    url: '/api/admin/schools/:id/classes',
    config,
    schema: {
      summary: "A school's classes by grade and letter, with student counts",
      tags,
      params: idParams,
      response: { 200: z.array(adminClassSchema), ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.listClasses(db, req.params.id),
  });

  app.route({
    method: 'POST',
    url: '/api/admin/schools/:id/classes',
    config,
    schema: {
      summary: 'Add a class to a school',
      description:
        'Without `name` the class is called `7 «А»`. 404 unknown school; 400 `validation_failed` for a ' +
        `building of another school; 409 \`class_exists\` for a taken grade and letter. ${WRITE_NOTE}`,
      tags,
      params: idParams,
      body: adminClassSaveBodySchema,
      response: { 200: adminClassSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: (req) => service.saveClass(db, actor(req), { schoolId: req.params.id }, req.body),
  });

  app.route({
    method: 'PUT',
    url: '/api/admin/classes/:id',
    config,
    schema: {
      summary: 'Update a class (grade, letter, name, building)',
      description:
        'A class still carrying its default name follows a new grade or letter. 404 unknown class; ' +
        `400 \`validation_failed\` for a building of another school; 409 \`class_exists\`. ${WRITE_NOTE}`,
      tags,
      params: idParams,
      body: adminClassSaveBodySchema,
      response: { 200: adminClassSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: (req) => service.saveClass(db, actor(req), { id: req.params.id }, req.body),
  });

  app.route({
    method: 'DELETE',
    url: '/api/admin/classes/:id',
    config,
    schema: {
      summary: 'Delete a class that has no students',
      description:
        '409 `class_has_students` while live students are in it; 409 `class_in_use` once participants ' +
        'were registered for tests in it. Organizator assignments to the class go with it. Audited.',
      tags,
      params: idParams,
      response: { 200: okSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: async (req) => {
      await service.deleteClass(db, actor(req), req.params.id);
      return { ok: true as const };
    },
  });

  // ---------------------------------------------------------------- students

  app.route({
    method: 'POST',
    url: '/api/admin/students/list',
    config,
    schema: {
      summary: 'Page of students of every school',
      description:
        'Filter: `search` (part of the surname, or "surname name"), `schoolId`, `classId`, `parallel`. ' +
        'Sort fields: `surname` (default, then `name`), `name`, `birthDate`, `className`, `schoolName`, ' +
        '`createdAt`, `id`. Deleted students are not listed.',
      tags,
      body: adminStudentListRequestSchema,
      response: { 200: adminStudentListResponseSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => service.listStudents(db, req.body),
  });

  app.route({
    method: 'GET',
    url: '/api/admin/students/:id',
    config,
    schema: {
      summary: 'One student',
      tags,
      params: idParams,
      response: { 200: adminStudentSchema, ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.getStudent(db, req.params.id),
  });

  const studentRules =
    '400 `validation_failed` for an unknown class, a class of another school (a student moves only ' +
    'within their school) or a birth date in the future or before 1900; 409 `duplicate_student` when ' +
    'the school has a live student with the same full name and birth date.';

  app.route({
    method: 'POST',
    url: '/api/admin/students',
    config,
    schema: {
      summary: 'Create a student in a class (the school is the class’s)',
      description: `${studentRules} ${WRITE_NOTE}`,
      tags,
      body: adminStudentSaveBodySchema,
      response: { 200: adminStudentSchema, ...errors(400, 401, 403, 409) },
    },
    handler: (req) => service.saveStudent(db, actor(req), req.body),
  });

  app.route({
    method: 'PUT',
    url: '/api/admin/students/:id',
    config,
    schema: {
      summary: 'Update a student, or move them to another class of the same school',
      description: `An omitted optional field keeps its value. 404 unknown student. ${studentRules} ${WRITE_NOTE}`,
      tags,
      params: idParams,
      body: adminStudentSaveBodySchema,
      response: { 200: adminStudentSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: (req) => service.saveStudent(db, actor(req), req.body, req.params.id),
  });

  app.route({
    method: 'DELETE',
    url: '/api/admin/students/:id',
    config,
    schema: {
      summary: 'Delete a student who was never registered for a test',
      description:
        'Soft delete. 409 `student_has_participant_tests` while the student has live participant tests ' +
        '(their results and codes stay tied to them). Audited.',
      tags,
      params: idParams,
      response: { 200: okSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: async (req) => {
      await service.deleteStudent(db, actor(req), req.params.id);
      return { ok: true as const };
    },
  });

  // ---------------------------------------------------------------- diagnostics

  app.route({
    method: 'POST',
    url: '/api/admin/diagnostics/list',
    config,
    schema: {
      summary: 'Page of every diagnostic, whoever created it',
      description:
        'Filter: `dateFrom`/`dateTo` (the window overlaps these Moscow calendar days), `subjectTestId`, ' +
        '`schoolId`, `kind` (diagnostic, inspection, preprof, preschool, worker), `createdByRole` (admin, ' +
        'ugnik, coordinator), `status` (planned, running, finished, published), `search` (name or code). ' +
        'Sort fields: `startsAt` (default, newest first), `endsAt`, `name`, `code`, `participantTestCount`, ' +
        '`id`. Counts: schools, live participant tests, finished (or scored) works.',
      tags,
      body: adminDiagnosticListRequestSchema,
      response: { 200: adminDiagnosticListResponseSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => service.listDiagnostics(db, req.body),
  });

  app.route({
    method: 'GET',
    url: '/api/admin/diagnostics/:id',
    config,
    schema: {
      summary: 'One diagnostic with its schools and their participant and finished-work counts',
      tags,
      params: idParams,
      response: { 200: adminDiagnosticDetailSchema, ...errors(400, 401, 403, 404) },
    },
    handler: (req) => service.getDiagnostic(db, req.params.id),
  });
};
