import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as client from '../../db/client.js';
import {
  createOrg,
  createParticipantTest,
  createUser,
  createVariantWithTasks,
  sessionFor,
  signedIn,
  signedInParticipant,
  type TestApp,
  createTestApp,
} from '../../../test/helpers.js';
import {
  answers,
  auditEvents,
  diagnostics,
  examWorkPauses,
  examWorks,
  organizatorAssignments,
  participantTests,
  subjectTests,
} from '../../db/schema/index.js';
import { sweepExpired } from './sweeper.js';
import { caller, createRoom, shiftWork, startWork, T, type Room } from './test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.app.ctx.db;
const work = async (id: number) => (await db().select().from(examWorks).where(eq(examWorks.id, id)))[0]!;
const ptStatus = async (id: number) =>
  (
    await db()
      .select({ s: participantTests.status })
      .from(participantTests)
      .where(eq(participantTests.id, id))
  )[0]!.s;
const auditCount = async (action: string, entityId: number) =>
  (
    await db()
      .select({ n: count() })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, String(entityId))))
  )[0]!.n;

async function organizatorOf(room: Room) {
  const { user, session } = await signedIn(t.app, ['organizator'], { schoolId: room.org.schoolId });
  await db().insert(organizatorAssignments).values({ userId: user.id, classId: room.org.classId });
  return { user, api: caller(t.app, session) };
}

