import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WorkerTestSaveBody } from '@attesta/contract';
import { authOf, contractRoute } from '../../auth/access.js';
import { codeInScope, workerTestInScope } from './worker.access.js';
import * as service from './worker.service.js';

const tags = ['worker-test'];

const paramId = (req: FastifyRequest) => (req.params as { id: number }).id;
const SCOPE =
  'A coordinator sees their school’s and the global (schoolId null) worker tests and changes only ' +
  'their school’s (403 otherwise); admin all. ';

/** `/api/workerPosition/list` and `/api/workerTest/*`: staff tests and their activation codes. */
export const workerRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('POST /api/workerPosition/list', {
      summary: 'Worker positions',
      description: 'Filter: search. Sorted by name unless `sort` says (id, name).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) =>
      service.listPositions(ctx, {
        page: req.body.page,
        pageSize: req.body.pageSize,
        sort: req.body.sort,
        search: req.body.filter?.search,
      }),
  });

  app.route({
    ...contractRoute(
      'GET /api/workerTest/{id}',
      {
        summary: 'One worker test',
        description: SCOPE,
        tags,
        errors: [400, 401, 403, 404],
      },
      workerTestInScope(paramId, service.canSee),
    ),
    handler: (req) => service.getWorkerTest(ctx, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute(
      'DELETE /api/workerTest/{id}',
      {
        summary: 'Delete a worker test nobody has taken',
        description:
          SCOPE +
          'Soft delete with its diagnostic and sittings (their sessions end). 409 `has_exam_works` once ' +
          'any exam work exists. Audited (`worker_test.delete`).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      workerTestInScope(paramId, service.canEdit),
    ),
    handler: async (req) => {
      await service.deleteWorkerTest(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/workerTest/list', {
      summary: 'Page of worker tests',
      description:
        SCOPE +
        'Filter: search, positionId, schoolId, subjectTestId. Sort fields: id, name, startsAt, createdAt.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listWorkerTests(ctx, authOf(req), req.body),
  });

  app.route({
    ...contractRoute(
      'PUT /api/workerTest/save',
      {
        summary: 'Create (no id) or update (id) a worker test and its diagnostic',
        description:
          SCOPE +
          'A coordinator’s worker test always belongs to their school (another schoolId: 403); an admin ' +
          'chooses a school or null (every school). The test owns a diagnostic of kind `worker` with the ' +
          'same name and window, changed in the same transaction. 400 for unknown subject test / position / ' +
          'school or endsAt not after startsAt; 409 `has_participant_tests` when the subject test would ' +
          'change under registered workers. Audited (`worker_test.create` / `worker_test.update`).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      workerTestInScope((req) => (req.body as WorkerTestSaveBody).id, service.canEdit),
    ),
    handler: (req) => service.saveWorkerTest(ctx, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute(
      'GET /api/workerTest/generateActivationCode',
      {
        summary: 'Activation code of a worker for a worker test',
        description:
          'State-changing GET (send `X-Requested-With: XMLHttpRequest`). Creates the worker’s sitting ' +
          '(a participant test in the worker test’s diagnostic) with a new unique activation code, or ' +
          'returns the existing one (`created: false`). A coordinator: workers of their own school and ' +
          'worker tests they see (403 otherwise). 409 `worker_blocked`. Audited ' +
          '(`worker_test.activation_code`).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      codeInScope,
    ),
    handler: (req) =>
      service.generateActivationCode(ctx, actorOf(req), req.query.workerTestId, req.query.workerId),
  });
};
