import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { s3ServerOrSkip, type S3TestServer } from '../../../test/s3-server.js';
import { files } from '../../db/schema/index.js';
import { registeredJobTypes } from '../../jobs/runner.js';
import { FILES_SWEEP_JOB, filesSweepJob } from '../../modules/files/files.sweep.js';
import { DiskBlobStore, FileStorage, S3BlobStore, sweepOrphanBlobs, type BlobStore } from './index.js';

let t: TestApp;
let dir: string;
const s3: S3TestServer | null = await s3ServerOrSkip();
const buckets: S3BlobStore[] = [];
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(join(tmpdir(), 'attesta-sweep-test-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
  for (const bucket of buckets) bucket.close();
  await s3?.close();
});

const HOUR = 60 * 60_000;

/** A files row naming `key`, deleted (soft) or not. */
const insertRow = async (key: string, deleted = false) => {
  await t.app.ctx.db.insert(files).values({
    ownerType: 'general',
    name: 'x.bin',
    mime: 'application/octet-stream',
    size: 1,
    sha256: 'x',
    storageKey: key,
    data: null,
    deletedAt: deleted ? new Date() : null,
  });
};

const exists = async (store: BlobStore, key: string) =>
  new Promise<boolean>((resolve) => {
    const stream = store.get(key);
    stream.on('error', () => resolve(false));
    stream.on('data', () => undefined);
    stream.on('end', () => resolve(true));
  });

describe('the orphan blob sweep', () => {
  it('disk: deletes old blobs no row names and stale half-written uploads; keeps named, young and foreign files', async () => {
    const folder = join(dir, 'disk');
    const store = new DiskBlobStore(folder);
    const old = new Date(Date.now() - 3 * 24 * HOUR);
    const backdate = (path: string) => utimes(path, old, old);
    const pathOf = (key: string) => join(folder, key.slice(0, 2), key);

    const orphan = await store.put(Buffer.from('nobody names me'));
    const named = await store.put(Buffer.from('a live row'));
    const namedByDeleted = await store.put(Buffer.from('a deleted row'));
    const young = await store.put(Buffer.from('just uploaded, row not committed yet'));
    for (const key of [orphan, named, namedByDeleted]) await backdate(pathOf(key));
    await insertRow(named);
    await insertRow(namedByDeleted, true);
    // What an interrupted put leaves, and a file the store never makes (an operator's note).
    await mkdir(join(folder, '.incoming'), { recursive: true });
    const stale = join(folder, '.incoming', 'a-dead-upload');
    await writeFile(stale, 'half');
    await backdate(stale);
    const foreign = join(folder, orphan.slice(0, 2), 'README.txt');
    await writeFile(foreign, 'not a blob');
    await backdate(foreign);

    const outcome = await sweepOrphanBlobs(
      t.app.ctx.db,
      new FileStorage('disk', store),
      new Date(Date.now() - 24 * HOUR),
    );
    expect(outcome).toEqual({ checked: 3, deleted: 1, staging: 1 });
    expect(await exists(store, orphan)).toBe(false);
    for (const key of [named, namedByDeleted, young]) expect(await exists(store, key)).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(foreign)).toBe(true);

    // A second pass finds nothing more to do.
    expect(
      await sweepOrphanBlobs(t.app.ctx.db, new FileStorage('disk', store), new Date(Date.now() - 24 * HOUR)),
    ).toEqual({ checked: 2, deleted: 0, staging: 0 });
  });

  it('an empty or missing folder is nothing to sweep', async () => {
    const storage = new FileStorage('disk', new DiskBlobStore(join(dir, 'never-written')));
    expect(await sweepOrphanBlobs(t.app.ctx.db, storage, new Date())).toEqual({
      checked: 0,
      deleted: 0,
      staging: 0,
    });
  });

  it.skipIf(!s3)(
    's3: the bucket and the folder older files are read from are both swept; other objects stay',
    async () => {
      const bucket = new S3BlobStore(s3!.settings());
      buckets.push(bucket);
      const folder = new DiskBlobStore(join(dir, 'reader'));
      const orphan = await bucket.put(Buffer.from('orphan in the bucket'));
      const named = await bucket.put(Buffer.from('named in the bucket'));
      const oldOrphan = await folder.put(Buffer.from('orphan in the old folder'));
      await insertRow(named);
      // A bucket shared with something else: its objects are not ours to judge.
      await bucket.client.send(
        new PutObjectCommand({ Bucket: s3!.settings().bucket, Key: 'backups/notes.txt', Body: 'keep' }),
      );
      // S3 sets an object's time itself: sweep as if a day had passed.
      const storage = new FileStorage('s3', bucket, undefined, [folder]);
      const outcome = await sweepOrphanBlobs(t.app.ctx.db, storage, new Date(Date.now() + 24 * HOUR));
      expect(outcome.deleted).toBeGreaterThanOrEqual(2);
      expect(await exists(bucket, orphan)).toBe(false);
      expect(await exists(folder, oldOrphan)).toBe(false);
      expect(await exists(bucket, named)).toBe(true);
      const listed: string[] = [];
      for await (const key of bucket.list(new Date(Date.now() + 24 * HOUR))) listed.push(key);
      expect(listed).toContain(named);
      expect(listed.every((key) => key.startsWith('s3:'))).toBe(true);
      // Young objects are not even listed.
      const young: string[] = [];
      for await (const key of bucket.list(new Date(Date.now() - HOUR))) young.push(key);
      expect(young).toEqual([]);
    },
  );

  it('runs as a queued job with the configured grace period, which is a type the queue names', async () => {
    const store = new DiskBlobStore(join(dir, 'job'));
    const orphan = await store.put(Buffer.from('orphan'));
    const old = new Date(Date.now() - 48 * HOUR);
    await utimes(join(store.dir, orphan.slice(0, 2), orphan), old, old);
    const young = await store.put(Buffer.from('young orphan'));
    const job = filesSweepJob({
      db: t.app.ctx.db,
      files: new FileStorage('disk', store),
      config: { ...t.app.ctx.config, filesOrphanSweepHours: 24 },
    });
    const run = await job({} as never);
    expect(run.result).toEqual({ checked: 1, deleted: 1, staging: 0 });
    expect(await exists(store, orphan)).toBe(false);
    expect(await exists(store, young)).toBe(true);
    expect(registeredJobTypes()).toContain(FILES_SWEEP_JOB);
    // Off: nothing is looked at.
    const off = filesSweepJob({
      db: t.app.ctx.db,
      files: new FileStorage('disk', store),
      config: { ...t.app.ctx.config, filesOrphanSweepHours: 0 },
    });
    expect((await off({} as never)).result).toEqual({ checked: 0, deleted: 0, staging: 0 });
    expect(await exists(store, young)).toBe(true);
    const [row] = await t.app.ctx.db.select({ id: files.id }).from(files).where(eq(files.storageKey, orphan));
    expect(row).toBeUndefined();
  });
});
