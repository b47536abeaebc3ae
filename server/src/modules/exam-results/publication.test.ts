import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  closeWindow,
  createDiagnosticFor,
  createExamWork,
  createSchoolWithStaff,
  createTestApp,
  createUser,
  createVariantWithTasks,
  isoDate,
  sessionFor,
  signedIn,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { auditEvents, diagnostics, examWorks, participantTests } from '../../db/schema/index.js';
import { activationCode, registrationCode } from '../../lib/tokens.js';
import { startWorkOnce } from '../exam-test/exam-work.repo.js';

/*
 * Publication ends the sitting (docs/design.md §3): keys never reach anyone who can still write.
 * Refused while works are open or the window is; an admin may override the window (audited); who has
 * not started is marked absent and can never start — tested from the publisher's side and from the
 * late starter's (every runner and results call).
 */

const SECRET = 'PUBLICATIONSECRETQQ';

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => t?.close());

const get = (url: string, session: Session | null) =>
  app.inject({ method: 'GET', url, headers: session?.headers ?? { 'x-requested-with': 'XMLHttpRequest' } });
const publishUrl = (id: number, publish = true, query = '') =>
  `/api/examresults/changePublish/${id}/${publish}${query}`;

interface Sitting {
  participantTestId: number;
  session: Session;
}

interface World {
  a: SchoolWithStaff;
  b: SchoolWithStaff;
  diagnosticId: number;
  subjectTestId: number;
  variantId: number;
  variantTaskIds: number[];
  taskIds: number[];
  /** School A, finished and scored. */
  finisher: Sitting & { workId: number };
  /** School A, registered, never started. */
  late: Sitting;
  /** School B, registered, never started. */
  lateB: Sitting;
}

async function register(
  school: SchoolWithStaff,
  diagnosticId: number,
  subjectTestId: number,
  studentId: number,
) {
  const code = activationCode();
  const [pt] = await app.ctx.db
    .insert(participantTests)
    .values({
      diagnosticId,
      subjectTestId,
      studentId,
      schoolId: school.schoolId,
      classId: school.classId,
      buildingId: school.buildingId,
      testDate: isoDate(),
      activationCode: code,
      registrationCode: registrationCode(),
    })
    .returning();
  const user = await createUser(app, { roles: ['participant'] });
  const session = await sessionFor(app, user.id, { participantTestId: pt!.id, activationCode: code });
  return { participantTestId: pt!.id, session };
}

/** A diagnostic of two schools created by school A's coordinator: one finished work, two not started. */
async function world(): Promise<World> {
  const a = await createSchoolWithStaff(app);
  const b = await createSchoolWithStaff(app);
  const { diagnosticId, subjectTestId } = await createDiagnosticFor(app, {
    schoolIds: [a.schoolId, b.schoolId],
  });
  await app.ctx.db
    .update(diagnostics)
    .set({ createdBy: a.coordinator.user.id, createdByRole: 'coordinator' })
    .where(eq(diagnostics.id, diagnosticId));
  const v = await createVariantWithTasks(app, subjectTestId, [
    {
      answerType: 'single_choice',
      content: { options: [1, 2, 3].map((i) => ({ id: `o${i}`, html: `Вариант ${i}` })) },
      reference: { correct: 'o2', note: `${SECRET}-ref-1` },
      scoring: { method: 'all_or_nothing' },
      solutionHtml: `<p>${SECRET}-solution-1</p>`,
    },
    {
      answerType: 'short_text',
      content: { maxLength: 20 },
      reference: { accepted: [`${SECRET}-ref-2`] },
      scoring: { method: 'all_or_nothing' },
      solutionHtml: `<p>${SECRET}-solution-2</p>`,
    },
  ]);
  const finisher = await register(a, diagnosticId, subjectTestId, a.studentIds[0]!);
  const workId = await createExamWork(app, finisher.participantTestId, v.variantId);
  const done = await app.inject({
    method: 'PUT',
    url: `/api/exam/test/examwork/finish/${workId}/manual`,
    headers: finisher.session.headers,
  });
  expect(done.statusCode, done.body).toBe(200);
  await app.jobs.drain();
  return {
    a,
    b,
    diagnosticId,
    subjectTestId,
    variantId: v.variantId,
    variantTaskIds: v.variantTaskIds,
    taskIds: v.taskIds,
    finisher: { ...finisher, workId },
    late: await register(a, diagnosticId, subjectTestId, a.studentIds[1]!),
    lateB: await register(b, diagnosticId, subjectTestId, b.studentIds[0]!),
  };
}

