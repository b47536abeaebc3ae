import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { AppError, badRequest } from '../../lib/errors.js';
import {
  fieldText,
  partsOf,
  tooLarge,
  uploadLimit,
  type IncomingFile,
  type Spool,
  type UploadAllowance,
} from '../../lib/multipart.js';
import { cleanFileName, sniffFile, storedFileName } from '../../lib/file-sniff.js';

/** Largest file accepted anywhere (uploads, feedback, upload_url). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Most files in one multipart request. */
export const MAX_FILES_PER_REQUEST = 10;
/** A scanned answer form is a few pages; this bounds the work one request can cause. */
const MAX_SPLIT_PAGES = 300;

/** Limits of `@fastify/multipart` for the plugins that accept files. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_FILE_BYTES,
  files: MAX_FILES_PER_REQUEST,
  fields: 20,
  fieldSize: 64 * 1024,
  parts: 40,
};

export type { IncomingFile };

/**
 * A file checked and ready to store: sniffed type, its stored name, hash. `text` is for text
 * extracted from a file; a text file's own bytes are its text (GET /api/files/text/{id}), never
 * copied into the database beside them.
 */
export interface CheckedFile {
  name: string;
  mime: string;
  data: Buffer;
  sha256: string;
  text: string | null;
}

/**
 * Reads an upload form. Text fields that come before the first file are gathered and handed to
 * `allow`, which decides (access, quota) before any file byte is read; files are spooled to disk
 * within that allowance. A text field after a file is refused: what decides must come first.
 */
export async function readUploadForm(
  req: FastifyRequest,
  spool: Spool,
  allow: (fields: Record<string, string>) => Promise<UploadAllowance>,
): Promise<{ files: IncomingFile[]; fields: Record<string, string> }> {
  const files: IncomingFile[] = [];
  const fields: Record<string, string> = {};
  let allowance: UploadAllowance | null = null;
  let spooled = 0;
  for await (const part of partsOf(req)) {
    if (part.type === 'field') {
      if (allowance)
        throw badRequest('validation_failed', `The field ${part.fieldname} must come before the files`, [
          { path: part.fieldname, message: 'text fields go before the files in the form' },
        ]);
      fields[part.fieldname] = fieldText(part);
      continue;
    }
    allowance ??= await allow(fields);
    const file = await spool.file(part, uploadLimit(allowance, spooled));
    spooled += file.size;
    files.push(file);
  }
  if (!allowance) await allow(fields);
  return { files, fields };
}

export const unsupportedType = (name: string) =>
  new AppError(
    415,
    'unsupported_media_type',
    `${name}: this kind of file is not accepted (images, PDF, office documents, text, zip)`,
  );

/**
 * Reads, sniffs and names one file; refuses what is not on the allowlist (415) or too large (413).
 * It is stored under its sniffed type and the extension of that type.
 */
export async function checkFile(file: IncomingFile): Promise<CheckedFile> {
  const shown = cleanFileName(file.name);
  if (file.size > MAX_FILE_BYTES) throw tooLarge(MAX_FILE_BYTES);
  const data = await file.read();
  const sniffed = sniffFile(data, shown);
  if (!sniffed) throw unsupportedType(shown);
  return {
    name: storedFileName(file.name, sniffed),
    mime: sniffed.mime,
    data,
    // Hashed as it was spooled: a 20 MB hash here would hold the server's thread for 50 ms.
    sha256: file.sha256,
    text: null,
  };
}

const pageName = (name: string, page: number) => {
  const stem = name.replace(/\.pdf$/i, '');
  return `${stem}-${String(page).padStart(2, '0')}.pdf`;
};

/** One PDF per page of a multi-page PDF (scanned answer forms); other files pass through. */
export async function splitPdfPages(file: CheckedFile): Promise<CheckedFile[]> {
  if (file.mime !== 'application/pdf') return [file];
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(file.data, { updateMetadata: false });
  } catch {
    throw new AppError(422, 'invalid_pdf', `${file.name}: the PDF cannot be read (damaged or encrypted)`);
  }
  const count = source.getPageCount();
  if (count <= 1) return [file];
  if (count > MAX_SPLIT_PAGES)
    throw badRequest('too_many_pages', `${file.name}: at most ${MAX_SPLIT_PAGES} pages can be split`);
  const pages: CheckedFile[] = [];
  for (let i = 0; i < count; i++) {
    const doc = await PDFDocument.create();
    const [page] = await doc.copyPages(source, [i]);
    doc.addPage(page!);
    const data = Buffer.from(await doc.save());
    pages.push({
      name: pageName(file.name, i + 1),
      mime: file.mime,
      data,
      sha256: createHash('sha256').update(data).digest('hex'),
      text: null,
    });
  }
  return pages;
}
