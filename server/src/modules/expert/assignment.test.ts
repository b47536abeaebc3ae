import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExpertWork,
  createOrg,
  createTestApp,
  guardResults,
  signedIn,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { auditEvents, diagnosticSchools, expertAssignments, users } from '../../db/schema/index.js';

/*
 * Expert grading reaches experts (docs/design.md §3): an admin assigns experts to subjects and
 * subject tests, the check before publication and the diagnostic pages say when a subject test's
 * expert-graded tasks have too few experts, and an expert's queue never says «all graded» while
 * answers of their subjects wait for an expert.
 */

let t: TestApp;
let admin: Session;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  const signed = await signedIn(t.app, ['admin']);
  admin = signed.session;
  adminId = signed.user.id;
});
afterAll(async () => t.close());

const call = (
  session: Session | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: session?.headers ?? { 'x-requested-with': 'XMLHttpRequest' },
    ...(payload ? { payload } : {}),
  });

const assignmentsOf = (examWorkId: number) =>
  t.app.ctx.db
    .select({
      expertId: expertAssignments.expertId,
      round: expertAssignments.round,
      status: expertAssignments.status,
    })
    .from(expertAssignments)
    .where(eq(expertAssignments.examWorkId, examWorkId));

async function setProfile(userId: number, expert: Record<string, unknown>) {
  await t.app.ctx.db.update(users).set({ profile: { expert } }).where(eq(users.id, userId));
}

const profileOf = async (userId: number) =>
  (await t.app.ctx.db.select({ profile: users.profile }).from(users).where(eq(users.id, userId)))[0]!.profile;

