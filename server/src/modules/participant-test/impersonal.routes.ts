import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { createImpersonal } from './impersonal.service.js';

/** `POST /api/ParticipantTest/participantTestCreateImpersonal`: codes without names. */
export const participantTestImpersonalRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('POST /api/ParticipantTest/participantTestCreateImpersonal', {
      summary: 'Create N anonymous participant tests (codes without names)',
      description:
        'count 1–500. The school comes from classId, buildingId or schoolId (they must agree); a ' +
        'coordinator gets their own school and 403 for another. The subject test must be one of the ' +
        'diagnostic, the date inside its window, the school one of its schools. All or nothing; ' +
        'audited (`participant_test.create_impersonal`). The participant fills in the card later ' +
        '(PUT /api/user/saveParticipant).',
      tags: ['participant-test'],
      errors: [400, 401, 403],
    }),
    handler: (req) => createImpersonal(ctx, actorOf(req), req.body),
  });
};