describe('POST examwork/new', () => {
  it('needs a participant session bound to a participant test', async () => {
    expect((await caller(t.app, null).post('examwork/new', {})).statusCode).toBe(401);
    const staff = await signedIn(t.app, ['coordinator']);
    expect((await caller(t.app, staff.session).post('examwork/new', {})).statusCode).toBe(403);
    const loose = await createUser(t.app, { roles: ['participant'] });
    const res = await caller(t.app, await sessionFor(t.app, loose.id)).post('examwork/new', {});
    expect(res.statusCode).toBe(403);
  });

  it('starts the work on the server clock, marks the test in progress and audits', async () => {
    const room = await createRoom(t.app);
    const before = Date.now();
    const res = await room.api.post('examwork/new', {}, { date: 'Mon, 01 Jan 2001 00:00:00 GMT' });
    expect(res.statusCode).toBe(200);
    const state = res.json();
    expect(state).toMatchObject({
      status: 'in_progress',
      answerMode: 'online',
      timeLimitSeconds: 2700,
      extraSeconds: 0,
    });
    expect(Date.parse(state.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(state.deadlineAt) - Date.parse(state.startedAt)).toBe(2700_000);
    expect(state.secondsLeft).toBeGreaterThan(2690);
    expect(await ptStatus(room.participantTestId)).toBe('in_progress');
    expect(await auditCount('exam_work.start', state.id)).toBe(1);
    expect((await work(state.id)).windowEndsAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('is idempotent, also for five concurrent calls', async () => {
    const room = await createRoom(t.app);
    const results = await Promise.all(Array.from({ length: 5 }, () => room.api.post('examwork/new', {})));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    const [row] = await db()
      .select({ n: count() })
      .from(examWorks)
      .where(eq(examWorks.participantTestId, room.participantTestId));
    expect(row?.n).toBe(1);
    expect((await room.api.post('examwork/new')).json().id).toBe(results[0]!.json().id);
  });

  it('refuses before and after the window and for an annulled test', async () => {
    const early = await createRoom(t.app);
    await db()
      .update(diagnostics)
      .set({ startsAt: new Date(Date.now() + 3600_000) })
      .where(eq(diagnostics.id, early.diagnosticId));
    let res = await early.api.post('examwork/new', {});
    expect([res.statusCode, res.json().code]).toEqual([409, 'window_not_open']);
    const before = (await early.api.get('examwork/timeBefore')).json();
    expect(before.seconds).toBeGreaterThan(3500);

    const late = await createRoom(t.app);
    await db()
      .update(diagnostics)
      .set({ endsAt: new Date(Date.now() - 1000) })
      .where(eq(diagnostics.id, late.diagnosticId));
    res = await late.api.post('examwork/new', {});
    expect([res.statusCode, res.json().code]).toEqual([409, 'window_closed']);

    const annulled = await createRoom(t.app);
    await db()
      .update(participantTests)
      .set({ status: 'annulled' })
      .where(eq(participantTests.id, annulled.participantTestId));
    res = await annulled.api.post('examwork/new', {});
    expect([res.statusCode, res.json().code]).toEqual([409, 'participant_test_annulled']);
    const [row] = await db()
      .select({ n: count() })
      .from(examWorks)
      .where(eq(examWorks.participantTestId, early.participantTestId));
    expect(row?.n).toBe(0);
  });

  it('validates the body and the blank mode', async () => {
    const room = await createRoom(t.app);
    expect((await room.api.post('examwork/new', { answerMode: 'paper' })).statusCode).toBe(400);
    expect((await room.api.post('examwork/new', { extra: 1 })).statusCode).toBe(400);
    await db().update(subjectTests).set({ allowBlank: false }).where(eq(subjectTests.id, room.subjectTestId));
    const res = await room.api.post('examwork/new', { answerMode: 'blank' });
    expect([res.statusCode, res.json().code]).toEqual([409, 'blank_not_allowed']);
    expect((await room.api.get('examwork/checkexistsexamwork')).json()).toEqual({
      exists: false,
      examWorkId: null,
      status: null,
    });
    const ok = await room.api.post('examwork/new', { answerMode: 'online' });
    expect(ok.statusCode).toBe(200);
    expect((await room.api.get('examwork/checkexistsexamwork')).json()).toEqual({
      exists: true,
      examWorkId: ok.json().id,
      status: 'in_progress',
    });
  });

  it('spreads variants across a class: least used first, ties by number', async () => {
    const org = await createOrg(t.app);
    const first = await createParticipantTest(t.app, org, { studentId: org.studentIds[0] });
    const v1 = await createVariantWithTasks(t.app, first.subjectTestId, [
      { answerType: 'short_text', content: {} },
    ]);
    const v2 = await createVariantWithTasks(t.app, first.subjectTestId, [
      { answerType: 'short_text', content: {} },
    ]);
    const v3 = await createVariantWithTasks(t.app, first.subjectTestId, [
      { answerType: 'short_text', content: {} },
    ]);
    const chosen: number[] = [];
    // The room's use is counted once; later starts count on in memory (variant-spread.ts).
    const counting = vi.spyOn(client, 'runPrepared');
    for (let i = 0; i < 4; i++) {
      const [pt] = await db()
        .insert(participantTests)
        .values({
          diagnosticId: first.diagnosticId,
          subjectTestId: first.subjectTestId,
          // Impersonal sittings: a student is registered once per subject test of a diagnostic.
          studentId: null,
          isImpersonal: true,
          schoolId: org.schoolId,
          classId: org.classId,
          buildingId: org.buildingId,
          testDate: new Date().toISOString().slice(0, 10),
          activationCode: `VAR${i}-${first.participantTestId}`,
          registrationCode: `99${first.participantTestId}${i}`,
        })
        .returning();
      const { session } = await signedInParticipant(t.app, {
        ...first,
        participantTestId: pt!.id,
        activationCode: pt!.activationCode,
      });
      chosen.push((await caller(t.app, session).post('examwork/new', {})).json().variantId);
    }
    expect(chosen).toEqual([v1.variantId, v2.variantId, v3.variantId, v1.variantId]);
    expect(counting.mock.calls.filter((c) => String(c[1]).startsWith('exam_variant_use_by_'))).toHaveLength(
      1,
    );
    counting.mockRestore();
  });
});

describe('PUT examwork/finish', () => {
  it('finishes own work once; timeout before the deadline counts as manual', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const res = await room.api.put(`examwork/finish/${id}/timeout`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'finished', finishReason: 'manual', secondsLeft: 0 });
    const again = await room.api.put(`examwork/finish/${id}/manual`);
    expect(again.json().finishedAt).toBe(res.json().finishedAt);
    expect(await ptStatus(room.participantTestId)).toBe('finished');
    expect(await auditCount('exam_work.finish', id)).toBe(1);
    expect((await room.api.post('examwork/new', {})).json().id).toBe(id);
  });

  it('after the deadline records timeout at the deadline itself', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    await shiftWork(t.app, id, 3000);
    const deadline = (await work(id)).deadlineAt.toISOString();
    const res = await room.api.put(`examwork/finish/${id}/timeout`);
    expect(res.json()).toMatchObject({ finishReason: 'timeout', finishedAt: deadline });
  });

  it("refuses someone else's work and bad reasons", async () => {
    const room = await createRoom(t.app);
    const other = await createRoom(t.app);
    const id = await startWork(other);
    expect((await room.api.put(`examwork/finish/${id}/manual`)).statusCode).toBe(403);
    expect((await room.api.put(`examwork/finish/${id}/whatever`)).statusCode).toBe(400);
    expect((await room.api.put(`examwork/finish/999999/manual`)).statusCode).toBe(404);
    expect((await work(id)).finishedAt).toBeNull();
  });
});

describe('sweeper', () => {
  it('finishes expired works at their deadline with the answers saved so far, once', async () => {
    const expired = await createRoom(t.app);
    const id = await startWork(expired);
    const vt = expired.variantTaskIds[T.short]!;
    await expired.api.put('saveanswer', { examWorkId: id, variantTaskId: vt, value: 'saved', seq: 1 });
    const running = await createRoom(t.app);
    const runningId = await startWork(running);
    await shiftWork(t.app, id, 2800);
    const deadline = (await work(id)).deadlineAt;

    const done = await sweepExpired(db());
    expect(done.map((d) => d.id)).toContain(id);
    expect(done.map((d) => d.id)).not.toContain(runningId);
    expect(await work(id)).toMatchObject({
      status: 'finished',
      finishReason: 'timeout',
      finishedAt: deadline,
    });
    expect(await ptStatus(expired.participantTestId)).toBe('finished');
    const [row] = await db().select().from(answers).where(eq(answers.examWorkId, id));
    expect(row?.seq).toBe(1);
    expect((await sweepExpired(db())).map((d) => d.id)).not.toContain(id);
    expect((await work(runningId)).status).toBe('in_progress');
    const res = await expired.api.put('saveanswer', {
      examWorkId: id,
      variantTaskId: vt,
      value: 'late',
      seq: 2,
    });
    expect(res.json().code).toBe('work_finished');
  });

  it('finishes paused works whose window closed at the window end', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    await room.api.post('examwork/pause', { pause: true });
    const windowEnd = new Date(Date.now() - 5000);
    await db().update(examWorks).set({ windowEndsAt: windowEnd }).where(eq(examWorks.id, id));
    await sweepExpired(db());
    expect(await work(id)).toMatchObject({ status: 'finished', finishedAt: windowEnd, pausedAt: null });
    const [pause] = await db().select().from(examWorkPauses).where(eq(examWorkPauses.examWorkId, id));
    expect(pause?.endedAt).toEqual(windowEnd);
  });

  it('is safe when several instances sweep at once', async () => {
    const rooms = await Promise.all([createRoom(t.app), createRoom(t.app), createRoom(t.app)]);
    const ids: number[] = [];
    for (const r of rooms) {
      const id = await startWork(r);
      await shiftWork(t.app, id, 3000);
      ids.push(id);
    }
    const sweeps = await Promise.all([sweepExpired(db()), sweepExpired(db()), sweepExpired(db())]);
    const finished = sweeps
      .flat()
      .map((d) => d.id)
      .filter((id) => ids.includes(id));
    expect(finished.sort()).toEqual([...ids].sort());
  });
});

