import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RestoreExamWorkBody } from '@attesta/contract';
import { type ScopeRule, contractRoute } from '../../auth/access.js';
import { canReachParticipantTest, findParticipantTestPlace } from '../../auth/shared.access.js';
import { notFound } from '../../lib/errors.js';
import { participantTestOfWork, restoreExamWork } from './restore.service.js';

/** The exam work's participant test must be in the caller's scope; unknown works are 404 for all. */
const examWorkInScope: ScopeRule = async (req, auth) => {
  const db = req.server.ctx.db;
  const participantTestId = await participantTestOfWork(db, (req.body as RestoreExamWorkBody).examWorkId);
  const place =
    participantTestId === null ? null : await findParticipantTestPlace(db, { id: participantTestId });
  if (!place) throw notFound('No such exam work');
  return canReachParticipantTest(db, auth, place);
};

/** `POST /api/ParticipantTest/RestoreExamWork`: undo the soft delete of an exam work. */
export const participantTestRestoreRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute(
      'POST /api/ParticipantTest/RestoreExamWork',
      {
        summary: 'Restore a deleted exam work',
        description:
          'Organizator (assigned rooms), coordinator (own school), admin. 409 `not_deleted` when the work ' +
          'is live, `live_work_exists` when the participant test has another live work, ' +
          '`results_published` for an unfinished work once the diagnostic’s results have been published ' +
          '(it could be written again with the keys out). Audited ' +
          '(`exam_work.restore`, with the deletion it undoes).',
        tags: ['participant-test'],
        errors: [400, 401, 403, 404, 409],
      },
      examWorkInScope,
    ),
    handler: (req) => restoreExamWork(ctx, actorOf(req), req.body),
  });
};
