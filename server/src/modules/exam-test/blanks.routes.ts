import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { examWorkBlanks, examWorkBlanksScope } from './blanks.service.js';

const tags = ['exam-test'];

/** GET examwork/{id}/blanks: the paper answer forms of an exam work, as a PDF download. */
export const blanksRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute(
      'GET /api/exam/test/examwork/{id}/blanks',
      {
        summary: 'Answer forms (бланки ответов) of an exam work for paper mode, as a PDF',
        description:
          'Answers `application/pdf` as a download (`blank-<registration code>.pdf`): a header (diagnostic, ' +
          'work, date, school, class, participant, registration code, variant), instructions and a numbered ' +
          'answer area for each task on paper (all tasks when the work is in blank mode or none is), never a ' +
          'reference answer. Every page carries a QR code and its text ' +
          '`ATTESTA:B1:<registrationCode>:<examWorkId>:<page>` to match scanned pages. A participant gets only ' +
          'their own work; organizators and coordinators the works in their scope.',
        tags,
        errors: [400, 401, 403, 404],
      },
      examWorkBlanksScope,
    ),
    handler: async (req, reply) => {
      const { filename, pdf } = await examWorkBlanks(ctx, req.params.id);
      // A Buffer bypasses the serializer; the personal data in it must not linger in shared caches.
      const body: unknown = pdf;
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(body as never);
    },
  });
};
