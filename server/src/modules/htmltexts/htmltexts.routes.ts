import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import * as service from './htmltexts.service.js';

const tags = ['htmltexts'];

/** `/api/htmltexts/*`: public pages and the analytics configuration (no session needed). */
export const htmlTextsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;

  app.route({
    ...contractRoute('GET /api/htmltexts/analytics', {
      summary: 'Analytics snippet configuration ({enabled:false} when none is configured)',
      tags,
      // Only what any call answers to a malformed query (invalid_text).
      errors: [400],
    }),
    handler: async () => service.analyticsConfig(config),
  });

  app.route({
    ...contractRoute('GET /api/htmltexts/{id}', {
      summary: 'A published html text (sanitized), by id or by code',
      description: 'Unpublished and missing texts answer 404.',
      tags,
      errors: [400, 404],
    }),
    handler: (req) => service.publishedHtmlText(db, req.params.id),
  });
};
