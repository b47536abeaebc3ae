import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createDiagnosticFor,
  createSchoolWithStaff,
  createTestApp,
  guardResults,
  isoDate,
  signedIn,
  type DiagnosticFixture,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let admin: Session;
let organizator: Session;
let d: DiagnosticFixture;

const create = (session: Session, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/ParticipantTest/participantTestCreateImpersonal',
    headers: session.headers,
    payload,
  });

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  organizator = a.organizator.session;
  d = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId, b.schoolId] });
});
afterAll(async () => t.close());

describe('POST /api/ParticipantTest/participantTestCreateImpersonal', () => {
  it('guards: 401, 403 role (organizator), 403 csrf', async () => {
    const r = await guardResults(
      t.app,
      {
        method: 'POST',
        url: '/api/ParticipantTest/participantTestCreateImpersonal',
        payload: { ...d, testDate: isoDate(), count: 1 },
      },
      { allowed: a.coordinator.session, wrongRole: organizator },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
  });

  it('creates N anonymous participant tests with unique codes in the coordinator’s school', async () => {
    const res = await create(a.coordinator.session, {
      ...d,
      testDate: isoDate(),
      count: 3,
      classId: a.classId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { participantTestId: number; activationCode: string }[];
    expect(items).toHaveLength(3);
    expect(new Set(items.map((i) => i.activationCode)).size).toBe(3);
    const rows = await t.database.query<{
      is_impersonal: boolean;
      student_id: null;
      school_id: number;
      building_id: number;
    }>(
      `select is_impersonal, student_id, school_id, building_id from participant_tests where id = any($1::int[])`,
      [items.map((i) => i.participantTestId)],
    );
    expect(rows).toEqual(
      Array(3).fill({
        is_impersonal: true,
        student_id: null,
        school_id: a.schoolId,
        building_id: a.buildingId,
      }),
    );
    expect(await countRows(t.database, 'audit_events', `action = 'participant_test.create_impersonal'`)).toBe(
      1,
    );
    // Without naming a school a coordinator gets their own; an admin names any.
    expect((await create(a.coordinator.session, { ...d, testDate: isoDate(), count: 1 })).statusCode).toBe(
      200,
    );
    expect(
      (await create(admin, { ...d, testDate: isoDate(), count: 2, schoolId: b.schoolId })).json().items,
    ).toHaveLength(2);
  });

  it('bad input and other schools change nothing', async () => {
    const before = await countRows(t.database, 'participant_tests');
    const base = { ...d, testDate: isoDate(), count: 2 };
    const bad: [Session, object, number][] = [
      [a.coordinator.session, { ...base, count: 0 }, 400],
      [a.coordinator.session, { ...base, count: 501 }, 400],
      [a.coordinator.session, { ...base, testDate: isoDate(30) }, 400],
      [a.coordinator.session, { ...base, subjectTestId: 99_999_999 }, 400],
      [a.coordinator.session, { ...base, diagnosticId: 99_999_999 }, 400],
      [a.coordinator.session, { ...base, classId: a.classId, buildingId: b.buildingId }, 400],
      [a.coordinator.session, { ...base, classId: 99_999_999 }, 400],
      [a.coordinator.session, { ...base, nope: true }, 400],
      [admin, base, 400],
      [a.coordinator.session, { ...base, classId: b.classId }, 403],
      [a.coordinator.session, { ...base, schoolId: b.schoolId }, 403],
    ];
    for (const [session, payload, status] of bad) {
      const res = await create(session, payload);
      expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), status]);
    }
    const outside = await createSchoolWithStaff(t.app);
    expect((await create(outside.coordinator.session, base)).statusCode).toBe(400);
    expect(await countRows(t.database, 'participant_tests')).toBe(before);
  });
});