const diagnosticRow = async (id: number) =>
  (await app.ctx.db.select().from(diagnostics).where(eq(diagnostics.id, id)))[0]!;
const statusOf = async (ptId: number) =>
  (await app.ctx.db.select().from(participantTests).where(eq(participantTests.id, ptId)))[0]!.status;
const publications = (diagnosticId: number) =>
  app.ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'results.publish'), eq(auditEvents.entityId, String(diagnosticId))));

const errorParams = (res: LightMyRequestResponse) =>
  (res.json() as { errors: { params: Record<string, unknown> }[] }).errors[0]!.params;

describe('enableChangePublish: the window and the counts before the button', () => {
  it('401, 403 for a wrong role or a school outside, 400 for a bad id, 404 for none', async () => {
    const w = await world();
    const url = `/api/examresults/enableChangePublish/${w.diagnosticId}`;
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, (await signedIn(app, ['expert'])).session)).statusCode).toBe(403);
    const outsider = await createSchoolWithStaff(app);
    expect((await get(url, outsider.coordinator.session)).statusCode).toBe(403);
    const admin = await signedIn(app, ['admin']);
    const bad = await get('/api/examresults/enableChangePublish/abc', admin.session);
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed']);
    expect((await get('/api/examresults/enableChangePublish/999999', admin.session)).statusCode).toBe(404);
  });

  it('the admin and the creator see the whole diagnostic; another school’s coordinator reads its own school, read-only', async () => {
    const w = await world();
    const url = `/api/examresults/enableChangePublish/${w.diagnosticId}`;
    const d = await diagnosticRow(w.diagnosticId);
    const admin = (await get(url, (await signedIn(app, ['admin'])).session)).json();
    expect(admin).toEqual({
      diagnostic: { id: w.diagnosticId, code: d.code, name: d.name },
      enabled: false,
      awaitingGrading: 0,
      unscored: 0,
      reason: 'window_open',
      message: 'Окно диагностики ещё открыто, не начали работу: 2',
      window: { startsAt: d.startsAt.toISOString(), endsAt: d.endsAt.toISOString(), open: true },
      participants: { registered: 3, finished: 1, inProgress: 0, notStarted: 2, absent: 0, annulled: 0 },
      participantsScope: 'diagnostic',
      overridable: true,
      mayPublish: true,
      resultsPublished: false,
      publishedAt: null,
    });
    // The coordinator who created it publishes it, but never overrides the window.
    expect((await get(url, w.a.coordinator.session)).json()).toMatchObject({
      mayPublish: true,
      overridable: false,
      participantsScope: 'diagnostic',
      participants: { registered: 3 },
    });
    // School B's coordinator: only their school's registrations, and the admin publishes.
    expect((await get(url, w.b.coordinator.session)).json()).toMatchObject({
      mayPublish: false,
      overridable: false,
      participantsScope: 'school',
      participants: { registered: 1, finished: 0, notStarted: 1 },
    });
  });

  it('a work still being written comes first and no override lifts it; after the window, who did not start is absent', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    const url = `/api/examresults/enableChangePublish/${w.diagnosticId}`;
    const writing = await createExamWork(app, w.late.participantTestId, w.variantId);
    expect((await get(url, admin.session)).json()).toMatchObject({
      enabled: false,
      reason: 'participants_unfinished',
      overridable: false,
      participants: { finished: 1, inProgress: 1, notStarted: 1 },
    });
    await app.ctx.db.update(examWorks).set({ finishedAt: new Date() }).where(eq(examWorks.id, writing));
    await app.jobs.drain();
    await closeWindow(app, w.diagnosticId);
    const closed = (await get(url, admin.session)).json();
    expect(closed).toMatchObject({
      reason: 'unscored',
      participants: { finished: 2, inProgress: 0, notStarted: 0, absent: 1 },
      window: { open: false },
    });
  });
});

