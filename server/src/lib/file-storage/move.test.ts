import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { s3ServerOrSkip, type S3TestServer } from '../../../test/s3-server.js';
import { files } from '../../db/schema/index.js';
import { DiskBlobStore, FileStorage, ROW_SLICE_BYTES, S3BlobStore, type BlobStore } from './index.js';
import { moveFiles } from './move.js';

/*
 * `npm run files:move`: the bytes of every file go database → s3 → database, and disk → s3 → disk,
 * each file checked by sha256 against what was stored first; a run stopped midway goes on when
 * run again; a copy that does not match is never switched to.
 */

const s3: S3TestServer | null = await s3ServerOrSkip();

let t: TestApp;
let dir: string;
let disk: DiskBlobStore;
let bucket: S3BlobStore;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(join(tmpdir(), 'attesta-files-move-test-'));
  disk = new DiskBlobStore(dir);
  if (s3) bucket = new S3BlobStore(s3.settings());
});
afterAll(async () => {
  await t.close();
  bucket?.close();
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const patterned = (size: number, seed: number) => {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 13 + seed + (i >> 12)) & 0xff;
  return data;
};

/** Storages over the same two stores, each writing into one driver and reading from all. */
const into = (driver: 'database' | 'disk' | 's3') =>
  driver === 'database'
    ? new FileStorage('database', null, undefined, [disk, bucket])
    : driver === 'disk'
      ? new FileStorage('disk', disk, undefined, [bucket])
      : new FileStorage('s3', bucket, undefined, [disk]);

/** Inserts files the way the server does (bytes by `storage`), returning id → the bytes stored. */
async function seed(
  storage: FileStorage,
  sizes: number[],
  opts: { shared?: boolean; deleted?: boolean } = {},
) {
  const db = t.app.ctx.db;
  const stored = new Map<number, Buffer>();
  for (const [i, size] of sizes.entries()) {
    const data = patterned(size, i + sizes.length);
    const bytes = await storage.put(data);
    const copies = opts.shared && i === 0 ? 2 : 1; // a task's versions share one blob
    for (let c = 0; c < copies; c++) {
      const [row] = await db
        .insert(files)
        .values({
          ownerType: 'general',
          name: `f${i}.bin`,
          mime: 'application/octet-stream',
          size,
          sha256: sha256(data),
          ...bytes,
          deletedAt: opts.deleted && i === 1 ? new Date() : null,
        })
        .returning({ id: files.id });
      stored.set(row!.id, data);
    }
  }
  return stored;
}

/** Every seeded row's bytes are where `driver` keeps them, and hash as they did when stored. */
async function expectAllIn(driver: 'database' | 'disk' | 's3', stored: Map<number, Buffer>) {
  const db = t.app.ctx.db;
  const rows = await db
    .select({ id: files.id, storageKey: files.storageKey, size: files.size, hasData: files.data })
    .from(files)
    .where(inArray(files.id, [...stored.keys()]))
    .orderBy(asc(files.id));
  expect(rows).toHaveLength(stored.size);
  const reader = into(driver);
  for (const row of rows) {
    if (driver === 'database') expect([row.storageKey, row.hasData !== null]).toEqual([null, true]);
    else {
      expect(row.hasData).toBeNull();
      expect(row.storageKey!.startsWith('s3:')).toBe(driver === 's3');
    }
    // (Read past FileStorage.open, which serves live files only: deleted ones move too.)
    const back = row.storageKey
      ? await buffer(reader.blobStore(row.storageKey).get(row.storageKey))
      : row.hasData!;
    expect(sha256(back), `file ${row.id}`).toBe(sha256(stored.get(row.id)!));
  }
}

/** A store whose copies come back changed: what a broken target looks like to the check. */
class CorruptingStore implements BlobStore {
  readonly driver = 's3' as const;
  readonly location = 'corrupting';
  readonly deleted: string[] = [];
  constructor(private readonly inner: BlobStore) {}
  owns = (key: string) => this.inner.owns(key);
  put = (source: Buffer | Readable) => this.inner.put(source);
  list = (before: Date) => this.inner.list(before);
  get(key: string): Readable {
    const out = new PassThrough();
    buffer(this.inner.get(key)).then(
      (data) => {
        data[0] = data[0]! ^ 0xff;
        out.end(data);
      },
      (error: Error) => out.destroy(error),
    );
    return out;
  }
  async delete(key: string) {
    this.deleted.push(key);
    await this.inner.delete(key);
  }
}

describe.skipIf(!s3)('npm run files:move (moveFiles)', () => {
  // Each case counts the files it moves: it starts with none (their bytes are left as garbage).
  beforeEach(async () => {
    await t.app.ctx.db.delete(files);
  });

  it(
    'database → s3 → database: every file, deleted ones too, checked by sha256; the old bytes go',
    { timeout: 120_000 },
    async () => {
      const db = t.app.ctx.db;
      // Bytes in the embedded database cost about a second a megabyte: a few megabytes here (the
      // multipart path of a big file is file-storage.test.ts's).
      const stored = await seed(into('database'), [10, 2 * ROW_SLICE_BYTES + 77, 0], { deleted: true });
      const toS3 = await moveFiles(db, into('s3'));
      expect(toS3.failed).toEqual([]);
      expect(toS3.moved).toBe(stored.size);
      await expectAllIn('s3', stored);
      const objects = (await db.select({ key: files.storageKey }).from(files)).map((r) => r.key!);

      const back = await moveFiles(db, into('database'));
      expect(back.failed).toEqual([]);
      expect(back.moved).toBe(stored.size);
      await expectAllIn('database', stored);
      for (const key of objects)
        await expect(buffer(bucket.get(key))).rejects.toMatchObject({ code: 'ENOENT' });
      // Nothing left to move: running it again is a no-op.
      expect(await moveFiles(db, into('database'))).toMatchObject({ moved: 0, failed: [] });
    },
  );

  it('disk → s3 → disk: rows sharing a blob move together, and the source blob is removed', async () => {
    const db = t.app.ctx.db;
    const stored = await seed(into('disk'), [3 * 1024 * 1024, 12_345], { shared: true });
    const diskKeys = (
      await db
        .select({ key: files.storageKey })
        .from(files)
        .where(inArray(files.id, [...stored.keys()]))
    ).map((r) => r.key!);
    expect(new Set(diskKeys).size).toBe(2); // three rows, two blobs

    const toS3 = await moveFiles(db, into('s3'));
    expect(toS3, JSON.stringify(toS3)).toMatchObject({ moved: 2, failed: [] });
    await expectAllIn('s3', stored);
    const s3Keys = (
      await db
        .select({ key: files.storageKey })
        .from(files)
        .where(inArray(files.id, [...stored.keys()]))
    ).map((r) => r.key!);
    expect(new Set(s3Keys).size).toBe(2); // still shared
    for (const key of diskKeys) await expect(buffer(disk.get(key))).rejects.toMatchObject({ code: 'ENOENT' });

    expect(await moveFiles(db, into('disk'))).toMatchObject({ moved: 2, failed: [] });
    await expectAllIn('disk', stored);
    for (const key of s3Keys) await expect(buffer(bucket.get(key))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a run stopped midway goes on where it stopped when run again', async () => {
    const db = t.app.ctx.db;
    const stored = await seed(into('database'), [100, 200, 300, 400, 500]);
    const first = await moveFiles(db, into('s3'), { limit: 2 });
    expect(first).toMatchObject({ moved: 2, failed: [] });
    expect(first.left).toBeGreaterThanOrEqual(3);
    const second = await moveFiles(db, into('s3'));
    expect(second.failed).toEqual([]);
    expect(second.moved).toBe(first.left);
    await expectAllIn('s3', stored);
  });

  it('a copy whose checksum differs is removed and the row stays where it was', async () => {
    const db = t.app.ctx.db;
    const stored = await seed(into('database'), [4096]);
    const [id] = [...stored.keys()];
    const corrupting = new CorruptingStore(bucket);
    const report = await moveFiles(db, new FileStorage('s3', corrupting));
    expect(report.moved).toBe(0);
    expect(report.failed).toEqual([{ id, error: expect.stringMatching(/checksum mismatch/) }]);
    // Tried twice (once more for a dropped connection), each copy removed again.
    expect(corrupting.deleted).toHaveLength(2);
    for (const key of corrupting.deleted)
      await expect(buffer(bucket.get(key))).rejects.toMatchObject({ code: 'ENOENT' });
    await expectAllIn('database', stored);
  });

  it('a file whose bytes are missing is reported and the others still move', async () => {
    const db = t.app.ctx.db;
    const stored = await seed(into('disk'), [1000, 2000]);
    const [lost, kept] = [...stored.keys()];
    const [row] = await db.select({ key: files.storageKey }).from(files).where(eq(files.id, lost!));
    await disk.delete(row!.key!);
    const report = await moveFiles(db, into('s3'));
    expect(report.failed).toEqual([{ id: lost, error: expect.stringMatching(/ENOENT|no such file/) }]);
    const [still] = await db.select({ key: files.storageKey }).from(files).where(eq(files.id, lost!));
    expect(still!.key).toBe(row!.key); // not switched to a copy of nothing
    const [moved] = await db.select({ key: files.storageKey }).from(files).where(eq(files.id, kept!));
    expect(moved!.key).toMatch(/^s3:/);
  });
});
