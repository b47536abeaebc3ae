import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import type { AnswerTask } from './answer-value.js';
import type { UploadedFile } from './exam-work.service.js';

/*
 * Checks of uploaded answer files: size from the task (capped), and the type both as declared
 * and as sniffed from the first bytes, so a renamed executable cannot pass as a photo.
 */

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
const MB = 1024 * 1024;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
const ascii = (data: Buffer, from: number, to: number) => data.subarray(from, to).toString('latin1');

/** The real type of a file from its magic bytes, or null when it is none we accept. */
export function sniffMime(data: Buffer): string | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(data, 0, 5) === '%PDF-') return 'application/pdf';
  if (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(data, 4, 8) === 'ftyp' && ['heic', 'heix', 'mif1', 'msf1', 'hevc'].includes(ascii(data, 8, 12)))
    return 'image/heic';
  // A .docx is a zip; its declared type tells it from other zips.
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return DOCX;
  return null;
}

const matches = (pattern: string, mime: string) =>
  pattern.endsWith('/*') ? mime.startsWith(pattern.slice(0, -1)) : pattern.toLowerCase() === mime;

const unsupported = (name: string) =>
  new AppError(415, 'unsupported_file_type', `The file ${name} is not of a type this task accepts`);

/** Throws 413 / 415 when a file does not fit its task. */
export function checkUpload(task: AnswerTask, file: UploadedFile): void {
  const maxMb = typeof task.content.maxSizeMb === 'number' ? task.content.maxSizeMb : 10;
  const limit = Math.min(maxMb * MB, MAX_FILE_BYTES);
  if (file.data.length > limit)
    throw new AppError(
      413,
      'payload_too_large',
      `The file ${file.name} is larger than ${Math.floor(limit / MB)} MB`,
    );
  const sniffed = sniffMime(file.data);
  const declared = file.mime.toLowerCase().split(';')[0]!.trim();
  // HEIC often arrives as image/heif; both name the same container.
  const sameType =
    sniffed !== null && (sniffed === declared || (sniffed === 'image/heic' && declared === 'image/heif'));
  const accept = Array.isArray(task.content.accept) ? (task.content.accept as string[]) : [];
  if (!sameType || !accept.some((p) => matches(p, sniffed!))) throw unsupported(file.name);
}

export const sha256Bytes = (data: Buffer) => createHash('sha256').update(data).digest('hex');
