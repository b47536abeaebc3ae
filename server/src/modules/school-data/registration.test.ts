import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffParticipantTest, StaffParticipantTestRegisterResult } from '@attesta/contract';
import {
  createDiagnosticFor,
  createExamWork,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  isoDate,
  sessionFor,
  type DiagnosticFixture,
  type SchoolWithStaff,
  type TestApp,
} from '../../../test/helpers.js';

/** participantTest/save and participantTest/list, shared by coordinator and organizator. */

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let d: DiagnosticFixture;
const today = isoDate();

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  d = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId, b.schoolId], testParallels: [7] });
});
afterAll(async () => t.close());

const save = (headers: Record<string, string>, role: 'coordinator' | 'organizator', payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/${role}/participantTest/save`,
    headers,
    payload: payload as object,
  });
const asCoordinator = (payload: unknown) => save(a.coordinator.session.headers, 'coordinator', payload);
const asOrganizator = (payload: unknown) => save(a.organizator.session.headers, 'organizator', payload);
const ptCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from participant_tests'))[0]!.n;
const auditCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from audit_events'))[0]!.n;

describe('participantTest/save: registration', () => {
  it('registers a class with unique codes; a second call creates nothing (idempotent)', async () => {
    const first = await asCoordinator({
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: today,
      classIds: [a.classId],
    });
    expect(first.statusCode).toBe(200);
    const body = first.json<StaffParticipantTestRegisterResult>();
    expect(body.created).toBe(a.studentIds.length);
    expect(body.skipped).toBe(0);
    expect(body.items.map((p) => p.studentId).sort()).toEqual([...a.studentIds].sort());
    for (const p of body.items) {
      expect(p).toMatchObject({
        status: 'planned',
        testDate: today,
        classId: a.classId,
        buildingId: a.buildingId,
        diagnosticId: d.diagnosticId,
        examWork: null,
      });
      expect(p.activationCode).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
      expect(p.registrationCode).toMatch(/^\d{12}$/);
    }
    expect(new Set(body.items.map((p) => p.activationCode)).size).toBe(body.items.length);
    expect(new Set(body.items.map((p) => p.registrationCode)).size).toBe(body.items.length);

    const before = await ptCount();
    const again = await asCoordinator({
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: today,
      studentIds: [a.studentIds[0], a.studentIds[1]],
    });
    expect(again.json()).toMatchObject({ created: 0, skipped: 2, items: [] });
    // The organizator of the class repeating it changes nothing either.
    const byOrganizator = await asOrganizator({
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: today,
      classIds: [a.classId],
    });
    expect(byOrganizator.json()).toMatchObject({ created: 0, skipped: 3 });
    expect(await ptCount()).toBe(before);
    const dupes = await t.database.query(
      `select student_id from participant_tests where diagnostic_id = $1 and subject_test_id = $2 and deleted_at is null
       group by student_id having count(*) > 1`,
      [d.diagnosticId, d.subjectTestId],
    );
    expect(dupes).toEqual([]);
    const [event] = await t.database.query<{ details: { created: number } }>(
      "select details from audit_events where action = 'participant_test.register' and entity_id = $1 order by id limit 1",
      [String(d.diagnosticId)],
    );
    expect(event!.details.created).toBe(3);
  });

  it('concurrent registrations of the same students create each participant test once', async () => {
    const d2 = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId], testParallels: [7] });
    const body = {
      diagnosticId: d2.diagnosticId,
      subjectTestId: d2.subjectTestId,
      testDate: today,
      classIds: [a.classId],
    };
    const results = await Promise.all([asCoordinator(body), asCoordinator(body), asOrganizator(body)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.reduce((n, r) => n + r.json<StaffParticipantTestRegisterResult>().created, 0)).toBe(3);
    const [row] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from participant_tests where diagnostic_id = $1',
      [d2.diagnosticId],
    );
    expect(row!.n).toBe(3);
  });

  it('refuses students of a grade the subject test is not for: 400 with one error per student, nothing created', async () => {
    const before = { pts: await ptCount(), audit: await auditCount() };
    const res = await asCoordinator({
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: today,
      studentIds: [...a.otherStudentIds, a.studentIds[0]],
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      a.otherStudentIds.map((id) => `students.${id}`).sort(),
    );
    expect(body.errors[0].message).toMatch(/grade 8/);
    expect({ pts: await ptCount(), audit: await auditCount() }).toEqual(before);
  });

  it('checks the diagnostic, subject test, date window and scope (403/404/400), changing nothing', async () => {
    const before = { pts: await ptCount(), audit: await auditCount() };
    const notMine = await createDiagnosticFor(t.app, { schoolIds: [b.schoolId] });
    const base = { diagnosticId: d.diagnosticId, subjectTestId: d.subjectTestId, testDate: today };
    const cases: [unknown, number][] = [
      [
        {
          ...base,
          diagnosticId: notMine.diagnosticId,
          subjectTestId: notMine.subjectTestId,
          studentIds: [a.studentIds[0]],
        },
        403,
      ],
      [{ ...base, diagnosticId: 2_000_000_000, studentIds: [a.studentIds[0]] }, 404],
      [{ ...base, subjectTestId: notMine.subjectTestId, studentIds: [a.studentIds[0]] }, 400],
      [{ ...base, testDate: isoDate(30), studentIds: [a.studentIds[0]] }, 400],
      [{ ...base, studentIds: [b.studentIds[0]] }, 403],
      [{ ...base, classIds: [b.classId] }, 403],
      [{ ...base, studentIds: [2_000_000_000] }, 400],
      [{ ...base, classIds: [2_000_000_000] }, 400],
      [{ ...base, studentIds: [a.studentIds[0]], classIds: [a.classId] }, 400],
      [{ ...base }, 400],
      [{ ...base, studentIds: [a.studentIds[0]], buildingId: b.buildingId }, 403],
    ];
    for (const [payload, status] of cases) {
      const res = await asCoordinator(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
    }
    // The organizator may not register the class it is not assigned to (8 «Б»), even of its school.
    const d8 = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId], testParallels: [8] });
    const res = await asOrganizator({
      diagnosticId: d8.diagnosticId,
      subjectTestId: d8.subjectTestId,
      testDate: today,
      classIds: [a.otherClassId],
    });
    expect(res.statusCode).toBe(403);
    expect({ pts: await ptCount(), audit: await auditCount() }).toEqual(before);
  });
});

describe('participantTest/save: update', () => {
  it('marks absent (sessions end) and back to planned, moves the room; 409 once started; audited', async () => {
    const d3 = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId], testParallels: [7, 8] });
    const reg = (
      await asCoordinator({
        diagnosticId: d3.diagnosticId,
        subjectTestId: d3.subjectTestId,
        testDate: today,
        studentIds: [a.studentIds[0], a.studentIds[1]],
      })
    ).json<StaffParticipantTestRegisterResult>();
    const [p1, p2] = reg.items as [StaffParticipantTest, StaffParticipantTest];
    const participant = await sessionFor(t.app, a.organizator.user.id, {
      participantTestId: p1.id,
      activationCode: p1.activationCode,
    });

    const absent = await asOrganizator({ id: p1.id, status: 'absent' });
    expect(absent.statusCode).toBe(200);
    expect(absent.json()).toMatchObject({ id: p1.id, status: 'absent' });
    const [live] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from sessions where id = encode(sha256(convert_to($1, 'UTF8')), 'hex') and revoked_at is null",
      [participant.token],
    );
    expect(live!.n).toBe(0);
    const back = await asCoordinator({
      id: p1.id,
      status: 'planned',
      testDate: isoDate(1),
      classId: a.otherClassId,
    });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({
      status: 'planned',
      testDate: isoDate(1),
      classId: a.otherClassId,
      buildingId: a.otherBuildingId,
    });
    // The organizator of 7 «А» no longer reaches it once it moved to 8 «Б».
    expect((await asOrganizator({ id: p1.id, status: 'absent' })).statusCode).toBe(403);

    const variant = await createVariantWithTasks(t.app, d3.subjectTestId, [{ answerType: 'short_text' }]);
    await createExamWork(t.app, p2.id, variant.variantId);
    const before = {
      pts: await t.database.query('select * from participant_tests order by id'),
      audit: await auditCount(),
    };
    const started = await asCoordinator({ id: p2.id, status: 'absent' });
    expect(started.statusCode).toBe(409);
    expect(started.json().code).toBe('participant_test_started');
    expect((await asCoordinator({ id: p2.id, testDate: isoDate(60) })).statusCode).toBe(409);
    expect((await asCoordinator({ id: p1.id, testDate: isoDate(60) })).statusCode).toBe(400);
    expect((await asCoordinator({ id: p1.id, classId: b.classId })).statusCode).toBe(403);
    expect((await asCoordinator({ id: p1.id, status: 'finished' })).statusCode).toBe(400);
    expect((await asCoordinator({ id: 2_000_000_000, status: 'absent' })).statusCode).toBe(404);
    expect(
      (await save(b.coordinator.session.headers, 'coordinator', { id: p1.id, status: 'absent' })).statusCode,
    ).toBe(403);
    expect({
      pts: await t.database.query('select * from participant_tests order by id'),
      audit: await auditCount(),
    }).toEqual(before);
    const events = await t.database.query<{ action: string }>(
      "select action from audit_events where entity = 'participant_test' and entity_id = $1 order by id",
      [String(p1.id)],
    );
    expect(events.map((e) => e.action)).toEqual(['participant_test.update', 'participant_test.update']);
  });
});

describe('participantTest/list and GET: live state', () => {
  it('shows codes and the live exam work (status, times, answered count), filtered and scoped', async () => {
    const d4 = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId, b.schoolId], testParallels: [7] });
    const reg = (
      await asCoordinator({
        diagnosticId: d4.diagnosticId,
        subjectTestId: d4.subjectTestId,
        testDate: today,
        classIds: [a.classId],
      })
    ).json<StaffParticipantTestRegisterResult>();
    await save(b.coordinator.session.headers, 'coordinator', {
      diagnosticId: d4.diagnosticId,
      subjectTestId: d4.subjectTestId,
      testDate: today,
      classIds: [b.classId],
    });
    const target = reg.items.find((p) => p.surname === 'Петрова')!;
    const variant = await createVariantWithTasks(t.app, d4.subjectTestId, [
      { answerType: 'short_text' },
      { answerType: 'short_text' },
    ]);
    const workId = await createExamWork(t.app, target.id, variant.variantId);
    await t.database.query(
      'insert into answers (exam_work_id, variant_task_id, value, seq) values ($1, $2, \'"да"\', 1)',
      [workId, variant.variantTaskIds[0]],
    );
    await t.database.query("update participant_tests set status = 'in_progress' where id = $1", [target.id]);

    const list = (role: 'coordinator' | 'organizator', headers: Record<string, string>, filter: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/${role}/participantTest/list`,
        headers,
        payload: { page: 1, pageSize: 50, filter, sort: [{ field: 'surname', dir: 'asc' }] },
      });
    const res = await list('coordinator', a.coordinator.session.headers, { diagnosticId: d4.diagnosticId });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ items: StaffParticipantTest[]; total: number }>();
    expect(body.total).toBe(3);
    expect(body.items.map((p) => p.surname)).toEqual(['Иванов', 'Петрова', 'Сидоров']);
    expect(body.items[1]).toMatchObject({
      status: 'in_progress',
      examWork: { id: workId, status: 'in_progress', answeredCount: 1, finishedAt: null },
    });
    const organizatorView = await list('organizator', a.organizator.session.headers, {
      diagnosticId: d4.diagnosticId,
      search: 'петр',
      status: 'in_progress',
    });
    expect(organizatorView.json()).toMatchObject({
      total: 1,
      items: [{ id: target.id, activationCode: target.activationCode }],
    });
    // The other school's organizator sees nothing of school A.
    const other = await list('organizator', b.organizator.session.headers, { diagnosticId: d4.diagnosticId });
    expect(other.json<{ items: StaffParticipantTest[] }>().items.every((p) => p.classId === b.classId)).toBe(
      true,
    );

    const one = await t.app.inject({
      method: 'GET',
      url: `/api/coordinator/participantTest/${target.id}`,
      headers: a.coordinator.session.headers,
    });
    expect(one.json()).toMatchObject({ id: target.id, examWork: { answeredCount: 1 } });
  });
});
