import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute, type ScopeRule } from '../../auth/access.js';
import * as service from './school-data.service.js';
import { scopeOf, type StaffRole } from './school-data.access.js';

export const actorOf =
  (role: StaffRole) =>
  (req: FastifyRequest): service.Actor => {
    const auth = authOf(req);
    return { auth, scope: scopeOf(role, auth), ip: req.ip ?? null };
  };

const WHO = {
  coordinator: { scope: 'your school', tag: 'coordinator' },
  organizator: { scope: 'the classes and buildings assigned to you', tag: 'organizator' },
} as const;

/**
 * The calls coordinator and organizator share, registered once per role under its own prefix.
 * Only the scope differs (docs/design.md §1): the coordinator's school or the organizator's rooms.
 */
export function registerSchoolDataRoutes(
  app: FastifyInstance,
  role: StaffRole,
  routeScope?: ScopeRule,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const actor = actorOf(role);
  const tags = [WHO[role].tag];
  const within = WHO[role].scope;

  r.route({
    ...contractRoute(
      `POST /api/${role}/student/list`,
      {
        summary: `Page of students of ${within}`,
        description:
          'Filter: `search` (surname, name, "surname name"), `classId`, `parallel`, `buildingId`. ' +
          'Sort fields: `surname`, `name`, `birthDate`, `className`, `createdAt`, `id`.',
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.listStudents(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/student`,
      {
        summary: `Create (no id) or update (id) a student in a class of ${within}`,
        description:
          '400 `validation_failed` for a class that does not exist or a birth date in the future; ' +
          '403 for a student or class outside scope; 404 for an unknown student id; 409 `duplicate_student` ' +
          'when the school already has a live student with the same full name and birth date.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      routeScope,
    ),
    handler: (req) => service.saveStudent(ctx, actor(req), req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/buildings/list`,
      {
        summary: `Buildings of ${within}, with class and student counts`,
        description: 'Filter: `search` (name). Sort fields: `name`, `id`.',
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.listBuildings(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/class/list`,
      {
        summary: `Classes of ${within}, with student counts`,
        description:
          'Filter: `search` (name), `parallel`, `buildingId`. Sort fields: `name` (grade, then letter), ' +
          '`parallel`, `studentCount`, `id`.',
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.listClasses(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/parallel/list`,
      {
        summary: `Parallels (grades) that have classes in ${within}`,
        description: 'Filter: `buildingId`. Sort field: `id` (the grade).',
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.listParallels(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/diagnostic/list`,
      {
        summary:
          role === 'coordinator'
            ? 'Page of diagnostics that include your school'
            : 'Page of diagnostics with participants in your rooms',
        description:
          'Filter: `dateFrom`/`dateTo` (window overlaps, Moscow calendar days), `status` ' +
          '(planned, running, finished, published), `search` (name or code), `subjectTestId`, `parallel`. ' +
          'Sort fields: `startsAt` (default, newest first), `name`, `code`, `id`. `participantCount` counts ' +
          `participant tests within ${within}.`,
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.listDiagnostics(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/diagnostic/byParam`,
      {
        summary: 'Diagnostics matching a date, a subject test and a grade (to register participants)',
        description:
          'Every parameter is optional. `date`: the window covers that Moscow calendar day; ' +
          '`subjectTestId`: the diagnostic has that subject test; `parallel`: the diagnostic or one of its ' +
          `subject tests is for that grade. Only diagnostics that include ${
            role === 'coordinator' ? 'your school' : 'the school of your classes'
          }; at most 200, by start.`,
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.diagnosticsByParam(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/participantTest/list`,
      {
        summary: `Page of participant tests of ${within}, with codes and the live state of each attempt`,
        description:
          'Filter: `diagnosticId`, `subjectTestId`, `classId`, `buildingId`, `status`, `date` (test date), ' +
          '`search` (part of the surname). Sort fields: `surname`, `className`, `testDate`, `status`, ' +
          '`subjectTest`, `id`. `examWork` is the live attempt (status, start, deadline, finish, answers saved).',
        tags,
        errors: [400, 401, 403],
      },
      routeScope,
    ),
    handler: (req) => service.listParticipantTests(ctx.db, actor(req).scope, req.body),
  });

  r.route({
    ...contractRoute(
      `POST /api/${role}/participantTest/save`,
      {
        summary: 'Register students for a diagnostic (creates participant tests with codes), or update one',
        description:
          '**Register** (no `id`): `{ diagnosticId, subjectTestId, testDate, studentIds | classIds, buildingId? }` ' +
          '→ `{ created, skipped, items }`. Each new participant test gets a unique activation code and ' +
          'registration code; students already registered for that diagnostic and subject test are skipped, ' +
          'so repeating the call creates nothing. All or nothing: a student whose grade is not among the ' +
          "subject test's grades fails the call with 400 and one error per student (`errors[].path` " +
          '`students.<id>`). 404 unknown diagnostic; 403 a diagnostic without your school, or a student/class ' +
          `outside ${within}; 400 a subject test not in the diagnostic or a date outside its window.\n\n` +
          '**Update** (`id`): `{ id, testDate?, classId?, buildingId?, status?: absent | planned }` → the ' +
          'participant test. 409 `participant_test_started` once an attempt exists. Marking absent ends the ' +
          "participant's sessions.",
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      routeScope,
    ),
    handler: (req) => service.saveParticipantTests(ctx, actor(req), req.body),
  });
}
