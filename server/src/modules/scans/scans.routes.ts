import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import { Spool } from '../../lib/multipart.js';
import { SCAN_LIMITS } from './decode.js';
import {
  SCAN_MAX_FILE_BYTES,
  SCAN_MAX_FILES,
  acceptScans,
  myBatches,
  scanBatch,
  scanBatchScope,
  scanQueue,
} from './scans.service.js';
import { subscribe } from '../../events/domain-events.js';
import { registerJobHandler } from '../../jobs/runner.js';
import { SCAN_APPLY_JOB, onWorksFinished, scanApplyJob } from './scans.apply.js';
import { SCAN_CLEANUP_JOB, registerScanCleanup, scanCleanupJob } from './scans.cleanup.js';
import {
  resolveReviewItem,
  reviewCrop,
  reviewItemScope,
  reviewList,
  reviewSourceFile,
} from './scans.review.service.js';
import { attachmentDisposition } from '../../lib/file-sniff.js';

const tags = ['scans'];
const MB = SCAN_MAX_FILE_BYTES / 1024 / 1024;

/** Scanned answer sheets (issue 25, item 2; docs/paper-forms.md): upload, then poll the batch. */
export const scansRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const queue = scanQueue(ctx, (batchId, error) =>
    app.log.error({ err: error, batchId }, 'scan batch failed'),
  );
  app.addHook('onClose', () => queue.close());
  // Pages of a work still open online wait; they are applied when the work finishes.
  registerJobHandler(SCAN_APPLY_JOB, scanApplyJob(ctx));
  subscribe('worksFinished', onWorksFinished);
  // Page images of settled batches are deleted after the retention (scans.cleanup.ts).
  registerJobHandler(SCAN_CLEANUP_JOB, scanCleanupJob(ctx));
  registerScanCleanup(plugin);
  await app.register(multipart, {
    limits: { fileSize: SCAN_MAX_FILE_BYTES, files: SCAN_MAX_FILES, fields: 4, fieldSize: 1024, parts: 24 },
  });

  const upload = contractRoute('POST /api/scans', {
    summary: 'Upload scanned answer sheets: a batch read in the background',
    description:
      `multipart/form-data: up to ${SCAN_MAX_FILES} files (any field name), each a PDF, TIFF (multi-page too), ` +
      `JPEG or PNG of up to ${MB} MB and ${SCAN_LIMITS.maxPages} pages. Each file is opened before anything ` +
      'is stored; refused at once, creating nothing: no file or an empty one (400 `no_file`), another kind ' +
      'of file (400 `unsupported_file_type`), an image that cannot be decoded (400 `invalid_image`), a PDF ' +
      'that cannot be read (400 `invalid_pdf`), a page of more than ' +
      `${SCAN_LIMITS.maxPixels / 1_000_000} million pixels (400 \`image_too_large\`), more pages (400 ` +
      '`too_many_pages`), a larger file (413). Answers 202 `{scanBatchId}`; poll `GET /api/scans/{id}`. ' +
      'A page is read only for a form its uploader may reach (an organizator the classes assigned, a ' +
      "coordinator their school's, an admin any); other pages are unidentified. Batches are read by the " +
      'process that took them, one at a time (docs/paper-forms.md).',
    tags,
    errors: [400, 401, 403, 413, 415],
  });
  app.route({
    ...upload,
    handler: async (req, reply) => {
      const spool = new Spool();
      let queued = false;
      try {
        const result = await acceptScans(ctx, queue, authOf(req), req, spool);
        queued = true;
        return await reply.code(202).send(result);
      } finally {
        if (!queued) await spool.cleanup();
      }
    },
  });

  app.route({
    ...contractRoute('GET /api/scans', {
      summary: "The caller's own scan batches, newest first",
      description:
        "Every role lists the batches it uploaded itself (an admin reads another person's batch by its " +
        'id). Each: `status`, when it was uploaded and finished, the names of its files, its pages read ' +
        'so far by status, and its review items still open. Paged (`page`, `pageSize` up to 100; 400 ' +
        '`validation_failed` beyond).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => myBatches(ctx, authOf(req), req.query),
  });

  app.route({
    ...contractRoute(
      'GET /api/scans/{id}',
      {
        summary: 'A scan batch: how it stands and what was read off each page',
        description:
          '`status` queued, running, done or failed; `pages` the pages read so far, file by file. A page ' +
          'is recognized (every mark clear), needs_review (a doubtful or double mark, a sheet of another ' +
          'layout, corner marks not found), unidentified (no page code, or a form out of reach) or duplicate ' +
          "(the uploader had the same page of the same file read before). `answers` per task: the marked bubbles' layout values " +
          "and a confidence 0…1 (0: a double mark). The uploader's own batches only (an admin any; 403), " +
          '404 unknown.',
        tags,
        errors: [400, 401, 403, 404],
      },
      scanBatchScope,
    ),
    handler: (req) => scanBatch(ctx, req.params.id),
  });

  // ---------------------------------------------------------------- one screen for doubt (item 3)

  app.route({
    ...contractRoute('GET /api/scans/review', {
      summary: 'Scan review items within reach, and open items per class',
      description:
        'Items reading scans could not settle: doubtful (a mark under the confidence threshold or a ' +
        'double mark), key_text (a text box to type in), unidentified (a page without a readable code ' +
        'of a form within reach), unreadable (identified, not read: another layout, a corner mark ' +
        'missing), replace (a newer scan reading an answer a scan saved otherwise). Filtered by ' +
        '`classId`, `kind`, `status` (open by default), paged. `counts`: open items per class within ' +
        "the caller's reach, whatever the filter (a coordinator their school, an organizator their " +
        'classes, an admin all; pages tied to no sitting: their uploader and admins).',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => reviewList(ctx, authOf(req), req.query),
  });

  app.route({
    ...contractRoute(
      'GET /api/scans/review/{id}/crop',
      {
        summary: "A review item's crop of the scan (PNG)",
        description:
          "The task's bubbles or the text box, cut straightened by the page's registration marks, or " +
          'the whole page of a page item. 404 unknown, or no image (the page was not decoded, or its ' +
          'image was deleted after the retention: `crop: false` in the item). Scope as the item (403).',
        tags,
        errors: [400, 401, 403, 404],
      },
      reviewItemScope,
    ),
    handler: async (req, reply) =>
      reply
        .type('image/png')
        .header('cache-control', 'private, no-store')
        .send(await reviewCrop(ctx, req.params.id)),
  });

  app.route({
    ...contractRoute(
      'GET /api/scans/review/{id}/file',
      {
        summary: 'The uploaded file of a review item whose page could not be decoded',
        description:
          'A page whose pixels could not be decoded (a file damaged past its header) waits as an ' +
          'unidentified item with no crop (`crop: false`, `problem` says why); its file is kept as ' +
          'uploaded (`sourceFile: true`) until the batch is cleaned up, and answered here as an ' +
          'attachment. 404 when the item has none. Scope as the item (403).',
        tags,
        errors: [400, 401, 403, 404],
      },
      reviewItemScope,
    ),
    handler: async (req, reply) => {
      const file = await reviewSourceFile(ctx, req.params.id);
      return reply
        .type(file.mime)
        .header('content-disposition', attachmentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    },
  });

  app.route({
    ...contractRoute(
      'POST /api/scans/review/{id}',
      {
        summary: 'Resolve a scan review item',
        description:
          'accept (doubtful, replace: save what the scan read), set (doubtful: save these layout ' +
          'values), key (key_text: the text the crop shows), identify (unidentified: read the page ' +
          'again as this page of this form), dismiss (unidentified, unreadable, replace). Values are ' +
          'saved as a keyed paper form is (PUT saveanswers?registrationCode=…: answer mode blank, ' +
          'audited, a finished work scored again). Another action of the kind: 400 ' +
          '`validation_failed` on `body.action`; a value the task cannot take (not one of its ' +
          'bubbles, two marks where it takes one): 400 `validation_failed` on `body.value`; a code ' +
          'or page of no form within reach: 400 on `body.registrationCode` / `body.formPage`; an ' +
          'item resolved already: 409 `conflict`; the save refused as a keyed form would be (409 ' +
          '`work_not_finished`: the work is still open online; `stale_sequence`: saves of the task kept ' +
          'overtaking it) leaves the item open. Scope as the item (403), 404 unknown.',
        tags,
        errors: [400, 401, 403, 404, 409],
      },
      reviewItemScope,
    ),
    handler: (req) =>
      resolveReviewItem(ctx, { auth: authOf(req), ip: req.ip, deviceId: null }, req.params.id, req.body),
  });
};
