import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { expertProfileSaveBodySchema, expertProfileSchema } from '@attesta/contract';
import { authOf, endpoint } from '../../auth/access.js';
import { errorResponses as errors } from '../../lib/route-docs.js';
import { getExpertProfile, saveExpertProfile } from './expert.service.js';

const tags = ['profile'];

/** `/api/Profile/expert/*`: an expert's own profile (what they grade, how much a day). */
export const expertProfileRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/Profile/expert/get'),
    schema: {
      summary: 'Own expert profile: subjects, grades, daily limit',
      tags,
      response: { 200: expertProfileSchema, ...errors(401, 403) },
    },
    handler: (req) => getExpertProfile(ctx, authOf(req)),
  });

  app.route({
    ...endpoint('PUT /api/Profile/expert/saveProfile'),
    schema: {
      summary: 'Save own expert profile',
      description:
        'The whole profile each time (strict body): subjectIds (existing subjects, else 400 `unknown_subject`), ' +
        'parallels (0–11) and maxPerDay (answers assigned per school day, 1–1000; null or omitted = no limit). ' +
        'Answers are assigned to experts whose subjects and grades match the work. Saving assigns queued ' +
        'answers that now match. Audited (`profile.expert.save`).',
      tags,
      body: expertProfileSaveBodySchema,
      response: { 200: expertProfileSchema, ...errors(400, 401, 403) },
    },
    handler: (req) => saveExpertProfile(ctx, { auth: authOf(req), ip: req.ip ?? null }, req.body),
  });
};
