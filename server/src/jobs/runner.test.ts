import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueItems } from '../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { enqueue } from './queue.js';
import { registerJobHandler } from './runner.js';

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
});
