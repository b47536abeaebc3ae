import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { issueProctoringToken, proctoringUrl } from './proctoring.service.js';

const tags = ['exam-test'];

const NOT_CONFIGURED =
  '404 `not_configured` when the server has no proctoring service (PROCTORING_URL, PROCTORING_SECRET); ' +
  '409 `work_finished` / `deadline_passed` when the sitting is over.';

/** getProctoringToken and getProctoringUrl: hand-off of a participant to the proctoring service. */
export const proctoringRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('GET /api/exam/test/getProctoringToken', {
      summary: 'Signed, short-lived token (HS256 JWS) for the proctoring service',
      description: `The token names the participant test (sub), the current work (ewid) and the participant. ${NOT_CONFIGURED}`,
      tags,
      errors: [401, 403, 404, 409],
    }),
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return issueProctoringToken(ctx, authOf(req));
    },
  });

  app.route({
    ...contractRoute('GET /api/exam/test/getProctoringUrl', {
      summary: 'The proctoring service page to open, with a fresh token and the return address',
      description:
        '`url` (optional) must be on the configured service origin, `returnUrl` a path of this site or a URL on ' +
        `PUBLIC_URL; otherwise 400 \`url_not_allowed\`. ${NOT_CONFIGURED}`,
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return proctoringUrl(ctx, authOf(req), req.query, `${req.protocol}://${req.host}`);
    },
  });
};
