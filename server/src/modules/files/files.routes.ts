import { actorOf } from '../../auth/actor.js';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, contractRoute } from '../../auth/access.js';
import parseRange from 'range-parser';
import { attachmentDisposition } from '../../lib/file-sniff.js';
import type { ByteRange } from '../../lib/file-storage/index.js';
import * as service from './files.service.js';
import { Spool } from '../../lib/multipart.js';
import { MAX_FILE_BYTES, MULTIPART_LIMITS, readUploadForm } from './upload.js';
import { createUrlFetcher, type UrlFetcher } from './url-fetcher.js';
import { registerJobHandler } from '../../jobs/runner.js';
import { FILES_SWEEP_JOB, filesSweepJob, registerFilesSweep } from './files.sweep.js';

const tags = ['files'];

/** A download may be anything a user uploaded: never rendered by the browser, never sniffed. */
const DOWNLOAD_CSP = "sandbox; default-src 'none'";

export interface FilesRoutesOptions {
  /** Replace the URL fetcher of upload_url (tests inject a fake resolver and transport). */
  fetchUrl?: UrlFetcher;
}

/** The one range a Range header asks for (`bytes=…`), unparsed against a size yet; null otherwise. */
function singleRange(header: string | undefined, ifRange: unknown): string | null {
  // No validators (ETag, Last-Modified) are sent, so a conditional range is never met: whole file.
  if (!header || ifRange !== undefined || header.includes(',')) return null;
  return header;
}

/** The bytes of `header` within a file of `size` bytes, or null (malformed, unsatisfiable). */
function rangeWithin(header: string, size: number): ByteRange | null {
  const parsed = parseRange(size, header);
  if (!Array.isArray(parsed) || parsed.type !== 'bytes' || parsed.length !== 1) return null;
  return { start: parsed[0]!.start, end: parsed[0]!.end };
}

