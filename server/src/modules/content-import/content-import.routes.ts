import { actorOf } from '../../auth/actor.js';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CONTENT_IMPORT_MAX_BYTES } from '@attesta/contract';
import { contractRoute } from '../../auth/access.js';
import { registerJobHandler } from '../../jobs/runner.js';
import { attachmentDisposition } from '../../lib/file-sniff.js';
import { Spool } from '../../lib/multipart.js';
import * as service from './content-import.service.js';
import { IMPORT_JOB, runImportJob } from './job.js';

/**
 * `/api/admin/content/import` and the QTI 3.0 export (issue 11). Admin only. The upload is queued
 * as an `import` queue item whose job parses, checks and stores the file (all or nothing).
 */
const tags = ['content-import'];
const MB = CONTENT_IMPORT_MAX_BYTES / 1024 / 1024;

export const contentImportRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  registerJobHandler(IMPORT_JOB, runImportJob);
  // Multipart only in this plugin's scope (a second file is refused by the form reader, 400).
  await app.register(multipart, {
    limits: { fileSize: CONTENT_IMPORT_MAX_BYTES, files: 2, fields: 4, fieldSize: 1024, parts: 6 },
  });

  const importRoute = contractRoute('POST /api/admin/content/import', {
    summary: 'Import tasks and tests from a QTI package, Moodle XML or GIFT file (queued)',
    description:
      'multipart/form-data: the optional field `subjectId` first (the subject whose task pool ' +
      'receives the tasks; absent: a subject named after the items’ common top category, or the ' +
      `file), then the file in the field \`file\`: a QTI 2.1/2.2/3.0 package (.zip, up to ${MB} MB, ` +
      'with imsmanifest.xml), a Moodle XML or bare QTI item/test (.xml), or GIFT (.gift, .txt). ' +
      'Answers 202 `{importId}`: a queue item of type `import` (also in the queue pages); poll ' +
      '`GET /api/admin/content/import/{importId}`. Refused at once: no file (400 `no_file`), a bad ' +
      '`subjectId` (400), an unknown subject (404), another kind of file (415 `unsupported_format`), ' +
      `more than ${MB} MB (413, answered at once). The job refuses the whole file, creating ` +
      'nothing, for an unsafe or oversized package (`package_unsafe`, `package_too_large`: zip ' +
      'bombs, `..` or absolute names, links), XML with DOCTYPE/ENTITY or too deep (`xml_malformed`), ' +
      'or a file no parser reads (`unsupported_format`, `import_invalid`). Audited.',
    tags,
    errors: [400, 401, 403, 404, 413, 415],
  });
  app.route({
    ...importRoute,
    handler: async (req, reply) => {
      const spool = new Spool();
      try {
        const form = await service.readImportForm(db, req, spool);
        const queued = await service.startImport(db, actorOf(req), form);
        return reply.code(202).send(queued);
      } finally {
        await spool.cleanup();
      }
    },
  });

  app.route({
    ...contractRoute('GET /api/admin/content/import/{importId}', {
      summary: 'State and per-item report of a content import',
      description:
        '`status` queued, running, done or failed; `error` `{code, message}` when it failed (or its ' +
        'last attempt failed and a retry is queued). Once done, `items` gives each source item in ' +
        'order — `sourceId`, `title`, the `taskId` and `answerType` created (null when refused), ' +
        '`outcome` imported/converted/refused, `notes` (English texts) and `noteCodes` (the same ' +
        'notes as `{code, params}`, in the same order, for interfaces to show in their language) — ' +
        'and `subjectTestIds` the draft subject tests made from the tests of the file. 404 for an ' +
        'id that is not an import.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.importStatus(db, req.params.importId),
  });

  app.route({
    ...contractRoute('POST /api/admin/content/import/{importId}/fullMarks', {
      summary: 'Give the full marks of a task the import held',
      description:
        'An item whose full marks the importer could not derive from its rules is created with ' +
        "`fullMarksNeeded` and held out of the file's test. `taskId` names it, `maxScore` (more than 0, " +
        'at most 100, hundredths) gives them: the task gets them and the report item no longer waits ' +
        "(a `full_marks_given` note). Answers the import's report. 404 when the import has no item " +
        'waiting with this task (or is not finished); 409 `conflict` when the task was edited since. Audited.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: (req) => service.giveFullMarks(db, actorOf(req), req.params.importId, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/content/subjectTests/{id}/export', {
      summary: 'A subject test as an IMS QTI 3.0 package (zip)',
      description:
        '`format=qti3` (the default): application/zip with imsmanifest.xml, one item file per task ' +
        '(identifier: the task’s source id when it had one), the assessment test (one section per ' +
        'current variant; several variants under a section selecting one) and the tasks’ media. ' +
        'Interactions and response processing follow each answer type (standard templates where ' +
        'they fit). 404 unknown subject test.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req, reply) => {
      const { fileName, zip } = await service.exportSubjectTest(db, req.params.id);
      const body: unknown = zip;
      return reply
        .type('application/zip')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'private, no-store')
        .send(body as never);
    },
  });
};
