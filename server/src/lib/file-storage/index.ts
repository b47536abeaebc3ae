import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { files } from '../../db/schema/index.js';
import { DiskBlobStore } from './disk.js';
import { S3BlobStore, type S3Settings } from './s3.js';
import type { BlobStore, ByteRange, FileRef, FilesDriver, PutBytes, StoredBytes } from './types.js';

export { DiskBlobStore } from './disk.js';
export { S3BlobStore, type S3Settings } from './s3.js';
export { sweepOrphanBlobs, type SweepOutcome } from './sweep.js';
export type { BlobStore, ByteRange, FileRef, FilesDriver, PutBytes, StoredBytes } from './types.js';

/*
 * Where the bytes of stored files live (docs/ARCHITECTURE.md "File storage"). The files table
 * always holds a file's metadata; its bytes are either in the row (`data`, the `database` driver:
 * the default on a PostgreSQL server) or in a blob store under `storage_key` (the `disk` driver:
 * the default on the embedded database; the `s3` driver, keys `s3:<uuid>`). PGlite runs on the server's own thread, so every byte it
 * stores or reads blocks every request meanwhile (about a second per megabyte): large bytes must
 * never go through it. Which driver wrote a row does not matter to a reader: the row says where
 * its bytes are, so changing FILES_STORAGE leaves older files readable (keep FILES_DIR and the
 * FILES_S3_* settings), and `npm run files:move` (move.ts) moves them over.
 */

/** Files up to this size are read from the database whole; bigger ones a slice of this size at a time. */
export const ROW_SLICE_BYTES = 1024 * 1024;

export class FileStorage {
  constructor(
    /** Where new files' bytes go. */
    readonly driver: FilesDriver,
    /** The blob store: where `disk` and `s3` write, and where rows with its keys are read from. */
    readonly blobs: BlobStore | null,
    private readonly onClose: () => Promise<void> = async () => undefined,
    /** Other blob stores rows may name (files stored before FILES_STORAGE changed). */
    readonly readers: readonly BlobStore[] = [],
  ) {
    if (driver !== 'database' && blobs?.driver !== driver)
      throw new Error(`the ${driver} file storage needs its blob store`);
  }

  /** Stores bytes for a new row: into the blob store, or into the row itself (`database`). */
  async put(data: Buffer): Promise<StoredBytes> {
    if (this.driver === 'database' || !this.blobs) return { storageKey: null, data };
    return { storageKey: await this.blobs.put(data), data: null };
  }