/** `/api/files/*`: downloads, uploads (multipart, split PDF, from an allowlisted URL), deletion. */
export const filesRoutes: FastifyPluginAsync<FilesRoutesOptions> = async (plugin, options) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;
  const fetchUrl =
    options.fetchUrl ?? createUrlFetcher({ allowlist: config.uploadUrlAllowlist, maxBytes: MAX_FILE_BYTES });
  // Multipart is parsed only in this plugin's scope, with our own limits.
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  // Blobs no row names (a process that died between a put and its commit) go after a grace period.
  registerJobHandler(FILES_SWEEP_JOB, filesSweepJob(app.ctx));
  registerFilesSweep(plugin);

  app.route({
    ...contractRoute('GET /api/files/{id}', {
      summary: 'Download a file the caller may see',
      description:
        'Always an attachment (`Content-Disposition: attachment` with an RFC 5987 `filename*`), with ' +
        'the stored MIME type, `X-Content-Type-Options: nosniff` and a sandboxing CSP. ' +
        'A `Range: bytes=…` of one range within the file answers 206 with those bytes and ' +
        '`Content-Range` (streamed from the storage: S3 GetObject with a Range, a file slice, or ' +
        'row slices); any other range (several, unsatisfiable, or with `If-Range`) is ignored and ' +
        'the whole file sent (RFC 9110 allows a server to ignore Range).',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: async (req, reply) => {
      const asked = singleRange(req.headers.range, req.headers['if-range']);
      const {
        file,
        data,
        range: bytes,
      } = await service.download(
        db,
        authOf(req),
        req.params.id,
        asked ? (size) => rangeWithin(asked, size) : undefined,
      );
      if (bytes)
        // 206 is no answer of the contract (its schemas are for JSON bodies; this one is bytes).
        (reply as FastifyReply)
          .code(206)
          .header('content-range', `bytes ${bytes.start}-${bytes.end}/${file.size}`)
          .header('content-length', bytes.end - bytes.start + 1);
      else reply.header('content-length', file.size);
      return (
        reply
          .header('accept-ranges', 'bytes')
          .header('content-disposition', attachmentDisposition(file.name))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', DOWNLOAD_CSP)
          .header('cache-control', 'private, no-cache')
          .type(file.mime)
          // Fastify sends a Buffer or a stream as-is; the error schemas above do not apply to it.
          .send(data as never)
      );
    },
  });

  app.route({
    ...contractRoute('GET /api/files/{id}/ext', {
      summary: 'Extension, media type, name and size of a file',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.fileExt(db, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/files/byhtmltextid/{id}', {
      summary: 'Files attached to an html text (those the caller may see)',
      tags,
      errors: [400, 401, 404],
    }),
    handler: (req) => service.filesOfHtmlText(db, authOf(req), req.params.id),
  });

  app.route({
    ...contractRoute('GET /api/files/text/{id}', {
      summary: 'Text of a file: its stored text, or the content of a text file',
      description: '404 when the file has no text (an image, a PDF without extracted text).',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => service.fileText(db, authOf(req), req.params.id),
  });

  const upload = contractRoute('POST /api/files/upload/{id}', {
    summary: 'Upload files (multipart) to an owner',
    description:
      '`{id}` is the owner id; `ownerType` (query or form field): `task`, `html_text`, `help` ' +
      '(admin only) or `general` (anyone; the owner id must be the caller’s own user id). ' +
      `Each file up to ${MAX_FILE_BYTES / 1024 / 1024} MB (413), at most ${MULTIPART_LIMITS.files} files; ` +
      'accepted: images (png, jpeg, gif, webp), PDF, office documents, txt/csv, zip — decided by the ' +
      'file’s own bytes, not its name (415 otherwise). `splitPdf=true` stores each page of a ' +
      'multi-page PDF as its own file. Nothing is stored unless every file is accepted. A form field ' +
      '`ownerType` must come before the files; access and the storage quota of participants and guests ' +
      '(413 `storage_quota_exceeded`) are checked before any file is read, and a refused upload is ' +
      'answered at once. Files are stored under the extension of their real type.',
    tags,
    errors: [400, 401, 403, 404, 413, 415, 422],
  });
  app.route({
    ...upload,
    // The multipart body is read as it streams in (readUploadForm), not by a schema.
    handler: async (req) => {
      const actor = actorOf(req);
      const spool = new Spool();
      try {
        // Who may upload what, and how much, is settled before the first file byte is read.
        const { files, fields } = await readUploadForm(req, spool, async (fields) => {
          const ownerType = service.parseOwnerType(req.query.ownerType ?? fields.ownerType);
          await service.checkUploadOwner(db, actor.auth, ownerType, req.params.id);
          return service.uploadAllowance(db, actor.auth, config.uploadQuotaBytes);
        });
        return await service.upload(
          db,
          actor,
          {
            ownerType: service.parseOwnerType(req.query.ownerType ?? fields.ownerType),
            ownerId: req.params.id,
            files,
            splitPdf: req.query.splitPdf,
          },
          config.uploadQuotaBytes,
        );
      } finally {
        await spool.cleanup();
      }
    },
  });

  app.route({
    ...contractRoute('DELETE /api/files/delete/{id}', {
      summary: 'Delete an uploaded file (soft delete)',
      description:
        'Own uploads; administrators any. Files of a finished exam work stay: 409 `work_finished`.',
      tags,
      errors: [400, 401, 403, 404, 409],
    }),
    handler: async (req) => {
      await service.deleteFile(db, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/files/upload_url', {
      summary: 'Fetch a file from an allow-listed https URL and store it',
      description:
        'Only hosts listed in `UPLOAD_URL_ALLOWLIST` (empty: the call is off, 403 `not_allowed`), ' +
        'https on port 443 only (400 `https_required`), never a host resolving to a private or local ' +
        'address (403 `not_allowed`), redirects only within the same host, size and time capped ' +
        '(413, 504 `upstream_timeout`, 502 `upstream_failed`). The file is checked like an upload.',
      tags,
      errors: [400, 401, 403, 404, 413, 415, 502, 504],
    }),
    handler: (req) => service.uploadFromUrl(db, actorOf(req), req.body, fetchUrl, config.uploadQuotaBytes),
  });
};
