import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { listForStaff } from './list.service.js';

const tags = ['participant-test'];

/** `POST /api/ParticipantTest/list`: participant tests in the caller's scope. */
export const participantTestListRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute('POST /api/ParticipantTest/list', {
      summary: 'Page of participant tests in your scope',
      description:
        'Scope: admin all; coordinator own school; organizator the classes and buildings assigned; ' +
        'ugnik the participants of its own diagnostics (roles add up). Filter: diagnosticId, ' +
        'subjectTestId, schoolId, classId, buildingId, testDate, status, isImpersonal, search (name or ' +
        'code). Sort fields: id, testDate, participantName, className, schoolName, status.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => listForStaff(ctx, authOf(req), req.body),
  });
};
