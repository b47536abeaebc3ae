import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp } from '../../../test/helpers.js';
import { auditEvents, examWorkPauses, examWorks, students, subjectTests } from '../../db/schema/index.js';
import { sweepExpired, sweepOverduePauses } from './sweeper.js';
import { caller, createRoom, startWork, T, type Room } from './test-support.js';

// Rest breaks of the accommodations profile (docs/accommodations.md): they stop the clock like a
// pause, take their time from the profile's restBreakMinutes (not the test's pause allowance), end
// by themselves when the minutes run out, and the sweeper does not finish a work on break.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const db = () => t.app.ctx.db;
const workOf = async (id: number) => (await db().select().from(examWorks).where(eq(examWorks.id, id)))[0]!;
const start = (room: Room, body: unknown = {}) => room.api.post('examwork/break/start', body);
const end = (room: Room) => room.api.post('examwork/break/end', {});

/** A room whose student has `restBreakMinutes` (0: a profile without breaks) and a started work. */
async function roomWithBreaks(restBreakMinutes: number) {
  const room = await createRoom(t.app);
  await db()
    .update(students)
    .set({ accommodations: { ...NO_ACCOMMODATIONS, largeText: true, restBreakMinutes } })
    .where(eq(students.id, room.org.studentIds[0]!));
  // The test's own pause allowance stays untouched by breaks.
  await db()
    .update(subjectTests)
    .set({ participantPauseAllowed: true, participantPauseMaxCount: 3, participantPauseMaxMinutes: 15 })
    .where(eq(subjectTests.id, room.subjectTestId));
  return { room, workId: await startWork(room) };
}

/** Moves the work's clock and its open pause `seconds` into the past, as if that much time went by. */
async function elapse(workId: number, seconds: number) {
  const w = await workOf(workId);
  const back = (d: Date | null) => (d ? new Date(d.getTime() - seconds * 1000) : null);
  await db()
    .update(examWorks)
    .set({
      startedAt: back(w.startedAt)!,
      deadlineAt: back(w.deadlineAt)!,
      pausedAt: back(w.pausedAt),
      pausedUntil: back(w.pausedUntil),
    })
    .where(eq(examWorks.id, workId));
  const [open] = await db()
    .select()
    .from(examWorkPauses)
    .where(and(eq(examWorkPauses.examWorkId, workId), isNull(examWorkPauses.endedAt)));
  if (open)
    await db()
      .update(examWorkPauses)
      .set({ startedAt: back(open.startedAt)! })
      .where(eq(examWorkPauses.id, open.id));
}

describe('rest breaks', () => {
  it('need a session (401), the participant role (403) and an empty body (400)', async () => {
    const { room } = await roomWithBreaks(10);
    expect((await caller(t.app, null).post('examwork/break/start', {})).statusCode).toBe(401);
    const staff = await signedIn(t.app, ['organizator']);
    expect((await caller(t.app, staff.session).post('examwork/break/start', {})).statusCode).toBe(403);
    expect((await caller(t.app, staff.session).post('examwork/break/end', {})).statusCode).toBe(403);
    const bad = await start(room, { minutes: 5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
  });

  it('are refused with 409 pause_limit without rest break minutes in the profile', async () => {
    const { room, workId } = await roomWithBreaks(0);
    const res = await start(room);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('pause_limit');
    expect((await workOf(workId)).status).toBe('in_progress');
    expect((await room.api.get('examwork/pause')).json()).toMatchObject({ restBreakSecondsLeft: null });
  });

  it('stop the clock: saves are refused, the deadline moves on by the break, audited as a marked pause', async () => {
    const { room, workId } = await roomWithBreaks(10);
    const before = await workOf(workId);
    const res = await start(room);
    expect(res.statusCode).toBe(200);
    const state = res.json();
    expect(state).toMatchObject({ paused: true, restBreak: true, byStaff: false, restBreakSecondsLeft: 600 });
    expect(Date.parse(state.pausedUntil) - Date.parse(state.pausedAt)).toBe(600_000);
    // Starting again while on break changes nothing.
    expect((await start(room)).json()).toMatchObject({ paused: true, restBreak: true });

    const body = { examWorkId: workId, variantTaskId: room.variantTaskIds[T.single], value: 'o1', seq: 1 };
    const refused = await room.api.put('saveanswer', body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('work_paused');
    // The plain resume does not end a rest break.
    const resume = await room.api.post('examwork/pause', { pause: false });
    expect(resume.statusCode).toBe(409);

    await elapse(workId, 120);
    const ended = await end(room);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ paused: false, restBreak: false });
    expect(ended.json().restBreakSecondsLeft).toBeGreaterThanOrEqual(480 - 2);
    expect(ended.json().restBreakSecondsLeft).toBeLessThanOrEqual(480);
    // The test's own pauses are all still there.
    expect(ended.json().allowance).toMatchObject({ pausesLeft: 3, secondsLeft: 900 });

    const after = await workOf(workId);
    expect(after.status).toBe('in_progress');
    expect(after.pausedSeconds).toBeGreaterThanOrEqual(120);
    expect(after.pausedSeconds).toBeLessThanOrEqual(122);
    // elapse moved the start 120 s back; the break gave those 120 s back: the deadline stands.
    expect(Math.abs(after.deadlineAt.getTime() - before.deadlineAt.getTime())).toBeLessThanOrEqual(2000);
    expect((await room.api.put('saveanswer', body)).statusCode).toBe(200);

    const logged = await db()
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(workId)));
    expect(
      logged.filter((e) => (e.details as { restBreak?: boolean } | null)?.restBreak).map((e) => e.action),
    ).toEqual(['exam_work.pause', 'exam_work.resume']);
    // Ending when none is in force answers the state.
    expect((await end(room)).json()).toMatchObject({ paused: false });
  });

  it('end by themselves when the minutes run out, crediting only them; then none is left', async () => {
    const { room, workId } = await roomWithBreaks(1);
    expect((await start(room)).statusCode).toBe(200);
    await elapse(workId, 100);
    const swept = await sweepOverduePauses(db());
    expect(swept.map((r) => r.id)).toContain(workId);
    const w = await workOf(workId);
    expect(w).toMatchObject({ status: 'in_progress', pausedAt: null, pausedSeconds: 60 });
    const again = await start(room);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('pause_limit');
    expect((await room.api.get('examwork/pause')).json()).toMatchObject({
      paused: false,
      restBreakSecondsLeft: 0,
    });
  });

  it('are not cut short by the sweeper: a work on break past its old deadline is not finished', async () => {
    const { room, workId } = await roomWithBreaks(120);
    const w = await workOf(workId);
    expect((await start(room)).statusCode).toBe(200);
    // The break began just after the start; now the whole limit has gone by, all of it on break.
    await elapse(workId, w.timeLimitSeconds + 30);
    expect((await workOf(workId)).deadlineAt.getTime()).toBeLessThan(Date.now());
    const done = await sweepExpired(db());
    expect(done.map((d) => d.id)).not.toContain(workId);
    expect((await workOf(workId)).finishedAt).toBeNull();
    const left = (await room.api.get(`examwork/left/${workId}`)).json();
    expect(left.paused).toBe(true);
    expect(left.secondsLeft).toBeGreaterThan(w.timeLimitSeconds - 5);
  });
});
