import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createHtmlContainer,
  createStoredFile,
  createTestApp,
  signedIn,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import {
  examWorkPauses,
  examWorks,
  kimTemplates,
  subjectTests,
  tasks,
  variantTasks,
} from '../../db/schema/index.js';
import { sweepOverduePauses } from './sweeper.js';
import { createRoom, startWork, T, type Room } from './test-support.js';

// A participant's own pause follows the subject test's policy (allowed, N pauses, M minutes) and
// cannot stop the clock for free; while paused the tasks cannot be read; staff pauses stay
// unlimited. The admin edits the policy.

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t.close());

const setPolicy = (subjectTestId: number, allowed: boolean, maxCount: number, maxMinutes: number) =>
  t.app.ctx.db
    .update(subjectTests)
    .set({
      participantPauseAllowed: allowed,
      participantPauseMaxCount: maxCount,
      participantPauseMaxMinutes: maxMinutes,
    })
    .where(eq(subjectTests.id, subjectTestId));

const pause = (room: Room, on: boolean) => room.api.post('examwork/pause', { pause: on });
const workOf = async (id: number) =>
  (await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, id)))[0]!;

/** Moves the work's clock and its open pause `seconds` into the past, as if that much time went by. */
async function elapse(workId: number, seconds: number) {
  const w = await workOf(workId);
  const back = (d: Date | null) => (d ? new Date(d.getTime() - seconds * 1000) : null);
  await t.app.ctx.db
    .update(examWorks)
    .set({
      startedAt: back(w.startedAt)!,
      deadlineAt: back(w.deadlineAt)!,
      pausedAt: back(w.pausedAt),
      pausedUntil: back(w.pausedUntil),
    })
    .where(eq(examWorks.id, workId));
  const [open] = await t.app.ctx.db
    .select()
    .from(examWorkPauses)
    .where(and(eq(examWorkPauses.examWorkId, workId), isNull(examWorkPauses.endedAt)));
  if (open)
    await t.app.ctx.db
      .update(examWorkPauses)
      .set({ startedAt: back(open.startedAt)! })
      .where(eq(examWorkPauses.id, open.id));
}

describe("a participant's own pauses", () => {
  it('are refused with 409 pause_limit when the test allows none, and the clock runs on', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await setPolicy(room.subjectTestId, false, 3, 15);
    const res = await pause(room, true);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('pause_limit');
    expect((await workOf(workId)).status).toBe('in_progress');
    expect(await countRows(t.database, 'exam_work_pauses', `exam_work_id = ${workId}`)).toBe(0);
    const state = (await room.api.get('examwork/pause')).json();
    expect(state).toMatchObject({ paused: false, allowance: { allowed: false, pausesLeft: 0 } });
  });

  it('are counted: at most N pauses', async () => {
    const room = await createRoom(t.app);
    await startWork(room);
    await setPolicy(room.subjectTestId, true, 2, 15);
    for (let i = 0; i < 2; i++) {
      expect((await pause(room, true)).statusCode).toBe(200);
      expect((await pause(room, false)).statusCode).toBe(200);
    }
    const third = await pause(room, true);
    expect(third.statusCode).toBe(409);
    expect(third.json().code).toBe('pause_limit');
    expect((await room.api.get('examwork/pause')).json().allowance).toMatchObject({ pausesLeft: 0 });
  });

  it('last at most M minutes in all: then the work resumes by itself, crediting only M minutes', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await setPolicy(room.subjectTestId, true, 3, 1);
    const before = await workOf(workId);
    const paused = await pause(room, true);
    expect(paused.statusCode).toBe(200);
    const state = paused.json().works[0];
    expect(state).toMatchObject({ paused: true, byStaff: false, allowance: { pausesLeft: 2 } });
    expect(Date.parse(state.pausedUntil) - Date.parse(state.pausedAt)).toBe(60_000);

    // 100 s later: the pause ended after 60 s; the work runs, saves are taken, 60 s were credited.
    await elapse(workId, 100);
    const now = (await room.api.get('examwork/pause')).json();
    expect(now).toMatchObject({ paused: false, allowance: { secondsLeft: 0 } });
    const left = (await room.api.get(`examwork/left/${workId}`)).json();
    expect(left.paused).toBe(false);
    const limit = before.timeLimitSeconds;
    expect(left.secondsLeft).toBeGreaterThanOrEqual(limit - 100 + 60 - 2);
    expect(left.secondsLeft).toBeLessThanOrEqual(limit - 100 + 60);
    const save = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId: room.variantTaskIds[T.short],
      value: 'после паузы',
      seq: 1,
    });
    expect(save.statusCode, save.body).toBe(200);

    // The sweeper settles the row: exactly 60 s credited, the pause closed at its end.
    await sweepOverduePauses(t.app.ctx.db);
    const after = await workOf(workId);
    expect(after).toMatchObject({
      status: 'in_progress',
      pausedAt: null,
      pausedUntil: null,
      pausedSeconds: 60,
    });
    const again = await pause(room, true);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('pause_limit');
  });

  it('an own pause ended early leaves the rest of the allowance', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await setPolicy(room.subjectTestId, true, 3, 2);
    await pause(room, true);
    await elapse(workId, 30);
    expect((await pause(room, false)).statusCode).toBe(200);
    const state = (await room.api.get('examwork/pause')).json();
    expect(state.allowance.secondsLeft).toBeGreaterThanOrEqual(88);
    expect(state.allowance.secondsLeft).toBeLessThanOrEqual(90);
    const second = (await pause(room, true)).json().works[0];
    expect(Date.parse(second.pausedUntil) - Date.parse(second.pausedAt)).toBeLessThanOrEqual(90_000);
  });
});

