import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import * as service from './admin-org.service.js';

/**
 * `/api/admin/*`: the platform operator's pages for the organisation (oo, schools, buildings,
 * classes, students) and the list of every diagnostic. Not calls of the specification, which gives
 * admins no such list; admin only, like every call here. Writes are audited.
 */
const tags = ['admin-org'];
const WRITE_NOTE = 'Audited. Bad input (400) changes nothing.';

export const adminOrgRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  // ---------------------------------------------------------------- oo

  app.route({
    ...contractRoute('POST /api/admin/oo/list', {
      summary: 'Page of educational organisations (ОО), with their school counts',
      description:
        'Filter: `search` (name, short name, INN). Sort fields: `name` (default), `schoolCount`, `id`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listOo(db, req.body),
  });

  app.route({
    ...contractRoute('POST /api/admin/oo', {
      summary: 'Create an educational organisation (ОО)',
      description: WRITE_NOTE,
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.createOo(db, actorOf(req), req.body),
  });

  // ---------------------------------------------------------------- schools

  app.route({
    ...contractRoute('POST /api/admin/schools/list', {
      summary: 'Page of every school, with its ОО and building, class and student counts',
      description:
        'Filter: `search` (name, short name, code), `ooId`. Sort fields: `name` (default), `code`, ' +
        '`ooName`, `classCount`, `studentCount`, `createdAt`, `id`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listSchools(db, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/schools/{id}', {
      summary: 'One school with its counts',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.getSchool(db, req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/admin/schools', {
      summary: 'Create a school of an ОО',
      description: `400 \`validation_failed\` for an unknown \`ooId\`; 409 \`school_code_taken\`. ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.saveSchool(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('PUT /api/admin/schools/{id}', {
      summary: 'Update a school (name, short name, code, ОО)',
      description:
        'An omitted optional field keeps its value; null clears it. 404 unknown school; 400 ' +
        `\`validation_failed\` for an unknown \`ooId\`; 409 \`school_code_taken\`. ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveSchool(db, actorOf(req), req.body, req.params.id),
  });

  // ---------------------------------------------------------------- buildings

  app.route({
    ...contractRoute('GET /api/admin/schools/{id}/buildings', {
      summary: "A school's buildings, with class and student counts",
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.listBuildings(db, req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/admin/schools/{id}/buildings', {
      summary: 'Add a building to a school',
      description: `404 unknown school. ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.saveBuilding(db, actorOf(req), { schoolId: req.params.id }, req.body),
  });

  app.route({
    ...contractRoute('PUT /api/admin/buildings/{id}', {
      summary: 'Update a building (name, address)',
      description: `404 unknown building. ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.saveBuilding(db, actorOf(req), { id: req.params.id }, req.body),
  });

  // ---------------------------------------------------------------- classes

  app.route({
    ...contractRoute('GET /api/admin/schools/{id}/classes', {
      summary: "A school's classes by grade and letter, with student counts",
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.listClasses(db, req.params.id),
  });

  app.route({
    ...contractRoute('POST /api/admin/schools/{id}/classes', {
      summary: 'Add a class to a school',
      description:
        'Without `name` the class is called `7 «А»`. 404 unknown school; 400 `validation_failed` for a ' +
        `building of another school; 409 \`class_exists\` for a taken grade and letter. ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveClass(db, actorOf(req), { schoolId: req.params.id }, req.body),
  });

  app.route({
    ...contractRoute('PUT /api/admin/classes/{id}', {
      summary: 'Update a class (grade, letter, name, building)',
      description:
        'A class still carrying its default name follows a new grade or letter. 404 unknown class; ' +
        `400 \`validation_failed\` for a building of another school; 409 \`class_exists\`. ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveClass(db, actorOf(req), { id: req.params.id }, req.body),
  });

  app.route({
    ...contractRoute('DELETE /api/admin/classes/{id}', {
      summary: 'Delete a class that has no students',
      description:
        '409 `class_has_students` while live students are in it; 409 `class_in_use` once participants ' +
        'were registered for tests in it. Organizator assignments to the class go with it. Audited.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: async (req) => {
      await service.deleteClass(db, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  });

  // ---------------------------------------------------------------- students

  app.route({
    ...contractRoute('POST /api/admin/students/list', {
      summary: 'Page of students of every school',
      description:
        'Filter: `search` (part of the surname, or "surname name"), `schoolId`, `classId`, `parallel`. ' +
        'Sort fields: `surname` (default, then `name`), `name`, `birthDate`, `className`, `schoolName`, ' +
        '`createdAt`, `id`. Deleted students are not listed.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listStudents(db, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/students/{id}', {
      summary: 'One student',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.getStudent(db, req.params.id),
  });

  const studentRules =
    '400 `validation_failed` for an unknown class, a class of another school (a student moves only ' +
    'within their school) or a birth date in the future or before 1900; 409 `duplicate_student` when ' +
    'the school has a live student with the same full name and birth date.';

  app.route({
    ...contractRoute('POST /api/admin/students', {
      summary: 'Create a student in a class (the school is the class’s)',
      description: `${studentRules} ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.saveStudent(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('PUT /api/admin/students/{id}', {
      summary: 'Update a student, or move them to another class of the same school',
      description: `An omitted optional field keeps its value. 404 unknown student. ${studentRules} ${WRITE_NOTE}`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.saveStudent(db, actorOf(req), req.body, req.params.id),
  });

  app.route({
    ...contractRoute('DELETE /api/admin/students/{id}', {
      summary: 'Delete a student who was never registered for a test',
      description:
        'Soft delete. 409 `student_has_participant_tests` while the student has live participant tests ' +
        '(their results and codes stay tied to them). Audited.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: async (req) => {
      await service.deleteStudent(db, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  });

  // ---------------------------------------------------------------- diagnostics

  app.route({
    ...contractRoute('POST /api/admin/diagnostics/list', {
      summary: 'Page of every diagnostic, whoever created it',
      description:
        'Filter: `dateFrom`/`dateTo` (the window overlaps these Moscow calendar days), `subjectTestId`, ' +
        '`schoolId`, `kind` (diagnostic, inspection, preprof, preschool, worker), `createdByRole` (admin, ' +
        'ugnik, coordinator), `status` (planned, running, finished, published), `search` (name or code). ' +
        'Sort fields: `startsAt` (default, newest first), `endsAt`, `name`, `code`, `participantTestCount`, ' +
        '`id`. Counts: schools, live participant tests, finished (or scored) works.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listDiagnostics(db, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/diagnostics/{id}', {
      summary: 'One diagnostic with its schools and their participant and finished-work counts',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.getDiagnostic(db, req.params.id),
  });
};
