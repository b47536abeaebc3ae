import { actorOf } from '../../auth/actor.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import { attachmentDisposition, XLSX_MIME } from '../../lib/xlsx.js';
import * as service from './create-diagnostic.service.js';

const tags = ['create-diagnostic'];

/** Creating a diagnostic, the lists its form chooses from, and its participants-and-codes spreadsheet. */
export const createDiagnosticRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('POST /api/createDiagnostic/create', {
      summary: 'Create a diagnostic',
      description:
        'A coordinator creates one for their own school only (`schoolIds` may be left out; any other ' +
        'school is 403); an ugnik always creates an `inspection` for any existing schools; an admin ' +
        'anything. `endsAt` must be after `startsAt`; every subject test must exist and be offered for ' +
        'one of the `parallels` (400 `validation_failed` naming the field). Without `code` one is ' +
        'generated as `D-YYYY-NNNN` (year of `startsAt`); a code in use is 409 `code_taken`. Audited.',
      tags,
      errors: [400, 401, 403, 409],
    }),
    handler: (req) => service.createDiagnostic(db, actorOf(req), req.body),
  });

  app.route({
    ...contractRoute('GET /api/createDiagnostic/excel', {
      summary: "Spreadsheet (xlsx) of a diagnostic's participants and their codes",
      description:
        'Columns: school, class, surname, name, patronymic, subject test, date, activation code, ' +
        'registration code, status; sorted by school, class, surname. A coordinator gets only their ' +
        "school's rows of a diagnostic that includes their school; an ugnik its own diagnostics; an " +
        'admin any. 404 unknown diagnostic, 403 outside the scope. Cells never start a formula.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req, reply) => {
      const { xlsx, fileName } = await service.diagnosticExcel(db, actorOf(req), req.query.diagnosticId);
      const body: unknown = xlsx;
      return reply
        .type(XLSX_MIME)
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'private, no-store')
        .send(body as never);
    },
  });

  app.route({
    ...contractRoute('GET /api/createDiagnostic/specifications', {
      summary: 'Specifications (кодификаторы) to choose from, with their element counts',
      tags,
      errors: [401, 403],
    }),
    handler: () => service.listSpecifications(db),
  });

  app.route({
    ...contractRoute('GET /api/createDiagnostic/subjectTests', {
      summary: 'Subject tests to choose from: subject, parallels, duration, variant count',
      description: 'Query `parallel` (0–11): only tests offered for that grade.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listSubjectTestOptions(db, req.query.parallel),
  });
};
