import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type Logger, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { Coalescer } from '../lib/coalescer.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The one database type used everywhere: the same for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** Rows of a raw `db.execute(sql...)`: node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The pool behind each node-postgres Db (a transaction handle is never in here). */
const pools = new WeakMap<object, pg.Pool>();
/** Loggers of databases opened with one (statements sent around Drizzle are shown to them too). */
const loggers = new WeakMap<object, Logger>();
const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * Runs a raw statement of a hot path as a named prepared statement: PostgreSQL parses and plans
 * it once per connection instead of on every call (for a statement with common table
 * expressions planning costs more than running it: a save is 3× faster prepared). The SQL text of
 * one `name` must never vary. Inside a transaction, and on PGlite, it runs as a plain statement.
 * Rows come with node-postgres's own type parsing (timestamps as Date, arrays, numbers).
 */
export async function runPrepared<T>(db: DbOrTx, name: string, query: SQL): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return rowsOf<T>(await db.execute(query));
  const { sql: text, params } = dialect.sqlToQuery(query);
  loggers.get(db)?.logQuery(text, params);
  try {
    const result = await pool.query({ name, text, values: params });
    return result.rows as T[];
  } catch (error) {
    // The log names the statement (lib/log-safety.ts), never its text or values.
    if (error && typeof error === 'object') (error as { statement?: string }).statement = name;
    throw error;
  }
}

/** Databases opened by openDatabase (a transaction handle is never one of them). */
const roots = new WeakSet<object>();
const preparedQueries = new WeakMap<object, Map<string, unknown>>();

/**
 * A query of a hot path built once per database with placeholders and prepared under `name`:
 * neither Drizzle's query building nor PostgreSQL's planning is paid again on each call. Inside a
 * transaction it is built for that transaction (and run there) each time.
 */
export function preparedOnce<T>(db: DbOrTx, name: string, build: (db: DbOrTx) => T): T {
  if (!roots.has(db)) return build(db);
  let byName = preparedQueries.get(db);
  if (!byName) preparedQueries.set(db, (byName = new Map()));
  let query = byName.get(name) as T | undefined;
  if (!query) byName.set(name, (query = build(db)));
  return query;
}

/**
 * The columns of a batch statement's rows, for `unnest`: `column((r) => r.x, 'int[]')` is
 * `(select $n::int[])` of every row's `x`. Behind the sub-select PostgreSQL cannot see how many
 * values a call brings, so every call has the same estimates and the statement keeps one generic
 * plan; with a bare array parameter it plans the statement again on every call (its custom plan
 * always looks cheaper), which for a CTE costs more than running it.
 */
export function batchColumns<R>(rows: readonly R[]) {
  return (pick: (row: R) => unknown, type: `${string}[]`): SQL =>
    sql`(select ${sql.param(rows.map(pick))}::${sql.raw(type)})`;
}

/** The coalescers of each root database, by name (lib/coalescer). */
const coalescers = new WeakMap<object, Map<string, Coalescer<unknown, unknown>>>();

/**
 * One call of a hot read or write that may share its statement with the calls of the same `name`
 * made at the same time (lib/coalescer: one statement for what arrives together, at most two in
 * flight). `run` does a whole batch against a database and answers in the order of its inputs;
 * calls with the same `conflictKey` never share a batch (a write may touch a row once per
 * statement). Inside a transaction the call runs alone, in that transaction.
 */
export async function coalesced<I, O>(
  db: DbOrTx,
  name: string,
  input: I,
  run: (db: DbOrTx, inputs: I[]) => Promise<O[]>,
  conflictKey?: (input: I) => string,
): Promise<O> {
  if (!roots.has(db)) return (await run(db, [input]))[0] as O;
  let byName = coalescers.get(db);
  if (!byName) coalescers.set(db, (byName = new Map()));
  let coalescer = byName.get(name) as Coalescer<I, O> | undefined;
  if (!coalescer) {
    coalescer = new Coalescer<I, O>((inputs) => run(db, inputs), { conflictKey });
    byName.set(name, coalescer as Coalescer<unknown, unknown>);
  }
  return coalescer.call(input);
}

/**
 * A read by key for `coalesced`: the row of each key (or null), in the order of `keys`; the first
 * row of a key if it has several. `build` makes the query with `match(expr)` as its key test and
 * prepares it under the name it is given: `name` for one key (`expr = $keys`), `name_many` for
 * several (`expr = any($keys)`). PostgreSQL plans the one-key statement once for all calls (a
 * generic plan), while it plans `= any` of an array on every call — a cost only worth paying when
 * many calls share it.
 */
