// Once per test run, before any test file: a migrated database every test file starts from, so
// that no file pays for an empty cluster and every migration again.
// - Embedded PGlite: a dump of a migrated in-memory cluster in the system's temporary folder
//   (`attesta-test-pglite-<migrations hash>.tar`); a file loads it in about a second instead of
//   five to nine for initdb and the migrations.
// - TEST_DATABASE_URL: a template database (`attesta_test_tpl_<hash>`) each file's database is
//   created from (CREATE DATABASE … TEMPLATE).
// The name carries a hash of the committed migrations, so a changed migration never meets an old copy.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openDatabase } from '../src/db/client.js';
import { S3TestServer } from './s3-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite dump (embedded runs). */
    pgliteDump: string | null;
    /** Name of the migrated template database (TEST_DATABASE_URL runs). */
    databaseTemplate: string | null;
  }
}

function migrationsHash(): string {
  const folder = migrationsFolder();
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(folder)
      .filter((f) => f.endsWith('.sql'))
      .sort(),
    'meta/_journal.json',
  ];
  for (const file of files) hash.update(file).update(readFileSync(join(folder, file)));
  return hash.digest('hex').slice(0, 16);
}

async function pgliteDump(key: string): Promise<string> {
  const path = join(tmpdir(), `attesta-test-pglite-${key}.tar`);
  if (existsSync(path)) return path;
  const database = await openDatabase({});
  try {
    await database.migrate();
    const dump = await database.dump!();
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path); // whole or absent: a run beside this one never reads half a file
  } finally {
    await database.close();
  }
  return path;
}

async function databaseTemplate(serverUrl: string, key: string): Promise<string> {
  const name = `attesta_test_tpl_${key}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // Two runs at once on one server: one builds the template while the other waits.
    await admin.query('SELECT pg_advisory_lock(7301777)');
    const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rows.length) {
      const building = `${name}_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase({ url: url.toString(), poolSize: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(7301777)').catch(() => undefined);
    await admin.end();
  }
  return name;
}

/**
 * The PostgreSQL server and Redis a run is given must answer: the tests that need them would
 * otherwise fail one by one with connection errors, or (without their URL) skip.
 */
async function mustAnswer(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (err) {
      throw new Error(
        `TEST_DATABASE_URL does not answer (${(err as Error).message}): start PostgreSQL or unset it`,
        { cause: err },
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const redisUrl = process.env.TEST_REDIS_URL;
  if (redisUrl) {
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      connectTimeout: 5_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
    } catch (err) {
      throw new Error(`TEST_REDIS_URL does not answer (${(err as Error).message}): start Redis or unset it`, {
        cause: err,
      });
    } finally {
      redis.disconnect();
    }
  }
}

/**
 * FILES_STORAGE=s3 with no FILES_S3_BUCKET: the run's file tests go to a local S3 server started
 * here (s3rver, test/s3-server.ts), its settings handed to the test files as FILES_S3_*.
 */
async function localS3(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.FILES_STORAGE !== 's3' || process.env.FILES_S3_BUCKET) return undefined;
  const server = await S3TestServer.start();
  Object.assign(process.env, server.env());
  return () => server.close();
}

export default async function setup(project: TestProject) {
  await mustAnswer();
  const stopS3 = await localS3();
  const key = migrationsHash();
  const serverUrl = process.env.TEST_DATABASE_URL;
  project.provide('pgliteDump', serverUrl ? null : await pgliteDump(key));
  project.provide('databaseTemplate', serverUrl ? await databaseTemplate(serverUrl, key) : null);
  return stopS3;
}
