import type { Actor } from '../../auth/actor.js';
import type { Readable } from 'node:stream';
import {
  uploadOwnerTypeSchema,
  type FileInfo,
  type UploadOwnerType,
  type UploadUrlBody,
} from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { extensionOf, neutralName } from '../../lib/file-sniff.js';
import {
  fileStorageOf,
  ROW_SLICE_BYTES,
  type ByteRange,
  type PutBytes,
} from '../../lib/file-storage/index.js';
import { bufferFile, quotaExceeded, type UploadAllowance } from '../../lib/multipart.js';
import { canSeeFile } from './files.access.js';
import * as repo from './files.repo.js';
import { checkFile, MAX_FILE_BYTES, splitPdfPages, type CheckedFile, type IncomingFile } from './upload.js';
import type { UrlFetcher } from './url-fetcher.js';

export type { Actor };

const toInfo = (f: Pick<repo.FileMeta, 'id' | 'name' | 'mime' | 'size'>): FileInfo => ({
  id: f.id,
  name: f.name,
  mime: f.mime,
  size: f.size,
});

const NAMED_FILE_ROLES = ['admin', 'coordinator', 'organizator', 'ugnik'] as const;

/**
 * The name a caller is shown. Graders see an answer's files under a neutral name: a participant
 * may have named a scan after themselves, and grading is blind (the workspace and the graders'
 * zip rename them too). Staff of the participant's school and admins see the real name.
 */
export function shownName(auth: AuthContext, file: Pick<repo.FileMeta, 'id' | 'name' | 'ownerType'>): string {
  if (file.ownerType !== 'answer' || !hasRole(auth, 'expert') || hasRole(auth, ...NAMED_FILE_ROLES))
    return file.name;
  return neutralName(`answer-${file.id}`, file.name);
}

/** A live file the caller may see: 404 when there is none, 403 when it is someone else's. */
export async function visibleFile(db: Db, auth: AuthContext, id: number): Promise<repo.FileMeta> {
  const file = await repo.findFileMeta(db, id);
  if (!file) throw notFound('No such file');
  if (!(await canSeeFile(db, auth, file))) throw forbidden('This file is outside your scope');
  return file;
}

/** Files up to this size, kept in their row, are read whole; bigger ones are streamed. */
export const DOWNLOAD_SLICE_BYTES = ROW_SLICE_BYTES;

/**
 * A file the caller may see, with its bytes: a buffer for a small file kept in its row, a stream
 * otherwise (a blob streams from its store; a big row is read a slice at a time, so a 36 MB report
 * costs the server a megabyte or two, not 200 MB of hex and buffers).
 */
export async function download(
  db: Db,
  auth: AuthContext,
  id: number,
  /** The bytes asked for, given the file's size (a Range header); null: the whole file. */
  rangeOf?: (size: number) => ByteRange | null,
): Promise<{ file: repo.FileMeta; data: Buffer | Readable; range?: ByteRange }> {
  const file = await visibleFile(db, auth, id);
  const shown = { ...file, name: shownName(auth, file) };
  const storage = fileStorageOf(db);
  const range = rangeOf?.(file.size);
  if (range) return { file: shown, data: storage.open(db, file, range), range };
  if (file.storageKey !== null || file.size > DOWNLOAD_SLICE_BYTES)
    return { file: shown, data: storage.open(db, file) };
  const data = await storage.read(db, file);
  if (!data) throw notFound('No such file');
  return { file: shown, data };
}

/** The bytes of a live file as a stream, or null when there is none (for modules that pack files). */
export async function openFile(db: Db, id: number): Promise<Readable | null> {
  const file = await repo.findFileMeta(db, id);
  return file ? fileStorageOf(db).open(db, file) : null;
}

export async function fileExt(db: Db, auth: AuthContext, id: number) {
  const file = await visibleFile(db, auth, id);
  return { extension: extensionOf(file.name), mime: file.mime, name: shownName(auth, file), size: file.size };
}

