import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, asc, eq, gt, inArray, isNull, like, not, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { files } from '../../db/schema/index.js';
import type { FileStorage } from './index.js';
import type { BlobStore, FilesDriver } from './types.js';

/*
 * `npm run files:move -- --to s3|database|disk` (move.cli.ts): moves the bytes of stored files
 * into the storage FILES_STORAGE names, from wherever each row says they are. One file at a time,
 * each in its own transaction, so a run stopped anywhere (a crash, Ctrl-C, a store that went
 * away) leaves every row pointing at bytes that are whole, and running it again goes on where it
 * stopped: a row already in the target is not selected again.
 *
 * For each file: its bytes are read from the source and hashed (sha256) while they are written to
 * the target; the target's copy is read back and hashed; only when both hashes (and the size)
 * agree is the row switched — rows sharing a blob (a task's versions) switch together — and only
 * after that commit are the old bytes removed (a row's `data` goes in the same update). Into the
 * database, the hash of what the row holds is taken by PostgreSQL inside the transaction that
 * writes it, and a mismatch rolls it back. A file that fails is reported and left where it was.
 *
 * Deleted files (deleted_at set) are moved too: their rows still hold bytes.
 * What a stopped run can leave behind is a copy in the target no row names (written, not yet
 * switched) or old bytes no row names (switched, not yet removed): garbage, never a row without
 * its bytes.
 */

export interface MoveProgress {
  id: number;
  from: string;
  bytes: number;
  error?: string;
}

export interface MoveReport {
  /** Files moved (rows switched: several rows sharing one blob count once). */
  moved: number;
  bytes: number;
  /** Files left where they were, and why. */
  failed: { id: number; error: string }[];
  /** Files still to move (when `limit` stopped the run). */
  left: number;
}

export interface MoveOptions {
  /** Stop after this many files (a run stopped midway, for tests; undefined: all). */
  limit?: number;
  /** Called after each file. */
  onFile?: (progress: MoveProgress) => void;
}

