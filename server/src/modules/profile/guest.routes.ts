import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { guestProfileSaveBodySchema, guestProfileSchema } from '@attesta/contract';
import { authOf, endpoint } from '../../auth/access.js';
import { errorResponses as errors } from '../../lib/route-docs.js';
import { getGuestProfile, saveGuestProfile } from './guest.service.js';

const tags = ['profile'];

/** `/api/Profile/guest/*`: a guest's own profile. */
export const guestProfileRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/Profile/guest/get'),
    schema: {
      summary: 'Own guest profile: names, grade, school (free text), city',
      tags,
      response: { 200: guestProfileSchema, ...errors(401, 403) },
    },
    handler: (req) => getGuestProfile(ctx, authOf(req)),
  });

  app.route({
    ...endpoint('PUT /api/Profile/guest/saveProfile'),
    schema: {
      summary: 'Save own guest profile',
      description:
        'The whole profile each time (strict body): surname and name required; patronymic, parallel ' +
        '(0–11), schoolName and city optional — omitted or empty clears them. Answers the saved profile. ' +
        'Audited (`profile.guest.save`).',
      tags,
      body: guestProfileSaveBodySchema,
      response: { 200: guestProfileSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => saveGuestProfile(ctx, { auth: authOf(req), ip: req.ip ?? null }, req.body),
  });
};