/** The text of a file: extracted/stored text, or the decoded bytes of a text file. */
export async function fileText(db: Db, auth: AuthContext, id: number) {
  const file = await visibleFile(db, auth, id);
  const text = await repo.findFileText(db, id);
  if (text !== null) return { id, name: shownName(auth, file), text };
  const data = file.mime.startsWith('text/') ? await fileStorageOf(db).read(db, file) : null;
  if (data) return { id, name: shownName(auth, file), text: data.toString('utf8') };
  throw notFound('This file has no text');
}

export async function filesOfHtmlText(db: Db, auth: AuthContext, htmlTextId: number): Promise<FileInfo[]> {
  if (!(await repo.htmlTextState(db, htmlTextId))) throw notFound('No such html text');
  const all = await repo.filesOfOwner(db, 'html_text', htmlTextId);
  const visible = await Promise.all(all.map((f) => canSeeFile(db, auth, f)));
  return all.filter((_, i) => visible[i]).map(toInfo);
}

// ---------------------------------------------------------------- upload

/** `ownerType` from the query or the form; one of the uploadable owners. */
export function parseOwnerType(value: string | undefined): UploadOwnerType {
  if (value === undefined)
    throw badRequest('validation_failed', 'ownerType is required (query or form field)');
  const parsed = uploadOwnerTypeSchema.safeParse(value);
  if (!parsed.success)
    throw badRequest(
      'validation_failed',
      `ownerType must be one of ${uploadOwnerTypeSchema.options.join(', ')}`,
    );
  return parsed.data;
}

/**
 * Who may attach files to what: content (tasks, html texts, help) only admins; a general file
 * belongs to its uploader, so its owner id must be the caller's own user id.
 */
export async function checkUploadOwner(
  db: Db,
  auth: AuthContext,
  ownerType: UploadOwnerType,
  ownerId: number,
) {
  if (ownerType === 'general') {
    if (ownerId !== auth.userId)
      throw forbidden('A general file belongs to its uploader: use your own user id');
    return;
  }
  if (!hasRole(auth, 'admin')) throw forbidden('Only administrators attach files to content');
  if (ownerType === 'task' && !(await repo.taskExists(db, ownerId))) throw notFound('No such task');
  if (ownerType === 'html_text' && !(await repo.htmlTextState(db, ownerId)))
    throw notFound('No such html text');
}

/** Roles whose uploads are not counted against a storage quota (staff keep scans, content, forms). */
const UNMETERED_ROLES = ['admin', 'coordinator', 'organizator', 'ugnik', 'expert'] as const;

/**
 * What a user may still upload: participants and guests have a storage quota over their own
 * files (answer files, general uploads, feedback); staff have none.
 */
export async function uploadAllowance(
  db: DbOrTx,
  auth: AuthContext,
  quotaBytes: number,
  perFileBytes = MAX_FILE_BYTES,
): Promise<UploadAllowance> {
  if (hasRole(auth, ...UNMETERED_ROLES)) return { perFileBytes, quotaBytes: null };
  const used = await repo.storageUsedBy(db, auth.userId);
  return { perFileBytes, quotaBytes: Math.max(0, quotaBytes - used) };
}

/**
 * The allowance that decides what is stored: inside the transaction that stores the files, under
 * the user's storage lock (held until it commits), so concurrent uploads of one user cannot all
 * pass one check and together go over the quota. Staff take no lock (they have no quota).
 */
export async function lockedUploadAllowance(
  tx: DbOrTx,
  auth: AuthContext,
  quotaBytes: number,
  perFileBytes = MAX_FILE_BYTES,
): Promise<UploadAllowance> {
  if (!hasRole(auth, ...UNMETERED_ROLES)) await repo.lockStorageOf(tx, auth.userId);
  return uploadAllowance(tx, auth, quotaBytes, perFileBytes);
}

/**
 * Stores checked files under one owner: their bytes with `put`, their rows in `tx`. Call inside
 * the transaction of the change they belong to, itself inside `fileStorageOf(db).staged`, which
 * gives the `put` (and removes what it stored if the transaction fails).
 */