  /**
   * Runs `work` — a transaction inserting the rows of new files — with a `put` for their bytes;
   * when it fails (its transaction rolled back), the blobs it put are removed again. `work` must
   * be that transaction and nothing after it.
   */
  async staged<T>(work: (put: PutBytes) => Promise<T>): Promise<T> {
    const keys: string[] = [];
    try {
      return await work(async (data) => {
        const stored = await this.put(data);
        if (stored.storageKey !== null) keys.push(stored.storageKey);
        return stored;
      });
    } catch (error) {
      await Promise.all(keys.map((key) => this.blobStore(key).delete(key))).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Removes the blobs of rows just deleted (call after their transaction committed): those no
   * other row still refers to (a task's versions share theirs).
   */
  async release(db: DbOrTx, keys: readonly (string | null)[]): Promise<void> {
    const candidates = [...new Set(keys.filter((k): k is string => k !== null))];
    if (!candidates.length) return;
    const kept = new Set(
      (
        await db.select({ key: files.storageKey }).from(files).where(inArray(files.storageKey, candidates))
      ).map((r) => r.key),
    );
    await Promise.all(candidates.filter((k) => !kept.has(k)).map((k) => this.blobStore(k).delete(k)));
  }

  /**
   * A file's bytes as a stream, or bytes `range.start`…`range.end` of them. A blob streams from its
   * store; bytes in a row are read a slice at a time, each when the reader wants more (a file
   * deleted or shortened meanwhile cuts the stream short with an error, never pads it).
   */
  open(db: DbOrTx, file: FileRef, range?: ByteRange): Readable {
    if (file.storageKey !== null) return this.blobStore(file.storageKey).get(file.storageKey, range);
    const end = Math.min(range?.end ?? file.size - 1, file.size - 1);
    let offset = range?.start ?? 0;
    return new Readable({
      highWaterMark: ROW_SLICE_BYTES,
      read() {
        if (offset > end) {
          this.push(null);
          return;
        }
        const length = Math.min(ROW_SLICE_BYTES, end - offset + 1);
        readRowSlice(db, file.id, offset, length).then(
          (slice) => {
            if (!slice || slice.length !== length) return this.destroy(new Error('file changed while sent'));
            offset += length;
            this.push(slice);
          },
          (err: Error) => this.destroy(err),
        );
      },
    });
  }

  /** A file's bytes, whole (null when its row is gone or deleted). */
  async read(db: DbOrTx, file: FileRef): Promise<Buffer | null> {
    if (file.storageKey !== null) return buffer(this.open(db, file));
    const [row] = await db
      .select({ data: files.data })
      .from(files)
      .where(and(eq(files.id, file.id), isNull(files.deletedAt)))
      .limit(1);
    return row?.data ?? null;
  }

  /** Removes a temporary store (an embedded database in memory keeps its files in one). */
  async close(): Promise<void> {
    for (const store of [this.blobs, ...this.readers]) store?.close?.();
    await this.onClose();
  }

  /** The store a row's key names (its bytes are there). */
  blobStore(key: string): BlobStore {
    const store = [this.blobs, ...this.readers].find((s) => s?.owns(key));
    if (!store)
      throw new Error(
        `file bytes ${key} are in a blob store that is not configured ` +
          `(${key.startsWith('s3:') ? 'FILES_S3_BUCKET' : 'FILES_DIR'})`,
      );
    return store;
  }
}

async function readRowSlice(db: DbOrTx, id: number, offset: number, length: number) {
  const [row] = await db
    .select({
      data: sql<Buffer | Uint8Array | null>`substring(${files.data} from ${offset + 1} for ${length})`,
    })
    .from(files)
    .where(and(eq(files.id, id), isNull(files.deletedAt)))
    .limit(1);
  return row?.data ? Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) : null;
}

/** Bytes in the rows only: what a database not opened by the server (a tool, a test) uses. */
const IN_ROWS = new FileStorage('database', null);

const storages = new WeakMap<object, FileStorage>();

/** Ties a file storage to the database the server opened (buildApp). */
export function useFileStorage(db: Db, storage: FileStorage): void {
  storages.set(db, storage);
}

/**
 * The file storage of a database the server opened (pass the database, not a transaction: start
 * the transaction inside `staged`). A database nobody tied one to keeps bytes in its rows.
 */
export function fileStorageOf(db: Db): FileStorage {
  return storages.get(db) ?? IN_ROWS;
}

export interface FileStorageOptions {
  /** FILES_STORAGE; by default `disk` on the embedded database, `database` on a PostgreSQL server. */
  driver: FilesDriver | undefined;
  /** FILES_S3_*: the bucket of `s3`; with another driver, where older files are still read from. */
  s3?: S3Settings | undefined;
  /** FILES_DIR; by default `files` beside the embedded database's folder, or `<DATA_DIR>/files`. */
  dir: string | undefined;
  dataDir: string;
  database: { kind: 'pglite' | 'postgres'; dataDir?: string };
}

/**
 * The file storage the configuration asks for. An embedded database in memory (tests) keeps its
 * files in a temporary folder, removed by `close`.
 */
export async function openFileStorage(options: FileStorageOptions): Promise<FileStorage> {
  const driver = options.driver ?? (options.database.kind === 'pglite' ? 'disk' : 'database');
  const bucket = options.s3 ? [new S3BlobStore(options.s3)] : [];
  if (driver === 's3') {
    if (!bucket[0]) throw new Error('FILES_STORAGE=s3 needs FILES_S3_BUCKET');
    // Files stored on disk before the switch stay readable from the folder they are in.
    const dir =
      options.dir ??
      (options.database.kind === 'pglite' && options.database.dataDir
        ? join(dirname(options.database.dataDir), 'files')
        : undefined);
    return new FileStorage('s3', bucket[0], undefined, dir ? [new DiskBlobStore(dir)] : []);
  }
  // A folder kept with the data is used for reading even by `database`: files stored there before
  // a switch stay readable.
  const dir =
    options.dir ??
    (options.database.kind === 'pglite'
      ? options.database.dataDir && join(dirname(options.database.dataDir), 'files')
      : driver === 'disk'
        ? join(options.dataDir, 'files')
        : undefined);
  if (dir) return new FileStorage(driver, new DiskBlobStore(dir), undefined, bucket);
  if (driver === 'database') return new FileStorage('database', null, undefined, bucket);
  const temporary = await mkdtemp(join(tmpdir(), 'attesta-files-'));
  return new FileStorage(
    driver,
    new DiskBlobStore(temporary),
    () => rm(temporary, { recursive: true, force: true }),
    bucket,
  );
}
