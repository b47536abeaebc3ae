import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../../auth/access.js';
import { equatingRoutes } from './equating.routes.js';
import { itemAnalysis } from './item-analysis.service.js';

/** GET /api/reports/itemAnalysis: item analysis of a subject test in a diagnostic (issue 12). */
export const itemAnalysisRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/reports/itemAnalysis', {
      summary:
        'Item analysis of a subject test in a diagnostic: classical statistics and a Rasch calibration',
      description:
        'Per task: facility (mean score ÷ max), corrected point-biserial and upper–lower 27 % ' +
        "discrimination, Cronbach's α-if-deleted, score distribution, distractors of choice tasks " +
        '(overall, upper and lower group) and flags; per variant: α, total distribution and the ' +
        'expected score at fixed abilities; a Rasch (1PL, tasks dichotomised at full marks) CML ' +
        'calibration across the variants with standard errors, infit/outfit and a person–item map. ' +
        'Coordinator: a diagnostic covering their school, over its participants; ugnik: its ' +
        'diagnostics; admin: any. `withheld: true` with the reason while expert grading of the ' +
        'subject test in the diagnostic is unfinished, or while the diagnostic is running and ' +
        'unpublished. 404 unknown diagnostic or subject test, 403 outside the scope. See docs/item-analysis.md.',
      tags: ['reports'],
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => itemAnalysis(db, authOf(req), req.query),
  });
  // equating tables, adoption and cut scores (issue 28)
  await plugin.register(equatingRoutes);
};
