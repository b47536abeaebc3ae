import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import * as client from '../../db/client.js';
import { answers } from '../../db/schema/index.js';
import { saveAnswersFast, type FastSave } from './exam-work.repo.js';
import { SaveBatcher } from './save-batcher.js';
import { createRoom, startWork, T, type Room } from './test-support.js';

/*
 * The batched save statement and the group commit in front of it. These call them directly: the
 * HTTP tests cannot tell the fast path from the checked fallback, which answers the same.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function storedSeq(workId: number, variantTaskId: number) {
  const [row] = await t.app.ctx.db
    .select({ seq: answers.seq, value: answers.value })
    .from(answers)
    .where(and(eq(answers.examWorkId, workId), eq(answers.variantTaskId, variantTaskId)));
  return row ?? null;
}

function saveOf(room: Room, workId: number, task: number, seq: number, value: unknown = `v${seq}`): FastSave {
  return {
    workId,
    participantTestId: room.participantTestId,
    variantTaskId: room.variantTaskIds[task]!,
    value,
    seq,
    userId: room.userId,
    deviceId: null,
    now: new Date(),
  };
}

describe('saveAnswersFast', () => {
  it('applies every valid save of a batch in one statement and refuses the rest, per save', async () => {
    const a = await createRoom(t.app);
    const b = await createRoom(t.app, a.org, 1);
    const workA = await startWork(a);
    const workB = await startWork(b);
    await saveAnswersFast(t.app.ctx.db, [saveOf(a, workA, T.short, 5)]);

    const result = await saveAnswersFast(t.app.ctx.db, [
      saveOf(a, workA, T.single, 1, 'o1'), // applied
      saveOf(b, workB, T.short, 1, 'ответ'), // applied: another participant's own work
      saveOf(a, workA, T.short, 4), // stale: seq 5 is stored
      { ...saveOf(a, workB, T.number, 1) }, // someone else's work
      { ...saveOf(a, workA, T.number, 1), variantTaskId: b.variantTaskIds[T.number]! }, // not in the variant
    ]);
    expect(result[0]).toMatchObject({ seq: 1 });
    expect(result[0]!.savedAt).toBeInstanceOf(Date);
    expect(result[1]).toMatchObject({ seq: 1 });
    expect(result.slice(2)).toEqual([null, null, null]);
    expect((await storedSeq(workA, a.variantTaskIds[T.single]!))?.value).toBe('o1');
    expect((await storedSeq(workB, b.variantTaskIds[T.short]!))?.value).toBe('ответ');
    expect((await storedSeq(workA, a.variantTaskIds[T.short]!))?.seq).toBe(5);
    expect(await storedSeq(workB, b.variantTaskIds[T.number]!)).toBeNull();
  });

  it('refuses saves into a finished work', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    expect((await room.api.put(`examwork/finish/${workId}/manual`)).statusCode).toBe(200);
    expect(await saveAnswersFast(t.app.ctx.db, [saveOf(room, workId, T.short, 1)])).toEqual([null]);
  });
});

describe('SaveBatcher', () => {
  it('sends the saves of one moment as one statement and answers each after it', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const spy = vi.spyOn(client, 'runPrepared');
    try {
      const batcher = new SaveBatcher(t.app.ctx.db);
      const tasks = [T.single, T.short, T.number, T.multiple];
      const results = await Promise.all(
        tasks.map((task, i) => batcher.save(saveOf(room, workId, task, i + 1))),
      );
      expect(results.map((r) => r?.seq)).toEqual([1, 2, 3, 4]);
      expect(spy.mock.calls.filter((c) => c[1] === 'exam_save_answers_fast')).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('gathers the saves that arrive while statements run into one next statement (group commit)', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const real = client.runPrepared;
    const gates: (() => void)[] = [];
    const sizes: number[] = [];
    // Each statement waits until the test lets it go, so saves pile up behind it.
    const spy = vi.spyOn(client, 'runPrepared').mockImplementation(async (db, name, query) => {
      if (name === 'exam_save_answers_fast') {
        sizes.push(-1);
        const at = sizes.length - 1;
        await new Promise<void>((go) => gates.push(go));
        const rows = await real(db, name, query);
        sizes[at] = rows.length;
        return rows;
      }
      return real(db, name, query);
    });
    const turn = () => new Promise((r) => setImmediate(r));
    try {
      const batcher = new SaveBatcher(t.app.ctx.db, 1);
      const tasks = [T.single, T.short, T.number, T.multiple];
      const first = batcher.save(saveOf(room, workId, tasks[0]!, 1));
      await turn();
      expect(gates).toHaveLength(1); // the first statement runs
      // Three saves over three turns while it runs: one statement each without group commit.
      const rest = [] as Promise<unknown>[];
      for (const [i, task] of tasks.slice(1).entries()) {
        rest.push(batcher.save(saveOf(room, workId, task, i + 2)));
        await turn();
      }
      expect(gates).toHaveLength(1);
      gates[0]!();
      await first;
      while (gates.length < 2) await turn();
      gates[1]!();
      const results = await Promise.all(rest);
      expect(results.map((r) => (r as { seq: number } | null)?.seq)).toEqual([2, 3, 4]);
      expect(sizes).toEqual([1, 3]);
    } finally {
      spy.mockRestore();
    }
  });

  it('puts two saves of one task in separate statements; the newer one stays', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const batcher = new SaveBatcher(t.app.ctx.db);
    const [older, newer] = await Promise.all([
      batcher.save(saveOf(room, workId, T.short, 1, 'first')),
      batcher.save(saveOf(room, workId, T.short, 2, 'second')),
    ]);
    expect(older?.seq).toBe(1);
    expect(newer?.seq).toBe(2);
    expect(await storedSeq(workId, room.variantTaskIds[T.short]!)).toMatchObject({ seq: 2, value: 'second' });
  });
});
