import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { getGuestProfile, saveGuestProfile } from './guest.service.js';

const tags = ['profile'];

/** `/api/Profile/guest/*`: a guest's own profile. */
export const guestProfileRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('GET /api/Profile/guest/get', {
      summary: 'Own guest profile: names, grade, school (free text), city',
      tags,
      errors: [401, 403],
    }),
    handler: (req) => getGuestProfile(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute('PUT /api/Profile/guest/saveProfile', {
      summary: 'Save own guest profile',
      description:
        'The whole profile each time (strict body): surname and name required; patronymic, parallel ' +
        '(0–11), schoolName and city optional — omitted or empty clears them. Answers the saved profile. ' +
        'Audited (`profile.guest.save`).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => saveGuestProfile(ctx, actorOf(req), req.body),
  });
};
