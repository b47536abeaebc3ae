import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createExamWork,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  guardResults,
  isoDate,
  signedIn,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let admin: Session;
let expert: Session;

const get = (session: Session, id: number) =>
  t.app.inject({ method: 'GET', url: `/api/ParticipantTest/info/${id}`, headers: session.headers });
const put = (session: Session, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/ParticipantTest/info', headers: session.headers, payload });

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  expert = (await signedIn(t.app, ['expert'])).session;
});
afterAll(async () => t.close());

describe('GET /api/ParticipantTest/info/{id}', () => {
  it('guards: 401, 403 role; no csrf needed to read', async () => {
    const pt = await createParticipantTest(t.app, a);
    const r = await guardResults(
      t.app,
      { method: 'GET', url: `/api/ParticipantTest/info/${pt.participantTestId}` },
      { allowed: a.coordinator.session, wrongRole: expert },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 200 });
  });

  it('answers the card in scope; 403 outside it, 404 for unknown ids', async () => {
    const pt = await createParticipantTest(t.app, a);
    const variant = await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'short_text' }]);
    const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId);
    const res = await get(a.coordinator.session, pt.participantTestId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: pt.participantTestId,
      student: { id: a.studentIds[0], surname: 'Иванов' },
      school: { id: a.schoolId },
      class: { id: a.classId, name: '7 «А»' },
      building: { id: a.buildingId },
      testDate: isoDate(),
      status: 'planned',
      activationCode: pt.activationCode,
      examWork: { id: workId, status: 'in_progress', deviceBound: false, answerCount: 0 },
      deletedExamWorks: [],
    });
    expect((await get(a.organizator.session, pt.participantTestId)).statusCode).toBe(200);
    expect((await get(admin, pt.participantTestId)).statusCode).toBe(200);
    expect((await get(b.coordinator.session, pt.participantTestId)).statusCode).toBe(403);
    expect((await get(b.organizator.session, pt.participantTestId)).statusCode).toBe(403);
    const other = await createParticipantTest(t.app, a, { studentId: a.otherStudentIds[0]! });
    await t.database.query('update participant_tests set class_id = $1, building_id = $2 where id = $3', [
      a.otherClassId,
      a.otherBuildingId,
      other.participantTestId,
    ]);
    expect((await get(a.organizator.session, other.participantTestId)).statusCode).toBe(403);
    expect((await get(admin, 99_999_999)).statusCode).toBe(404);
    expect((await get(admin, 0)).statusCode).toBe(400);
  });
});

describe('PUT /api/ParticipantTest/info', () => {
  it('guards: 401, 403 role, 403 csrf', async () => {
    const pt = await createParticipantTest(t.app, a);
    const r = await guardResults(
      t.app,
      {
        method: 'PUT',
        url: '/api/ParticipantTest/info',
        payload: { id: pt.participantTestId, testDate: isoDate(1) },
      },
      { allowed: a.coordinator.session, wrongRole: expert },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    expect((await get(admin, pt.participantTestId)).json().testDate).toBe(isoDate());
  });

  it('updates date, class, building and status with a reason, audited', async () => {
    const pt = await createParticipantTest(t.app, a);
    const res = await put(a.coordinator.session, {
      id: pt.participantTestId,
      testDate: isoDate(1),
      classId: a.otherClassId,
      buildingId: a.otherBuildingId,
      status: 'absent',
      reason: 'Болеет',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      testDate: isoDate(1),
      class: { id: a.otherClassId },
      building: { id: a.otherBuildingId },
      status: 'absent',
    });
    const [event] = await t.database.query<{ reason: string; details: { changes: Record<string, unknown> } }>(
      `select reason, details from audit_events where action = 'participant_test.update' and entity_id = $1`,
      [String(pt.participantTestId)],
    );
    expect(event!.reason).toBe('Болеет');
    expect(Object.keys(event!.details.changes).sort()).toEqual([
      'buildingId',
      'classId',
      'status',
      'testDate',
    ]);
  });

  it('bad input changes nothing; 409 with a live work; scope holds for the target room', async () => {
    const pt = await createParticipantTest(t.app, a);
    const id = pt.participantTestId;
    const before = JSON.stringify((await get(admin, id)).json());
    const bad = [
      { id, classId: b.classId },
      { id, buildingId: b.buildingId },
      { id, testDate: isoDate(30) },
      { id, status: 'absent' },
      { id, status: 'finished', reason: 'x' },
      { id, extra: 1 },
      { id, testDate: '2026-13-01' },
    ];
    for (const payload of bad) {
      const res = await put(a.coordinator.session, payload);
      expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), 400]);
    }
    expect(JSON.stringify((await get(admin, id)).json())).toBe(before);
    expect((await put(b.coordinator.session, { id, testDate: isoDate(1) })).statusCode).toBe(403);
    // The organizator of 7 «А» may not move the participant into a room they do not conduct.
    const moved = await put(a.organizator.session, { id, classId: a.otherClassId });
    expect(moved.statusCode).toBe(403);
    expect(await countRows(t.database, 'audit_events', `entity_id = '${id}'`)).toBe(0);

    const variant = await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'short_text' }]);
    await createExamWork(t.app, id, variant.variantId);
    const absent = await put(a.coordinator.session, { id, status: 'absent', reason: 'нет' });
    expect([absent.statusCode, absent.json().code]).toEqual([409, 'has_exam_work']);
    const annulled = await put(a.coordinator.session, { id, status: 'annulled', reason: 'Списывание' });
    expect([annulled.statusCode, annulled.json().status]).toEqual([200, 'annulled']);
  });
});
