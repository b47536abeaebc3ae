import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnostics, participantTests } from '../../db/schema/index.js';
import {
  createExamWork,
  createOrg,
  createSubjectTest,
  createDiagnosticWith,
  createTestApp,
  createUser,
  createVariantWithTasks,
  isoDate,
  signedIn,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { activationCode, registrationCode } from '../../lib/tokens.js';

let t: TestApp;
let admin: Session;
let orgA: OrgFixture;
let orgB: OrgFixture;
let testMath: number;
let testRus: number;
let byAdmin: number;
let byUgnik: number;
let byCoordinator: number;

const DAY = 86_400_000;
const list = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/admin/diagnostics/list', headers: admin.headers, payload: body });
const ids = (res: { json(): { items: { id: number }[] } }) => res.json().items.map((d) => d.id);

/** A participant test of a student of `org` for the diagnostic, with a work in `workStatus`. */
async function register(org: OrgFixture, diagnosticId: number, subjectTestId: number, workStatus?: string) {
  const [pt] = await t.app.ctx.db
    .insert(participantTests)
    .values({
      diagnosticId,
      subjectTestId,
      studentId: org.studentIds[0]!,
      schoolId: org.schoolId,
      classId: org.classId,
      buildingId: org.buildingId,
      testDate: isoDate(),
      activationCode: activationCode(),
      registrationCode: registrationCode(),
      status: workStatus ? 'finished' : 'planned',
    })
    .returning();
  if (workStatus) {
    const variant = await createVariantWithTasks(t.app, subjectTestId, [{ answerType: 'short_text' }]);
    await createExamWork(t.app, pt!.id, variant.variantId, { status: workStatus });
  }
  return pt!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  orgA = await createOrg(t.app, 'Школа А');
  orgB = await createOrg(t.app, 'Школа Б');
  testMath = await createSubjectTest(t.app, { name: 'Математика 7' });
  testRus = await createSubjectTest(t.app, { name: 'Русский язык 7' });
  const ugnik = await createUser(t.app, { roles: ['ugnik'] });
  const now = Date.now();
  byAdmin = (
    await createDiagnosticWith(t.app, {
      subjectTestIds: [testMath, testRus],
      schoolIds: [orgA.schoolId, orgB.schoolId],
      createdByRole: 'admin',
    })
  ).diagnosticId;
  byUgnik = (
    await createDiagnosticWith(t.app, {
      subjectTestIds: [testRus],
      schoolIds: [orgB.schoolId],
      createdBy: ugnik.id,
      createdByRole: 'ugnik',
      kind: 'inspection',
      startsAt: new Date(now + 30 * DAY),
      endsAt: new Date(now + 31 * DAY),
    })
  ).diagnosticId;
  byCoordinator = (
    await createDiagnosticWith(t.app, {
      subjectTestIds: [testMath],
      schoolIds: [orgA.schoolId],
      createdByRole: 'coordinator',
      startsAt: new Date(now - 30 * DAY),
      endsAt: new Date(now - 29 * DAY),
    })
  ).diagnosticId;
  await t.app.ctx.db
    .update(diagnostics)
    .set({ resultsPublished: true, publishedAt: new Date() })
    .where(eq(diagnostics.id, byCoordinator));
  await register(orgA, byAdmin, testMath, 'finished');
  await register(orgB, byAdmin, testRus, 'scored');
  await register(orgB, byAdmin, testMath, 'in_progress');
  await register(orgA, byAdmin, testRus);
});
afterAll(async () => t.close());

