import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { analyticsConfigSchema, errorBodySchema, publicHtmlTextSchema } from '@attesta/contract';
import { endpoint } from '../../auth/access.js';
import * as service from './htmltexts.service.js';

const tags = ['htmltexts'];

/** `/api/htmltexts/*`: public pages and the analytics configuration (no session needed). */
export const htmlTextsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;

  app.route({
    ...endpoint('GET /api/htmltexts/analytics'),
    schema: {
      summary: 'Analytics snippet configuration ({enabled:false} when none is configured)',
      tags,
      response: { 200: analyticsConfigSchema },
    },
    handler: async () => service.analyticsConfig(config),
  });

  app.route({
    ...endpoint('GET /api/htmltexts/{id}'),
    schema: {
      summary: 'A published html text (sanitized), by id or by code',
      description: 'Unpublished and missing texts answer 404.',
      tags,
      params: z.object({
        id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, 'an id or a code (letters, digits, - and _)')
          .describe('numeric id or code'),
      }),
      response: { 200: publicHtmlTextSchema, 400: errorBodySchema, 404: errorBodySchema },
    },
    handler: (req) => service.publishedHtmlText(db, req.params.id),
  });
};
