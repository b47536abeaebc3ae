import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { deviceIdOf } from '../exam-test/index.js';
import { ownAttempt } from './open-tests.access.js';
import * as service from './open-tests.service.js';

const tags = ['open-tests'];
const paramId = (req: FastifyRequest) => (req.params as { id: number }).id;

/** `/api/openTests/*`: guests' open tests (issue 13, item 7; docs/open-tests.md). HTTP only. */
export const openTestRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('GET /api/openTests', {
      summary: 'Open tests and the guest’s own attempts',
      description:
        'The published subject tests an admin made open, by name, and those no longer open at which the ' +
        'guest has attempts (`isOpen` false: shown for the history, not started again). Each with its ' +
        'subject, parallels, duration, number of tasks and the guest’s attempts, newest first: ' +
        '`in_progress` (resumable) or `finished` with its score. A finished attempt whose result was ' +
        'not computed yet is scored on the spot.',
      tags,
      errors: [401, 403],
    }),
    handler: async (req) => ({ items: await service.listOpenTests(ctx, authOf(req)) }),
  });

  app.route({
    ...contractRoute('POST /api/openTests/{subjectTestId}/attempt', {
      summary: 'Start or resume an attempt at an open test',
      description:
        'Resumes the guest’s running attempt at this subject test, or starts a new one (its clock starts ' +
        'now: the subject test’s duration). The session is then bound to the attempt, so the exam ' +
        'runner’s calls (`/api/exam/test/*`: variant/current, saveanswer, finish…) serve it as they ' +
        'serve a code login; the runner’s device header binds the work as `examwork/new` does. 400 ' +
        '`test_not_open` when the subject test is unknown, a draft or not open (a running attempt may ' +
        'still be resumed after it was closed); 409 `open_test_shares_tasks` for a new attempt while a ' +
        'secure subject test of a live diagnostic holds one of its items; 409 as `examwork/new` ' +
        '(`no_variant`, `device_mismatch`). ' +
        'Audited (`open_test.attempt`).',
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) =>
      service.startAttempt(
        ctx,
        { auth: authOf(req), ip: req.ip ?? null, deviceId: deviceIdOf(req) },
        req.params.subjectTestId,
      ),
  });

  app.route({
    ...contractRoute(
      'GET /api/openTestAttempts/{id}',
      {
        summary: 'The result of one of the guest’s attempts',
        description:
          'The guest’s own attempt only (403 another guest’s, 404 no such attempt). Once it is finished: ' +
          'the score, percent, mark, per task the answer given, the points and the correct answer with ' +
          'the solution (its finish publishes this attempt alone). 409 `work_not_finished` before: no ' +
          'key leaves while it runs.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      ownAttempt(paramId),
    ),
    handler: (req) => service.attemptResult(ctx, authOf(req), req.params.id),
  });
};
