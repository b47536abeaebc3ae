import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { actorOf } from '../../auth/actor.js';
import { audit } from '../../lib/audit.js';
import { queueRegrade } from './results.service.js';

/**
 * POST /api/results/regrade (admin): after a key is corrected, re-score every finished work of a
 * subject test, or of one variant task, as a queue item. Its result lists the works whose score
 * changed (before → after). Not a call of the specification: the regrade needs a trigger.
 */
export const regradeRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.route({
    ...contractRoute('POST /api/results/regrade', {
      summary: 'Queue a regrade of a subject test or of one variant task',
      tags: ['exam-results'],
      errors: [400, 401, 403],
    }),
    handler: async (req) => {
      const { auth, ip } = actorOf(req);
      const { subjectTestId, variantTaskId, reason } = req.body;
      const { item, created } = await queueRegrade(app.ctx.db, { subjectTestId, variantTaskId }, auth);
      await audit(app.ctx.db, {
        userId: auth.userId,
        action: 'results.regrade_queued',
        entity: 'queue_item',
        entityId: item.id,
        reason: reason ?? null,
        details: { subjectTestId: subjectTestId ?? null, variantTaskId: variantTaskId ?? null },
        ip,
      });
      return { queueItemId: item.id, status: item.status, created };
    },
  });
};
