import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { participantTestInScope } from '../../auth/shared.access.js';
import { clearSession } from './session.service.js';

/** `GET /api/ParticipantTest/clearSession/{id}`: free the participant's device. */
export const participantTestSessionRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute(
      'GET /api/ParticipantTest/clearSession/{id}',
      {
        summary: 'Let the participant continue on another device',
        description:
          'State-changing GET (send `X-Requested-With: XMLHttpRequest`). Drops the device binding of the ' +
          'live exam work and ends every session bound to the participant test; saved answers and the ' +
          'clock are untouched. Optional query `reason` goes to the audit (`participant_test.clear_session`).',
        tags: ['participant-test'],
        errors: [400, 401, 403, 404],
      },
      participantTestInScope((req) => (req.params as { id: number }).id),
    ),
    handler: (req) => clearSession(ctx, actorOf(req), req.params.id, req.query.reason),
  });
};
