import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@attesta/contract';
import { authOf } from '../../auth/access.js';
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
    method: 'POST',
    url: '/api/results/regrade',
    config: { access: { roles: ['admin'] } },
    schema: {
      summary: 'Queue a regrade of a subject test or of one variant task',
      tags: ['exam-results'],
      body: z
        .strictObject({
          subjectTestId: z.number().int().positive().optional(),
          variantTaskId: z.number().int().positive().optional(),
          reason: z.string().trim().max(500).optional(),
        })
        .refine((b) => b.subjectTestId !== undefined || b.variantTaskId !== undefined, {
          message: 'name a subjectTestId or a variantTaskId',
        }),
      response: {
        200: z.object({ queueItemId: z.number().int(), status: z.string(), created: z.boolean() }),
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
      },
    },
    handler: async (req) => {
      const auth = authOf(req);
      const { subjectTestId, variantTaskId, reason } = req.body;
      const { item, created } = await queueRegrade(app.ctx.db, { subjectTestId, variantTaskId }, auth);
      await audit(app.ctx.db, {
        userId: auth.userId,
        action: 'results.regrade_queued',
        entity: 'queue_item',
        entityId: item.id,
        reason: reason ?? null,
        details: { subjectTestId: subjectTestId ?? null, variantTaskId: variantTaskId ?? null },
        ip: req.ip,
      });
      return { queueItemId: item.id, status: item.status, created };
    },
  });
};
