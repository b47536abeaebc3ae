import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  tasksOfEveryType,
  type TestApp,
} from '../../../test/helpers.js';
import {
  answers,
  auditEvents,
  diagnostics,
  examWorks,
  organizatorAssignments,
  participantTests,
  queueItems,
  results,
} from '../../db/schema/index.js';
import { caller, createRoom, SECRET, startWork, T, type Room } from './test-support.js';

/*
 * A paper-only participant (docs/design.md §5): staff key in the form of a participant who never
 * opened the work online. The read (GET participantTest/{id}/paper) gives the variants and a
 * variant's tasks; the save (PUT saveanswers with `paper`) creates the work, finished as `paper`.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const worksOf = (participantTestId: number) =>
  t.app.ctx.db.select().from(examWorks).where(eq(examWorks.participantTestId, participantTestId));

const auditOf = (action: string, entityId: number) =>
  t.app.ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, String(entityId))));

async function paperRoom() {
  const room = await createRoom(t.app);
  const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: room.org.schoolId });
  const staff = caller(t.app, coordinator.session);
  const keyIn = (body: unknown, code = room.registrationCode) =>
    staff.put(`saveanswers?registrationCode=${code}`, body);
  return { room, coordinator, staff, keyIn };
}

const paperBody = (
  room: Room,
  answersList: { variantTaskId: number; value: unknown; seq: number }[] = [
    { variantTaskId: room.variantTaskIds[T.digits]!, value: '312', seq: 1 },
  ],
) => ({
  paper: { variantId: room.variantId },
  answers: answersList,
});

describe('GET /api/exam/test/participantTest/{id}/paper', () => {
  it('gives staff in scope the variants and a variant’s tasks without keys; refuses the rest', async () => {
    const { room, staff } = await paperRoom();
    const url = `participantTest/${room.participantTestId}/paper`;

    const plain = await staff.get(url);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).toMatchObject({
      participantTestId: room.participantTestId,
      registrationCode: room.registrationCode,
      participantName: 'Иванов Иван',
      work: null,
      variants: [{ id: room.variantId, number: 1 }],
      variant: null,
    });

    const withTasks = await staff.get(`${url}?variantId=${room.variantId}`);
    expect(withTasks.statusCode).toBe(200);
    expect(withTasks.json().variant.tasks.map((x: { variantTaskId: number }) => x.variantTaskId)).toEqual(
      room.variantTaskIds,
    );
    expect(withTasks.body).not.toContain(SECRET);

    // Once started online the work is named (still open).
    const workId = await startWork(room);
    expect((await staff.get(url)).json().work).toEqual({ examWorkId: workId, finished: false });

    // 401, 403 (role, scope), 404, 400.
    expect((await caller(t.app, null).get(url)).statusCode).toBe(401);
    const expert = await signedIn(t.app, ['expert']);
    expect((await caller(t.app, expert.session).get(url)).statusCode).toBe(403);
    expect((await room.api.get(url)).statusCode).toBe(403);
    const stranger = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    expect((await caller(t.app, stranger.session).get(url)).statusCode).toBe(403);
    expect((await staff.get('participantTest/999999/paper')).statusCode).toBe(404);
    const other = await createRoom(t.app);
    const foreign = await staff.get(`${url}?variantId=${other.variantId}`);
    expect([foreign.statusCode, foreign.json().code]).toEqual([400, 'validation_failed']);
    expect((await staff.get(`${url}?variantId=abc`)).statusCode).toBe(400);
  });

  it('shows no task before the diagnostic starts (409 window_not_open)', async () => {
    const { room, staff } = await paperRoom();
    await t.app.ctx.db
      .update(diagnostics)
      .set({ startsAt: new Date(Date.now() + 86_400_000) })
      .where(eq(diagnostics.id, room.diagnosticId));
    const res = await staff.get(
      `participantTest/${room.participantTestId}/paper?variantId=${room.variantId}`,
    );
    expect([res.statusCode, res.json().code]).toEqual([409, 'window_not_open']);
  });
});

describe('PUT saveanswers with `paper`: a participant who never opened the work online', () => {
  it('creates the work finished as paper, stores the form by seq, audits and queues its scoring', async () => {
    const { room, coordinator, keyIn } = await paperRoom();
    const digits = room.variantTaskIds[T.digits]!;
    const single = room.variantTaskIds[T.single]!;
    const res = await keyIn(
      paperBody(room, [
        { variantTaskId: digits, value: '312', seq: 1 },
        { variantTaskId: single, value: 'o1', seq: 1 },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { examWorkId, results: saved } = res.json();
    expect(saved.map((r: { status: string }) => r.status)).toEqual(['saved', 'saved']);

    const [work, ...more] = await worksOf(room.participantTestId);
    expect(more).toHaveLength(0);
    expect(work).toMatchObject({
      id: examWorkId,
      variantId: room.variantId,
      status: 'finished',
      answerMode: 'blank',
      finishReason: 'paper',
      deviceId: null,
    });
    expect(work!.finishedAt).not.toBeNull();
    const stored = await t.app.ctx.db.select().from(answers).where(eq(answers.examWorkId, examWorkId));
    expect(stored.map((a) => [a.variantTaskId, a.seq, a.source, a.answerMode, a.savedBy]).sort()).toEqual(
      [
        [digits, 1, 'staff', 'blank', coordinator.user.id],
        [single, 1, 'staff', 'blank', coordinator.user.id],
      ].sort(),
    );
    const [pt] = await t.app.ctx.db
      .select({ status: participantTests.status })
      .from(participantTests)
      .where(eq(participantTests.id, room.participantTestId));
    expect(pt!.status).toBe('finished');
    const [created] = await auditOf('exam_work.paper_created', examWorkId);
    expect(created).toMatchObject({ userId: coordinator.user.id });
    expect(created!.details).toMatchObject({
      participantTestId: room.participantTestId,
      variantId: room.variantId,
    });
    const [keyed] = await auditOf('exam_work.answers_keyed_in', examWorkId);
    expect(keyed!.details).toMatchObject({ saved: expect.arrayContaining([digits, single]) });

    const queued = await t.app.ctx.db
      .select({ id: queueItems.id })
      .from(queueItems)
      .where(eq(queueItems.dedupeKey, `result:${examWorkId}`));
    expect(queued).toHaveLength(1);
    await t.app.jobs.drain();
    const [result] = await t.app.ctx.db.select().from(results).where(eq(results.examWorkId, examWorkId));
    expect(Number(result!.primaryScore)).toBeGreaterThan(0);

    // Keying the same sitting as paper-only again is refused: its own form takes further changes …
    const again = await keyIn(paperBody(room));
    expect([again.statusCode, again.json().code]).toEqual([409, 'has_exam_work']);
    // … through the same save path with seq: an older seq changes nothing, a newer one applies.
    const form = (value: string, seq: number) =>
      keyIn({ examWorkId, answers: [{ variantTaskId: digits, value, seq }] });
    expect((await form('999', 1)).json().results[0].status).toBe('stale');
    expect((await form('321', 2)).json().results[0].status).toBe('saved');
    // The participant's code opens the finished work, never a second one.
    const opened = await room.api.post('examwork/new', {});
    expect(opened.json()).toMatchObject({ id: examWorkId, finishReason: 'paper' });
    expect(await worksOf(room.participantTestId)).toHaveLength(1);
  });

  it('takes an empty form too (the participant answered nothing)', async () => {
    const { room, keyIn } = await paperRoom();
    const res = await keyIn({ paper: { variantId: room.variantId }, answers: [] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([]);
    expect(await worksOf(room.participantTestId)).toMatchObject([{ finishReason: 'paper' }]);
  });

  it('refuses a work still open online with the existing code, and creates nothing', async () => {
    const { room, keyIn } = await paperRoom();
    const workId = await startWork(room);
    const paper = await keyIn(paperBody(room));
    expect([paper.statusCode, paper.json().code]).toEqual([409, 'work_not_finished']);
    // The same for a form keyed into that work by its id.
    const byId = await keyIn({
      examWorkId: workId,
      answers: [{ variantTaskId: room.variantTaskIds[T.digits]!, value: '1', seq: 1 }],
    });
    expect([byId.statusCode, byId.json().code]).toEqual([409, 'work_not_finished']);
    expect(await worksOf(room.participantTestId)).toMatchObject([{ id: workId, finishedAt: null }]);
    expect(await t.app.ctx.db.select().from(answers).where(eq(answers.examWorkId, workId))).toHaveLength(0);
  });

  it('401 without a session, 403 for a participant or out of scope, 400 for bad input; nothing created', async () => {
    const { room, keyIn, staff } = await paperRoom();
    const body = paperBody(room);
    const url = `saveanswers?registrationCode=${room.registrationCode}`;
    expect((await caller(t.app, null).put(url, body)).statusCode).toBe(401);
    // A participant: neither with the code nor without it (the body is staff-only).
    expect((await room.api.put(url, body)).statusCode).toBe(403);
    expect((await room.api.put('saveanswers', body)).statusCode).toBe(403);
    // Staff without the registration code, and staff of another school.
    expect((await staff.put('saveanswers', body)).statusCode).toBe(403);
    const stranger = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    expect((await caller(t.app, stranger.session).put(url, body)).statusCode).toBe(403);
    const expert = await signedIn(t.app, ['expert']);
    expect((await caller(t.app, expert.session).put(url, body)).statusCode).toBe(403);

    const other = await createRoom(t.app);
    const foreign = await keyIn({ ...body, paper: { variantId: other.variantId } });
    expect([foreign.statusCode, foreign.json().code]).toEqual([400, 'validation_failed']);
    const wrongValue = await keyIn(
      paperBody(room, [{ variantTaskId: room.variantTaskIds[T.digits]!, value: 42, seq: 1 }]),
    );
    expect([wrongValue.statusCode, wrongValue.json().code]).toEqual([400, 'invalid_answer']);
    const notInVariant = await keyIn(
      paperBody(room, [{ variantTaskId: other.variantTaskIds[0]!, value: 'o1', seq: 1 }]),
    );
    expect([notInVariant.statusCode, notInVariant.json().code]).toEqual([400, 'task_not_in_variant']);
    const both = await keyIn({ ...body, examWorkId: 1 });
    expect(both.statusCode).toBe(400);
    expect((await keyIn({ paper: {}, answers: [] })).statusCode).toBe(400);
    expect(await worksOf(room.participantTestId)).toHaveLength(0);
    const audited = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['exam_work.paper_created']));
    expect(
      audited.every(
        (a) =>
          a.details &&
          (a.details as { participantTestId?: number }).participantTestId !== room.participantTestId,
      ),
    ).toBe(true);
  });

  it('an organizator outside the class is refused; one assigned to it may key', async () => {
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    const variant = await createVariantWithTasks(t.app, pt.subjectTestId, tasksOfEveryType(SECRET));
    const [{ code }] = (await t.app.ctx.db
      .select({ code: participantTests.registrationCode })
      .from(participantTests)
      .where(eq(participantTests.id, pt.participantTestId))) as [{ code: string }];
    const body = { paper: { variantId: variant.variantId }, answers: [] };
    const unassigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    const res = await caller(t.app, unassigned.session).put(`saveanswers?registrationCode=${code}`, body);
    expect(res.statusCode).toBe(403);
    expect(await worksOf(pt.participantTestId)).toHaveLength(0);
    const assigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: assigned.user.id, classId: org.classId });
    const ok = await caller(t.app, assigned.session).put(`saveanswers?registrationCode=${code}`, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await worksOf(pt.participantTestId)).toMatchObject([{ id: ok.json().examWorkId }]);
  });

  it('refuses before the diagnostic starts (409 window_not_open)', async () => {
    const { room, keyIn } = await paperRoom();
    await t.app.ctx.db
      .update(diagnostics)
      .set({ startsAt: new Date(Date.now() + 86_400_000) })
      .where(eq(diagnostics.id, room.diagnosticId));
    const res = await keyIn(paperBody(room));
    expect([res.statusCode, res.json().code]).toEqual([409, 'window_not_open']);
    expect(await worksOf(room.participantTestId)).toHaveLength(0);
  });
});
