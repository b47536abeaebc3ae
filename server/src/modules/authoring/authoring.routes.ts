import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { contentRoutes } from './content.routes.js';
import * as pauses from './pause-policy.service.js';

/**
 * `/api/admin/subjectTests/*`: what admins set on a subject test beyond the specification's calls,
 * and `/api/admin/content/*` (content.routes.ts): content authoring. Admin only; writes are audited.
 */
const tags = ['authoring'];

export const authoringRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/admin/subjectTests/{id}/pausePolicy', {
      summary: "A subject test's rules for participants' own pauses",
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => pauses.pausePolicy(db, req.params.id),
  });

  app.route({
    ...contractRoute('PUT /api/admin/subjectTests/{id}/pausePolicy', {
      summary: "Set a subject test's rules for participants' own pauses",
      description:
        'Applies from the next pause, also in works already running. Staff pauses are never limited. ' +
        'Audited; bad input (400) changes nothing.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => pauses.savePausePolicy(db, actorOf(req), req.params.id, req.body),
  });

  await app.register(contentRoutes);
};