describe('pause', () => {
  it('stops the clock: resume adds the pause to the deadline', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const paused = await room.api.post('examwork/pause', { pause: true, reason: 'плохо себя чувствую' });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().works[0]).toMatchObject({
      paused: true,
      byStaff: false,
      reason: 'плохо себя чувствую',
    });
    const state = (await room.api.get('examwork/pause')).json();
    expect(state).toMatchObject({ examWorkId: id, paused: true });
    const deadlineBefore = (await work(id)).deadlineAt.getTime();
    // The pause began 120 s ago.
    await db()
      .update(examWorks)
      .set({ pausedAt: new Date(Date.now() - 120_000) })
      .where(eq(examWorks.id, id));
    const resumed = await room.api.post('examwork/pause', { pause: false });
    expect(resumed.json().works[0].paused).toBe(false);
    const w = await work(id);
    expect(w.pausedSeconds).toBeGreaterThanOrEqual(120);
    expect(w.pausedSeconds).toBeLessThan(125);
    expect(w.deadlineAt.getTime() - deadlineBefore).toBe(w.pausedSeconds * 1000);
    expect(w.status).toBe('in_progress');
    expect(await auditCount('exam_work.pause', id)).toBe(1);
    expect(await auditCount('exam_work.resume', id)).toBe(1);
  });

  it("an organizer pauses their room; the participant cannot lift a staff pause; others' rooms are refused", async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const org = await organizatorOf(room);
    const res = await org.api.post('examwork/pause', {
      pause: true,
      examWorkIds: [id],
      reason: 'пожарная тревога',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().works[0]).toMatchObject({ examWorkId: id, paused: true, byStaff: true });
    expect((await room.api.get('examwork/pause')).json().byStaff).toBe(true);
    const lift = await room.api.post('examwork/pause', { pause: false });
    expect([lift.statusCode, lift.json().code]).toEqual([403, 'paused_by_staff']);
    expect((await room.api.post('examwork/pause', { pause: true, examWorkIds: [id] })).statusCode).toBe(403);

    const elsewhere = await createRoom(t.app);
    const otherId = await startWork(elsewhere);
    const mixed = await org.api.post('examwork/pause', { pause: false, examWorkIds: [id, otherId] });
    expect(mixed.statusCode).toBe(403);
    expect((await work(id)).pausedAt).not.toBeNull();
    expect(
      (await org.api.post('examwork/pause', { pause: false, examWorkIds: [id] })).json().works[0].paused,
    ).toBe(false);
    expect((await org.api.post('examwork/pause', { pause: true, examWorkIds: [987654] })).statusCode).toBe(
      404,
    );
    expect((await org.api.post('examwork/pause', { pause: true })).statusCode).toBe(403);
  });
});

