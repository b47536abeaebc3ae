import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { participantTestInScope } from '../../auth/shared.access.js';
import { examWorkBlanks, examWorkBlanksLayout, examWorkBlanksScope } from './blanks.service.js';
import { paperSitting } from './paper.service.js';

const tags = ['exam-test'];

/**
 * Paper answer forms: GET examwork/{id}/blanks (the forms of an exam work, as a PDF download) and
 * GET participantTest/{id}/paper (what keying in a sitting's form needs).
 */
export const blanksRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.route({
    ...contractRoute(
      'GET /api/exam/test/participantTest/{id}/paper',
      {
        summary: "A sitting's paper form to key in: its work, the variants, a variant's tasks",
        description:
          'For organizators and coordinators whose scope reaches the participant test (403 otherwise, 404 ' +
          'unknown). `work` is its live work: a finished one is keyed in on its own form (PUT saveanswers ' +
          'with its examWorkId); an unfinished one is still open online. Without a work the participant ' +
          'never opened it online: `variants` are the current variants of the subject test and ' +
          '`variantId` asks for the tasks of the one printed on the booklet, as the participant sees them ' +
          '(never a key; 400 for a variant of another test, 409 `window_not_open` before the diagnostic ' +
          'starts). PUT saveanswers with `paper` then creates the work.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      participantTestInScope((req) => (req.params as { id: number }).id),
    ),
    handler: (req) =>
      paperSitting(ctx, req.params.id, req.query.variantId, (taskId) =>
        req.log.warn({ taskId }, 'task content does not match its answer type schema; sent empty'),
      ),
  });

  app.route({
    ...contractRoute(
      'GET /api/exam/test/examwork/{id}/blanks',
      {
        summary: 'Answer forms (бланки ответов) of an exam work for paper mode: the PDF, or its layout',
        description:
          'format=pdf (default) answers `application/pdf` as a download (`blank-<registration code>.pdf`), A4, ' +
          'black and white: a header (diagnostic, work, date, school, class, participant, registration code, ' +
          'variant), instructions and a numbered answer area for each task on paper (all tasks when the work is ' +
          'in blank mode or none is), never a reference answer. Automatically scored tasks are answered with ' +
          'bubbles (choices; matching and ordering as grids; numbers and digit sequences as digit grids whose ' +
          'column count the server derives from the key), short texts in a framed box, expert-graded answers in ' +
          'a framed area. Every page carries four corner registration marks and a QR code with its text ' +
          '`ATTESTA:B2:<registrationCode>:<examWorkId>:<page>:<layoutVersion>` (docs/paper-forms.md). ' +
          'format=layout answers, as JSON, where that very PDF puts its marks, bubbles (centres) and boxes, in ' +
          'points from the top left of each page. A participant gets only their own work; organizators and ' +
          'coordinators the works in their scope. 400 `validation_failed` for another format.',
        tags,
        errors: [400, 401, 403, 404],
      },
      examWorkBlanksScope,
    ),
    handler: async (req, reply) => {
      if (req.query.format === 'layout') return examWorkBlanksLayout(ctx, req.params.id);
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
