import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The one database type used everywhere: the same for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed SQL migrations (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Raw single-statement query, for health checks and benchmarks. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Folder of the committed migrations, found from this file whether running from src/ or dist/. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error('migrations folder (server/drizzle) not found');
}

export interface DatabaseOptions {
  /** PostgreSQL server URL; without it an embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; undefined means in memory. */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const casing = 'snake_case' as const;
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 20 });
    pool.on('error', () => undefined); // idle client errors surface on the next query instead
    const db = drizzlePg(pool, { schema, casing }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool, { schema, casing }), { migrationsFolder: migrationsFolder() }),
      close: () => pool.end(),
      async query<T>(text: string, params?: unknown[]) {
        const result = await pool.query(text, params);
        return result.rows as T[];
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = options.dataDir ? new PGlite(options.dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () =>
      migratePglite(drizzlePglite(client, { schema, casing }), { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
    async query<T>(text: string, params?: unknown[]) {
      const result = await client.query(text, params);
      return result.rows as T[];
    },
  };
}
