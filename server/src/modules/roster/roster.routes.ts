import multipart from '@fastify/multipart';
import { rosterImportFormSchema } from '@attesta/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { badRequest } from '../../lib/errors.js';
import { closeRefusedUploads, Spool } from '../../lib/multipart.js';
import { attachmentDisposition } from '../../lib/xlsx.js';
import { MULTIPART_LIMITS, readUploadForm } from '../files/index.js';
import { MAX_ROSTER_BYTES, MAX_ROSTER_ROWS } from './roster.parse.js';
import * as service from './roster.service.js';
import { rosterTemplate } from './roster.template.js';

/**
 * `/api/admin/roster/*` (issue 13): students with their ОО, schools, buildings and classes from a
 * spreadsheet, and its template. Admins import for any school, coordinators for their own.
 */
const tags = ['roster'];

const actor = (req: FastifyRequest): service.Actor => {
  const auth = authOf(req);
  return {
    userId: auth.userId,
    ip: req.ip ?? null,
    // The route's roles leave admins and coordinators; a coordinator without a school has none.
    ownSchoolId: auth.roles.includes('admin') ? null : (auth.schoolId ?? 0),
  };
};

export const rosterRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('GET /api/admin/roster/template', {
      summary: 'The roster import template',
      description:
        'An .xlsx workbook (default) or a UTF-8 .csv (semicolons, with a BOM): the header in Russian and ' +
        'one example row.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: async (req, reply) => {
      const { data, fileName, mime } = await rosterTemplate(req.query.format);
      return (
        reply
          .header('content-disposition', attachmentDisposition(fileName))
          .type(mime)
          // Fastify sends a Buffer as-is; the error schemas do not apply to it.
          .send(data as never)
      );
    },
  });

  // The import reads a multipart form: its own plugin, so only this route parses multipart.
  await app.register(async (child) => {
    const upload = child.withTypeProvider<ZodTypeProvider>();
    await upload.register(multipart, {
      limits: { ...MULTIPART_LIMITS, fileSize: MAX_ROSTER_BYTES, files: 1 },
    });
    closeRefusedUploads(upload);
    const route = contractRoute('POST /api/admin/roster/import', {
      summary: 'Import students with their ОО, schools, buildings and classes (all or nothing)',
      description:
        'Multipart: the field `dryRun` (`true` | `false`, before the file), then the file `file`: .xlsx ' +
        `(first sheet) or .csv in UTF-8 with commas or semicolons, at most 5 MB and ${MAX_ROSTER_ROWS} ` +
        'rows. One row per student; the header (English or Russian, any order) names oo, school, ' +
        'building, grade, class, surname, name, patronymic, birthDate, externalId (docs/roster.md). ' +
        'A file with any row error writes nothing and answers 200 with `errors` (row, column, code); ' +
        'the counts then say what the other rows would do. A dry run writes nothing. Re-importing a ' +
        'file changes nothing. A coordinator imports only their own school. 400 `unsupported_format`, ' +
        '`validation_failed` (a missing column), `too_many_rows`; 413 over 5 MB; 409 `conflict` when another ' +
        'call wrote the same class or external id meanwhile (nothing written). Audited (counts only).',
      tags,
      errors: [400, 401, 403, 409, 413],
    });
    upload.route({
      ...route,
      schema: { ...route.schema, consumes: ['multipart/form-data'] },
      handler: async (req) => {
        const spool = new Spool();
        try {
          let dryRun = false;
          const { files } = await readUploadForm(req, spool, async (fields) => {
            const form = rosterImportFormSchema.safeParse(fields);
            if (!form.success)
              throw badRequest('validation_failed', 'dryRun is `true` or `false`', [
                { path: 'dryRun', message: 'is `true` or `false`' },
              ]);
            dryRun = form.data.dryRun === 'true';
            return { perFileBytes: MAX_ROSTER_BYTES, quotaBytes: null };
          });
          const file = files[0];
          if (!file) throw badRequest('no_file', 'Send the roster as the form field `file`');
          return await service.importRoster(
            db,
            actor(req),
            { name: file.name, data: await file.read() },
            dryRun,
          );
        } finally {
          await spool.cleanup();
        }
      },
    });
  });
};
