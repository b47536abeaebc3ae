import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { s3ServerOrSkip, type S3TestServer } from '../../../test/s3-server.js';
import { loadConfig } from '../../config.js';
import { files } from '../../db/schema/index.js';
import {
  DiskBlobStore,
  FileStorage,
  openFileStorage,
  ROW_SLICE_BYTES,
  S3BlobStore,
  type BlobStore,
  type StoredBytes,
} from './index.js';
import { S3_PART_BYTES } from './s3.js';

let t: TestApp;
let dir: string;
// The blob store cases run on both drivers: a folder, and a real S3-protocol server (s3rver).
const s3: S3TestServer | null = await s3ServerOrSkip();
const buckets: S3BlobStore[] = [];
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(join(tmpdir(), 'attesta-file-storage-test-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
  for (const bucket of buckets) bucket.close();
  await s3?.close();
});

/** A store of the driver under test; `name` keeps the disk cases' folders apart. */
const storeOf = (driver: 'disk' | 's3', name: string): BlobStore => {
  if (driver === 'disk') return new DiskBlobStore(join(dir, name));
  const bucket = new S3BlobStore(s3!.settings());
  buckets.push(bucket);
  return bucket;
};
const DRIVERS = s3 ? (['disk', 's3'] as const) : (['disk'] as const);

/** Each byte says where it is, so a range off by one or a slice out of order shows. */
const patterned = (size: number) => {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 7 + (i >> 10)) & 0xff;
  return data;
};

/** Blob files in a store's folder (its staging folder aside). */
const blobsIn = (folder: string) =>
  existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name !== '.incoming')
        .reduce((n, sub) => n + readdirSync(join(folder, sub)).length, 0)
    : 0;

const insertRow = async (bytes: StoredBytes, size: number) => {
  const [row] = await t.app.ctx.db
    .insert(files)
    .values({
      ownerType: 'general',
      ownerId: null,
      name: 'x.bin',
      mime: 'application/octet-stream',
      size,
      sha256: 'x',
      ...bytes,
    })
    .returning({ id: files.id, storageKey: files.storageKey, size: files.size });
  return row!;
};

describe.each(DRIVERS)('the %s blob store', (driver) => {
  it('stores a buffer or a stream, reads it whole or a range of it, and deletes it', async () => {
    const store = storeOf(driver, 'disk');
    const data = patterned(300_000);
    const key = await store.put(data);
    expect((await buffer(store.get(key))).equals(data)).toBe(true);
    expect((await buffer(store.get(key, { start: 1000, end: 1999 }))).equals(data.subarray(1000, 2000))).toBe(
      true,
    );
    expect(
      (await buffer(store.get(key, { start: 299_990, end: 299_999 }))).equals(data.subarray(299_990)),
    ).toBe(true);

    const streamed = await store.put(Readable.from([data.subarray(0, 100), data.subarray(100)]));
    expect(streamed).not.toBe(key);
    expect((await buffer(store.get(streamed))).equals(data)).toBe(true);

    await store.delete(key);
    await expect(buffer(store.get(key))).rejects.toMatchObject({ code: 'ENOENT' });
    await store.delete(key); // gone already: no error
    expect((await buffer(store.get(streamed))).length).toBe(data.length);
    // Nothing half-written is left in the staging folder.
    if (driver === 'disk') expect(readdirSync(join(dir, 'disk', '.incoming'))).toEqual([]);
  });

  it('a stream larger than a part goes up in parts, and reads back whole and by range', async () => {
    const store = storeOf(driver, 'parts');
    const data = patterned(2 * S3_PART_BYTES + 12_345);
    const pieces: Buffer[] = [];
    for (let at = 0; at < data.length; at += 1024 * 1024) pieces.push(data.subarray(at, at + 1024 * 1024));
    const key = await store.put(Readable.from(pieces));
    expect((await buffer(store.get(key))).equals(data)).toBe(true);
    const range = { start: S3_PART_BYTES - 5, end: 2 * S3_PART_BYTES + 4 };
    expect((await buffer(store.get(key, range))).equals(data.subarray(range.start, range.end + 1))).toBe(
      true,
    );
    await store.delete(key);
  });

  it('a failing source fails the put with its own error, and leaves no blob', async () => {
    const store = storeOf(driver, 'failing');
    const refused = Object.assign(new Error('too large'), { code: 'payload_too_large' });
    // Past the first part (S3: a multipart upload was begun, and must be aborted).
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent > S3_PART_BYTES + 1024 * 1024) return void this.destroy(refused);
        sent += 256 * 1024;
        this.push(patterned(256 * 1024));
      },
    });
    await expect(store.put(source)).rejects.toBe(refused);
    if (driver === 'disk') expect(blobsIn(join(dir, 'failing'))).toBe(0);
  });

  it('a key that is not one of its own never names a path', async () => {
    const store = storeOf(driver, 'disk');
    expect(store.owns('../../etc/passwd')).toBe(false);
    expect(() => store.get('../../etc/passwd')).toThrow('not a key of this store');
    await expect(store.delete('../server.json')).rejects.toThrow('not a key of this store');
    // Each store owns only its own keys: a row's key says which store holds its bytes.
    const other = driver === 'disk' ? 's3:0b0c6f3a-3e5e-4c8e-9a35-6f1d8d1c2b3a' : randomUUID();
    expect(store.owns(other)).toBe(false);
  });
});