describe('GET examwork/ChangeTimeTill', () => {
  it('adds time to several works at once, capped by the window, audited per work', async () => {
    const a = await createRoom(t.app);
    const b = await createRoom(t.app, a.org, 1);
    const [ida, idb] = [await startWork(a), await startWork(b)];
    const org = await organizatorOf(a);
    const before = (await work(ida)).deadlineAt.getTime();
    const res = await org.api.get(
      `examwork/ChangeTimeTill?ids=${ida},${idb}&timeSpan=00:15:00&reason=техсбой`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().changed).toHaveLength(2);
    expect(res.json().changed[0]).toMatchObject({ id: ida, extraSeconds: 900 });
    expect((await work(ida)).deadlineAt.getTime() - before).toBe(900_000);
    expect(await auditCount('exam_work.change_time', ida)).toBe(1);
    expect(await auditCount('exam_work.change_time', idb)).toBe(1);

    await db()
      .update(examWorks)
      .set({ windowEndsAt: new Date(Date.now() + 60_000) })
      .where(eq(examWorks.id, ida));
    const capped = await org.api.get(`examwork/ChangeTimeTill?ids=${ida}&timeSpan=1.00:00:00`);
    expect(capped.json().changed[0].secondsLeft).toBeLessThanOrEqual(60);
  });

  it('a cut into the past lets the sweeper finish the work', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const admin = await signedIn(t.app, ['admin']);
    const res = await caller(t.app, admin.session).get(
      `examwork/ChangeTimeTill?ids=${id}&timeSpan=-00:50:00`,
    );
    expect(res.json().changed[0].secondsLeft).toBe(0);
    await sweepExpired(db());
    expect((await work(id)).status).toBe('finished');
  });

  it('changes nothing when an id is out of scope, unknown or the span is bad; needs the CSRF header', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const elsewhere = await createRoom(t.app);
    const otherId = await startWork(elsewhere);
    const org = await organizatorOf(room);
    expect(
      (await org.api.get(`examwork/ChangeTimeTill?ids=${id},${otherId}&timeSpan=00:10:00`)).statusCode,
    ).toBe(403);
    expect((await org.api.get(`examwork/ChangeTimeTill?ids=${id},999999&timeSpan=00:10:00`)).statusCode).toBe(
      404,
    );
    for (const q of [
      `ids=${id}&timeSpan=15`,
      `ids=${id}&timeSpan=00:99:00`,
      'ids=a,b&timeSpan=00:10:00',
      `ids=${id}`,
    ]) {
      expect((await org.api.get(`examwork/ChangeTimeTill?${q}`)).statusCode).toBe(400);
    }
    const noCsrf = await t.app.inject({
      method: 'GET',
      url: `/api/exam/test/examwork/ChangeTimeTill?ids=${id}&timeSpan=00:10:00`,
      headers: { cookie: (await signedIn(t.app, ['admin'])).session.cookie },
    });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf']);
    expect((await room.api.get(`examwork/ChangeTimeTill?ids=${id}&timeSpan=00:10:00`)).statusCode).toBe(403);
    expect((await work(id)).extraSeconds).toBe(0);
  });
});

