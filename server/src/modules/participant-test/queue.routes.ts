import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { registerJobHandler } from '../../jobs/runner.js';
import { createPlanningQueue, PLANNING_JOB, runPlanning } from './planning.service.js';
import { diagnosticQueueInScope, listQueue, queueOfDiagnostic } from './queue.service.js';

const tags = ['participant-test'];

/** Queue items of diagnostics (planning, results...) and queueing a planning job. */
export const participantTestQueueRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  registerJobHandler(PLANNING_JOB, runPlanning);

  app.route({
    ...contractRoute('POST /api/ParticipantTest/queuelist', {
      summary: 'Page of queue items (planning, result and other jobs)',
      description:
        'Admin sees every item; a coordinator the items of diagnostics that include their school or ' +
        'that they created, and items they queued. Filter: `type`, `status`, `diagnosticId` (a ' +
        'diagnostic outside the scope is 403, an unknown one 404). Sort fields: `id`, `createdAt`, ' +
        '`type`, `status`, `progress`, `finishedAt`; default newest first.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => listQueue(db, authOf(req), req.body),
  });

  app.route({
    ...contractRoute(
      'GET /api/ParticipantTest/getqueuelistbytype/{type}/{diagnosticId}',
      {
        summary: 'Queue items of one type for a diagnostic, newest first (at most 500)',
        description: 'Same scope as queuelist: 404 for an unknown diagnostic, 403 outside the scope.',
        tags,
        errors: [400, 401, 403, 404],
      },
      diagnosticQueueInScope((req) => (req.params as { diagnosticId: number }).diagnosticId),
    ),
    handler: (req) => queueOfDiagnostic(db, req.params.type, req.params.diagnosticId),
  });

  app.route({
    ...contractRoute('POST /api/ParticipantTest/createplanningqueue', {
      summary: 'Queue planning of a diagnostic for a test date',
      description:
        'Query `code` (the diagnostic code) and `date` (yyyy-mm-dd within the diagnostic window). The ' +
        'job registers every student (not deleted) of the classes whose grade is one of the ' +
        "diagnostic's parallels for every subject test of the diagnostic offered for that grade, with " +
        'new activation and registration codes — unless the student already has a live participant ' +
        'test for that subject test (running it twice creates nothing new). A coordinator plans only ' +
        'their own school (403 when the diagnostic does not include it), an admin every school of the ' +
        'diagnostic. Queueing the same plan while it is queued or running returns that item. Watch ' +
        'it with queuelist; its result is `{ created, existing, schools }`. 404 `not_found` for an ' +
        'unknown code, 400 `validation_failed` for a date outside the window.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => createPlanningQueue(db, actorOf(req), req.query),
  });
};
