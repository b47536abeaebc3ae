import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { closeRefusedUploads, Spool } from '../../lib/multipart.js';
import { MULTIPART_LIMITS, readUploadForm } from '../files/index.js';
import * as service from './feedback.service.js';

const tags = ['feedback'];

/** `POST /api/feedback/{id}`: a message about a task (or anything with an id), optionally with a file. */
export const feedbackRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  await app.register(multipart, { limits: { ...MULTIPART_LIMITS, files: 2 } });
  closeRefusedUploads(app);

  const route = contractRoute('POST /api/feedback/{id}', {
    summary: 'Send feedback about a subject (e.g. a variant task id)',
    description:
      'JSON `{ "text" }`, or multipart with a `text` field and at most one file (checked like ' +
      'uploads: 413 / 415). At most 20 messages an hour per user (429 with Retry-After).',
    tags,
    errors: [400, 401, 403, 413, 415, 429],
  });
  app.route({
    ...route,
    schema: { ...route.schema, consumes: ['application/json', 'multipart/form-data'] },
    // The body is read here, not by a schema: multipart bodies are streams, JSON ones are checked by the service.
    handler: async (req) => {
      const actor = { auth: authOf(req), ip: req.ip ?? null };
      if (!req.isMultipart())
        return service.sendFeedback(ctx, actor, req.params.id, { fields: req.body, files: [] });
      const spool = new Spool();
      try {
        const input = await readUploadForm(req, spool, () => service.feedbackAllowance(ctx, actor.auth));
        return await service.sendFeedback(ctx, actor, req.params.id, input);
      } finally {
        await spool.cleanup();
      }
    },
  });
};
