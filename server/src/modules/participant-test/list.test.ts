import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDiagnosticWith,
  createParticipantTest,
  createSchoolWithStaff,
  createSubjectTest,
  createTestApp,
  guardResults,
  isoDate,
  signedIn,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { insertParticipantTests } from '../../lib/participant-tests.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let admin: Session;
let ugnik: { user: { id: number }; session: Session };
let otherUgnik: Session;
const ids: Record<string, number> = {};

const list = (session: Session, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/ParticipantTest/list',
    headers: session.headers,
    payload: { page: 1, pageSize: 500, ...body },
  });
const idsOf = async (session: Session, body?: object) =>
  ((await list(session, body)).json() as { items: { id: number }[] }).items.map((i) => i.id);

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  ugnik = await signedIn(t.app, ['ugnik']);
  otherUgnik = (await signedIn(t.app, ['ugnik'])).session;
  ids.a7 = (await createParticipantTest(t.app, a)).participantTestId;
  ids.a8 = (await createParticipantTest(t.app, a, { studentId: a.otherStudentIds[0]! })).participantTestId;
  await t.database.query('update participant_tests set class_id = $1, building_id = $2 where id = $3', [
    a.otherClassId,
    a.otherBuildingId,
    ids.a8,
  ]);
  ids.b7 = (await createParticipantTest(t.app, b)).participantTestId;
  const test = await createSubjectTest(t.app);
  const d = await createDiagnosticWith(t.app, {
    subjectTestIds: [test],
    schoolIds: [b.schoolId],
    createdBy: ugnik.user.id,
    createdByRole: 'ugnik',
    kind: 'inspection',
  });
  const [inspected] = await t.app.ctx.db.transaction((tx) =>
    insertParticipantTests(tx, [
      {
        diagnosticId: d.diagnosticId,
        subjectTestId: test,
        studentId: b.studentIds[1]!,
        schoolId: b.schoolId,
        classId: b.classId,
        testDate: isoDate(),
      },
    ]),
  );
  ids.inspected = inspected!.id;
});
afterAll(async () => t.close());

describe('POST /api/ParticipantTest/list', () => {
  it('guards: 401, 403 role, 403 csrf', async () => {
    const guest = (await signedIn(t.app, ['guest'])).session;
    const r = await guardResults(
      t.app,
      { method: 'POST', url: '/api/ParticipantTest/list', payload: { page: 1 } },
      { allowed: a.coordinator.session, wrongRole: guest },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
  });

  it('is scoped: coordinator school, organizator rooms, ugnik own diagnostics, admin all', async () => {
    expect((await idsOf(a.coordinator.session)).sort()).toEqual([ids.a7, ids.a8].sort());
    expect(await idsOf(a.organizator.session)).toEqual([ids.a7]);
    expect((await idsOf(b.coordinator.session)).sort()).toEqual([ids.b7, ids.inspected].sort());
    expect(await idsOf(ugnik.session)).toEqual([ids.inspected]);
    expect(await idsOf(otherUgnik)).toEqual([]);
    expect(await idsOf(admin)).toEqual(expect.arrayContaining(Object.values(ids)));
    // A filter never widens the scope.
    expect(await idsOf(a.coordinator.session, { filter: { schoolId: b.schoolId } })).toEqual([]);
  });

  it('filters, searches, sorts and pages', async () => {
    expect(await idsOf(admin, { filter: { classId: a.otherClassId } })).toEqual([ids.a8]);
    expect(await idsOf(admin, { filter: { search: 'кузнецова' } })).toEqual([ids.a8]);
    const page = (
      await list(a.coordinator.session, { page: 2, pageSize: 1, sort: { field: 'id', dir: 'desc' } })
    ).json();
    expect(page).toMatchObject({ total: 2, items: [{ id: Math.min(ids.a7!, ids.a8!) }] });
    const item = (await list(a.coordinator.session, { filter: { classId: a.classId } })).json().items[0];
    expect(item).toMatchObject({
      participantName: 'Иванов Иван',
      className: '7 «А»',
      status: 'planned',
      examWorkStatus: null,
    });
    for (const bad of [
      { filter: { status: 'nope' } },
      { sort: { field: 'password' } },
      { pageSize: 501 },
      { x: 1 },
    ])
      expect((await list(admin, bad)).statusCode).toBe(400);
  });
});
