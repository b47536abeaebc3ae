import type { CurrentParticipantTest, ExamWorkState, ParticipantVariant } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import {
  loadRunnerSnapshot,
  loadRunnerVariant,
  memoryRunnerCopy,
  noteRunnerAnswer,
  noteRunnerDeadline,
  saveRunnerSnapshot,
  saveRunnerVariant,
  saveRunnerWork,
} from './runner-snapshot';

// A controlled clock: every instant below is given explicitly, none is read from the machine.
const LOCAL_0 = Date.parse('2030-01-01T10:00:00.000Z');
/** The server's clock runs two minutes ahead of this browser's. */
const SKEW_MS = 120_000;
const iso = (ms: number) => new Date(ms).toISOString();

function sitting(workId: number, deadlineMs: number, serverMs: number): CurrentParticipantTest {
  // Only the fields the copy reads are meaningful; the rest keeps the contract's shape.
  const examWork = {
    id: workId,
    variantId: 3,
    status: 'in_progress',
    deadlineAt: iso(deadlineMs),
    secondsLeft: Math.ceil((deadlineMs - serverMs) / 1000),
    serverTime: iso(serverMs),
  } as ExamWorkState;
  return { id: 5, examWork, serverTime: iso(serverMs) } as CurrentParticipantTest;
}

describe('the local copy of a sitting', () => {
  it('restores the time left from the stored deadline and the local clock, never from the stored seconds', async () => {
    const copy = memoryRunnerCopy();
    const server0 = LOCAL_0 + SKEW_MS;
    await saveRunnerSnapshot(sitting(1, server0 + 30 * 60_000, server0), LOCAL_0, copy);

    // Ten minutes later on this browser's clock (the stored snapshot still says 30:00 left).
    const restored = await loadRunnerSnapshot(LOCAL_0 + 10 * 60_000, copy);
    expect(restored!.examWork!.secondsLeft).toBe(20 * 60);
    // The restored server time is the server's clock now, so a countdown started from it agrees.
    expect(restored!.examWork!.serverTime).toBe(iso(server0 + 10 * 60_000));
    expect(restored!.serverTime).toBe(iso(server0 + 10 * 60_000));

    // Past the deadline: nothing left, never a negative or a stale value.
    expect((await loadRunnerSnapshot(LOCAL_0 + 40 * 60_000, copy))!.examWork!.secondsLeft).toBe(0);
  });

  it('counts to the deadline the server said last (staff cut the time), with the offset of that answer', async () => {
    const copy = memoryRunnerCopy();
    const server0 = LOCAL_0 + SKEW_MS;
    await saveRunnerSnapshot(sitting(1, server0 + 30 * 60_000, server0), LOCAL_0, copy);
    // A clock sync five minutes later: the deadline is now 12 minutes away.
    const local5 = LOCAL_0 + 5 * 60_000;
    await noteRunnerDeadline(
      { examWorkId: 1, deadlineAt: iso(local5 + SKEW_MS + 12 * 60_000), serverTime: iso(local5 + SKEW_MS) },
      local5,
      copy,
    );
    const restored = await loadRunnerSnapshot(local5 + 60_000, copy);
    expect(restored!.examWork!.secondsLeft).toBe(11 * 60);

    // A sync of another work changes nothing here.
    await noteRunnerDeadline(
      { examWorkId: 2, deadlineAt: iso(local5 + SKEW_MS + 50 * 60_000), serverTime: iso(local5 + SKEW_MS) },
      local5,
      copy,
    );
    expect((await loadRunnerSnapshot(local5 + 60_000, copy))!.examWork!.secondsLeft).toBe(11 * 60);
  });

  it('keeps the answers the server gave and every save it acknowledged since, in any order of arrival', async () => {
    const copy = memoryRunnerCopy();
    const server0 = LOCAL_0 + SKEW_MS;
    const test = sitting(1, server0 + 30 * 60_000, server0);
    await saveRunnerSnapshot(test, LOCAL_0, copy);
    const answer = (variantTaskId: number, value: unknown, seq: number) => ({
      variantTaskId,
      value,
      seq,
      savedAt: iso(server0),
      answerMode: 'online' as const,
    });
    await saveRunnerWork({ ...test.examWork!, answers: [answer(101, 'a', 1)] }, LOCAL_0, copy);
    // Two saves acknowledged at once, and an older acknowledgement arriving late.
    await Promise.all([
      noteRunnerAnswer(1, answer(102, 'Москва', 2), copy),
      noteRunnerAnswer(1, answer(101, 'b', 3), copy),
      noteRunnerAnswer(1, answer(101, 'old', 2), copy),
    ]);
    // The participant test's summary, fetched again, carries no answers: the copy keeps its own.
    await saveRunnerSnapshot(test, LOCAL_0 + 1000, copy);
    const answers = (await loadRunnerSnapshot(LOCAL_0 + 2000, copy))!.examWork!.answers!;
    expect(Object.fromEntries(answers.map((a) => [a.variantTaskId, a.value]))).toEqual({
      101: 'b',
      102: 'Москва',
    });
  });

  it('gives back the stored variant only for the variant asked for', async () => {
    const copy = memoryRunnerCopy();
    await saveRunnerVariant({ id: 3, tasks: [] } as unknown as ParticipantVariant, copy);
    expect((await loadRunnerVariant(3, copy))?.id).toBe(3);
    expect(await loadRunnerVariant(4, copy)).toBeNull();
  });
});
