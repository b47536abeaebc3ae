import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { NOTIFICATION_PAGE_SIZE, type NotificationKind } from '@attesta/contract';
import {
  createExamWork,
  closeWindow,
  createOrg,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createUser,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  unique,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import {
  answers,
  diagnostics,
  notifications,
  participantTests,
  queueItems,
  subjectExams,
  subjectTests,
  users,
} from '../../db/schema/index.js';
import { claim, enqueue } from '../../jobs/queue.js';
import { JobRunner, PermanentJobError, type JobHandler } from '../../jobs/runner.js';
import { scoreWork } from '../exam-results/results.service.js';
import { insertNotifications } from './notifications.repo.js';

let t: TestApp;

const get = (url: string, session?: Session) =>
  t.app.inject({ method: 'GET', url, headers: session?.headers ?? {} });

const mine = (userId: number) =>
  t.app.ctx.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(notifications.id);

const give = (userId: number, kind: NotificationKind = 'queue_done', params = {}) =>
  insertNotifications(t.app.ctx.db, [{ userId, kind, params, link: null }]);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the calls', () => {
  it('refuses without a session (401), whatever the call', async () => {
    for (const url of [
      '/api/notification/getList/0',
      '/api/notification/get/1',
      '/api/notification/delete/1',
    ])
      expect([url, (await get(url)).statusCode]).toEqual([url, 401]);
  });

  it('refuses bad ids with 400', async () => {
    const { session } = await signedIn(t.app, ['coordinator']);
    for (const url of [
      '/api/notification/getList/-1',
      '/api/notification/getList/x',
      '/api/notification/get/0',
      '/api/notification/get/abc',
      '/api/notification/delete/1.5',
    ]) {
      const res = await get(url, session);
      expect([url, res.statusCode, res.json().code]).toEqual([url, 400, 'validation_failed']);
    }
  });

  it('lists own notifications a page at a time, newest first, with the unread count of all pages', async () => {
    const { user, session } = await signedIn(t.app, ['expert']);
    const other = await signedIn(t.app, ['expert']);
    for (let i = 0; i < NOTIFICATION_PAGE_SIZE + 3; i++)
      await give(user.id, 'queue_done', { queueItemId: i });
    await give(other.user.id);

    const first = (await get('/api/notification/getList/0', session)).json();
    expect(first).toMatchObject({
      total: NOTIFICATION_PAGE_SIZE + 3,
      unread: NOTIFICATION_PAGE_SIZE + 3,
      page: 1,
      pageSize: NOTIFICATION_PAGE_SIZE,
    });
    expect(first.items).toHaveLength(NOTIFICATION_PAGE_SIZE);
    expect(first.items[0]).toEqual({
      id: expect.any(Number),
      kind: 'queue_done',
      params: { queueItemId: NOTIFICATION_PAGE_SIZE + 2 },
      link: null,
      createdAt: expect.stringMatching(/Z$/),
      readAt: null,
    });
    expect((await get('/api/notification/getList/1', session)).json().items).toEqual(first.items);
    const second = (await get('/api/notification/getList/2', session)).json();
    expect(second.items.map((n: { params: { queueItemId: number } }) => n.params.queueItemId)).toEqual([
      2, 1, 0,
    ]);
    expect((await get('/api/notification/getList/3', session)).json()).toMatchObject({ items: [], page: 3 });
  });

  it('get answers one own notification and marks it read (once); another user’s is unknown (404)', async () => {
    const { user, session } = await signedIn(t.app, ['participant']);
    const stranger = await signedIn(t.app, ['admin']);
    await give(user.id, 'results_published', { diagnosticId: 1, diagnosticName: 'Диагностика' });
    const [row] = await mine(user.id);

    const theirs = await get(`/api/notification/get/${row!.id}`, stranger.session);
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 'not_found']);
    expect((await mine(user.id))[0]!.readAt).toBeNull();

    // A state-changing GET: with the cookie alone it is refused as CSRF, and nothing is read.
    const noCsrf = await t.app.inject({
      method: 'GET',
      url: `/api/notification/get/${row!.id}`,
      headers: { cookie: session.cookie },
    });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf']);
    expect((await mine(user.id))[0]!.readAt).toBeNull();

    const res = await get(`/api/notification/get/${row!.id}`, session);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: row!.id,
      kind: 'results_published',
      params: { diagnosticId: 1, diagnosticName: 'Диагностика' },
      readAt: expect.stringMatching(/Z$/),
    });
    const again = (await get(`/api/notification/get/${row!.id}`, session)).json();
    expect(again.readAt).toBe(res.json().readAt);
    expect((await get('/api/notification/getList/0', session)).json().unread).toBe(0);
  });

  it('delete removes one own notification and answers the unread count left', async () => {
    const { user, session } = await signedIn(t.app, ['organizator']);
    const stranger = await signedIn(t.app, ['organizator']);
    await give(user.id);
    await give(user.id);
    const [a, b] = await mine(user.id);

    const theirs = await get(`/api/notification/delete/${a!.id}`, stranger.session);
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 'not_found']);
    expect(await mine(user.id)).toHaveLength(2);

    const res = await get(`/api/notification/delete/${a!.id}`, session);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, unread: 1 });
    expect((await mine(user.id)).map((n) => n.id)).toEqual([b!.id]);
    expect((await get(`/api/notification/delete/${a!.id}`, session)).statusCode).toBe(404);
    expect((await get(`/api/notification/get/${a!.id}`, session)).statusCode).toBe(404);
  });
});

