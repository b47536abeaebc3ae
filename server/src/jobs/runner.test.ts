import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueItems } from '../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { enqueue } from './queue.js';
import { JobRunner, registerJobHandler } from './runner.js';

let t: TestApp;
beforeAll(async () => {
  // The plugin polls when JOBS_POLL_INTERVAL_MS is set, as a production server does every second.
  registerJobHandler('test.poll', async ({ item }) => ({ result: { echo: item.payload.n } }));
  t = await createTestApp({ JOBS_POLL_INTERVAL_MS: '20' });
});
afterAll(async () => {
  await t.close();
});

describe('jobs plugin', () => {
  it('polls the queue while the server runs and stops when it closes', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 5; n++)
      ids.push((await enqueue(t.app.ctx.db, { type: 'test.poll', payload: { n } })).item.id);
    const deadline = Date.now() + 10_000;
    let rows = await t.app.ctx.db.select().from(queueItems);
    while (rows.some((r) => r.status !== 'done') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await t.app.ctx.db.select().from(queueItems);
    }
    expect(rows.map((r) => [r.id, r.status, r.result])).toEqual(
      ids.map((id, n) => [id, 'done', { echo: n }]),
    );

    await t.app.jobs.stop();
    const { item } = await enqueue(t.app.ctx.db, { type: 'test.poll', payload: { n: 9 } });
    await new Promise((r) => setTimeout(r, 200));
    const [row] = await t.app.ctx.db.select().from(queueItems).where(eq(queueItems.id, item.id));
    expect(row!.status).toBe('queued');
  });

  it('runs quick jobs side by side in its quick lanes while a long job holds the main lane', async () => {
    // The app's own runner was stopped by the test above: this one is alone on the queue.
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((r) => (releaseSlow = r));
    let active = 0;
    let most = 0;
    registerJobHandler('test.slow', async () => {
      await slowGate;
      return { result: { slow: true } };
    });
    registerJobHandler(
      'test.quick',
      async () => {
        most = Math.max(most, ++active);
        await new Promise((r) => setTimeout(r, 60));
        active--;
        return { result: { quick: true } };
      },
      { quick: true },
    );
    const db = t.app.ctx.db;
    const slow = (await enqueue(db, { type: 'test.slow', payload: {} })).item.id;
    const quick: number[] = [];
    for (let n = 0; n < 9; n++)
      quick.push((await enqueue(db, { type: 'test.quick', payload: { n } })).item.id);

    const runner = new JobRunner(db, t.app.log);
    runner.start(10, 3);
    try {
      const statusOf = async (id: number) =>
        (await db.select().from(queueItems).where(eq(queueItems.id, id)))[0]!.status;
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (await Promise.all(quick.map(statusOf))).some((s) => s !== 'done'))
        await new Promise((r) => setTimeout(r, 20));
      // Every quick job ran while the long one still ran, three at a time.
      expect(await Promise.all(quick.map(statusOf))).toEqual(Array(9).fill('done'));
      expect(await statusOf(slow)).toBe('running');
      expect(most).toBe(3);
      releaseSlow();
      while (Date.now() < deadline && (await statusOf(slow)) !== 'done')
        await new Promise((r) => setTimeout(r, 20));
      expect(await statusOf(slow)).toBe('done');
    } finally {
      releaseSlow();
      await runner.stop();
    }
  });
});
