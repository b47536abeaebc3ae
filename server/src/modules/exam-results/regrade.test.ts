import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueItems } from '../../db/schema/index.js';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  signedIn,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('POST /api/results/regrade', () => {
  it('admin only; names what to regrade; queues one regrade job whose result lists the changes', async () => {
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    const post = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/results/regrade', headers, payload });

    expect((await post({}, { subjectTestId: pt.subjectTestId })).statusCode).toBe(401);
    const { session: coordinator } = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await post(coordinator.headers, { subjectTestId: pt.subjectTestId })).statusCode).toBe(403);

    const { session: admin } = await signedIn(t.app, ['admin']);
    const before = (await t.app.ctx.db.select().from(queueItems)).length;
    const empty = await post(admin.headers, {});
    expect(empty.statusCode).toBe(400);
    expect((await post(admin.headers, { subjectTestId: 'x' })).statusCode).toBe(400);
    expect((await t.app.ctx.db.select().from(queueItems)).length).toBe(before);

    const ok = await post(admin.headers, { subjectTestId: pt.subjectTestId, reason: 'ключ исправлен' });
    expect(ok.statusCode).toBe(200);
    const again = await post(admin.headers, { subjectTestId: pt.subjectTestId });
    expect(again.json()).toMatchObject({ queueItemId: ok.json().queueItemId, created: false });

    await t.app.jobs.drain();
    const [item] = await t.app.ctx.db
      .select()
      .from(queueItems)
      .where(eq(queueItems.id, ok.json().queueItemId));
    expect(item).toMatchObject({ type: 'regrade', status: 'done' });
    expect(item!.result).toMatchObject({ works: 0, changed: [] });
  });
});
