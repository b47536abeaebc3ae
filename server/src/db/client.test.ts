import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.js';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from './client.js';
import { tasks } from './schema/index.js';

describe('database', () => {
  it('migrates idempotently and has the reference data', async () => {
    const database = await createTestDatabase();
    try {
      await database.migrate();
      const roles = await database.query<{ code: string }>('select code from roles order by code');
      expect(roles.map((r) => r.code)).toEqual([
        'admin',
        'coordinator',
        'expert',
        'guest',
        'integration',
        'organizator',
        'participant',
        'ugnik',
      ]);
      const parallels = await database.query<{ n: number }>('select count(*)::int as n from parallels');
      expect(parallels[0]!.n).toBe(12);
    } finally {
      await database.close();
    }
  });

  it('reads jsonb values back exactly, strings that look like numbers included', async () => {
    const database = await createTestDatabase();
    try {
      const { eq } = await import('drizzle-orm');
      for (const reference of ['12', 'true', 'null', '[1]', 'текст', 12, { accepted: ['07'] }, ['a']]) {
        const [row] = await database.db
          .insert(tasks)
          .values({ answerType: 'short_text', html: 'x', reference })
          .returning();
        const [back] = await database.db.select().from(tasks).where(eq(tasks.id, row!.id));
        expect(back!.reference).toEqual(reference);
        expect(row!.reference).toEqual(reference);
      }
    } finally {
      await database.close();
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('lets several instances migrate at once', async () => {
    const first = await createTestDatabase();
    try {
      // The test database is already migrated; roll it back to empty to race two migrations.
      await first.query(
        'drop schema public cascade; create schema public; drop schema if exists drizzle cascade',
      );
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = (await first.query<{ db: string }>('select current_database() as db'))[0]!.db;
      url.pathname = `/${name}`;
      const [a, b] = await Promise.all([
        openDatabase({ url: url.toString() }),
        openDatabase({ url: url.toString() }),
      ]);
      await Promise.all([a.migrate(), b.migrate()]);
      await Promise.all([a.close(), b.close()]);
      const roles = await first.query<{ n: number }>('select count(*)::int as n from roles');
      expect(roles[0]!.n).toBe(8);
    } finally {
      await first.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a pool on a database server', () => {
  it('opens its kept connections at warm() and keeps them however idle', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const tag = `attesta-warm-${process.pid}`;
    const withTag = `${url}${url.includes('?') ? '&' : '?'}application_name=${tag}`;
    const database = await openDatabase({ url: withTag, poolSize: 6, poolMin: 4 });
    const open = async () =>
      Number(
        (
          await database.query<{ n: string }>(
            'select count(*) as n from pg_stat_activity where application_name = $1',
            [tag],
          )
        )[0]!.n,
      );
    try {
      await database.warm!();
      expect(await open()).toBe(4);
      // pg's pool closes idle connections after 10 s unless they are kept.
      await new Promise((r) => setTimeout(r, 10_500));
      expect(await open()).toBe(4);
    } finally {
      await database.close();
    }
  }, 20_000);

  it('survives a connection lost while a transaction holds it: the transaction fails, the process lives', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const database = await openDatabase({ url, poolSize: 4 });
    // Without the pool's per-client listener node-postgres emits 'error' on the held client and
    // the process dies (an uncaught exception fails this test run too).
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const attempt = database.db.transaction(async (tx) => {
        const [row] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
        // The database goes away under the held connection, between two statements.
        await database.query('select pg_terminate_backend($1)', [row!.pid]);
        await new Promise((r) => setTimeout(r, 300));
        await tx.execute(sql`select 1`);
      });
      await expect(attempt).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);
      // The pool goes on with a new connection.
      expect(await database.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await database.close();
    }
  });
});