export async function readByKeys<K, R>(
  db: DbOrTx,
  name: string,
  keys: readonly K[],
  arrayType: 'int[]' | 'text[]',
  build: (
    db: DbOrTx,
    match: (expr: SQLWrapper) => SQL,
    name: string,
  ) => { execute(values: { keys: unknown }): Promise<R[]> },
  keyOf: (row: R) => K,
): Promise<(R | null)[]> {
  const many = keys.length > 1;
  const statement = many ? `${name}_many` : name;
  const match = (expr: SQLWrapper) =>
    many
      ? sql`${expr} = any(${sql.placeholder('keys')}::${sql.raw(arrayType)})`
      : sql`${expr} = ${sql.placeholder('keys')}`;
  const query = preparedOnce(db, statement, (d) => build(d, match, statement));
  const byKey = new Map<K, R>();
  for (const row of await query.execute({ keys: many ? keys : keys[0] })) {
    const key = keyOf(row);
    if (!byKey.has(key)) byKey.set(key, row);
  }
  return keys.map((key) => byKey.get(key) ?? null);
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The server's connection string (PostgreSQL only). */
  url?: string;
  /** The embedded database's folder (PGlite on disk only; undefined in memory). */
  dataDir?: string;
  /** Runs the committed SQL migrations (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * The whole embedded cluster as a tarball, for `loadDataDir` (PGlite only; tests start from it,
   * `npm run backup` saves it): taken while no statement runs, after a checkpoint.
   */
  dump?(compression?: 'none' | 'gzip'): Promise<Blob>;
  /** Opens the pool's kept connections (`poolMin`) now instead of at the first requests. */
  warm?(): Promise<void>;
  /**
   * The pool's connections now (PostgreSQL only; /metrics): open, idle (open, not lent out),
   * requests waiting for one, and the most it opens.
   */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
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

/** Arbitrary constant key of the migration advisory lock. */
const MIGRATION_LOCK = 7_301_2024;

export interface DatabaseOptions {
  /** PostgreSQL server URL; without it an embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; undefined means in memory. */
  dataDir?: string;
  /** An in-memory PGlite starts from this dump (`dumpDataDir`) instead of an empty cluster (tests). */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * Connections the pool keeps open however idle (default none): a pool that shrank during a
   * quiet minute would open them again in the first second of a storm, when the database is
   * busiest (a new backend costs milliseconds of its CPU and reads its catalogs afresh).
   */
  poolMin?: number;
  /** Sees every statement's text and parameters as it is sent (the SQL snapshot test; never logs). */
  logger?: Logger;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const casing = 'snake_case' as const;
  if (options.url) {
    const max = options.poolSize ?? 20;
    const min = Math.min(options.poolMin ?? 0, max);
    const pool = new pg.Pool({ connectionString: options.url, max, min });
    pool.on('error', () => undefined); // idle client errors surface on the next query instead
    // A connection lost while a request holds it (a transaction between two statements, or one
    // statement running) makes node-postgres emit 'error' on that client, and the pool listens only
    // to idle ones: with no listener the process died, every instance at once when the database went
    // away for a moment (bench/restart-drill.mjs --outages). The failure still reaches the
    // statement or the transaction that used it, and the broken client leaves the pool on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg(pool, { schema, casing, logger: options.logger }) as unknown as Db;
    pools.set(db, pool);
    if (options.logger) loggers.set(db, options.logger);
    roots.add(db);
    return {
      db,
      kind: 'postgres',
      url: options.url,
      // Several instances may start at once: an advisory lock lets one migrate while the others wait.
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migratePg(drizzlePg(client, { schema, casing }), { migrationsFolder: migrationsFolder() });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
          client.release();
        }
      },
      close: () => pool.end(),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max,
      }),
      async warm() {
        const clients = await Promise.all(Array.from({ length: min }, () => pool.connect()));
        for (const client of clients) client.release();
      },
      async query<T>(text: string, params?: unknown[]) {
        const result = await pool.query(text, params);
        return result.rows as T[];
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = options.dataDir
    ? new PGlite(options.dataDir)
    : new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing, logger: options.logger }) as unknown as Db;
  roots.add(db);
  return {
    db,
    kind: 'pglite',
    dataDir: options.dataDir,
    migrate: () =>
      migratePglite(drizzlePglite(client, { schema, casing }), { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
    async dump(compression = 'none') {
      // The tarball is taken between two statements (PGlite's own lock): a consistent cluster whose
      // last transactions are in its WAL; the checkpoint first keeps the replay at start short.
      await client.exec('CHECKPOINT');
      return client.dumpDataDir(compression);
    },
    async query<T>(text: string, params?: unknown[]) {
      const result = await client.query(text, params);
      return result.rows as T[];
    },
  };
}
