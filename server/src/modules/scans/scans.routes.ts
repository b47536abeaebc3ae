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
  scanBatch,
  scanBatchScope,
  scanQueue,
} from './scans.service.js';

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
    schema: { ...upload.schema, consumes: ['multipart/form-data'] },
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
};