describe('POST /api/admin/diagnostics/list', () => {
  it('lists every diagnostic, newest first, with subject tests and counts', async () => {
    const res = await list({ page: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(3);
    expect(ids(res)).toEqual([byUgnik, byAdmin, byCoordinator]);
    const row = res.json().items[1];
    expect(row).toMatchObject({
      id: byAdmin,
      kind: 'diagnostic',
      createdByRole: 'admin',
      status: 'running',
      resultsPublished: false,
      publishedAt: null,
      subjectTests: [
        { id: testMath, name: 'Математика 7' },
        { id: testRus, name: 'Русский язык 7' },
      ],
      schoolCount: 2,
      participantTestCount: 4,
      finishedWorkCount: 2,
    });
    expect(res.json().items[0]).toMatchObject({ status: 'planned', createdByLogin: expect.any(String) });
    expect(res.json().items[2]).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
  });

  it('filters by dates, subject test, school, kind, creator role, status and text; sorts and pages', async () => {
    expect(ids(await list({ page: 1, filter: { dateFrom: isoDate(20) } }))).toEqual([byUgnik]);
    expect(ids(await list({ page: 1, filter: { dateTo: isoDate(-20) } }))).toEqual([byCoordinator]);
    expect(ids(await list({ page: 1, filter: { dateFrom: isoDate(), dateTo: isoDate() } }))).toEqual([
      byAdmin,
    ]);
    expect(ids(await list({ page: 1, filter: { subjectTestId: testMath } }))).toEqual([
      byAdmin,
      byCoordinator,
    ]);
    expect(ids(await list({ page: 1, filter: { schoolId: orgB.schoolId } }))).toEqual([byUgnik, byAdmin]);
    expect(ids(await list({ page: 1, filter: { kind: 'inspection' } }))).toEqual([byUgnik]);
    expect(ids(await list({ page: 1, filter: { createdByRole: 'coordinator' } }))).toEqual([byCoordinator]);
    expect(ids(await list({ page: 1, filter: { status: 'published' } }))).toEqual([byCoordinator]);
    expect(ids(await list({ page: 1, filter: { status: 'running' } }))).toEqual([byAdmin]);
    const { code } = (await t.app.ctx.db.select().from(diagnostics).where(eq(diagnostics.id, byUgnik)))[0]!;
    expect(ids(await list({ page: 1, filter: { search: code.toLowerCase() } }))).toEqual([byUgnik]);

    expect(ids(await list({ page: 1, sort: { field: 'participantTestCount', dir: 'desc' } }))[0]).toBe(
      byAdmin,
    );
    expect(ids(await list({ page: 1, sort: { field: 'startsAt', dir: 'asc' } }))).toEqual([
      byCoordinator,
      byAdmin,
      byUgnik,
    ]);
    const page2 = await list({ page: 2, pageSize: 2 });
    expect([page2.json().total, ids(page2)]).toEqual([3, [byCoordinator]]);
  });

  it('leaves deleted diagnostics out and refuses bad filters (400)', async () => {
    const gone = await createDiagnosticWith(t.app, { subjectTestIds: [testMath] });
    await t.app.ctx.db
      .update(diagnostics)
      .set({ deletedAt: new Date() })
      .where(eq(diagnostics.id, gone.diagnosticId));
    expect(ids(await list({ page: 1 }))).not.toContain(gone.diagnosticId);
    for (const body of [
      { page: 1, filter: { dateFrom: '01.02.2026' } },
      { page: 1, filter: { kind: 'exam' } },
      { page: 1, filter: { createdByRole: 'participant' } },
      { page: 1, filter: { status: 'open' } },
      { page: 1, sort: { field: 'createdBy', dir: 'asc' } },
      { page: 1, pageSize: 501 },
    ]) {
      const res = await list(body);
      expect([body, res.statusCode, res.json().code]).toEqual([body, 400, 'validation_failed']);
    }
  });
});

describe('GET /api/admin/diagnostics/{id}', () => {
  it('shows one diagnostic with its schools and their counts; 404 for unknown or deleted', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/diagnostics/${byAdmin}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: byAdmin, schoolCount: 2, participantTestCount: 4 });
    expect(res.json().schools).toEqual([
      expect.objectContaining({
        id: orgA.schoolId,
        name: 'Школа А',
        participantTestCount: 2,
        finishedWorkCount: 1,
      }),
      expect.objectContaining({
        id: orgB.schoolId,
        name: 'Школа Б',
        participantTestCount: 2,
        finishedWorkCount: 1,
      }),
    ]);
    expect(res.json().schools[0].ooName).toBe('ОО Школа А');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/admin/diagnostics/999999',
      headers: admin.headers,
    });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'not_found']);
  });
});
