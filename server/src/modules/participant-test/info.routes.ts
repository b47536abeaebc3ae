import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ParticipantTestInfoUpdateBody } from '@attesta/contract';
import { contractRoute } from '../../auth/access.js';
import { participantTestInScope } from '../../auth/shared.access.js';
import * as service from './info.service.js';

const tags = ['participant-test'];

/** `GET /api/ParticipantTest/info/{id}` and `PUT /api/ParticipantTest/info`: the participant test card. */
export const participantTestInfoRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute(
      'GET /api/ParticipantTest/info/{id}',
      {
        summary: 'Participant test card: participant, class, building, date, status, codes, exam work',
        description:
          'Coordinator: own school; organizator: assigned classes and buildings; admin: any. ' +
          'Unknown ids answer 404 for everyone.',
        tags,
        errors: [400, 401, 403, 404],
      },
      participantTestInScope((req) => (req.params as { id: number }).id),
    ),
    handler: (req) => service.getInfo(ctx, req.params.id),
  });

  app.route({
    ...contractRoute(
      'PUT /api/ParticipantTest/info',
      {
        summary: 'Update a participant test card: test date, class, building, status (with a reason)',
        description:
          'An omitted field keeps its value. testDate must lie in the diagnostic window; class and ' +
          'building must belong to the same school (and, for an organizator, stay in their rooms: 403). ' +
          'status: planned | absent | annulled; a change needs `reason` (400). planned/absent with a live ' +
          'exam work: 409 `has_exam_work`. Audited (`participant_test.update`, from → to).',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      participantTestInScope((req) => (req.body as ParticipantTestInfoUpdateBody).id),
    ),
    handler: (req) => service.updateInfo(ctx, actorOf(req), req.body),
  });
};