describe('changePublish: refused while anyone can still write', () => {
  it('401 without a session, 403 csrf, 400 for a bad override, 403 for a coordinator who did not create it', async () => {
    const w = await world();
    expect((await get(publishUrl(w.diagnosticId), null)).statusCode).toBe(401);
    const admin = await signedIn(app, ['admin']);
    const noCsrf = await app.inject({
      method: 'GET',
      url: publishUrl(w.diagnosticId),
      headers: { cookie: admin.session.cookie },
    });
    expect(noCsrf.json().code).toBe('csrf');
    const bad = await get(publishUrl(w.diagnosticId, true, '?override=yes'), admin.session);
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed']);
    expect((await get(publishUrl(w.diagnosticId), w.b.coordinator.session)).statusCode).toBe(403);
    expect((await diagnosticRow(w.diagnosticId)).resultsPublished).toBe(false);
  });

  it('409 publication_window_open with the window and counts; a coordinator cannot override; nothing changes', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    const d = await diagnosticRow(w.diagnosticId);
    for (const session of [admin.session, w.a.coordinator.session]) {
      const res = await get(publishUrl(w.diagnosticId), session);
      expect([res.statusCode, res.json().code]).toEqual([409, 'publication_window_open']);
      expect(errorParams(res)).toEqual({
        startsAt: d.startsAt.toISOString(),
        endsAt: d.endsAt.toISOString(),
        registered: 3,
        finished: 1,
        inProgress: 0,
        notStarted: 2,
        absent: 0,
        annulled: 0,
      });
    }
    const insisted = await get(publishUrl(w.diagnosticId, true, '?override=true'), w.a.coordinator.session);
    expect(insisted.statusCode).toBe(403);
    const after = await diagnosticRow(w.diagnosticId);
    expect([after.resultsPublished, after.firstPublishedAt]).toEqual([false, null]);
    expect(await statusOf(w.late.participantTestId)).toBe('planned');
    expect(await publications(w.diagnosticId)).toEqual([]);
  });

  it('409 publication_participants_unfinished while a work is open, even with the override or after the window', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    await createExamWork(app, w.late.participantTestId, w.variantId);
    const open = await get(publishUrl(w.diagnosticId, true, '?override=true'), admin.session);
    expect([open.statusCode, open.json().code]).toEqual([409, 'publication_participants_unfinished']);
    expect(errorParams(open)).toMatchObject({ inProgress: 1, finished: 1, notStarted: 1 });
    // Its time ran out with the window, but the sweeper has not closed it yet: still not finished.
    await closeWindow(app, w.diagnosticId);
    const closed = await get(publishUrl(w.diagnosticId), admin.session);
    expect([closed.statusCode, closed.json().code]).toEqual([409, 'publication_participants_unfinished']);
    expect((await diagnosticRow(w.diagnosticId)).resultsPublished).toBe(false);
  });

  it('after the window the creator publishes without an override: who did not start is marked absent', async () => {
    const w = await world();
    await closeWindow(app, w.diagnosticId);
    const res = await get(publishUrl(w.diagnosticId), w.a.coordinator.session);
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf(w.late.participantTestId)).toBe('absent');
    expect(await statusOf(w.lateB.participantTestId)).toBe('absent');
    expect(await statusOf(w.finisher.participantTestId)).toBe('published');
    const [entry] = await publications(w.diagnosticId);
    expect(entry!.details).toMatchObject({ override: false, finished: 1, absent: 2, markedAbsent: 2 });
  });
});