export async function storeFiles(
  tx: DbOrTx,
  put: PutBytes,
  owner: { ownerType: string; ownerId: number | null; createdBy: number | null },
  checked: CheckedFile[],
): Promise<FileInfo[]> {
  const stored: FileInfo[] = [];
  for (const { data, ...f } of checked) {
    const bytes = await put(data);
    stored.push(toInfo(await repo.insertFile(tx, { ...owner, ...f, size: data.length, bytes })));
  }
  return stored;
}

export interface UploadRequest {
  ownerType: UploadOwnerType;
  ownerId: number;
  files: IncomingFile[];
  splitPdf: boolean;
}

export async function upload(
  db: Db,
  actor: Actor,
  request: UploadRequest,
  quotaBytes: number,
): Promise<FileInfo[]> {
  await checkUploadOwner(db, actor.auth, request.ownerType, request.ownerId);
  if (request.files.length === 0) throw badRequest('no_file', 'Attach at least one file');
  // One file in memory at a time; one bad file rolls the whole request back (its stored bytes too).
  return fileStorageOf(db).staged((put) =>
    db.transaction(async (tx) => {
      // Checked and stored under the uploader's storage lock: concurrent uploads wait for this one.
      const { quotaBytes: room } = await lockedUploadAllowance(tx, actor.auth, quotaBytes);
      const total = request.files.reduce((sum, f) => sum + f.size, 0);
      if (room !== null && total > room) throw quotaExceeded();
      const stored: FileInfo[] = [];
      const owner = { ownerType: request.ownerType, ownerId: request.ownerId, createdBy: actor.auth.userId };
      let storedBytes = 0;
      for (const file of request.files) {
        const checked = await checkFile(file);
        const ready = request.splitPdf ? await splitPdfPages(checked) : [checked];
        // The pages of a split PDF may weigh more than the PDF: what counts is what is stored.
        storedBytes += ready.reduce((sum, f) => sum + f.data.length, 0);
        if (room !== null && storedBytes > room) throw quotaExceeded();
        stored.push(...(await storeFiles(tx, put, owner, ready)));
      }
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'file.upload',
        entity: request.ownerType,
        entityId: request.ownerId,
        details: { fileIds: stored.map((f) => f.id) },
        ip: actor.ip,
      });
      return stored;
    }),
  );
}

export async function uploadFromUrl(
  db: Db,
  actor: Actor,
  body: UploadUrlBody,
  fetchUrl: UrlFetcher,
  quotaBytes: number,
): Promise<FileInfo[]> {
  await checkUploadOwner(db, actor.auth, body.ownerType, body.ownerId);
  const fetched = await fetchUrl(body.url);
  return upload(
    db,
    actor,
    {
      ownerType: body.ownerType,
      ownerId: body.ownerId,
      files: [bufferFile(fetched.name, fetched.data)],
      splitPdf: false,
    },
    quotaBytes,
  );
}

// ---------------------------------------------------------------- delete

/**
 * Soft-deletes an upload: the uploader their own files, an admin any. A file handed in with a
 * finished exam work is evidence and stays (409 `work_finished`).
 */
export async function deleteFile(db: Db, actor: Actor, id: number): Promise<void> {
  const file = await repo.findFileMeta(db, id);
  if (!file) throw notFound('No such file');
  const own = file.createdBy !== null && file.createdBy === actor.auth.userId;
  if (!own && !hasRole(actor.auth, 'admin')) throw forbidden('You can delete only your own files');
  if (await repo.isInFinishedWork(db, file))
    throw conflict('work_finished', 'The exam work is finished: its files can no longer be deleted');
  await db.transaction(async (tx) => {
    await repo.softDeleteFile(tx, id);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'file.delete',
      entity: 'file',
      entityId: id,
      details: { ownerType: file.ownerType, ownerId: file.ownerId, name: file.name },
      ip: actor.ip,
    });
  });
}