describe('PUT /api/admin/experts/{id}: the admin assigns an expert', () => {
  it('saves subjects, subject tests, grades and limit, audited; waiting answers then reach the experts', async () => {
    const w = await createExpertWork(t.app);
    const [e1, e2] = [await signedIn(t.app, ['expert']), await signedIn(t.app, ['expert'])];
    // Assigned to the subject test alone (no grades): they grade it whatever the grade.
    for (const e of [e1, e2]) {
      const res = await call(admin, 'PUT', `/api/admin/experts/${e.user.id}`, {
        subjectIds: [],
        subjectTestIds: [w.subjectTestId],
        parallels: [],
        maxPerDay: 30,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        subjectTestIds: [w.subjectTestId],
        subjectTests: [{ id: w.subjectTestId, name: 'Математика, 7 класс' }],
        maxPerDay: 30,
      });
    }
    const rounds = await assignmentsOf(w.examWorkId);
    expect(rounds.filter((r) => r.round === 1)).toHaveLength(2);
    expect(rounds.filter((r) => r.round === 2)).toHaveLength(2);
    expect(new Set(rounds.map((r) => r.expertId))).toEqual(new Set([e1.user.id, e2.user.id]));

    const [logged] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'expert.profile.assign'), eq(auditEvents.entityId, String(e1.user.id))),
      );
    expect(logged!.details).toMatchObject({ after: { subjectTestIds: [w.subjectTestId] } });
    expect(logged!.userId).toBe(adminId);
    expect((await call(admin, 'GET', `/api/admin/experts/${e1.user.id}`)).json()).toMatchObject({
      subjectTestIds: [w.subjectTestId],
      openAssignments: 2,
    });

    // The expert's own save keeps the admin's subject tests.
    const own = await call(e1.session, 'PUT', '/api/Profile/expert/saveProfile', {
      subjectIds: [w.subjectId],
      parallels: [7],
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ subjectIds: [w.subjectId], subjectTestIds: [w.subjectTestId] });
  });

  it('401, 403 for other roles, 404 for a user who is not an expert, 400 for unknown names: nothing changes', async () => {
    const w = await createExpertWork(t.app);
    const e = await signedIn(t.app, ['expert']);
    await setProfile(e.user.id, { subjectIds: [w.subjectId], subjectTestIds: [], parallels: [7] });
    const before = await profileOf(e.user.id);
    const url = `/api/admin/experts/${e.user.id}`;
    const body = { subjectIds: [], subjectTestIds: [w.subjectTestId], parallels: [] };
    expect(
      await guardResults(
        t.app,
        { method: 'PUT', url, payload: body },
        { allowed: admin, wrongRole: e.session },
      ),
    ).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    const coordinator = await signedIn(t.app, ['coordinator'], {
      schoolId: (await createOrg(t.app)).schoolId,
    });
    expect((await call(coordinator.session, 'PUT', url, body)).statusCode).toBe(403);
    expect((await call(coordinator.session, 'GET', url)).statusCode).toBe(403);
    const notExpert = await signedIn(t.app, ['organizator']);
    expect((await call(admin, 'PUT', `/api/admin/experts/${notExpert.user.id}`, body)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/admin/experts/${notExpert.user.id}`)).statusCode).toBe(404);
    const unknownTest = await call(admin, 'PUT', url, { ...body, subjectTestIds: [999999] });
    expect([unknownTest.statusCode, unknownTest.json().code]).toEqual([400, 'validation_failed']);
    const unknownSubject = await call(admin, 'PUT', url, { ...body, subjectIds: [999999] });
    expect([unknownSubject.statusCode, unknownSubject.json().code]).toEqual([400, 'unknown_subject']);
    expect((await call(admin, 'PUT', url, { ...body, extra: 1 })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', url, { ...body, parallels: [12] })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', '/api/admin/experts/0', body)).statusCode).toBe(400);
    expect(await profileOf(e.user.id)).toEqual(before);
  });
});

describe('/api/admin/subjectTests/{id}/experts: experts of a subject test', () => {
  it('lists who can grade it, adds and removes experts of the test, audited', async () => {
    const w = await createExpertWork(t.app);
    const bySubject = await signedIn(t.app, ['expert']);
    await setProfile(bySubject.user.id, { subjectIds: [w.subjectId], subjectTestIds: [], parallels: [7] });
    const otherGrade = await signedIn(t.app, ['expert']);
    await setProfile(otherGrade.user.id, { subjectIds: [w.subjectId], subjectTestIds: [], parallels: [9] });
    const url = `/api/admin/subjectTests/${w.subjectTestId}/experts`;

    const first = await call(admin, 'GET', url);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().experts).toEqual([
      expect.objectContaining({ id: bySubject.user.id, via: 'subject', parallels: [7] }),
    ]);
    expect(first.json().coverage).toMatchObject({
      subjectTestId: w.subjectTestId,
      expertTaskPositions: [1, 2],
      experts: 1,
      grades: [{ grade: 7, experts: 1 }],
    });

    const added = await signedIn(t.app, ['expert']);
    const add = await call(admin, 'POST', url, { expertIds: [added.user.id, bySubject.user.id] });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json().experts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: added.user.id, via: 'subject_test' }),
        expect.objectContaining({ id: bySubject.user.id, via: 'subject_test' }),
      ]),
    );
    expect(add.json().coverage.experts).toBe(2);
    // Two experts now: the waiting answers got both rounds.
    expect((await assignmentsOf(w.examWorkId)).filter((r) => r.round <= 2)).toHaveLength(4);
    const audited = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'expert.profile.assign'), eq(auditEvents.entityId, String(added.user.id))),
      );
    expect(audited).toHaveLength(1);

    const removed = await call(admin, 'DELETE', `${url}/${added.user.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().experts.map((e: { id: number }) => e.id)).not.toContain(added.user.id);
    expect((await call(admin, 'DELETE', `${url}/${added.user.id}`)).statusCode).toBe(404);
  });

  it('401, 403, 404, and 400 for a user without the expert role (nothing changes)', async () => {
    const w = await createExpertWork(t.app);
    const e = await signedIn(t.app, ['expert']);
    const url = `/api/admin/subjectTests/${w.subjectTestId}/experts`;
    expect(
      await guardResults(
        t.app,
        { method: 'POST', url, payload: { expertIds: [e.user.id] } },
        { allowed: admin, wrongRole: e.session },
      ),
    ).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    expect((await call(e.session, 'GET', url)).statusCode).toBe(403);
    expect((await call(e.session, 'DELETE', `${url}/${e.user.id}`)).statusCode).toBe(403);
    const participantUser = await signedIn(t.app, ['organizator']);
    const refused = await call(admin, 'POST', url, { expertIds: [e.user.id, participantUser.user.id] });
    expect([refused.statusCode, refused.json().code]).toEqual([400, 'validation_failed']);
    expect(refused.json().errors[0].path).toBe('body.expertIds.1');
    expect(await profileOf(e.user.id)).toEqual({});
    expect((await call(admin, 'POST', url, { expertIds: [] })).statusCode).toBe(400);
    expect((await call(admin, 'POST', url, { expertIds: [e.user.id, e.user.id] })).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/admin/subjectTests/999999/experts')).statusCode).toBe(404);
    expect(
      (await call(admin, 'POST', '/api/admin/subjectTests/999999/experts', { expertIds: [e.user.id] }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the check before publication and the diagnostic pages warn of too few experts', () => {
  it('the subject test’s validation names its expert-graded tasks and the experts who can grade them', async () => {
    const w = await createExpertWork(t.app);
    const url = `/api/admin/content/subjectTests/${w.subjectTestId}/validation`;
    const none = await call(admin, 'GET', url);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().expertCoverage).toMatchObject({
      subjectTestName: 'Математика, 7 класс',
      expertTaskPositions: [1, 2],
      experts: 0,
      waitingAnswers: 2,
    });
    const [a, b] = [await signedIn(t.app, ['expert']), await signedIn(t.app, ['expert'])];
    await call(admin, 'POST', `/api/admin/subjectTests/${w.subjectTestId}/experts`, {
      expertIds: [a.user.id, b.user.id],
    });
    expect((await call(admin, 'GET', url)).json().expertCoverage).toMatchObject({
      experts: 2,
      waitingAnswers: 0,
    });
    // A blocked expert grades nothing.
    await t.app.ctx.db.update(users).set({ isBlocked: true }).where(eq(users.id, b.user.id));
    expect((await call(admin, 'GET', url)).json().expertCoverage.experts).toBe(1);
  });

  it('GET /api/expert/coverage: each subject test of a diagnostic, for those who reach it', async () => {
    const w = await createExpertWork(t.app);
    const url = `/api/expert/coverage?diagnosticId=${w.diagnosticId}`;
    const res = await call(admin, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({ subjectTestId: w.subjectTestId, experts: 0, waitingAnswers: 2 }),
    ]);

    const org = await createOrg(t.app);
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await call(coordinator.session, 'GET', url)).statusCode).toBe(403);
    await t.app.ctx.db
      .insert(diagnosticSchools)
      .values({ diagnosticId: w.diagnosticId, schoolId: org.schoolId });
    expect((await call(coordinator.session, 'GET', url)).statusCode).toBe(200);
    const ugnik = await signedIn(t.app, ['ugnik']);
    expect((await call(ugnik.session, 'GET', url)).statusCode).toBe(403);
    const expert = await signedIn(t.app, ['expert']);
    expect((await call(expert.session, 'GET', url)).statusCode).toBe(403);
    expect((await call(null, 'GET', url)).statusCode).toBe(401);
    expect((await call(admin, 'GET', '/api/expert/coverage?diagnosticId=999999')).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/expert/coverage')).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/expert/coverage?diagnosticId=x')).statusCode).toBe(400);
  });
});

