import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { auditEvents, diagnostics, participantTests, queueItems, students } from '../../db/schema/index.js';
import { JobRunner } from '../../jobs/runner.js';
import {
  createOrg,
  createTestApp,
  isoDate,
  signedIn,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import {
  createClassWithStudents,
  createDiagnosticFixture,
  createPlanningWorld,
  createSubjectTest,
  type PlanningWorld,
} from '../../../test/diagnostic-fixtures.js';
import { PLANNING_JOB, runPlanning } from './planning.service.js';

let t: TestApp;
let w: PlanningWorld;
let coordA: { id: number; session: Session };
let coordB: Session;
let admin: Session;

const plan = (query: Record<string, string>, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/ParticipantTest/createplanningqueue?${new URLSearchParams(query)}`,
    ...(headers ? { headers } : {}),
  });
const countOf = async (table: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
const testsOf = (diagnosticId: number) =>
  t.app.ctx.db
    .select()
    .from(participantTests)
    .where(and(eq(participantTests.diagnosticId, diagnosticId), isNull(participantTests.deletedAt)));
const silent = { child: () => silent, info() {}, warn() {}, error() {}, debug() {} } as never;

beforeAll(async () => {
  t = await createTestApp();
  w = await createPlanningWorld(t.app);
  const a = await signedIn(t.app, ['coordinator'], { schoolId: w.a.schoolId });
  coordA = { id: a.user.id, session: a.session };
  coordB = (await signedIn(t.app, ['coordinator'], { schoolId: w.b.schoolId })).session;
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t.close());

describe('POST /api/ParticipantTest/createplanningqueue', () => {
  it('401 without a session, 403 for other roles and without the anti-CSRF header; nothing queued', async () => {
    const query = { date: w.date, code: w.diagnostic.code };
    expect((await plan(query)).statusCode).toBe(401);
    const organizator = (await signedIn(t.app, ['organizator'], { schoolId: w.a.schoolId })).session;
    expect((await plan(query, organizator.headers)).statusCode).toBe(403);
    const csrf = await plan(query, { cookie: coordA.session.cookie });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json()).toMatchObject({ code: 'csrf' });
    expect(await countOf('queue_items')).toBe(0);
  });

  it('bad input changes nothing: 400 for a bad or out-of-window date, 404 for an unknown code', async () => {
    const h = coordA.session.headers;
    expect((await plan({ date: '2026-02-30', code: w.diagnostic.code }, h)).statusCode).toBe(400);
    expect((await plan({ date: 'tomorrow', code: w.diagnostic.code }, h)).statusCode).toBe(400);
    expect((await plan({ code: w.diagnostic.code }, h)).statusCode).toBe(400);
    const outside = await plan({ date: isoDate(30), code: w.diagnostic.code }, h);
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'query.date' }] });
    const unknown = await plan({ date: w.date, code: 'NO-SUCH-CODE' }, h);
    expect(unknown.statusCode).toBe(404);
    expect(await countOf('queue_items')).toBe(0);
    expect(await countOf('participant_tests')).toBe(0);
  });

  it('403 for a coordinator whose school the diagnostic does not include', async () => {
    const other = await createOrg(t.app);
    const outsider = (await signedIn(t.app, ['coordinator'], { schoolId: other.schoolId })).session;
    const res = await plan({ date: w.date, code: w.diagnostic.code }, outsider.headers);
    expect(res.statusCode).toBe(403);
    const noSchool = (await signedIn(t.app, ['coordinator'])).session;
    expect((await plan({ date: w.date, code: w.diagnostic.code }, noSchool.headers)).statusCode).toBe(403);
    expect(await countOf('queue_items')).toBe(0);
  });

  it('a coordinator queues planning of their own school; queueing it again returns the same item', async () => {
    const res = await plan({ date: w.date, code: w.diagnostic.code }, coordA.session.headers);
    expect(res.statusCode).toBe(200);
    const item = res.json();
    expect(item).toMatchObject({
      type: 'planning',
      status: 'queued',
      diagnosticId: w.diagnostic.id,
      diagnosticCode: w.diagnostic.code,
      params: { date: w.date, schoolId: w.a.schoolId, code: w.diagnostic.code },
      progress: 0,
      result: null,
      createdBy: coordA.id,
    });
    const again = await plan({ date: w.date, code: w.diagnostic.code }, coordA.session.headers);
    expect(again.json().id).toBe(item.id);
    const [row] = await t.app.ctx.db.select().from(queueItems).where(eq(queueItems.id, item.id));
    expect(row!.dedupeKey).toBe(`planning:${w.diagnostic.id}:${w.date}:${w.a.schoolId}`);
    const audits = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'queue.planning.create'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ userId: coordA.id, entityId: String(item.id) });
  });

  it('the planning job registers the school’s students of the planned grades for the matching tests', async () => {
    const done = await t.app.jobs.runOnce();
    expect(done).toMatchObject({
      type: 'planning',
      status: 'done',
      progress: 100,
      result: { created: w.expected.a, existing: 0, schools: 1 },
    });
    expect(done!.progressText).toContain('создано 8');
    const rows = await testsOf(w.diagnostic.id);
    expect(rows).toHaveLength(w.expected.a);
    expect(
      rows.every((r) => r.schoolId === w.a.schoolId && r.testDate === w.date && r.status === 'planned'),
    ).toBe(true);
    expect(rows.every((r) => r.buildingId === w.a.buildingId)).toBe(true);
    // Grade 7: math and russian; grade 8: math only; physics (grade 9) nobody.
    const of = (classId: number) => rows.filter((r) => r.classId === classId);
    expect(
      of(w.a.classId)
        .map((r) => r.subjectTestId)
        .sort(),
    ).toEqual([w.math, w.math, w.math, w.russian, w.russian, w.russian].sort());
    expect(of(w.a.class8).every((r) => r.subjectTestId === w.math)).toBe(true);
    expect(of(w.a.class5)).toHaveLength(0);
    expect(rows.some((r) => r.studentId === w.a.deletedStudentId)).toBe(false);
    expect(rows.some((r) => r.subjectTestId === w.physics)).toBe(false);
    expect(new Set(rows.map((r) => r.activationCode.toUpperCase())).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.registrationCode)).size).toBe(rows.length);
    expect(rows.every((r) => /^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/.test(r.activationCode))).toBe(true);
    expect(rows.every((r) => /^\d{12}$/.test(r.registrationCode))).toBe(true);
  });

  it('planning again creates no duplicates; an admin then plans every school of the diagnostic', async () => {
    const again = await plan({ date: w.date, code: w.diagnostic.code }, coordA.session.headers);
    expect(again.json().status).toBe('queued');
    expect((await t.app.jobs.runOnce())!.result).toEqual({ created: 0, existing: w.expected.a, schools: 1 });
    expect(await testsOf(w.diagnostic.id)).toHaveLength(w.expected.a);

    const all = await plan({ date: w.date, code: w.diagnostic.code }, admin.headers);
    expect(all.json().params).toEqual({ date: w.date, schoolId: null, code: w.diagnostic.code });
    expect((await t.app.jobs.runOnce())!.result).toEqual({
      created: w.expected.b,
      existing: w.expected.a,
      schools: 2,
    });
    const rows = await testsOf(w.diagnostic.id);
    expect(rows).toHaveLength(w.expected.a + w.expected.b);
    const keys = rows.map((r) => `${r.studentId}:${r.subjectTestId}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Coordinator B sees the admin's item of the diagnostic that includes their school.
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/ParticipantTest/queuelist',
      headers: coordB.headers,
      payload: { page: 1, pageSize: 50, filter: { diagnosticId: w.diagnostic.id } },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(3);
  });

  it('a student who joins later is planned by the next run, the others are left alone', async () => {
    const [late] = await t.app.ctx.db
      .insert(students)
      .values({ schoolId: w.b.schoolId, classId: w.b.classId, surname: 'Новиков', name: 'Олег' })
      .returning();
    await plan({ date: w.date, code: w.diagnostic.code }, coordB.headers);
    expect((await t.app.jobs.runOnce())!.result).toEqual({ created: 2, existing: w.expected.b, schools: 1 });
    expect((await testsOf(w.diagnostic.id)).filter((r) => r.studentId === late!.id)).toHaveLength(2);
  });

  it('plans thousands of students in batches', async () => {
    const org = await createOrg(t.app);
    await createClassWithStudents(t.app, org, {
      parallel: 9,
      letter: 'В',
      surnames: Array.from({ length: 1200 }, (_, i) => `Ученик${i}`),
    });
    const test9 = await createSubjectTest(t.app, { parallels: [9] });
    const d = await createDiagnosticFixture(t.app, {
      parallels: [9],
      subjectTestIds: [test9],
      schoolIds: [org.schoolId],
    });
    const res = await plan({ date: w.date, code: d.code }, admin.headers);
    expect(res.statusCode).toBe(200);
    expect((await t.app.jobs.runOnce())!.result).toEqual({ created: 1200, existing: 0, schools: 1 });
    expect(await testsOf(d.id)).toHaveLength(1200);
  });

  it('two instances planning the same diagnostic at once create each participant test once', async () => {
    const org = await createOrg(t.app);
    await createClassWithStudents(t.app, org, {
      parallel: 7,
      letter: 'Г',
      surnames: Array.from({ length: 300 }, (_, i) => `Параллельный${i}`),
    });
    const test7 = await createSubjectTest(t.app, { parallels: [7] });
    const d = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [test7],
      schoolIds: [org.schoolId],
    });
    const coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session;
    // Two different plans (one school / all schools) cover the same students.
    expect((await plan({ date: w.date, code: d.code }, coordinator.headers)).statusCode).toBe(200);
    expect((await plan({ date: w.date, code: d.code }, admin.headers)).statusCode).toBe(200);

    let second: Database | null = null;
    let otherDb = t.app.ctx.db;
    if (t.database.kind === 'postgres' && process.env.TEST_DATABASE_URL) {
      const [{ name }] = (await t.database.query<{ name: string }>('select current_database() as name')) as [
        { name: string },
      ];
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      second = await openDatabase({ url: url.toString(), poolSize: 3 });
      otherDb = second.db;
    }
    try {
      const handlers = new Map([[PLANNING_JOB, runPlanning]]);
      const one = new JobRunner(t.app.ctx.db, silent, { handlers });
      const two = new JobRunner(otherDb, silent, { handlers });
      const [x, y] = await Promise.all([one.runOnce(), two.runOnce()]);
      const results = [x!.result, y!.result] as { created: number; existing: number }[];
      // 300 students of 7 «Г» and the 3 of the fixture's 7 «А».
      expect(results.reduce((s, r) => s + r.created, 0)).toBe(303);
      expect(results.reduce((s, r) => s + r.existing, 0)).toBe(303);
      expect(await testsOf(d.id)).toHaveLength(303);
    } finally {
      await second?.close();
    }
  });

  it('a job whose diagnostic was deleted fails at once, without retries', async () => {
    const test7 = await createSubjectTest(t.app, { parallels: [7] });
    const d = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [test7],
      schoolIds: [w.a.schoolId],
    });
    const res = await plan({ date: w.date, code: d.code }, admin.headers);
    await t.app.ctx.db.update(diagnostics).set({ deletedAt: new Date() }).where(eq(diagnostics.id, d.id));
    const done = await t.app.jobs.runOnce();
    expect(done).toMatchObject({ id: res.json().id, status: 'failed', attempts: 1 });
    expect(done!.error).toMatch(/no longer exists/);
    expect(
      (
        await t.app.ctx.db
          .select({ n: sql<number>`count(*)::int` })
          .from(participantTests)
          .where(eq(participantTests.diagnosticId, d.id))
      )[0]!.n,
    ).toBe(0);
  });
});