describe('producers', () => {
  it('results published: each participant with an account and their school’s coordinators are told once; nobody else', async () => {
    const admin = await signedIn(t.app, ['admin']);
    const org = await createOrg(t.app);
    const [s1, s2, s3] = org.studentIds;
    const pt = await createParticipantTest(t.app, org, { studentId: s1!, status: 'scored' });
    const [base] = await t.app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, pt.participantTestId));
    const addPt = async (values: Partial<typeof participantTests.$inferInsert>) => {
      const [row] = await t.app.ctx.db
        .insert(participantTests)
        .values({
          ...base!,
          id: undefined,
          activationCode: unique('AC'),
          registrationCode: unique('RC'),
          ...values,
        })
        .returning();
      return row!.id;
    };
    // s1 sat a second subject test of the diagnostic: still one notification.
    const [exam] = await t.app.ctx.db
      .select()
      .from(subjectTests)
      .where(eq(subjectTests.id, pt.subjectTestId));
    const [secondTest] = await t.app.ctx.db
      .insert(subjectTests)
      .values({
        subjectExamId: exam!.subjectExamId,
        name: 'Второй тест',
        parallels: [7],
        durationMinutes: 45,
      })
      .returning();
    await addPt({ subjectTestId: secondTest!.id, status: 'scored' });
    await addPt({ studentId: s2!, status: 'absent' });
    const impersonal = await addPt({ studentId: null, isImpersonal: true, status: 'scored' });
    await addPt({ studentId: s3!, status: 'scored', deletedAt: new Date() });

    const account = async (values: Partial<typeof users.$inferInsert>) => {
      const u = await createUser(t.app, { roles: ['participant'] });
      await t.app.ctx.db.update(users).set(values).where(eq(users.id, u.id));
      return u.id;
    };
    const student1 = await account({ studentId: s1! });
    const student2 = await account({ studentId: s2! });
    const student3 = await account({ studentId: s3! });
    const code = await account({ login: `participant-${impersonal}` });
    const elsewhere = await createParticipantTest(t.app, org, { studentId: s2!, status: 'scored' });
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    const otherSchool = await createOrg(t.app);
    const otherCoordinator = await signedIn(t.app, ['coordinator'], { schoolId: otherSchool.schoolId });

    await closeWindow(t.app, pt.diagnosticId);
    const res = await get(`/api/examresults/changePublish/${pt.diagnosticId}/true`, admin.session);
    expect(res.statusCode).toBe(200);

    for (const userId of [student1, code])
      expect(await mine(userId)).toEqual([
        expect.objectContaining({
          kind: 'results_published',
          params: { diagnosticId: pt.diagnosticId, diagnosticName: 'Независимая диагностика' },
          link: '/participant/result',
          readAt: null,
        }),
      ]);
    expect(await mine(coordinator.user.id)).toEqual([
      expect.objectContaining({
        kind: 'results_published',
        params: { diagnosticId: pt.diagnosticId, diagnosticName: 'Независимая диагностика' },
        link: '/coordinator/reports',
      }),
    ]);
    for (const userId of [student2, student3, admin.user.id, otherCoordinator.user.id])
      expect(await mine(userId)).toEqual([]);
    expect(elsewhere.diagnosticId).not.toBe(pt.diagnosticId);
  });

  it('a work scored after its diagnostic’s publication tells its participant alone', async () => {
    const school = await createSchoolWithStaff(t.app);
    const [s1] = school.studentIds;
    const pt = await createParticipantTest(t.app, school, { studentId: s1!, status: 'in_progress' });
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, pt.diagnosticId));
    const v = await createVariantWithTasks(t.app, pt.subjectTestId, [tasksOfEveryType()[0]!]);
    const workId = await createExamWork(t.app, pt.participantTestId, v.variantId);
    await t.app.ctx.db
      .insert(answers)
      .values({ examWorkId: workId, variantTaskId: v.variantTaskIds[0]!, value: 'o2', seq: 1 });
    const student = await createUser(t.app, { roles: ['participant'] });
    await t.app.ctx.db.update(users).set({ studentId: s1! }).where(eq(users.id, student.id));
    const { session } = await signedInParticipant(t.app, pt);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/exam/test/examwork/finish/${workId}/manual`,
      headers: session.headers,
    });
    expect(res.statusCode).toBe(200);
    await t.app.jobs.drain();

    expect(await mine(student.id)).toEqual([
      expect.objectContaining({ kind: 'results_published', link: '/participant/result' }),
    ]);
    expect(await mine(school.coordinator.user.id)).toEqual([]);
    // Scored again (a regrade): already published, nobody is told twice.
    await t.app.ctx.db.transaction((tx) => scoreWork(tx, workId));
    expect(await mine(student.id)).toHaveLength(1);
  });

  it('grading assigned: each expert given answers is told, the count adding up while unread', async () => {
    const school = await createSchoolWithStaff(t.app);
    const extended = tasksOfEveryType()[8]!;
    const run = async (studentId: number) => {
      const pt = await createParticipantTest(t.app, school, { studentId, status: 'in_progress' });
      const [st] = await t.app.ctx.db
        .select({ subjectId: subjectExams.subjectId })
        .from(subjectTests)
        .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
        .where(eq(subjectTests.id, pt.subjectTestId));
      const v = await createVariantWithTasks(t.app, pt.subjectTestId, [extended]);
      const workId = await createExamWork(t.app, pt.participantTestId, v.variantId);
      await t.app.ctx.db.insert(answers).values({
        examWorkId: workId,
        variantTaskId: v.variantTaskIds[0]!,
        value: 'Развёрнутый ответ',
        seq: 1,
      });
      return { pt, subjectId: st!.subjectId, workId };
    };
    const [first, second, third] = [
      await run(school.studentIds[0]!),
      await run(school.studentIds[1]!),
      await run(school.studentIds[2]!),
    ];
    const subjectIds = [first!.subjectId, second!.subjectId, third!.subjectId];
    const expert = async (subjectIds: number[]) => {
      const u = await createUser(t.app, { roles: ['expert'] });
      await t.app.ctx.db
        .update(users)
        .set({ profile: { expert: { subjectIds, parallels: [7] } } })
        .where(eq(users.id, u.id));
      return u.id;
    };
    const both = [await expert(subjectIds), await expert(subjectIds)];
    const idle = await expert([]);

    const finish = async (w: typeof first) => {
      const { session } = await signedInParticipant(t.app, w!.pt);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/exam/test/examwork/finish/${w!.workId}/manual`,
        headers: session.headers,
      });
      expect(res.statusCode).toBe(200);
      await t.app.jobs.drain();
    };
    await finish(first);
    await finish(second);
    for (const userId of both)
      expect(await mine(userId)).toEqual([
        expect.objectContaining({
          kind: 'grading_assigned',
          params: { count: 2 },
          link: '/expert/grading',
          readAt: null,
        }),
      ]);
    expect(await mine(idle)).toEqual([]);

    // Read, the next assignment starts a new notification.
    const [seen] = await mine(both[0]!);
    await t.app.ctx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(eq(notifications.id, seen!.id));
    await finish(third);
    expect((await mine(both[0]!)).map((n) => [n.params.count, n.readAt === null])).toEqual([
      [2, false],
      [1, true],
    ]);
  });

  it('queue items: the creator is told when one is done or fails for good; retries and system items tell no one', async () => {
    const creator = await createUser(t.app, { roles: ['coordinator'] });
    const db = t.app.ctx.db;
    const handlers = new Map<string, JobHandler>([
      ['import', async () => ({ result: { ok: true } })],
      [
        'report',
        async () => {
          throw new PermanentJobError('bad filters', 'validation_failed');
        },
      ],
      [
        'planning',
        async () => {
          throw new Error('flaky');
        },
      ],
    ]);
    const runner = new JobRunner(db, t.app.log, { handlers, workerId: 'notify-test' });
    const { item: done } = await enqueue(db, { type: 'import', createdBy: creator.id });
    await runner.drain();
    const { item: failed } = await enqueue(db, { type: 'report', createdBy: creator.id });
    await runner.drain();
    await enqueue(db, { type: 'planning', createdBy: creator.id });
    await runner.drain(); // one failed attempt, a retry scheduled: not an end
    await enqueue(db, { type: 'import' });
    await runner.drain();

    // A worker died holding the last attempt: the next runner's recovery fails it, and says so.
    const { item: orphan } = await enqueue(db, { type: 'export', createdBy: creator.id, maxAttempts: 1 });
    await claim(db, 'dead-worker', ['export']);
    await db
      .update(queueItems)
      .set({ lockedAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(queueItems.id, orphan.id));
    await new JobRunner(db, t.app.log, { handlers: new Map() }).runOnce();

    expect(await mine(creator.id)).toEqual([
      expect.objectContaining({
        kind: 'queue_done',
        params: { queueItemId: done.id, type: 'import' },
        link: `/admin/content/import/${done.id}`,
      }),
      expect.objectContaining({
        kind: 'queue_failed',
        params: { queueItemId: failed.id, type: 'report', errorCode: 'validation_failed' },
        link: null,
      }),
      expect.objectContaining({
        kind: 'queue_failed',
        params: { queueItemId: orphan.id, type: 'export', errorCode: 'job_interrupted' },
      }),
    ]);
  });
});