describe('DELETE examwork/{id}', () => {
  it('soft-deletes in scope with a reason; the participant may start again', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: room.org.schoolId });
    const outsider = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    expect((await caller(t.app, outsider.session).del(`examwork/${id}`)).statusCode).toBe(403);
    expect((await room.api.del(`examwork/${id}`)).statusCode).toBe(403);
    expect((await caller(t.app, coordinator.session).del('examwork/999999')).statusCode).toBe(404);
    expect((await work(id)).deletedAt).toBeNull();
    const res = await caller(t.app, coordinator.session).del(
      `examwork/${id}?reason=${encodeURIComponent('сбой')}`,
    );
    expect(res.json()).toEqual({ ok: true });
    expect(await work(id)).toMatchObject({ deletedBy: coordinator.user.id, deletedReason: 'сбой' });
    expect(await auditCount('exam_work.delete', id)).toBe(1);
    expect((await room.api.get(`examwork/${id}`)).statusCode).toBe(404);
    const again = await room.api.post('examwork/new', {});
    expect(again.json().id).not.toBe(id);
  });
});

describe('answer modes', () => {
  it('switches the whole work or one task; blank only when the test allows it', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const vt = room.variantTaskIds[T.extended]!;
    const task = await room.api.put(`examwork/${id}/${vt}/answertype/blank`);
    expect(task.json()).toEqual({ examWorkId: id, variantTaskId: vt, answerMode: 'blank' });
    const [row] = await db()
      .select()
      .from(answers)
      .where(and(eq(answers.examWorkId, id), eq(answers.variantTaskId, vt)));
    expect(row).toMatchObject({ answerMode: 'blank', seq: 0, value: null });
    expect(
      (await room.api.put('saveanswer', { examWorkId: id, variantTaskId: vt, value: 'текст', seq: 1 }))
        .statusCode,
    ).toBe(200);
    const state = (await room.api.get(`examwork/${id}`)).json();
    expect(state.answers.find((a: { variantTaskId: number }) => a.variantTaskId === vt)).toMatchObject({
      answerMode: 'blank',
      value: 'текст',
    });
    expect((await room.api.put(`examwork/${id}/answertype/blank`)).json().answerMode).toBe('blank');
    expect((await room.api.put(`examwork/${id}/answertype/paper`)).statusCode).toBe(400);
    expect((await room.api.put(`examwork/${id}/999999/answertype/online`)).statusCode).toBe(404);
    await db().update(subjectTests).set({ allowBlank: false }).where(eq(subjectTests.id, room.subjectTestId));
    expect((await room.api.put(`examwork/${id}/answertype/blank`)).json().code).toBe('blank_not_allowed');
    const other = await createRoom(t.app);
    expect((await other.api.put(`examwork/${id}/answertype/online`)).statusCode).toBe(403);
  });
});