describe('an expert’s queue never says «all graded» while answers of their subjects wait', () => {
  it('an expert with nothing open takes waiting answers of their subjects', async () => {
    const w = await createExpertWork(t.app);
    const e = await signedIn(t.app, ['expert']);
    // The profile changed without a save (no assignPending ran): the answers wait, unassigned.
    await setProfile(e.user.id, { subjectIds: [w.subjectId], subjectTestIds: [], parallels: [7] });
    expect(await assignmentsOf(w.examWorkId)).toHaveLength(0);
    const next = await call(e.session, 'GET', '/api/expert/next');
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().assignment).toMatchObject({ subjectTestId: w.subjectTestId, round: 1 });
    expect(await assignmentsOf(w.examWorkId)).toEqual(
      expect.arrayContaining([{ expertId: e.user.id, round: 1, status: 'assigned' }]),
    );
    // Never two rounds of one answer: the second rounds wait for another expert, in words.
    for (let i = 0; i < 2; i++) {
      const open = (await call(e.session, 'GET', '/api/expert/next')).json().assignment;
      const marks = open.task.criteria.map((c: { code: string }) => ({ criterionCode: c.code, score: 0 }));
      expect(
        (await call(e.session, 'POST', `/api/expert/assignment/${open.id}/marks`, { marks })).statusCode,
      ).toBe(200);
    }
    const done = (await call(e.session, 'GET', '/api/expert/next')).json();
    expect(done.assignment).toBeNull();
    expect(done.waiting).toEqual({ otherExpert: 2, dailyLimit: 0 });
  });

  it('says when the daily limit holds waiting answers back', async () => {
    const w = await createExpertWork(t.app);
    const e = await signedIn(t.app, ['expert']);
    await setProfile(e.user.id, {
      subjectIds: [w.subjectId],
      subjectTestIds: [],
      parallels: [7],
      maxPerDay: 1,
    });
    const first = (await call(e.session, 'GET', '/api/expert/next')).json();
    expect(first.assignment).not.toBeNull();
    const marks = first.assignment.task.criteria.map((c: { code: string }) => ({
      criterionCode: c.code,
      score: 1,
    }));
    await call(e.session, 'POST', `/api/expert/assignment/${first.assignment.id}/marks`, { marks });
    const next = (await call(e.session, 'GET', '/api/expert/next')).json();
    expect(next.assignment).toBeNull();
    // Task 1's second round needs another expert; of task 2 one round can be theirs tomorrow, the other not.
    expect(next.waiting).toEqual({ otherExpert: 2, dailyLimit: 1 });
  });

  it('all zero when nothing of the expert’s subjects waits', async () => {
    const e = await signedIn(t.app, ['expert']);
    expect((await call(e.session, 'GET', '/api/expert/next')).json()).toEqual({
      assignment: null,
      progress: { done: 0, total: 0 },
      waiting: { otherExpert: 0, dailyLimit: 0 },
    });
  });
});
