import { actorOf } from '../../auth/actor.js';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { Spool } from '../../lib/multipart.js';
import { MULTIPART_LIMITS, readUploadForm } from '../files/index.js';
import * as inbox from './feedback-inbox.service.js';
import * as service from './feedback.service.js';

const tags = ['feedback'];

/**
 * `POST /api/feedback/{id}`: a message about a task (or anything with an id), optionally with a file
 * and the page it was sent from; `GET /api/feedback/mine`: one's own messages with their answers;
 * `/api/admin/feedback`: the admins' inbox (new → in progress → answered).
 */
export const feedbackRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  await app.register(multipart, { limits: { ...MULTIPART_LIMITS, files: 2 } });

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
    // The body is read here, not by a schema: multipart bodies are streams, JSON ones are checked by the service.
    handler: async (req) => {
      const actor = actorOf(req);
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

  app.route({
    ...contractRoute('GET /api/feedback/mine', {
      summary: 'The caller’s own feedback messages with their status and answer',
      description: 'Newest first (the latest 200).',
      tags,
      errors: [401],
    }),
    handler: (req) => inbox.myFeedback(ctx.db, authOf(req).userId),
  });

  app.route({
    ...contractRoute('POST /api/admin/feedback/list', {
      summary: 'A page of the feedback inbox',
      description:
        'Filter by `status` and `search` (a part of the text, the sender’s name or login); newest first.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => inbox.listFeedback(ctx.db, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/feedback/{id}', {
      summary: 'One feedback message with its sender, file and answer',
      description: 'The file is downloaded with `GET /api/files/{id}`.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => inbox.feedbackDetail(ctx.db, req.params.id),
  });

  app.route({
    ...contractRoute('PUT /api/admin/feedback/{id}', {
      summary: 'Set a feedback message in progress (or back to new), or answer it',
      description:
        '`status` and/or `answer`; an answer marks the message answered and tells its sender (a ' +
        '`feedback_answered` notification). Audited; bad input (400) changes nothing.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => inbox.updateFeedback(ctx.db, actorOf(req), req.params.id, req.body),
  });
};
