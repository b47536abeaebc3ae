import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.js';
import { files } from './db/schema/index.js';

/*
 * `npm run files:move` as an operator runs it, on an embedded database in a data folder: bytes in
 * the rows go to the folder beside it and back, and a wrong target is refused with its usage.
 * (Moves to and from S3, checksums, resuming: lib/file-storage/move.test.ts.)
 */

const server = fileURLToPath(new URL('..', import.meta.url));
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'attesta-files-move-cli-'));
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  await database.migrate();
  await database.db.insert(files).values({
    ownerType: 'general',
    name: 'a.txt',
    mime: 'text/plain',
    size: 5,
    sha256: 'x',
    data: Buffer.from('hello'),
  });
  await database.close();
}, 120_000);
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/run-ts.mjs', 'files-move', 'src/files-move.cli.ts', ...args], {
    cwd: server,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 120_000,
  });

const blobs = () => {
  const folder = join(dataDir, 'files');
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((d) => d !== '.incoming')
        .flatMap((d) => readdirSync(join(folder, d)))
    : [];
};

const rowOf = async () => {
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  try {
    const [row] = await database.db.select({ key: files.storageKey, data: files.data }).from(files);
    return { key: row!.key, data: row!.data?.toString() ?? null };
  } finally {
    await database.close();
  }
};

describe('npm run files:move', () => {
  it('moves the embedded database’s files to the folder beside it and back; refuses an unknown target', async () => {
    const wrong = run('--to', 'tape');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('Usage: npm run files:move -- --to database|disk|s3');
    const noBucket = run('--to', 's3');
    expect(noBucket.status).toBe(2);
    expect(noBucket.stderr).toContain('FILES_S3_BUCKET');

    const toDisk = run('--to', 'disk');
    expect(toDisk.status, toDisk.stderr).toBe(0);
    expect(toDisk.stdout).toContain('Moved 1 files');
    expect(blobs()).toHaveLength(1);
    expect(await rowOf()).toEqual({ key: blobs()[0], data: null });

    const back = run('--to', 'database');
    expect(back.status, back.stderr).toBe(0);
    expect(back.stdout).toContain('Moved 1 files');
    expect(back.stdout).toContain('Now set FILES_STORAGE=database');
    expect(blobs()).toHaveLength(0);
    expect(await rowOf()).toEqual({ key: null, data: 'hello' });
  }, 240_000);
});
