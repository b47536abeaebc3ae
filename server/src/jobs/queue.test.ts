import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { files, queueItems } from '../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { backoffMs, claim, complete, enqueue, enqueueMany, fail, progress, recoverStale } from './queue.js';
import { AppError } from '../lib/errors.js';
import { presentQueueItem } from '../modules/participant-test/index.js';
import {
  GENERIC_JOB_FAILURE,
  JobRunner,
  PermanentJobError,
  type BatchJobHandler,
  type JobHandler,
} from './runner.js';

let t: TestApp;
const silent = { child: () => silent, info() {}, warn() {}, error() {}, debug() {} } as never;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  // Each test starts from an empty queue; files of earlier results go with their items.
  await t.app.ctx.db.update(queueItems).set({ resultFileId: null });
  await t.app.ctx.db.delete(files).where(eq(files.ownerType, 'queue_item'));
  await t.app.ctx.db.delete(queueItems);
});

const db = () => t.app.ctx.db;
const load = async (id: number) => (await db().select().from(queueItems).where(eq(queueItems.id, id)))[0]!;

describe('queue items', () => {
  it('enqueue is idempotent on the dedupe key while the item is queued or running, not after', async () => {
    const first = await enqueue(db(), { type: 'test.a', dedupeKey: 'k1', payload: { n: 1 } });
    expect(first.created).toBe(true);
    expect(first.item).toMatchObject({ status: 'queued', attempts: 0, maxAttempts: 3, payload: { n: 1 } });
    const again = await enqueue(db(), { type: 'test.a', dedupeKey: 'k1', payload: { n: 2 } });
    expect(again).toMatchObject({ created: false, item: { id: first.item.id, payload: { n: 1 } } });

    const running = await claim(db(), 'w1', ['test.a']);
    expect(running!.id).toBe(first.item.id);
    expect((await enqueue(db(), { type: 'test.a', dedupeKey: 'k1' })).item.id).toBe(first.item.id);

    await complete(db(), running!.id, 'w1', { ok: true });
    const later = await enqueue(db(), { type: 'test.a', dedupeKey: 'k1' });
    expect(later.created).toBe(true);
    expect(later.item.id).not.toBe(first.item.id);
    // Without a key nothing is deduplicated.
    await enqueue(db(), { type: 'test.a' });
    await enqueue(db(), { type: 'test.a' });
    expect((await db().select().from(queueItems)).length).toBe(4);
  });

  it('claims the oldest due item of the given types and marks it running', async () => {
    const later = await enqueue(db(), { type: 'test.a', runAfter: new Date(Date.now() + 60_000) });
    const other = await enqueue(db(), { type: 'test.other' });
    const due = await enqueue(db(), { type: 'test.a' });
    expect(await claim(db(), 'w1', [])).toBeNull();
    const item = await claim(db(), 'w1', ['test.a']);
    expect(item).toMatchObject({ id: due.item.id, status: 'running', attempts: 1, lockedBy: 'w1' });
    expect(item!.lockedAt).toBeInstanceOf(Date);
    expect(item!.startedAt).toBeInstanceOf(Date);
    // The one not yet due and the other type stay queued.
    expect(await claim(db(), 'w2', ['test.a'])).toBeNull();
    expect((await load(later.item.id)).status).toBe('queued');
    expect((await load(other.item.id)).status).toBe('queued');
    expect((await claim(db(), 'w2'))!.id).toBe(other.item.id);
  });

  it('progress and completion need the lock; complete stores the result', async () => {
    const { item } = await enqueue(db(), { type: 'test.a' });
    await claim(db(), 'w1', ['test.a']);
    expect(await progress(db(), item.id, 'w1', 42.4, 'почти')).toBe(true);
    expect(await load(item.id)).toMatchObject({ progress: 42, progressText: 'почти' });
    expect(await progress(db(), item.id, 'intruder', 90)).toBe(false);
    expect(await complete(db(), item.id, 'intruder', {})).toBe(false);
    expect(await complete(db(), item.id, 'w1', { created: 3 })).toBe(true);
    expect(await load(item.id)).toMatchObject({
      status: 'done',
      progress: 100,
      result: { created: 3 },
      lockedBy: null,
      finishedAt: expect.any(Date),
    });
  });

  it('a failed attempt goes back to the queue with backoff, and fails for good after maxAttempts', async () => {
    const { item } = await enqueue(db(), { type: 'test.a', maxAttempts: 3 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const claimed = await claim(db(), 'w1', ['test.a']);
      expect(claimed).toMatchObject({ id: item.id, attempts: attempt });
      const before = Date.now();
      const status = await fail(db(), item.id, 'w1', { code: 'job_failed', message: `boom ${attempt}` });
      const row = await load(item.id);
      expect(row).toMatchObject({ error: `boom ${attempt}`, errorCode: 'job_failed' });
      if (attempt < 3) {
        expect(status).toBe('queued');
        expect(row.status).toBe('queued');
        // 30 s × 2^attempts: 60 s after the first failure, 120 s after the second.
        const delay = row.runAfter.getTime() - before;
        expect(delay).toBeGreaterThan(backoffMs(attempt) - 5_000);
        expect(delay).toBeLessThan(backoffMs(attempt) + 5_000);
        expect(await claim(db(), 'w1', ['test.a'])).toBeNull();
        await db()
          .update(queueItems)
          .set({ runAfter: new Date(Date.now() - 1000) })
          .where(eq(queueItems.id, item.id));
      } else {
        expect(status).toBe('failed');
        expect(row).toMatchObject({ status: 'failed', attempts: 3, finishedAt: expect.any(Date) });
      }
    }
    expect(await claim(db(), 'w1', ['test.a'])).toBeNull();
    expect(backoffMs(1)).toBe(60_000);
    expect(backoffMs(2)).toBe(120_000);
  });

  it('recovers running items whose lock went stale; a late worker cannot complete them', async () => {
    const a = await enqueue(db(), { type: 'test.a', maxAttempts: 3 });
    const b = await enqueue(db(), { type: 'test.a', maxAttempts: 1 });
    const c = await enqueue(db(), { type: 'test.a' });
    await claim(db(), 'dead', ['test.a']);
    await claim(db(), 'dead', ['test.a']);
    await claim(db(), 'alive', ['test.a']);
    const old = new Date(Date.now() - 11 * 60_000);
    await db()
      .update(queueItems)
      .set({ lockedAt: old })
      .where(sql`${queueItems.id} in (${a.item.id}, ${b.item.id})`);
    const recovered = await recoverStale(db());
    expect(recovered.sort()).toEqual([a.item.id, b.item.id].sort());
    expect(await load(a.item.id)).toMatchObject({
      status: 'queued',
      lockedBy: null,
      errorCode: 'job_interrupted',
    });
    // Out of attempts: failed rather than queued again.
    expect(await load(b.item.id)).toMatchObject({ status: 'failed', errorCode: 'job_interrupted' });
    expect(await load(c.item.id)).toMatchObject({ status: 'running', lockedBy: 'alive' });
    expect(await complete(db(), a.item.id, 'dead', {})).toBe(false);
  });
});

describe('job runner', () => {
  it('runs a handler: progress, result and a result file owned by the queue item', async () => {
    const seen: number[] = [];
    const handlers = new Map<string, JobHandler>([
      [
        'test.report',
        async ({ item, progress: report }) => {
          await report(50, 'половина');
          seen.push((await load(item.id)).progress);
          return {
            result: { rows: 2 },
            file: { name: 'Отчёт.csv', mime: 'text/csv', data: Buffer.from('a;b') },
          };
        },
      ],
    ]);
    const runner = new JobRunner(db(), silent, { handlers, workerId: 'r1' });
    const { item } = await enqueue(db(), { type: 'test.report' });
    const done = await runner.runOnce();
    expect(done).toMatchObject({ id: item.id, status: 'done', result: { rows: 2 }, progress: 100 });
    expect(seen).toEqual([50]);
    const [file] = await db().select().from(files).where(eq(files.id, done!.resultFileId!));
    expect(file).toMatchObject({ ownerType: 'queue_item', ownerId: item.id, name: 'Отчёт.csv', size: 3 });
    expect(await runner.runOnce()).toBeNull();
  });

  it('a thrown error is a failed attempt; a permanent one fails at once; unknown types are left alone', async () => {
    const handlers = new Map<string, JobHandler>([
      [
        'test.flaky',
        async () => {
          throw new Error('temporary');
        },
      ],
      [
        'test.broken',
        async () => {
          throw new PermanentJobError('no such diagnostic');
        },
      ],
    ]);
    const runner = new JobRunner(db(), silent, { handlers });
    const flaky = await enqueue(db(), { type: 'test.flaky' });
    const broken = await enqueue(db(), { type: 'test.broken' });
    const foreign = await enqueue(db(), { type: 'test.elsewhere' });
    expect(await runner.drain()).toBe(2);
    expect(await load(flaky.item.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      errorCode: 'job_failed',
      error: GENERIC_JOB_FAILURE,
    });
    expect(await load(broken.item.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorCode: 'job_failed',
      error: 'no such diagnostic',
    });
    expect(await load(foreign.item.id)).toMatchObject({ status: 'queued', attempts: 0 });
    // A later successful attempt clears the failure.
    await db()
      .update(queueItems)
      .set({ runAfter: new Date(Date.now() - 1000) })
      .where(eq(queueItems.id, flaky.item.id));
    handlers.set('test.flaky', async () => ({ result: { ok: true } }));
    await runner.drain();
    expect(await load(flaky.item.id)).toMatchObject({ status: 'done', error: null, errorCode: null });
  });

  it('users never see an unexpected error’s own text: it is stored as job_failed; refusals keep their code', async () => {
    const raw = 'duplicate key value violates unique constraint "users_login_key" (login)=(secret)';
    const handlers = new Map<string, JobHandler>([
      [
        'test.crash',
        async () => {
          throw new Error(raw);
        },
      ],
      [
        'test.text',
        async () => {
          // Not even an Error: whatever was thrown stays in the log.
          throw 'SELECT * FROM users' as unknown as Error;
        },
      ],
      [
        'test.refused',
        async () => {
          throw new AppError(409, 'work_not_finished', 'The work is not finished');
        },
      ],
      [
        'test.gone',
        async () => {
          throw new PermanentJobError('The diagnostic no longer exists', 'not_found');
        },
      ],
    ]);
    const logged: unknown[] = [];
    const log = {
      child: () => log,
      info() {},
      debug() {},
      error() {},
      warn: (obj: unknown) => void logged.push(obj),
    } as never;
    const runner = new JobRunner(db(), log, { handlers });
    const crash = await enqueue(db(), { type: 'test.crash', maxAttempts: 1 });
    const text = await enqueue(db(), { type: 'test.text' });
    const refused = await enqueue(db(), { type: 'test.refused', maxAttempts: 1 });
    const gone = await enqueue(db(), { type: 'test.gone' });
    expect(await runner.drain()).toBe(4);

    const crashed = await load(crash.item.id);
    expect(crashed).toMatchObject({ status: 'failed', errorCode: 'job_failed', error: GENERIC_JOB_FAILURE });
    expect(JSON.stringify(crashed)).not.toContain('duplicate key');
    expect(await load(text.item.id)).toMatchObject({ errorCode: 'job_failed', error: GENERIC_JOB_FAILURE });
    expect(await load(refused.item.id)).toMatchObject({
      status: 'failed',
      errorCode: 'work_not_finished',
      error: 'The work is not finished',
    });
    expect(await load(gone.item.id)).toMatchObject({ status: 'failed', errorCode: 'not_found' });
    // The real error goes to the log (whose serializer redacts what it must).
    expect(logged.some((o) => (o as { err?: Error }).err?.message === raw)).toBe(true);

    // Users read the code; the item as the API presents it carries no raw text either.
    const presented = presentQueueItem(crashed);
    expect(presented).toMatchObject({ errorCode: 'job_failed', error: GENERIC_JOB_FAILURE });
    expect(presentQueueItem({ ...crashed, errorCode: 'retired_code' as never }).errorCode).toBe('job_failed');
  });

  it('two runners on separate connections run each of N items exactly once', async () => {
    const N = 40;
    const runs = new Map<number, string[]>();
    const handler =
      (name: string): JobHandler =>
      async ({ item }) => {
        runs.set(item.id, [...(runs.get(item.id) ?? []), name]);
        await new Promise((r) => setTimeout(r, 2));
        return { result: { by: name } };
      };
    // On PostgreSQL the second runner gets a pool of its own, as a second server instance would.
    let second: Database | null = null;
    let otherDb = db();
    if (t.database.kind === 'postgres' && process.env.TEST_DATABASE_URL) {
      const [{ name }] = (await t.database.query<{ name: string }>('select current_database() as name')) as [
        { name: string },
      ];
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      second = await openDatabase({ url: url.toString(), poolSize: 3 });
      otherDb = second.db;
    }
    try {
      const ids: number[] = [];
      for (let i = 0; i < N; i++) ids.push((await enqueue(db(), { type: 'test.once' })).item.id);
      const one = new JobRunner(db(), silent, { handlers: new Map([['test.once', handler('one')]]) });
      const two = new JobRunner(otherDb, silent, { handlers: new Map([['test.once', handler('two')]]) });
      const [a, b] = await Promise.all([one.drain(), two.drain()]);
      expect(a + b).toBe(N);
      for (const id of ids) expect(runs.get(id)).toHaveLength(1);
      const rows = await db().select().from(queueItems);
      expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
      if (second) {
        // Both instances did part of the work.
        expect(a).toBeGreaterThan(0);
        expect(b).toBeGreaterThan(0);
      }
    } finally {
      await second?.close();
    }
  });

  it('the server plugin exposes this instance’s runner, idle in tests until driven', async () => {
    expect(t.app.jobs).toBeInstanceOf(JobRunner);
    const { item } = await enqueue(db(), { type: 'test.nobody-handles-this' });
    await new Promise((r) => setTimeout(r, 50));
    expect((await load(item.id)).status).toBe('queued');
  });
});

describe('batches (issue 15: the finish storm)', () => {
  it('enqueueMany adds many items in one go with enqueue’s dedupe', async () => {
    const held = await enqueue(db(), { type: 'test.b', dedupeKey: 'b:1' });
    const added = await enqueueMany(
      db(),
      [1, 2, 3].map((n) => ({ type: 'test.b', dedupeKey: `b:${n}`, payload: { n } })),
    );
    expect(added).toBe(2);
    const rows = await db().select().from(queueItems);
    expect(rows.map((r) => r.dedupeKey).sort()).toEqual(['b:1', 'b:2', 'b:3']);
    expect(rows.find((r) => r.dedupeKey === 'b:1')!.id).toBe(held.item.id);
  });

  it('one run claims up to a batch of due items and settles them together; errors and left items as one by one', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 7; n++)
      ids.push((await enqueue(db(), { type: 'test.batch', payload: { n } })).item.id);
    const batches: number[][] = [];
    const singles: number[] = [];
    const run: BatchJobHandler = async ({ items }) => {
      batches.push(items.map((i) => i.id));
      const out = new Map<number, { result: Record<string, unknown> } | Error>();
      for (const item of items) {
        const n = item.payload!.n as number;
        if (n === 1) out.set(item.id, new PermanentJobError('refused'));
        else if (n === 2) out.set(item.id, new Error('database hiccup'));
        else if (n !== 3) out.set(item.id, { result: { n } }); // n = 3 is left to the handler
      }
      return out;
    };
    const handler: JobHandler = async ({ item }) => {
      singles.push(item.id);
      return { result: { single: item.payload!.n } };
    };
    const runner = new JobRunner(db(), silent, {
      handlers: new Map([['test.batch', handler]]),
      batches: new Map([['test.batch', { size: 5, run }]]),
    });
    expect(await runner.runOnce()).toMatchObject({ id: ids[0], status: 'done', result: { n: 0 } });
    expect(batches).toEqual([ids.slice(0, 5)]);
    expect(singles).toEqual([ids[3]]);
    const byId = new Map((await db().select().from(queueItems)).map((r) => [r.id, r]));
    expect(byId.get(ids[1]!)).toMatchObject({ status: 'failed', error: 'refused', attempts: 1 });
    expect(byId.get(ids[2]!)).toMatchObject({ status: 'queued', errorCode: 'job_failed', attempts: 1 });
    expect(byId.get(ids[3]!)).toMatchObject({ status: 'done', result: { single: 3 } });
    expect(byId.get(ids[4]!)).toMatchObject({
      status: 'done',
      result: { n: 4 },
      progress: 100,
      lockedBy: null,
    });
    expect(byId.get(ids[5]!)!.status).toBe('queued');
    // The next run takes the rest; a lone item runs through the handler.
    await runner.runOnce();
    expect(batches[1]).toEqual(ids.slice(5));
  });

  it('a batch that throws runs its items one by one, so one bad item holds none back', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 3; n++)
      ids.push((await enqueue(db(), { type: 'test.batch', payload: { n } })).item.id);
    const singles: number[] = [];
    const runner = new JobRunner(db(), silent, {
      handlers: new Map<string, JobHandler>([
        [
          'test.batch',
          async ({ item }) => {
            singles.push(item.id);
            if (item.payload!.n === 1) throw new PermanentJobError('bad item');
          },
        ],
      ]),
      batches: new Map([
        [
          'test.batch',
          {
            size: 10,
            run: async () => {
              throw new Error('the batch failed');
            },
          },
        ],
      ]),
    });
    await runner.runOnce();
    expect(singles).toEqual(ids);
    const status = (await db().select().from(queueItems)).map((r) => [r.id, r.status]);
    expect(new Map(status as [number, string][])).toEqual(
      new Map([
        [ids[0]!, 'done'],
        [ids[1]!, 'failed'],
        [ids[2]!, 'done'],
      ]),
    );
  });
});