describe('staff pauses', () => {
  it('are not limited by the policy, are audited and give the time back', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await setPolicy(room.subjectTestId, false, 0, 0);
    // An organizer who is also an admin reaches every room; room scoping is tested in work.test.ts.
    const adminOrganizer = (await signedIn(t.app, ['organizator', 'admin'])).session;
    const freeze = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/pause',
      headers: adminOrganizer.headers,
      payload: { pause: true, examWorkIds: [workId], reason: 'тревога' },
    });
    expect(freeze.statusCode, freeze.body).toBe(200);
    expect(freeze.json().works[0]).toMatchObject({ paused: true, byStaff: true, pausedUntil: null });
    await elapse(workId, 600);
    const unfreeze = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/pause',
      headers: adminOrganizer.headers,
      payload: { pause: false, examWorkIds: [workId] },
    });
    expect(unfreeze.statusCode).toBe(200);
    expect((await workOf(workId)).pausedSeconds).toBeGreaterThanOrEqual(600);
    expect(
      await countRows(t.database, 'audit_events', `action = 'exam_work.pause' and entity_id = '${workId}'`),
    ).toBe(1);
  });

  it('freezing a work in its own pause makes it a staff pause: no end by itself, no resume by the participant', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await setPolicy(room.subjectTestId, true, 3, 1);
    await pause(room, true);
    const staff = (await signedIn(t.app, ['organizator', 'admin'])).session;
    const freeze = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/pause',
      headers: staff.headers,
      payload: { pause: true, examWorkIds: [workId], reason: 'проверка' },
    });
    expect(freeze.json().works[0]).toMatchObject({ paused: true, byStaff: true, pausedUntil: null });
    await elapse(workId, 300);
    expect((await room.api.get('examwork/pause')).json()).toMatchObject({ paused: true, byStaff: true });
    const resume = await pause(room, false);
    expect(resume.statusCode).toBe(403);
    expect(resume.json().code).toBe('paused_by_staff');
  });
});

