import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { getExpertProfile, saveExpertProfile } from './expert.service.js';

const tags = ['profile'];

/** `/api/Profile/expert/*`: an expert's own profile (what they grade, how much a day). */
export const expertProfileRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('GET /api/Profile/expert/get', {
      summary: 'Own expert profile: subjects, grades, daily limit',
      tags,
      errors: [401, 403],
    }),
    handler: (req) => getExpertProfile(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute('PUT /api/Profile/expert/saveProfile', {
      summary: 'Save own expert profile',
      description:
        'The whole profile each time (strict body): subjectIds (existing subjects, else 400 `unknown_subject`), ' +
        'parallels (0–11) and maxPerDay (answers assigned per school day, 1–1000; null or omitted = no limit). ' +
        'Answers are assigned to experts whose subjects and grades match the work. Saving assigns queued ' +
        'answers that now match. Audited (`profile.expert.save`).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => saveExpertProfile(ctx, actorOf(req), req.body),
  });
};
