import type { Readable } from 'node:stream';

/** Where new files' bytes go: in the files row (`database`) or in a folder (`disk`). */
export type FilesDriver = 'database' | 'disk';

/** Bytes `start` to `end` of a file, both included (as HTTP ranges and fs.createReadStream count). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A store of immutable blobs outside the database (the `disk` driver; an S3 driver would be
 * another). `put` returns a new key for every blob; `get` streams a blob or a range of it;
 * `delete` removes it (no error when it is already gone).
 */
export interface BlobStore {
  readonly driver: Exclude<FilesDriver, 'database'>;
  /** Where the blobs are, for people (the start banner). */
  readonly location: string;
  put(source: Buffer | Readable): Promise<string>;
  get(key: string, range?: ByteRange): Readable;
  delete(key: string): Promise<void>;
}

/** How a files row holds its bytes: a blob key, or the bytes themselves (`database`). */
export type StoredBytes = { storageKey: string; data: null } | { storageKey: null; data: Buffer };

/** Stores bytes for a row about to be inserted (see FileStorage.staged). */
export type PutBytes = (data: Buffer) => Promise<StoredBytes>;

/** What reading a stored file needs of its row. */
export interface FileRef {
  id: number;
  storageKey: string | null;
  size: number;
}
