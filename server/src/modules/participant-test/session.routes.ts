import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionQuerySchema, clearSessionResultSchema, idParamSchema } from '@attesta/contract';
import { endpoint } from '../../auth/access.js';
import { participantTestInScope } from '../../auth/shared.access.js';
import { errorResponses as errors } from '../../lib/route-docs.js';
import { actorOf } from './info.routes.js';
import { clearSession } from './session.service.js';

/** `GET /api/ParticipantTest/clearSession/{id}`: free the participant's device. */
export const participantTestSessionRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...endpoint(
      'GET /api/ParticipantTest/clearSession/{id}',
      participantTestInScope((req) => (req.params as { id: number }).id),
    ),
    schema: {
      summary: 'Let the participant continue on another device',
      description:
        'State-changing GET (send `X-Requested-With: XMLHttpRequest`). Drops the device binding of the ' +
        'live exam work and ends every session bound to the participant test; saved answers and the ' +
        'clock are untouched. Optional query `reason` goes to the audit (`participant_test.clear_session`).',
      tags: ['participant-test'],
      params: z.object({ id: idParamSchema }),
      querystring: clearSessionQuerySchema,
      response: { 200: clearSessionResultSchema, ...errors(400, 401, 403, 404) },
    },
    handler: (req) => clearSession(ctx, actorOf(req), req.params.id, req.query.reason),
  });
};
