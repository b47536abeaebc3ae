import type { FastifyPluginAsync, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute, type ScopeRule } from '../../auth/access.js';
import { attachmentDisposition, XLSX_MIME } from '../../lib/xlsx.js';
import {
  actorOf,
  coordinatorHasSchool,
  deleteStudent,
  getParticipantTest,
  getStudent,
  registerSchoolDataRoutes,
} from '../school-data/index.js';
import * as organizators from './organizator.service.js';
import { workerTestReport } from './worker-test-report.js';

const tags = ['coordinator'];
const actor = actorOf('coordinator');

/** Record-level rules: 404 for an id that does not exist, 403 for one of another school. */
const idOf = (req: FastifyRequest) => (req.params as { id: number }).id;
const studentOfSchool: ScopeRule = async (req, auth) => {
  if (auth.schoolId === null) return false;
  await getStudent(req.server.ctx.db, actor(req).scope, idOf(req));
  return true;
};
const participantTestOfSchool: ScopeRule = async (req, auth) => {
  if (auth.schoolId === null) return false;
  await getParticipantTest(req.server.ctx.db, actor(req).scope, idOf(req));
  return true;
};

/** `/api/coordinator/*`: a school coordinator's work place, always within their own school. */
export const coordinatorRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  registerSchoolDataRoutes(app, 'coordinator', coordinatorHasSchool);

  app.route({
    ...contractRoute(
      'GET /api/coordinator/student/{id}',
      {
        summary: 'One student of your school',
        tags,
        errors: [400, 401, 403, 404],
      },
      studentOfSchool,
    ),
    handler: (req) => getStudent(ctx.db, actor(req).scope, req.params.id),
  });

  app.route({
    ...contractRoute(
      'DELETE /api/coordinator/student/{id}',
      {
        summary: 'Delete a student of your school',
        description:
          'Soft delete: results stay. Registrations that have not started are dropped with the student ' +
          '(their activation codes stop working). 409 `work_in_progress` while the student is taking a test.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      studentOfSchool,
    ),
    handler: async (req) => {
      await deleteStudent(ctx, actor(req), req.params.id);
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute(
      'GET /api/coordinator/participantTest/{id}',
      {
        summary: 'One participant test of your school, with codes and the live attempt',
        tags,
        errors: [400, 401, 403, 404],
      },
      participantTestOfSchool,
    ),
    handler: (req) => getParticipantTest(ctx.db, actor(req).scope, req.params.id),
  });

  app.route({
    ...contractRoute(
      'POST /api/coordinator/organizator/list',
      {
        summary: 'Page of organizators of your school, with assignments and worker-test state',
        description:
          'Filter: `search` (login, surname, name), `blocked`, `classId`, `buildingId`. Sort fields: ' +
          '`surname` (default), `login`, `id`. `workerTests`: each worker test of the organizator’s position ' +
          'with the state of their sitting (`not_registered` when there is none).',
        tags,
        errors: [400, 401, 403],
      },
      coordinatorHasSchool,
    ),
    handler: (req) => organizators.listOrganizators(ctx.db, actor(req), req.body),
  });

  app.route({
    ...contractRoute(
      'POST /api/coordinator/organizator',
      {
        summary: 'Create (no id) or update (id) an organizator of your school',
        description:
          'Creates the user (role organizator, your school), the worker row (position) and the room ' +
          'assignments (`classIds`, `buildingIds` of your school; a building covers all its classes). ' +
          'Without `password` a new organizator gets a generated one, returned once as `generatedPassword`. ' +
          'On update an omitted optional field keeps its value; a new password ends their sessions. ' +
          '409 `login_taken` / `email_taken`; 400 unknown class, building or position; 403 another ' +
          "school's class, building or user, or a user holding a role beyond organizator.",
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      coordinatorHasSchool,
    ),
    handler: (req) => organizators.saveOrganizator(ctx, actor(req), req.body),
  });

  app.route({
    ...contractRoute(
      'POST /api/coordinator/organizator/{id}',
      {
        summary: 'Block or unblock an organizator of your school',
        description: 'Blocking ends their sessions at once. `reason` goes to the audit trail.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      organizators.organizatorInScope((req) => idOf(req)),
    ),
    handler: (req) => organizators.setBlocked(ctx, actor(req), req.params.id, req.body),
  });

  const report: RouteHandlerMethod = async (req, reply) => {
    // The route rule refused a coordinator without a school.
    const { data, fileName } = await workerTestReport(ctx.db, authOf(req).schoolId!);
    return (
      reply
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'private, no-store')
        .type(XLSX_MIME)
        // Fastify sends a Buffer as-is; the error schemas above do not apply to it.
        .send(data as never)
    );
  };
  app.route({
    ...contractRoute(
      'GET /api/coordinator/organizator/report/workerTest',
      {
        summary: "xlsx: organizators' worker-test (training) results",
        description:
          'One row per organizator of your school and worker test of their position: status, test date, ' +
          'start, finish, score, percent, passed (empty until results exist). Text cells never start a formula.',
        tags,
        errors: [400, 401, 403],
      },
      coordinatorHasSchool,
    ),
    handler: report,
  });
};