describe('the file storage', () => {
  it('disk: a row holds the key, not the bytes; both drivers read whole, by range and across slices', async () => {
    const db = t.app.ctx.db;
    const disk = new FileStorage('disk', new DiskBlobStore(join(dir, 'both')));
    const database = new FileStorage('database', null);
    const bucket = s3 ? new FileStorage('s3', storeOf('s3', 'rows')) : null;
    const data = patterned(2 * ROW_SLICE_BYTES + 4321);
    for (const storage of bucket ? [disk, database, bucket] : [disk, database]) {
      const bytes = await storage.put(data);
      expect(bytes.data === null).toBe(storage !== database);
      const row = await insertRow(bytes, data.length);
      expect((await storage.read(db, row))!.equals(data)).toBe(true);
      const range = { start: ROW_SLICE_BYTES - 10, end: 2 * ROW_SLICE_BYTES + 9 };
      expect(
        (await buffer(storage.open(db, row, range))).equals(data.subarray(range.start, range.end + 1)),
      ).toBe(true);
      // Either storage reads what the other wrote: the row says where its bytes are.
      const other =
        storage === bucket
          ? new FileStorage('disk', disk.blobs, undefined, [bucket.blobs!])
          : new FileStorage('database', disk.blobs);
      expect((await buffer(other.open(db, row))).equals(data)).toBe(true);
    }
  });

  it('staged: the blobs of a transaction that failed are removed; those of one that committed stay', async () => {
    const db = t.app.ctx.db;
    const folder = join(dir, 'staged');
    const storage = new FileStorage('disk', new DiskBlobStore(folder));
    await expect(
      storage.staged((put) =>
        db.transaction(async (tx) => {
          const bytes = await put(Buffer.from('first'));
          await tx
            .insert(files)
            .values({ ownerType: 'general', name: 'a', mime: 'text/plain', size: 5, sha256: 'x', ...bytes });
          await put(Buffer.from('second'));
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect(blobsIn(folder)).toBe(0);

    const id = await storage.staged((put) =>
      db.transaction(async (tx) => {
        const bytes = await put(Buffer.from('kept'));
        const [row] = await tx
          .insert(files)
          .values({ ownerType: 'general', name: 'a', mime: 'text/plain', size: 4, sha256: 'x', ...bytes })
          .returning({ id: files.id });
        return row!.id;
      }),
    );
    expect(blobsIn(folder)).toBe(1);
    const [row] = await db.select().from(files).where(eq(files.id, id));
    expect((await storage.read(db, row!))!.toString()).toBe('kept');
  });

  it('release: a blob goes with the last row that names it (task versions share theirs)', async () => {
    const db = t.app.ctx.db;
    const folder = join(dir, 'release');
    const storage = new FileStorage('disk', new DiskBlobStore(folder));
    const bytes = await storage.put(Buffer.from('shared'));
    const first = await insertRow(bytes, 6);
    const second = await insertRow(bytes, 6);
    await db.delete(files).where(eq(files.id, first.id));
    await storage.release(db, [first.storageKey]);
    expect((await storage.read(db, second))!.toString()).toBe('shared');
    await db.delete(files).where(eq(files.id, second.id));
    await storage.release(db, [second.storageKey, null]);
    expect(blobsIn(folder)).toBe(0);
  });

  it.skipIf(!s3)(
    's3: the objects of a transaction that failed are removed; those of one that committed stay',
    async () => {
      const db = t.app.ctx.db;
      const storage = new FileStorage('s3', storeOf('s3', 'staged'));
      const put: string[] = [];
      await expect(
        storage.staged((stage) =>
          db.transaction(async (tx) => {
            const bytes = await stage(Buffer.from('first'));
            put.push(bytes.storageKey!);
            await tx.insert(files).values({
              ownerType: 'general',
              name: 'a',
              mime: 'text/plain',
              size: 5,
              sha256: 'x',
              ...bytes,
            });
            throw new Error('rolled back');
          }),
        ),
      ).rejects.toThrow('rolled back');
      await expect(buffer(storage.blobs!.get(put[0]!))).rejects.toMatchObject({ code: 'ENOENT' });
      const row = await storage.staged(async (stage) => insertRow(await stage(Buffer.from('kept')), 4));
      expect(row.storageKey).toMatch(/^s3:/);
      expect((await storage.read(db, row))!.toString()).toBe('kept');
      await db.delete(files).where(eq(files.id, row.id));
      await storage.release(db, [row.storageKey]);
      await expect(buffer(storage.blobs!.get(row.storageKey!))).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  it('a database without a blob store says so when a row names a blob', async () => {
    const row = await insertRow(
      await new FileStorage('disk', new DiskBlobStore(join(dir, 'x'))).put(Buffer.from('a')),
      1,
    );
    expect(() => new FileStorage('database', null).open(t.app.ctx.db, row)).toThrow(/FILES_DIR/);
  });
});

describe('which storage the configuration picks', () => {
  const pick = (
    driver: 'database' | 'disk' | undefined,
    database: { kind: 'pglite' | 'postgres'; dataDir?: string },
    filesDir?: string,
  ) => openFileStorage({ driver, dir: filesDir, dataDir: '/srv/attesta', database });
  const folderOf = (s: FileStorage) => (s.blobs as DiskBlobStore | null)?.dir ?? null;

  it('the embedded database: disk, beside its folder; in memory, a temporary folder removed at close', async () => {
    const onDisk = await pick(undefined, { kind: 'pglite', dataDir: '/srv/attesta/pglite' });
    expect([onDisk.driver, folderOf(onDisk)]).toEqual(['disk', '/srv/attesta/files']);
    const inMemory = await pick(undefined, { kind: 'pglite' });
    expect(inMemory.driver).toBe('disk');
    const temporary = folderOf(inMemory)!;
    expect(existsSync(temporary)).toBe(true);
    await inMemory.close();
    expect(existsSync(temporary)).toBe(false);
  });

  it('a PostgreSQL server: the database, unless FILES_STORAGE=disk (<DATA_DIR>/files) or FILES_DIR says', async () => {
    const plain = await pick(undefined, { kind: 'postgres' });
    expect([plain.driver, folderOf(plain)]).toEqual(['database', null]);
    const disk = await pick('disk', { kind: 'postgres' });
    expect([disk.driver, folderOf(disk)]).toEqual(['disk', '/srv/attesta/files']);
    const own = await pick('disk', { kind: 'postgres' }, '/mnt/files');
    expect([own.driver, folderOf(own)]).toEqual(['disk', '/mnt/files']);
    // FILES_STORAGE=database with a folder: new bytes in the rows, older ones still read from it.
    const back = await pick('database', { kind: 'pglite', dataDir: '/srv/attesta/pglite' });
    expect([back.driver, folderOf(back)]).toEqual(['database', '/srv/attesta/files']);
  });

  it('FILES_STORAGE=s3: the bucket, files stored on disk before still read; other drivers read the bucket', async () => {
    const env = {
      NODE_ENV: 'test',
      DATA_DIR: '/srv/attesta',
      FILES_S3_ENDPOINT: 'http://127.0.0.1:9000',
      FILES_S3_BUCKET: 'exam-files',
    };
    expect(() => loadConfig({ ...env, FILES_STORAGE: 's3', FILES_S3_BUCKET: '' })).toThrow(
      /FILES_S3_BUCKET: required with FILES_STORAGE=s3/,
    );
    expect(() => loadConfig({ ...env, FILES_S3_ACCESS_KEY_ID: 'id' })).toThrow(/set both, or neither/);
    const config = loadConfig({ ...env, FILES_STORAGE: 's3' });
    // An endpoint of one's own: path-style addressing unless FILES_S3_FORCE_PATH_STYLE=false.
    expect(config.filesS3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'exam-files',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
    });
    expect(loadConfig({ ...env, FILES_S3_FORCE_PATH_STYLE: 'false' }).filesS3!.forcePathStyle).toBe(false);

    const options = { dir: undefined, dataDir: '/srv/attesta', s3: config.filesS3 };
    const inS3 = await openFileStorage({
      ...options,
      driver: 's3',
      database: { kind: 'pglite', dataDir: '/srv/attesta/pglite' },
    });
    expect([inS3.driver, inS3.blobs!.location]).toEqual(['s3', 's3://exam-files at http://127.0.0.1:9000']);
    expect(inS3.readers.map((r) => r.location)).toEqual(['/srv/attesta/files']);
    const inRows = await openFileStorage({ ...options, driver: undefined, database: { kind: 'postgres' } });
    expect(inRows.driver).toBe('database');
    expect(inRows.blobStore('s3:0b0c6f3a-3e5e-4c8e-9a35-6f1d8d1c2b3a').driver).toBe('s3');
    await inS3.close();
    await inRows.close();
  });
});
