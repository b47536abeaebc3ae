import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { AppError, badRequest } from './errors.js';
import { assertCleanText, invalidText, isCleanText } from './text-hygiene.js';

/*
 * Multipart uploads that cannot exhaust the server (docs/design.md §6):
 * - a route decides whether the caller may upload at all, and how much, BEFORE the first byte of a
 *   file is read (the fields it needs must come first in the form);
 * - each file streams through a size cap, a hash and onto a temporary file on disk, so a request
 *   holds at most one file in memory, and only while that file is stored;
 * - a refused request is answered at once, before the rest of its body is read; that rest is then
 *   read and thrown away (up to a bound, lib/unread-body.ts), so the client receives the answer
 *   instead of a reset.
 */

/** A file of a request, spooled to disk: read it (once, while storing it) with `read()`. */
export interface IncomingFile {
  /** The name the client sent (unchecked; see storedFileName). */
  name: string;
  /** The type the client claimed. */
  declaredMime: string;
  size: number;
  sha256: string;
  read(): Promise<Buffer>;
}

/** An in-memory file (e.g. fetched from an allow-listed URL) as an IncomingFile. */
export function bufferFile(
  name: string,
  data: Buffer,
  declaredMime = 'application/octet-stream',
): IncomingFile {
  return {
    name,
    declaredMime,
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    read: async () => data,
  };
}

/** How many bytes a file may have, and the error when it has more. */
export interface ByteLimit {
  bytes: number;
  error: () => AppError;
}

export const tooLarge = (bytes: number) =>
  new AppError(413, 'payload_too_large', `A file is larger than ${Math.floor(bytes / 1024 / 1024)} MB`);
export const quotaExceeded = () =>
  new AppError(
    413,
    'storage_quota_exceeded',
    'Your storage for uploaded files is full: delete files you no longer need',
  );

/** What may be read of a request's files: per file, and in all (the caller's storage quota). */
export interface UploadAllowance {
  perFileBytes: number;
  /** Bytes left of the quota, or null where no quota applies (staff). */
  quotaBytes: number | null;
}

/** The limit of the next file, given what the request already spooled. */
export function uploadLimit(
  allowance: UploadAllowance,
  spooledBytes: number,
  perFileBytes = allowance.perFileBytes,
): ByteLimit {
  const left = allowance.quotaBytes === null ? Infinity : allowance.quotaBytes - spooledBytes;
  return left < perFileBytes
    ? { bytes: Math.max(0, left), error: quotaExceeded }
    : { bytes: perFileBytes, error: () => tooLarge(perFileBytes) };
}
/** Temporary files of one request
, removed by `cleanup()` (call it in `finally`). */
export class Spool {
  private dir: Promise<string> | null = null;
  private count = 0;

  private folder() {
    this.dir ??= mkdtemp(join(tmpdir(), 'attesta-upload-'));
    return this.dir;
  }

  /** Streams one file part to disk, refusing it as soon as it passes `limit`. */
  async file(part: MultipartFile, limit: ByteLimit): Promise<IncomingFile> {
    const name = part.filename ?? '';
    if (!isCleanText(name)) throw invalidText(`${part.fieldname}.filename`);
    const path = join(await this.folder(), String(++this.count));
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit.bytes) return done(limit.error());
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(part.file, meter, createWriteStream(path));
    // @fastify/multipart truncates at its own fileSize limit (and errors the stream by default).
    if (part.file.truncated) throw limit.error();
    return {
      name,
      declaredMime: part.mimetype,
      size,
      sha256: hash.digest('hex'),
      read: () => readFile(path),
    };
  }

  async cleanup(): Promise<void> {
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
  }
}

/** A text field's value, checked as text (400 `invalid_text` for NUL or lone surrogates). */
export function fieldText(part: Multipart): string {
  const value = part.type === 'field' && typeof part.value === 'string' ? part.value : '';
  if (!isCleanText(part.fieldname)) throw invalidText('form');
  if (!isCleanText(value)) throw invalidText(part.fieldname);
  return value;
}

/**
 * A JSON form field parsed as the JSON routes parse bodies: `__proto__` and `constructor.prototype`
 * keys are refused (prototype poisoning), as is text that is not valid Unicode.
 */
export function parseJsonField(name: string, text: string): unknown {
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const poisoned = error instanceof SyntaxError && /prototype|constructor/i.test(error.message);
    throw badRequest(
      'malformed_json',
      poisoned
        ? `The field \`${name}\` holds a forbidden __proto__ or constructor key`
        : `The field \`${name}\` is not valid JSON`,
    );
  }
  assertCleanText(value, name);
  return value;
}

/** The parts of a multipart request, one by one (415 for a request that is not multipart). */
export function partsOf(req: FastifyRequest): AsyncIterableIterator<Multipart> {
  if (!req.isMultipart()) throw new AppError(415, 'unsupported_media_type', 'Expected multipart/form-data');
  return req.parts();
}