describe('an admin’s override, and the late starter from both sides', () => {
  it('publishes in the open window, audited; those not started can never start, see no key, and staff see them absent', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    const res = await get(publishUrl(w.diagnosticId, true, '?override=true'), admin.session);
    expect(res.statusCode, res.body).toBe(200);
    const d = await diagnosticRow(w.diagnosticId);
    expect(d.resultsPublished).toBe(true);
    expect(d.firstPublishedAt).not.toBeNull();
    const [entry] = await publications(w.diagnosticId);
    expect(entry!.userId).toBe(admin.user.id);
    expect(entry!.details).toEqual({
      override: true,
      windowEndsAt: d.endsAt.toISOString(),
      registered: 3,
      finished: 1,
      inProgress: 0,
      notStarted: 2,
      absent: 0,
      annulled: 0,
      markedAbsent: 2,
    });

    // The finisher reads the keys of their own work.
    const own = await get(`/api/examresults/variant/${w.finisher.workId}`, w.finisher.session);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain(`${SECRET}-solution-1`);

    // The late starter: told in words (status, closedByPublication), never started, no key anywhere.
    const late = w.late.session;
    const current = (await get('/api/exam/test/currentParticipantTest', late)).json();
    expect(current).toMatchObject({
      status: 'absent',
      examWork: null,
      diagnostic: { resultsPublished: true, closedByPublication: true },
    });
    const start = await app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/new',
      headers: late.headers,
      payload: {},
    });
    expect([start.statusCode, start.json().code]).toEqual([409, 'results_published']);
    await everyCallRefused(w, late);
    expect(
      await app.ctx.db
        .select()
        .from(examWorks)
        .where(eq(examWorks.participantTestId, w.late.participantTestId)),
    ).toEqual([]);

    // Staff: the registration is absent, and noresult says so.
    expect(await statusOf(w.late.participantTestId)).toBe('absent');
    const why = await get(`/api/examresults/noresult/${w.late.participantTestId}`, w.a.coordinator.session);
    expect(why.json()).toMatchObject({ reason: 'absent', message: 'Участник не явился на диагностику' });

    // Unpublished again: the keys have been seen, so still no start; nor for one registered later.
    expect((await get(publishUrl(w.diagnosticId, false), admin.session)).json().resultsPublished).toBe(false);
    expect((await diagnosticRow(w.diagnosticId)).firstPublishedAt).toEqual(d.firstPublishedAt);
    const again = await app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/new',
      headers: late.headers,
      payload: {},
    });
    expect([again.statusCode, again.json().code]).toEqual([409, 'results_published']);
    const newcomer = await register(w.a, w.diagnosticId, w.subjectTestId, w.a.studentIds[2]!);
    const fresh = await app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/new',
      headers: newcomer.session.headers,
      payload: {},
    });
    expect([fresh.statusCode, fresh.json().code]).toEqual([409, 'results_published']);
    expect(
      (await get('/api/exam/test/currentParticipantTest', newcomer.session)).json().diagnostic,
    ).toMatchObject({
      resultsPublished: false,
      closedByPublication: true,
    });
  });

  it('the start statement itself starts nothing once the results are published (what a start racing the publication meets)', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    expect((await get(publishUrl(w.diagnosticId, true, '?override=true'), admin.session)).statusCode).toBe(
      200,
    );
    // A start that read the participant test before the publication committed goes straight to
    // its one statement: the statement reads the diagnostic under its key-share lock.
    // Everything else as the participant test is, so only the publication stops it.
    const now = new Date();
    const [d] = await app.ctx.db.select().from(diagnostics).where(eq(diagnostics.id, w.diagnosticId));
    const started = await startWorkOnce(
      app.ctx.db,
      {
        participantTestId: w.late.participantTestId,
        subjectTestId: w.subjectTestId,
        extraTimePercent: null,
        variantId: w.variantId,
        answerMode: 'online',
        startedAt: now,
        timeLimitSeconds: 2700,
        extraSeconds: 0,
        windowEndsAt: d!.endsAt,
        deadlineAt: new Date(now.getTime() + 2_700_000),
        deviceId: null,
      },
      { userId: admin.user.id, ip: null },
    );
    expect(started).toBeNull();
    expect(
      await app.ctx.db
        .select()
        .from(examWorks)
        .where(eq(examWorks.participantTestId, w.late.participantTestId)),
    ).toEqual([]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL a start racing a publication waits for it and starts nothing',
    async () => {
      const w = await world();
      let locked!: () => void;
      let release!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      // The publication's transaction, held open after it marked the diagnostic published.
      const publishing = app.ctx.db.transaction(async (tx) => {
        await tx.select().from(diagnostics).where(eq(diagnostics.id, w.diagnosticId)).for('update');
        await tx
          .update(diagnostics)
          .set({ resultsPublished: true, publishedAt: new Date(), firstPublishedAt: new Date() })
          .where(eq(diagnostics.id, w.diagnosticId));
        locked();
        await gate;
      });
      await isLocked;
      // The start reads the participant test before the publication commits.
      let settled = false;
      const start = app
        .inject({
          method: 'POST',
          url: '/api/exam/test/examwork/new',
          headers: w.late.session.headers,
          payload: {},
        })
        .finally(() => (settled = true));
      // Until the start waits for the diagnostic's row lock (or, without that lock, has answered).
      for (;;) {
        const [waiting] = rowsOf<{ n: number }>(
          await app.ctx.db.execute(
            sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
          ),
        );
        if (settled || waiting!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release();
      await publishing;
      const res = await start;
      expect([res.statusCode, res.json().code]).toEqual([409, 'results_published']);
      expect(
        await app.ctx.db
          .select()
          .from(examWorks)
          .where(eq(examWorks.participantTestId, w.late.participantTestId)),
      ).toEqual([]);
    },
  );

  it('an unfinished work deleted before publication cannot be restored after it', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    const deleted = await createExamWork(app, w.late.participantTestId, w.variantId, { deleted: true });
    expect((await get(publishUrl(w.diagnosticId, true, '?override=true'), admin.session)).statusCode).toBe(
      200,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/ParticipantTest/RestoreExamWork',
      headers: admin.session.headers,
      payload: { examWorkId: deleted },
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'results_published']);
    const [row] = await app.ctx.db.select().from(examWorks).where(eq(examWorks.id, deleted));
    expect(row!.deletedAt).not.toBeNull();
  });
});

