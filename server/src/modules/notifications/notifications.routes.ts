import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { registerNotificationProducers } from './notifications.producers.js';
import * as service from './notifications.service.js';

const tags = ['notification'];

/** `/api/notification/*`: the signed-in user's own notifications (docs/notifications.md). */
export const notificationRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  registerNotificationProducers();

  app.route({
    ...contractRoute('GET /api/notification/getList/{id}', {
      summary: 'Own notifications, a page at a time, with the unread count',
      description:
        '`id` is the page (1-based; 0 is the first page too), 20 a page, newest first. `unread` counts ' +
        'every unread notification of the user, so a bell shows it from any page. A notification is ' +
        'a `kind` with its `params`: the client writes its text in the reader’s language.',
      tags,
      errors: [400, 401],
    }),
    handler: (req) => service.listOwn(db, authOf(req).userId, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/notification/get/{id}', {
      summary: 'One own notification; marks it read',
      description:
        'Changes state (marks read; the first reading’s time is kept): with the session cookie it ' +
        'needs `X-Requested-With: XMLHttpRequest`. Another user’s notification is unknown (404).',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.readOwn(db, authOf(req).userId, req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/notification/delete/{id}', {
      summary: 'Delete one own notification',
      description:
        'Removes it for good and answers the unread count left. Changes state: with the session ' +
        'cookie it needs `X-Requested-With: XMLHttpRequest`. Another user’s notification is unknown (404).',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.deleteOwn(db, authOf(req).userId, req.params.id),
  });
};
