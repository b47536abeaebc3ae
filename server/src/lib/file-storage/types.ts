import type { Readable } from 'node:stream';

/** Where new files' bytes go: in the files row (`database`), in a folder (`disk`) or in an S3 bucket (`s3`). */
export type FilesDriver = 'database' | 'disk' | 's3';

/** Bytes `start` to `end` of a file, both included (as HTTP ranges and fs.createReadStream count). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A store of immutable blobs outside the database (the `disk` and `s3` drivers). `put` returns a
 * new key for every blob; `owns` tells whether a key is one this kind of store makes (so a row's
 * key says which store holds its bytes); `get` streams a blob or a range of it (a blob that is
 * gone fails the stream with code ENOENT); `delete` removes it (no error when it is already gone).
 */
export interface BlobStore {
  readonly driver: Exclude<FilesDriver, 'database'>;
  /** Where the blobs are, for people (the start banner). */
  readonly location: string;
  owns(key: string): boolean;
  put(source: Buffer | Readable): Promise<string>;
  get(key: string, range?: ByteRange): Readable;
  delete(key: string): Promise<void>;
  /**
   * The keys of this store's blobs last written before `before` (only names this store makes:
   * a shared bucket's other objects are never listed), for the orphan sweep (sweep.ts).
   */
  list(before: Date): AsyncIterable<string>;
  /** Removes what an interrupted `put` left half written before `before` (disk: `.incoming/`). */
  clearStaging?(before: Date): Promise<number>;
  /** Lets go of connections (the S3 client's sockets). */
  close?(): void;
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
