import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../../auth/access.js';
import { adoptEquating, getEquating, setCutScores } from './equating.service.js';

/** Equating tables of a subject test in a diagnostic (issue 28; docs/item-analysis.md, "Equating"). */
export const equatingRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['reports'];

  app.route({
    ...contractRoute('GET /api/reports/equating', {
      summary: 'Proposed and adopted equating tables of a subject test in a diagnostic',
      description:
        'IRT true-score equating through the test characteristic curves of the concurrent CML ' +
        'calibration (variants linked by common tasks): per variant and primary score the ability, ' +
        'the scaled score (expected points on the reference variant) and its conditional standard ' +
        'error. `proposed` from the current results (null with `unavailable` while grading is ' +
        'unfinished, the diagnostic running, or nothing calibrates); `adopted` the adopted version ' +
        'with its cut scores and the participants per level. Admin any diagnostic; ugnik its own ' +
        '(read only). 404 unknown diagnostic or subject test, 403 outside the scope.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => getEquating(db, authOf(req), req.query),
  });

  app.route({
    ...contractRoute('POST /api/reports/equating/adopt', {
      summary: 'Adopt the proposed equating tables (a new version; audited)',
      description:
        'Stores the tables proposed now as the next version; results, reports and exports then show ' +
        'scaled scores and levels from it. The previous version’s cut scores carry over. Admin only. ' +
        '409 `equating_unavailable` when nothing is proposed; 404 unknown diagnostic or subject test.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => adoptEquating(db, { auth: authOf(req), ip: req.ip ?? null }, req.body),
  });

  app.route({
    ...contractRoute('PUT /api/reports/equating/cutScores', {
      summary: 'Set the level cut scores on the adopted scale (audited)',
      description:
        'The lowest scaled score of «базовый», «повышенный» and «высокий»: rising, above the ' +
        'scale’s bottom and at most its top (400 `cut_scores_invalid`). Admin only. 409 ' +
        '`equating_not_adopted` before an adoption; 404 unknown diagnostic or subject test.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) =>
      setCutScores(
        db,
        { auth: authOf(req), ip: req.ip ?? null },
        { diagnosticId: req.body.diagnosticId, subjectTestId: req.body.subjectTestId },
        req.body.cutScores,
      ),
  });
};
