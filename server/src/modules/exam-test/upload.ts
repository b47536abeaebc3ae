import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import { sniffFile } from '../../lib/file-sniff.js';
import type { AnswerTask } from './answer-value.js';
import type { UploadedFile } from './exam-work.service.js';

/*
 * Checks of uploaded answer files: size from the task (capped), and the type both as declared
 * and as sniffed from the first bytes, so a renamed executable cannot pass as a photo.
 */

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
const MB = 1024 * 1024;

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
  const sniffed = sniffFile(file.data, file.name)?.mime ?? null;
  const declared = file.mime.toLowerCase().split(';')[0]!.trim();
  // HEIC often arrives as image/heif; both name the same container.
  const sameType =
    sniffed !== null && (sniffed === declared || (sniffed === 'image/heic' && declared === 'image/heif'));
  const accept = Array.isArray(task.content.accept) ? (task.content.accept as string[]) : [];
  if (!sameType || !accept.some((p) => matches(p, sniffed!))) throw unsupported(file.name);
}

export const sha256Bytes = (data: Buffer) => createHash('sha256').update(data).digest('hex');
