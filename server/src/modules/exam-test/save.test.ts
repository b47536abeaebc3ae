import { and, count, eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTestApp, signedIn, type TestApp } from '../../../test/helpers.js';
import { answers, auditEvents, examWorks, queueItems, results } from '../../db/schema/index.js';
import { caller, createRoom, shiftWork, startWork, T, type Room } from './test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The stored answer, read through its own query (not through the API that acknowledged it). */
async function stored(workId: number, variantTaskId: number) {
  const [row] = await t.app.ctx.db
    .select({ ...getTableColumns(answers), value: sql<string>`${answers.value}::text` })
    .from(answers)
    .where(and(eq(answers.examWorkId, workId), eq(answers.variantTaskId, variantTaskId)));
  return row ? { ...row, value: JSON.parse(row.value) as unknown } : null;
}
const answerCount = async () => (await t.app.ctx.db.select({ n: count() }).from(answers))[0]!.n;

async function ready(): Promise<{ room: Room; workId: number }> {
  const room = await createRoom(t.app);
  return { room, workId: await startWork(room) };
}

const save = (room: Room, body: Record<string, unknown>, headers?: Record<string, string>) =>
  room.api.put('saveanswer', body, headers);

describe('PUT saveanswer', () => {
  it('requires a session, the participant role and the anti-CSRF header', async () => {
    const { room, workId } = await ready();
    const body = { examWorkId: workId, variantTaskId: room.variantTaskIds[T.single], value: 'o1', seq: 1 };
    expect((await caller(t.app, null).put('saveanswer', body)).statusCode).toBe(401);
    const staff = await signedIn(t.app, ['organizator']);
    expect((await caller(t.app, staff.session).put('saveanswer', body)).statusCode).toBe(403);
    const noCsrf = await t.app.inject({
      method: 'PUT',
      url: '/api/exam/test/saveanswer',
      headers: { cookie: room.session.cookie },
      payload: body,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('csrf');
    expect(await stored(workId, room.variantTaskIds[T.single]!)).toBeNull();
  });

  it('acknowledges only what is committed: the answer reads back through a separate query', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.multiple]!;
    const res = await save(room, { examWorkId: workId, variantTaskId: vt, value: ['o1', 'o3'], seq: 1 });
    expect(res.statusCode).toBe(200);
    const ack = res.json();
    const row = await stored(workId, vt);
    expect(row).toMatchObject({ value: ['o1', 'o3'], seq: 1, source: 'participant', answerMode: 'online' });
    expect(row!.savedAt.toISOString()).toBe(ack.savedAt);
    expect(ack.seq).toBe(1);
  });

  it('never lets an older sequence overwrite a newer one; a retry answers the stored savedAt', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.short]!;
    const three = await save(room, { examWorkId: workId, variantTaskId: vt, value: 'три', seq: 3 });
    expect(three.statusCode).toBe(200);
    const two = await save(room, { examWorkId: workId, variantTaskId: vt, value: 'два', seq: 2 });
    expect(two.statusCode).toBe(409);
    expect(two.json().code).toBe('stale_sequence');
    expect(two.json().message).toContain('3');
    expect(await stored(workId, vt)).toMatchObject({ value: 'три', seq: 3 });

    const retry = await save(room, { examWorkId: workId, variantTaskId: vt, value: 'три', seq: 3 });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(three.json());

    const sameSeqOtherValue = await save(room, {
      examWorkId: workId,
      variantTaskId: vt,
      value: 'иное',
      seq: 3,
    });
    expect(sameSeqOtherValue.statusCode).toBe(409);
    expect(sameSeqOtherValue.json().code).toBe('stale_sequence');
    expect(await stored(workId, vt)).toMatchObject({ value: 'три', seq: 3 });
  });

  it('treats equal JSON with another key order as the same retry', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.matching]!;
    const first = await save(room, {
      examWorkId: workId,
      variantTaskId: vt,
      value: { a: 'o1', b: 'o2' },
      seq: 1,
    });
    const again = await save(room, {
      examWorkId: workId,
      variantTaskId: vt,
      value: { b: 'o2', a: 'o1' },
      seq: 1,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().savedAt).toBe(first.json().savedAt);
  });

  it('a second tab with an older sequence gets 409 and loses nothing', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.extended]!;
    const tabA = caller(t.app, room.session, 'device-1');
    const tabB = caller(t.app, room.session, 'device-1');
    expect(
      (await tabA.put('saveanswer', { examWorkId: workId, variantTaskId: vt, value: 'A5', seq: 5 }))
        .statusCode,
    ).toBe(200);
    const late = await tabB.put('saveanswer', { examWorkId: workId, variantTaskId: vt, value: 'B4', seq: 4 });
    expect(late.statusCode).toBe(409);
    expect(await stored(workId, vt)).toMatchObject({ value: 'A5', seq: 5 });
  });

  it('keeps the newest of concurrent out-of-order saves', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.digits]!;
    const seqs = [7, 2, 9, 1, 5, 10, 3, 8, 4, 6];
    const results = await Promise.all(
      seqs.map((seq) =>
        save(room, { examWorkId: workId, variantTaskId: vt, value: String(seq).slice(0, 3), seq }),
      ),
    );
    expect(results.every((r) => [200, 409].includes(r.statusCode))).toBe(true);
    expect(await stored(workId, vt)).toMatchObject({ seq: 10, value: '10' });
  });

  it('validates the value against the answer type and the task content, changing nothing', async () => {
    const { room, workId } = await ready();
    const before = await answerCount();
    const bad: [number, unknown][] = [
      [T.single, 'o9'],
      [T.single, ['o1']],
      [T.multiple, ['o1', 'o1']],
      [T.multiple, ['o1', 'o2', 'o3', 'o4']],
      [T.short, 'x'.repeat(21)],
      [T.number, 12],
      [T.digits, '12a'],
      [T.digits, '1234'],
      [T.ordering, ['o1', 'zz']],
      [T.matching, { a: 'zz' }],
      [T.matching, { q: 'o1' }],
      [T.cloze, { b2: 'c9' }],
      [T.cloze, { nope: 'x' }],
      [T.extended, 'x'.repeat(2001)],
      [T.file, { fileIds: [1] }],
      [T.single, undefined],
    ];
    for (const [i, value] of bad) {
      const res = await save(room, {
        examWorkId: workId,
        variantTaskId: room.variantTaskIds[i],
        value,
        seq: 1,
      });
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(['invalid_answer', 'validation_failed']).toContain(res.json().code);
      expect(res.json().errors?.length).toBeGreaterThan(0);
    }
    expect(await answerCount()).toBe(before);
  });

  it('rejects malformed bodies with 400', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.single]!;
    for (const body of [
      { examWorkId: workId, variantTaskId: vt, value: 'o1' },
      { examWorkId: workId, variantTaskId: vt, value: 'o1', seq: 0 },
      { examWorkId: workId, variantTaskId: vt, value: 'o1', seq: 1, clientTime: '2030-01-01T00:00:00Z' },
      { examWorkId: 'x', variantTaskId: vt, value: 'o1', seq: 1 },
    ]) {
      const res = await save(room, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect(await stored(workId, vt)).toBeNull();
  });

  it('refuses a task of another variant', async () => {
    const { room, workId } = await ready();
    const other = await createRoom(t.app);
    const res = await save(room, {
      examWorkId: workId,
      variantTaskId: other.variantTaskIds[T.single],
      value: 'o1',
      seq: 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('task_not_in_variant');
  });

  it('answers 409 with clear codes after the deadline, after finish, while paused, when deleted', async () => {
    const vtOf = (r: Room) => r.variantTaskIds[T.short]!;
    const body = (r: Room, workId: number) => ({
      examWorkId: workId,
      variantTaskId: vtOf(r),
      value: 'x',
      seq: 1,
    });

    const late = await ready();
    await shiftWork(t.app, late.workId, 2701);
    let res = await save(late.room, body(late.room, late.workId));
    expect([res.statusCode, res.json().code]).toEqual([409, 'deadline_passed']);

    const done = await ready();
    expect((await done.room.api.put(`examwork/finish/${done.workId}/manual`)).statusCode).toBe(200);
    res = await save(done.room, body(done.room, done.workId));
    expect([res.statusCode, res.json().code]).toEqual([409, 'work_finished']);

    const paused = await ready();
    expect((await paused.room.api.post('examwork/pause', { pause: true })).statusCode).toBe(200);
    res = await save(paused.room, body(paused.room, paused.workId));
    expect([res.statusCode, res.json().code]).toEqual([409, 'work_paused']);

    const deleted = await ready();
    const admin = await signedIn(t.app, ['admin']);
    expect(
      (await caller(t.app, admin.session).del(`examwork/${deleted.workId}?reason=test`)).statusCode,
    ).toBe(200);
    res = await save(deleted.room, body(deleted.room, deleted.workId));
    expect([res.statusCode, res.json().code]).toEqual([409, 'work_deleted']);

    for (const r of [late, done, paused, deleted]) expect(await stored(r.workId, vtOf(r.room))).toBeNull();
  });

  it('honours extra time and the window cap when deciding the deadline', async () => {
    const { room, workId } = await ready();
    await t.app.ctx.db.update(examWorks).set({ extraSeconds: 600 }).where(eq(examWorks.id, workId));
    await shiftWork(t.app, workId, 2800);
    // deadlineAt as stored was start+45min; with 10 min extra the work is still open.
    const [w] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, workId));
    await t.app.ctx.db
      .update(examWorks)
      .set({ deadlineAt: new Date(w!.startedAt.getTime() + 3300_000) })
      .where(eq(examWorks.id, workId));
    const vt = room.variantTaskIds[T.short]!;
    expect((await save(room, { examWorkId: workId, variantTaskId: vt, value: 'a', seq: 1 })).statusCode).toBe(
      200,
    );

    await t.app.ctx.db
      .update(examWorks)
      .set({ windowEndsAt: new Date(Date.now() - 1000) })
      .where(eq(examWorks.id, workId));
    const res = await save(room, { examWorkId: workId, variantTaskId: vt, value: 'b', seq: 2 });
    expect([res.statusCode, res.json().code]).toEqual([409, 'deadline_passed']);
  });

  it('binds the work to the first device; another device id gets 409 device_mismatch', async () => {
    const room = await createRoom(t.app);
    const first = caller(t.app, room.session, 'dev-A');
    const workId = (await first.post('examwork/new', {})).json().id as number;
    const vt = room.variantTaskIds[T.single]!;
    const other = caller(t.app, room.session, 'dev-B');
    const res = await other.put('saveanswer', { examWorkId: workId, variantTaskId: vt, value: 'o1', seq: 1 });
    expect([res.statusCode, res.json().code]).toEqual([409, 'device_mismatch']);
    expect(res.json().message).toMatch(/organizer/);
    expect((await other.post('examwork/new', {})).statusCode).toBe(409);
    expect(
      (await first.put('saveanswer', { examWorkId: workId, variantTaskId: vt, value: 'o1', seq: 1 }))
        .statusCode,
    ).toBe(200);
    // No header: an API client, no binding check.
    expect(
      (await room.api.put('saveanswer', { examWorkId: workId, variantTaskId: vt, value: 'o2', seq: 2 }))
        .statusCode,
    ).toBe(200);
  });

  it('trusts no client clock: a far-off Date header changes neither deadline nor acceptance', async () => {
    const { room, workId } = await ready();
    const before = (await room.api.get(`examwork/${workId}`)).json();
    const future = { date: 'Tue, 01 Jan 2036 00:00:00 GMT' };
    const vt = room.variantTaskIds[T.short]!;
    expect(
      (await save(room, { examWorkId: workId, variantTaskId: vt, value: 'a', seq: 1 }, future)).statusCode,
    ).toBe(200);
    const after = (await room.api.get(`examwork/${workId}`, future)).json();
    expect(after.deadlineAt).toBe(before.deadlineAt);
    expect(Math.abs(Date.parse(after.serverTime) - Date.now())).toBeLessThan(60_000);
    const left = (
      await room.api.get(`examwork/left/${workId}`, { date: 'Mon, 01 Jan 2001 00:00:00 GMT' })
    ).json();
    expect(left.secondsLeft).toBeLessThanOrEqual(2700);
    expect(left.secondsLeft).toBeGreaterThan(2600);
  });

  it('a save never lands after finish, even when they race', async () => {
    const { room, workId } = await ready();
    const vt = room.variantTaskIds[T.short]!;
    const saves = Array.from({ length: 12 }, (_, i) =>
      save(room, { examWorkId: workId, variantTaskId: vt, value: `v${i + 1}`, seq: i + 1 }),
    );
    const [finish, ...results] = await Promise.all([
      room.api.put(`examwork/finish/${workId}/manual`),
      ...saves,
    ]);
    expect(finish.statusCode).toBe(200);
    const finishedAt = Date.parse(finish.json().finishedAt);
    const acked = results
      .filter((r) => r.statusCode === 200)
      .map((r) => r.json() as { seq: number; savedAt: string });
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    for (const a of acked) expect(Date.parse(a.savedAt)).toBeLessThanOrEqual(finishedAt);
    const row = await stored(workId, vt);
    if (acked.length) expect(row!.seq).toBe(Math.max(...acked.map((a) => a.seq)));
    else expect(row).toBeNull();
  });
});