interface Row {
  id: number;
  storageKey: string | null;
  size: number;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** sha256 and length of a stream's bytes. */
async function hashOf(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Rows whose bytes are not where `target` keeps them. */
function notIn(target: FilesDriver): SQL {
  if (target === 'database') return sql`${files.storageKey} is not null`;
  const s3Key = like(files.storageKey, 's3:%');
  return or(isNull(files.storageKey), target === 's3' ? not(s3Key) : s3Key)!;
}

/** Moves every file's bytes into `storage`'s driver (its store), from where each row says. */
export async function moveFiles(
  db: Db,
  storage: FileStorage,
  options: MoveOptions = {},
): Promise<MoveReport> {
  const target = storage.driver;
  const report: MoveReport = { moved: 0, bytes: 0, failed: [], left: 0 };
  const failedIds = new Set<number>();
  let after = 0;
  for (;;) {
    const batch: Row[] = await db
      .select({ id: files.id, storageKey: files.storageKey, size: files.size })
      .from(files)
      .where(and(gt(files.id, after), notIn(target)))
      .orderBy(asc(files.id))
      .limit(100);
    if (!batch.length) break;
    for (const listed of batch) {
      after = listed.id;
      // As it is now: a row sharing a blob with one just moved has moved with it.
      const current = async () =>
        (
          await db
            .select({ id: files.id, storageKey: files.storageKey, size: files.size })
            .from(files)
            .where(and(eq(files.id, listed.id), notIn(target)))
        )[0];
      const row = await current();
      if (!row) continue;
      if (options.limit !== undefined && report.moved + report.failed.length >= options.limit) {
        report.left++;
        continue;
      }
      const from = row.storageKey === null ? 'database' : row.storageKey.startsWith('s3:') ? 's3' : 'disk';
      try {
        // Once more before it counts as failed: a streamed body cannot be resent by the S3 client
        // when a connection drops midway.
        const moved = await moveOne(db, storage, row).catch(async () => {
          const again = await current();
          return again ? moveOne(db, storage, again) : false;
        });
        if (moved) {
          report.moved++;
          report.bytes += row.size;
        }
        options.onFile?.({ id: row.id, from, bytes: row.size });
      } catch (error) {
        // The reason behind "the file storage did not answer" (connection refused, a timeout…).
        const cause = (error as { cause?: Error }).cause;
        const message = (error as Error).message + (cause ? ` (${cause.message || cause.name})` : '');
        if (!failedIds.has(row.id)) report.failed.push({ id: row.id, error: message });
        failedIds.add(row.id);
        options.onFile?.({ id: row.id, from, bytes: row.size, error: message });
      }
    }
  }
  return report;
}

/** Moves one file (and the rows sharing its blob); false when its row changed meanwhile. */
async function moveOne(db: Db, storage: FileStorage, row: Row): Promise<boolean> {
  const oldKey = row.storageKey;
  const source = oldKey === null ? null : storage.blobStore(oldKey);
  if (storage.driver === 'database') return intoRows(db, storage, row, source!, oldKey!);

  const store = storage.blobs!;
  // Hash the source while it is written to the target.
  const hash = createHash('sha256');
  let length = 0;
  let newKey: string;
  if (source === null) {
    const [stored] = await db.select({ data: files.data }).from(files).where(eq(files.id, row.id));
    if (!stored?.data) throw new Error('the row holds no bytes');
    hash.update(stored.data);
    length = stored.data.length;
    newKey = await store.put(stored.data);
  } else {
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        length += chunk.length;
        done(null, chunk);
      },
    });
    const read = source.get(oldKey!);
    read.on('error', (error) => tap.destroy(error));
    newKey = await store.put(read.pipe(tap));
  }
  const expected = hash.digest('hex');
  try {
    if (length !== row.size) throw new Error(`the source holds ${length} bytes, the row says ${row.size}`);
    const copy = await hashOf(store.get(newKey));
    if (copy.sha256 !== expected || copy.bytes !== length)
      throw new Error(`checksum mismatch: source ${expected}, ${store.driver} copy ${copy.sha256}`);
    const switched = await db
      .update(files)
      .set({ storageKey: newKey, data: null })
      .where(
        oldKey === null ? and(eq(files.id, row.id), isNull(files.storageKey)) : eq(files.storageKey, oldKey),
      )
      .returning({ id: files.id });
    if (!switched.length) {
      await store.delete(newKey);
      return false;
    }
  } catch (error) {
    await store.delete(newKey).catch(() => undefined);
    throw error;
  }
  if (oldKey !== null) await storage.release(db, [oldKey]);
  return true;
}

/** Into the database: every row naming the blob gets its bytes, checked by PostgreSQL's sha256. */
async function intoRows(
  db: Db,
  storage: FileStorage,
  row: Row,
  source: BlobStore,
  oldKey: string,
): Promise<boolean> {
  const data = await buffer(source.get(oldKey));
  if (data.length !== row.size)
    throw new Error(`the source holds ${data.length} bytes, the row says ${row.size}`);
  const expected = sha256(data);
  const moved = await db.transaction(async (tx) => {
    const switched = await tx
      .update(files)
      .set({ storageKey: null, data })
      .where(eq(files.storageKey, oldKey))
      .returning({ id: files.id });
    if (!switched.length) return false;
    const ids = switched.map((r) => r.id);
    const stored = rowsOf<{ id: number; hash: string; bytes: number | string }>(
      await tx.execute(
        sql`select id, encode(sha256(data), 'hex') as hash, octet_length(data) as bytes from files
          where ${inArray(files.id, ids)}`,
      ),
    );
    const wrong = stored.find((r) => r.hash !== expected || Number(r.bytes) !== data.length);
    if (wrong || stored.length !== ids.length)
      throw new Error(`checksum mismatch: source ${expected}, database copy ${wrong?.hash ?? 'missing'}`);
    return true;
  });
  if (moved) await storage.release(db, [oldKey]);
  return moved;
}
