import { ANSWER_FILE_MAX_BYTES } from '@attesta/contract';
import { AppError } from '../../lib/errors.js';
import { sniffFile, storedFileName } from '../../lib/file-sniff.js';
import type { IncomingFile } from '../../lib/multipart.js';
import type { AnswerTask } from './answer-value.js';

/*
 * Checks of uploaded answer files: size from the task (capped), and the type both as declared
 * and as sniffed from the first bytes, so a renamed executable cannot pass as a photo.
 */

/** The contract's cap of an answer file: the runner checks the same number before sending. */
export const MAX_FILE_BYTES = ANSWER_FILE_MAX_BYTES;
const MB = 1024 * 1024;

/** The largest file a file task takes (its maxSizeMb, default 10 MB, never above 20 MB). */
export function taskFileLimit(task: AnswerTask): number {
  const maxMb = typeof task.content.maxSizeMb === 'number' ? task.content.maxSizeMb : 10;
  return Math.min(maxMb * MB, MAX_FILE_BYTES);
}

export const taskFileTooLarge = (limit: number) =>
  new AppError(413, 'payload_too_large', `The file is larger than ${Math.floor(limit / MB)} MB`);

const matches = (pattern: string, mime: string) =>
  pattern.endsWith('/*') ? mime.startsWith(pattern.slice(0, -1)) : pattern.toLowerCase() === mime;

const unsupported = (name: string) =>
  new AppError(415, 'unsupported_file_type', `The file ${name} is not of a type this task accepts`);

/** A checked answer file: its bytes, its sniffed type and the name it is stored under. */
export interface CheckedUpload {
  name: string;
  mime: string;
  data: Buffer;
}

/** Reads a spooled file and checks it against its task: 413 too large, 415 wrong type. */
export async function checkUpload(task: AnswerTask, file: IncomingFile): Promise<CheckedUpload> {
  const limit = taskFileLimit(task);
  if (file.size > limit) throw taskFileTooLarge(limit);
  const data = await file.read();
  const sniffed = sniffFile(data, file.name);
  const declared = file.declaredMime.toLowerCase().split(';')[0]!.trim();
  // HEIC often arrives as image/heif; both name the same container.
  const sameType =
    sniffed !== null &&
    (sniffed.mime === declared || (sniffed.mime === 'image/heic' && declared === 'image/heif'));
  const accept = Array.isArray(task.content.accept) ? (task.content.accept as string[]) : [];
  if (!sameType || !accept.some((p) => matches(p, sniffed.mime))) throw unsupported(file.name);
  return { name: storedFileName(file.name, sniffed), mime: sniffed.mime, data };
}
