import multipart from '@fastify/multipart';
import { rosterImportFormSchema } from '@attesta/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { badRequest } from '../../lib/errors.js';
import { Spool } from '../../lib/multipart.js';
import { attachmentDisposition } from '../../lib/xlsx.js';
import { MULTIPART_LIMITS, readUploadForm } from '../files/index.js';
import { MAX_ROSTER_BYTES, MAX_ROSTER_ROWS } from './roster.parse.js';
import * as service from './roster.service.js';
import { rosterTemplate, staffTemplate } from './roster.template.js';
import * as staffService from './staff.service.js';

/**
 * `/api/admin/roster/*` (issue 13): students with their ОО, schools, buildings and classes, and
 * staff (organizators, coordinators, workers) from a spreadsheet, and their templates. Admins
 * import for any school, coordinators for their own.
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

/** A template answered as a download. */
async function sendTemplate(
  reply: FastifyReply,
  made: Promise<{ data: Buffer; fileName: string; mime: string }>,
) {
  const { data, fileName, mime } = await made;
  return (
    reply
      .header('content-disposition', attachmentDisposition(fileName))
      .type(mime)
      // Fastify sends a Buffer as-is; the error schemas do not apply to it.
      .send(data as never)
  );
}

/**
 * Reads an import's multipart form — the field `dryRun` before the file `file` — and hands the
 * file to the import; the spooled upload is removed whatever happens.
 */
async function readImportForm<R>(
  req: FastifyRequest,
  run: (file: { name: string; data: Buffer }, dryRun: boolean) => Promise<R>,
): Promise<R> {
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
    if (!file) throw badRequest('no_file', 'Send the file as the form field `file`');
    return await run({ name: file.name, data: await file.read() }, dryRun);
  } finally {
    await spool.cleanup();
  }
}

const FILE_RULES =
  'Multipart: the field `dryRun` (`true` | `false`, before the file), then the file `file`: .xlsx ' +
  `(first sheet) or .csv in UTF-8 with commas or semicolons, at most 5 MB and ${MAX_ROSTER_ROWS} rows. `;

export const rosterRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db, config } = ctx;
  // Where e-mailed links point, as the account module's own mails do.
  const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;

  app.route({
    ...contractRoute('GET /api/admin/roster/template', {
      summary: 'The roster import template',
      description:
        'An .xlsx workbook (default) or a UTF-8 .csv (semicolons, with a BOM): the header in Russian and ' +
        'one example row.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req, reply) => sendTemplate(reply, rosterTemplate(req.query.format)),
  });

  app.route({
    ...contractRoute('GET /api/admin/roster/staff/template', {
      summary: 'The staff import template',
      description:
        'An .xlsx workbook (default) or a UTF-8 .csv (semicolons, with a BOM): the header in Russian and ' +
        'one example row (an organizator).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req, reply) => sendTemplate(reply, staffTemplate(req.query.format)),
  });

  // The imports read a multipart form: their own plugin, so only these routes parse multipart.
  await app.register(async (child) => {
    const upload = child.withTypeProvider<ZodTypeProvider>();
    await upload.register(multipart, {
      limits: { ...MULTIPART_LIMITS, fileSize: MAX_ROSTER_BYTES, files: 1 },
    });
    const route = contractRoute('POST /api/admin/roster/import', {
      summary: 'Import students with their ОО, schools, buildings and classes (all or nothing)',
      description:
        FILE_RULES +
        'One row per student; the header (English or Russian, any order) names oo, school, ' +
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
      handler: (req) =>
        readImportForm(req, (file, dryRun) => service.importRoster(db, actor(req), file, dryRun)),
    });

    const staffRoute = contractRoute('POST /api/admin/roster/staff/import', {
      summary: 'Import organizators, coordinators and workers of schools (all or nothing)',
      description:
        FILE_RULES +
        'One row per person; the header (English or Russian, any order) names oo, school, role ' +
        '(organizator, coordinator, worker), surname, name, patronymic, email, login, position, ' +
        'externalId (docs/roster.md, «Staff»). A person is matched by external id, else login, else ' +
        'e-mail, else school + full name + role. New accounts get no password: each one with an ' +
        'e-mail is sent the password setup link after the import; no password or token is ever ' +
        'answered. Errors, dry run, re-import and 400/409/413 as the student import. A coordinator ' +
        'imports organizators and workers of their own school only (`school_out_of_scope`, ' +
        '`role_not_allowed`). Audited (counts only).',
      tags,
      errors: [400, 401, 403, 409, 413],
    });
    upload.route({
      ...staffRoute,
      handler: (req) =>
        readImportForm(req, (file, dryRun) =>
          staffService.importStaff(ctx, req.log, actor(req), file, dryRun, origin(req)),
        ),
    });
  });
};
