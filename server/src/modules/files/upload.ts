import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { AppError, badRequest } from '../../lib/errors.js';
import { cleanFileName, sniffFile } from '../../lib/file-sniff.js';

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

export interface IncomingFile {
  name: string;
  data: Buffer;
}

/** A file checked and ready to store: sniffed type, cleaned name, hash, text for text files. */
export interface CheckedFile {
  name: string;
  mime: string;
  data: Buffer;
  sha256: string;
  text: string | null;
}

/**
 * Reads a whole multipart request: its files (buffered, each within the size limit — an oversize
 * file fails the request with 413 before anything is stored) and its text fields, whatever their order.
 */
export async function readMultipart(
  req: FastifyRequest,
): Promise<{ files: IncomingFile[]; fields: Record<string, string> }> {
  const files: IncomingFile[] = [];
  const fields: Record<string, string> = {};
  for await (const part of req.parts()) {
    if (part.type === 'file') files.push({ name: part.filename, data: await part.toBuffer() });
    else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  return { files, fields };
}

export const unsupportedType = (name: string) =>
  new AppError(
    415,
    'unsupported_media_type',
    `${name}: this kind of file is not accepted (images, PDF, office documents, text, zip)`,
  );

/** Sniffs and names one file; refuses what is not on the allowlist (415) or too large (413). */
export function checkFile(file: IncomingFile): CheckedFile {
  const name = cleanFileName(file.name);
  if (file.data.length > MAX_FILE_BYTES) throw new AppError(413, 'payload_too_large', `${name} is too large`);
  const sniffed = sniffFile(file.data, name);
  if (!sniffed) throw unsupportedType(name);
  return {
    name,
    mime: sniffed.mime,
    data: file.data,
    sha256: createHash('sha256').update(file.data).digest('hex'),
    text: sniffed.mime.startsWith('text/') ? file.data.toString('utf8') : null,
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
