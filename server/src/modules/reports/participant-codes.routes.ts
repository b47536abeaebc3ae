import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ParticipantCodesQuery } from '@attesta/contract';
import { authOf, contractRoute } from '../../auth/access.js';
import { attachmentDisposition } from '../../lib/xlsx.js';
import { participantCodes, type CodesRole } from './participant-codes.service.js';

const tags = ['reports'];

const description = (who: string) =>
  `${who} Query \`diagnosticId\`, optional \`classId\`, \`format\` = \`pdf\` (default: cut-out slips, ` +
  'eight per A4 page, each with school, class, participant, subject test, date and time window, the ' +
  'activation code in large type, a QR code of the login page with the code filled in, and a short ' +
  'instruction) or `xlsx` (the same as a list). 404 unknown diagnostic or class, 403 outside the scope. Audited.';

/** Printable participant codes for the coordinator and the room organizator. */
export const participantCodesRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;

  const send = async (
    role: CodesRole,
    req: FastifyRequest<{ Querystring: ParticipantCodesQuery }>,
    reply: FastifyReply,
  ) => {
    const origin = config.publicUrl ?? `${req.protocol}://${req.host}`;
    const file = await participantCodes(
      db,
      role,
      { auth: authOf(req), ip: req.ip ?? null, origin },
      req.query,
    );
    const body: unknown = file.body;
    return reply
      .type(file.mime)
      .header('content-disposition', attachmentDisposition(file.fileName))
      .header('cache-control', 'private, no-store')
      .send(body as never);
  };

  app.route({
    ...contractRoute('GET /api/reports/coordinator/participantCodes', {
      summary: "Participant codes of the coordinator's school, to print (PDF slips or xlsx)",
      description: description('Rows of the caller’s school in a diagnostic that includes it.'),
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req, reply) => send('coordinator', req, reply),
  });

  app.route({
    ...contractRoute('GET /api/reports/organizator/participantCodes', {
      summary: "Participant codes of the organizator's rooms, to print (PDF slips or xlsx)",
      description: description('Rows of the classes and buildings assigned to the caller.'),
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req, reply) => send('organizator', req, reply),
  });
};
