import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { examWorks } from '../../db/schema/index.js';
import { saveAnswersFast, type WorkRow } from './exam-work.repo.js';
import { assertWritable } from './exam-work.service.js';
import { createRoom, startWork, T } from './test-support.js';

// "When may a participant write to a work" is one rule (assertWritable, TypeScript) that the hot
// save statement (saveAnswersFast, SQL) says again for speed. Both get the same cases here: the
// statement never takes a save the rule refuses, and refuses exactly what the rule refuses — but
// for an own pause past its end, which the statement leaves to the checked path (it resumes the
// work, then saves).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const MIN = 60_000;
type Change = Partial<WorkRow>;

const cases: {
  name: string;
  change: (w: WorkRow, now: Date) => Change;
  device?: string | null;
  fastDefers?: true;
}[] = [
  { name: 'running, before the deadline', change: () => ({}) },
  { name: 'deleted', change: (_w, now) => ({ deletedAt: now }) },
  { name: 'finished', change: (_w, now) => ({ finishedAt: now, status: 'finished' }) },
  { name: 'scored', change: (_w, now) => ({ finishedAt: now, status: 'scored' }) },
  {
    name: 'paused by staff',
    change: (_w, now) => ({ pausedAt: new Date(now.getTime() - MIN), status: 'paused' }),
  },
  {
    name: 'own pause still running',
    change: (_w, now) => ({
      pausedAt: new Date(now.getTime() - MIN),
      pausedUntil: new Date(now.getTime() + MIN),
      status: 'paused',
    }),
  },
  {
    name: 'own pause past its end',
    change: (_w, now) => ({
      pausedAt: new Date(now.getTime() - 2 * MIN),
      pausedUntil: new Date(now.getTime() - MIN),
      status: 'paused',
    }),
    fastDefers: true,
  },
  {
    name: 'past the time limit',
    change: (w, now) => ({ startedAt: new Date(now.getTime() - (w.timeLimitSeconds + 60) * 1000) }),
  },
  {
    name: 'within the limit thanks to extra time',
    change: (w, now) => ({
      startedAt: new Date(now.getTime() - (w.timeLimitSeconds + 60) * 1000),
      extraSeconds: 300,
    }),
  },
  {
    name: 'within the limit thanks to closed pauses',
    change: (w, now) => ({
      startedAt: new Date(now.getTime() - (w.timeLimitSeconds + 60) * 1000),
      pausedSeconds: 300,
    }),
  },
  {
    name: 'after the window closed',
    change: (_w, now) => ({ windowEndsAt: new Date(now.getTime() - 1000) }),
  },
  { name: 'bound to another device', change: () => ({ deviceId: 'tablet-7' }), device: 'laptop-1' },
  { name: 'bound to this device', change: () => ({ deviceId: 'tablet-7' }), device: 'tablet-7' },
  { name: 'bound, asked without a device header', change: () => ({ deviceId: 'tablet-7' }), device: null },
];

describe('the writability rule and the fast save statement', () => {
  it.each(cases)('agree: $name', async ({ change, device, fastDefers }) => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const now = new Date();
    const [before] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, workId));
    const set = change(before!, now);
    if (Object.keys(set).length)
      await t.app.ctx.db.update(examWorks).set(set).where(eq(examWorks.id, workId));
    const [w] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, workId));

    let rule: string | null = null;
    try {
      assertWritable(w!, now, device ?? null);
    } catch (err) {
      rule = (err as { code?: string }).code ?? 'refused';
    }
    const [fast] = await saveAnswersFast(t.app.ctx.db, [
      {
        workId,
        participantTestId: room.participantTestId,
        variantTaskId: room.variantTaskIds[T.short]!,
        value: 'x',
        seq: 1,
        userId: room.userId,
        deviceId: device ?? null,
        now,
      },
    ]);
    if (fastDefers) {
      expect(rule, 'the rule lets it write (the pause is over)').toBeNull();
      expect(fast, 'the statement leaves it to the checked path').toBeNull();
    } else {
      expect(fast !== null, `rule said ${rule ?? 'writable'}`).toBe(rule === null);
    }
  });
});