describe('while paused, the tasks are not readable by the participant', () => {
  it('variant, printable variant, container, template, task files and signed container links answer 409 work_paused; again 200 after resume', async () => {
    const room = await createRoom(t.app);
    await startWork(room);
    await setPolicy(room.subjectTestId, true, 3, 15);
    const containerId = await createHtmlContainer(t.app, {
      'index.html': ['text/html', '<p>игра</p><img src="lamp.png">'],
      'lamp.png': ['image/png', Buffer.from('89504e470d0a1a0a', 'hex')],
      'bundles/app.js': ['text/javascript', 'window.x = 1;'],
    });
    const [vt] = await t.app.ctx.db
      .select({ taskId: variantTasks.taskId })
      .from(variantTasks)
      .where(eq(variantTasks.id, room.variantTaskIds[T.short]!));
    await t.app.ctx.db.update(tasks).set({ htmlContainerId: containerId }).where(eq(tasks.id, vt!.taskId));
    // A picture of a task of the participant's variant (downloaded through files.access).
    const taskFileId = await createStoredFile(t.app, {
      ownerType: 'task',
      ownerId: vt!.taskId,
      name: 'рисунок.png',
      mime: 'image/png',
      data: Buffer.from('89504e470d0a1a0a', 'hex'),
    });
    // The layout template of the subject test.
    const [template] = await t.app.ctx.db
      .insert(kimTemplates)
      .values({ name: 'Бланк', html: '<div class="head">Бланк ответов</div>' })
      .returning({ id: kimTemplates.id });
    await t.app.ctx.db
      .update(subjectTests)
      .set({ kimTemplateId: template!.id })
      .where(eq(subjectTests.id, room.subjectTestId));
    const get = (url: string, session: Session | null) =>
      t.app.inject({ method: 'GET', url, headers: session?.headers ?? {} });

    // The container's files as the sandboxed frame asks for them: signed, without a session.
    const meta = await get(`/api/KimHtmlContainer/${containerId}`, room.session);
    expect(meta.statusCode).toBe(200);
    const entry = new URL(meta.json().url as string, 'http://localhost');
    const sig = entry.searchParams.get('sig')!;
    expect(sig).toBeTruthy();
    const base = entry.pathname.replace(/\/index$/, '');
    const signed = [
      `${entry.pathname}?sig=${encodeURIComponent(sig)}`,
      `${base}/lamp.png?sig=${encodeURIComponent(sig)}`,
      `${base}/bundles/app.js?sig=${encodeURIComponent(sig)}`,
    ];
    const withSession = [
      '/api/exam/test/variant/current',
      `/api/exam/test/variant/${room.variantId}`,
      `/api/exam/test/variant/${room.variantId}/taskTextHtml`,
      `/api/KimHtmlContainer/${containerId}`,
      `/api/kimtemplate/byvariantid/${room.variantId}`,
      `/api/files/${taskFileId}`,
      `/api/files/${taskFileId}/ext`,
    ];
    // Every one of them, asked by the participant (the signed ones with no session at all).
    const all: [string, Session | null][] = [
      ...withSession.map((u): [string, Session | null] => [u, room.session]),
      ...signed.map((u): [string, Session | null] => [u, null]),
      // The entry page comes with the session cookie too (it is the frame's own navigation).
      [signed[0]!, room.session],
    ];
    const statuses = async () =>
      Promise.all(
        all.map(async ([url, session]) => {
          const res = await get(url, session);
          const code = res.statusCode === 200 ? null : (res.json() as { code?: string }).code;
          return [url, res.statusCode, code];
        }),
      );
    const readable = all.map(([url]) => [url, 200, null]);
    expect(await statuses()).toEqual(readable);

    expect((await pause(room, true)).statusCode).toBe(200);
    expect(await statuses()).toEqual(all.map(([url]) => [url, 409, 'work_paused']));
    // Staff are not the paused participant.
    expect((await get(`/api/exam/test/variant/${room.variantId}`, admin)).statusCode).toBe(200);
    expect((await get(`/api/files/${taskFileId}`, admin)).statusCode).toBe(200);

    expect((await pause(room, false)).statusCode).toBe(200);
    expect(await statuses()).toEqual(readable);
  });
});

describe('the pause policy of a subject test (admin)', () => {
  const url = (id: number) => `/api/admin/subjectTests/${id}/pausePolicy`;

  it('401 without a session, 403 for other roles, 404 for no such test', async () => {
    const room = await createRoom(t.app);
    expect((await t.app.inject({ method: 'GET', url: url(room.subjectTestId) })).statusCode).toBe(401);
    const coordinator = (await signedIn(t.app, ['coordinator'])).session;
    for (const method of ['GET', 'PUT'] as const) {
      const res = await t.app.inject({
        method,
        url: url(room.subjectTestId),
        headers: coordinator.headers,
        ...(method === 'PUT' ? { payload: { allowed: true, maxCount: 1, maxMinutes: 1 } } : {}),
      });
      expect(res.statusCode).toBe(403);
    }
    const missing = await t.app.inject({
      method: 'PUT',
      url: url(999_999),
      headers: admin.headers,
      payload: { allowed: true, maxCount: 1, maxMinutes: 1 },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('bad input is 400 and changes nothing; a good one is saved, audited and applies to the next pause', async () => {
    const room = await createRoom(t.app);
    await startWork(room);
    const before = (
      await t.app.inject({ method: 'GET', url: url(room.subjectTestId), headers: admin.headers })
    ).json();
    expect(before).toEqual({ allowed: true, maxCount: 3, maxMinutes: 15 });
    for (const payload of [
      { allowed: true, maxCount: -1, maxMinutes: 5 },
      { allowed: true, maxCount: 1, maxMinutes: 5000 },
      { allowed: 'yes', maxCount: 1, maxMinutes: 5 },
      { allowed: true, maxCount: 1, maxMinutes: 5, extra: 1 },
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: url(room.subjectTestId),
        headers: admin.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: url(room.subjectTestId), headers: admin.headers })).json(),
    ).toEqual(before);

    const saved = await t.app.inject({
      method: 'PUT',
      url: url(room.subjectTestId),
      headers: admin.headers,
      payload: { allowed: false, maxCount: 0, maxMinutes: 0 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ allowed: false, maxCount: 0, maxMinutes: 0 });
    expect(
      await countRows(
        t.database,
        'audit_events',
        `action = 'subject_test.pause_policy' and entity_id = '${room.subjectTestId}'`,
      ),
    ).toBe(1);
    expect((await pause(room, true)).json().code).toBe('pause_limit');
  });
});