/**
 * Every call of the runner and of results a participant session makes, aimed at the late starter's
 * own participant test and at the finisher's work, variant and tasks (what a classmate could pass
 * on): none answers 200, none carries a key.
 */
async function everyCallRefused(w: World, session: Session) {
  const vt = w.variantTaskIds[0]!;
  const ptId = w.late.participantTestId;
  const calls: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object }[] = [
    { method: 'GET', url: '/api/exam/test/variant/current' },
    { method: 'GET', url: `/api/exam/test/variant/${w.variantId}` },
    { method: 'GET', url: `/api/exam/test/variant/${w.variantId}/taskTextHtml` },
    { method: 'GET', url: `/api/exam/test/variant/resolve/${w.variantId}` },
    { method: 'GET', url: `/api/kimtemplate/byvariantid/${w.variantId}` },
    { method: 'GET', url: `/api/exam/test/examwork/${w.finisher.workId}` },
    { method: 'GET', url: `/api/exam/test/examwork/left/${w.finisher.workId}` },
    { method: 'GET', url: `/api/exam/test/examwork/${w.finisher.workId}/blanks` },
    { method: 'GET', url: '/api/exam/test/examwork/checkexistsexamwork' },
    {
      method: 'PUT',
      url: '/api/exam/test/saveanswer',
      payload: { examWorkId: w.finisher.workId, variantTaskId: vt, value: 'o2', seq: 9 },
    },
    { method: 'GET', url: `/api/examresults/${ptId}` },
    { method: 'GET', url: `/api/examresults/${w.finisher.participantTestId}` },
    { method: 'GET', url: `/api/examresults/variant/${w.finisher.workId}` },
    { method: 'GET', url: `/api/examresults/referenceByVariantTaskId/${vt}` },
    { method: 'GET', url: `/api/examresults/doc/${ptId}` },
    { method: 'GET', url: `/api/examresults/doc/${ptId}/preprof` },
    { method: 'GET', url: `/api/examresults/preprof/${ptId}` },
    { method: 'GET', url: `/api/examresults/preschool/${ptId}` },
  ];
  for (const call of calls) {
    const res = await app.inject({
      method: call.method,
      url: call.url,
      headers: session.headers,
      ...(call.payload ? { payload: call.payload } : {}),
    });
    const answered = `${call.method} ${call.url} → ${res.statusCode}`;
    // checkexistsexamwork answers whether a work exists: it does not.
    if (call.url.endsWith('checkexistsexamwork'))
      expect(res.json(), answered).toMatchObject({ exists: false });
    else expect(res.statusCode, answered).toBeGreaterThanOrEqual(400);
    expect(res.body, answered).not.toContain(SECRET);
  }
}