describe('PUT saveanswers', () => {
  it('applies each answer on its own: saved, duplicate, stale', async () => {
    const { room, workId } = await ready();
    const [a, b, c] = [
      room.variantTaskIds[T.single]!,
      room.variantTaskIds[T.short]!,
      room.variantTaskIds[T.number]!,
    ];
    await save(room, { examWorkId: workId, variantTaskId: b, value: 'b5', seq: 5 });
    await save(room, { examWorkId: workId, variantTaskId: c, value: '1,5', seq: 2 });
    const res = await room.api.put('saveanswers', {
      examWorkId: workId,
      answers: [
        { variantTaskId: a, value: 'o2', seq: 1 },
        { variantTaskId: b, value: 'b4', seq: 4 },
        { variantTaskId: c, value: '1,5', seq: 2 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { status: string; seq: number }) => [r.status, r.seq])).toEqual([
      ['saved', 1],
      ['stale', 5],
      ['duplicate', 2],
    ]);
    expect(await stored(workId, b)).toMatchObject({ value: 'b5', seq: 5 });
  });

  it('rejects the whole batch on one invalid answer or a duplicate task', async () => {
    const { room, workId } = await ready();
    const before = await answerCount();
    const [a, b] = [room.variantTaskIds[T.single]!, room.variantTaskIds[T.short]!];
    for (const answersList of [
      [
        { variantTaskId: a, value: 'o1', seq: 1 },
        { variantTaskId: b, value: 42, seq: 1 },
      ],
      [
        { variantTaskId: a, value: 'o1', seq: 1 },
        { variantTaskId: a, value: 'o2', seq: 2 },
      ],
      [],
    ]) {
      const res = await room.api.put('saveanswers', { examWorkId: workId, answers: answersList });
      expect(res.statusCode).toBe(400);
    }
    expect(await answerCount()).toBe(before);
  });

  it('lets staff key in a paper form by registration code, after finish, in scope only', async () => {
    const org = await createOrg(t.app);
    const room = await createRoom(t.app, org);
    const workId = await startWork(room);
    await room.api.put(`examwork/finish/${workId}/manual`);
    const vt = room.variantTaskIds[T.digits]!;
    const body = { examWorkId: workId, answers: [{ variantTaskId: vt, value: '312', seq: 1 }] };
    const url = `saveanswers?registrationCode=${room.registrationCode}`;

    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    const res = await caller(t.app, coordinator.session).put(url, body);
    expect(res.statusCode).toBe(200);
    expect(res.json().results[0].status).toBe('saved');
    expect(await stored(workId, vt)).toMatchObject({
      value: '312',
      source: 'staff',
      savedBy: coordinator.user.id,
      answerMode: 'blank',
    });
    const [audited] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'exam_work.answers_keyed_in'), eq(auditEvents.entityId, String(workId))),
      );
    expect(audited?.userId).toBe(coordinator.user.id);

    const stranger = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    const outside = await caller(t.app, stranger.session).put(url, {
      ...body,
      answers: [{ variantTaskId: vt, value: '1', seq: 2 }],
    });
    expect(outside.statusCode).toBe(403);
    expect((await room.api.put(url, body)).statusCode).toBe(403);
    expect((await caller(t.app, coordinator.session).put('saveanswers', body)).statusCode).toBe(403);
    expect(
      (await caller(t.app, coordinator.session).put('saveanswers?registrationCode=000', body)).statusCode,
    ).toBe(404);
    expect(await stored(workId, vt)).toMatchObject({ value: '312', seq: 1 });
  });

  it('computes the result again when a paper form changes answers of a finished work', async () => {
    const org = await createOrg(t.app);
    const room = await createRoom(t.app, org);
    const workId = await startWork(room);
    await room.api.put(`examwork/finish/${workId}/manual`);
    await t.app.jobs.drain();
    const scoreOf = async () =>
      (
        await t.app.ctx.db
          .select({ score: results.primaryScore })
          .from(results)
          .where(eq(results.examWorkId, workId))
      )[0]?.score;
    const before = Number(await scoreOf());
    const vt = room.variantTaskIds[T.digits]!;
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    const keyIn = (value: string, seq: number) =>
      caller(t.app, coordinator.session).put(`saveanswers?registrationCode=${room.registrationCode}`, {
        examWorkId: workId,
        answers: [{ variantTaskId: vt, value, seq }],
      });
    expect((await keyIn('312', 1)).statusCode).toBe(200);
    const queued = () =>
      t.app.ctx.db
        .select({ id: queueItems.id })
        .from(queueItems)
        .where(eq(queueItems.dedupeKey, `result-keyed:${workId}`));
    expect(await queued()).toHaveLength(1);
    await t.app.jobs.drain();
    expect(Number(await scoreOf())).toBeGreaterThan(before);

    // The same form again changes nothing and queues nothing new.
    expect((await keyIn('312', 1)).json().results[0].status).toBe('duplicate');
    expect(await queued()).toHaveLength(1);
  });
});
