import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffOrganizator, StaffOrganizatorSaveResult, StaffStudent } from '@attesta/contract';
import { verifyPassword } from '../../lib/password.js';
import {
  createDiagnosticFor,
  createExamWork,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createUser,
  createVariantWithTasks,
  createWorkerTest,
  sessionFor,
  signedIn,
  unique,
  type SchoolWithStaff,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const asA = (method: Method, url: string, payload?: unknown) =>
  call(method, url, a.coordinator.session.headers, payload);

/** Everything a failed call must leave untouched. */
const snapshot = async () => ({
  students: await t.database.query('select * from students order by id'),
  pts: await t.database.query('select * from participant_tests order by id'),
  users: await t.database.query('select id, login, is_blocked, password_hash from users order by id'),
  assignments: await t.database.query('select * from organizator_assignments order by id'),
  workers: await t.database.query('select * from workers order by id'),
  audit: await t.database.query('select count(*)::int as n from audit_events'),
});

const list = { page: 1, pageSize: 50 };
/** Every coordinator call with a valid request (ids filled in lazily). */
const CALLS: [Method, () => string, () => unknown][] = [
  ['GET', () => `/api/coordinator/student/${a.studentIds[0]}`, () => undefined],
  ['DELETE', () => `/api/coordinator/student/${a.studentIds[2]}`, () => undefined],
  [
    'POST',
    () => '/api/coordinator/student',
    () => ({ surname: 'Новиков', name: 'Игорь', birthDate: '2012-03-04', classId: a.classId }),
  ],
  ['POST', () => '/api/coordinator/student/list', () => list],
  ['POST', () => '/api/coordinator/buildings/list', () => list],
  ['POST', () => '/api/coordinator/class/list', () => list],
  ['POST', () => '/api/coordinator/parallel/list', () => list],
  ['POST', () => '/api/coordinator/diagnostic/list', () => list],
  ['POST', () => '/api/coordinator/diagnostic/byParam', () => ({})],
  ['POST', () => `/api/coordinator/organizator/${a.organizator.user.id}`, () => ({ blocked: false })],
  ['POST', () => '/api/coordinator/organizator/list', () => list],
  [
    'POST',
    () => '/api/coordinator/organizator',
    () => ({ login: unique('org'), surname: 'Орлова', name: 'Ольга', classIds: [a.classId] }),
  ],
  ['GET', () => '/api/coordinator/organizator/report/workerTest', () => undefined],
  ['GET', () => `/api/coordinator/participantTest/1`, () => undefined],
  ['POST', () => '/api/coordinator/participantTest/list', () => list],
  [
    'POST',
    () => '/api/coordinator/participantTest/save',
    () => ({ diagnosticId: 1, subjectTestId: 1, testDate: '2030-01-01', studentIds: [a.studentIds[0]] }),
  ],
];
const NAMES = [
  'GET student/{id}',
  'DELETE student/{id}',
  'POST student',
  'POST student/list',
  'POST buildings/list',
  'POST class/list',
  'POST parallel/list',
  'POST diagnostic/list',
  'POST diagnostic/byParam',
  'POST organizator/{id}',
  'POST organizator/list',
  'POST organizator',
  'GET organizator/report/workerTest',
  'GET participantTest/{id}',
  'POST participantTest/list',
  'POST participantTest/save',
];
const rows = CALLS.map(([m, url, body], i) => ({ m, url, body, name: NAMES[i]! }));

describe('coordinator calls: access', () => {
  it.each(rows)('$name answers 401 without a session', async ({ m, url, body }) => {
    const res = await call(m, url(), { 'x-requested-with': 'XMLHttpRequest' }, body());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it.each(rows)('$name answers 403 to other roles (organizator, admin)', async ({ m, url, body }) => {
    for (const session of [a.organizator.session, (await signedIn(t.app, ['admin', 'expert'])).session]) {
      const before = await snapshot();
      const res = await call(m, url(), session.headers, body());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
      expect(await snapshot()).toEqual(before);
    }
  });

  it.each(rows.filter((r) => r.m !== 'GET'))(
    '$name answers 403 csrf to a cookie without X-Requested-With',
    async ({ m, url, body }) => {
      const before = await snapshot();
      const res = await call(m, url(), { cookie: a.coordinator.session.cookie }, body());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'csrf' });
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(rows)('$name answers 403 to a coordinator without a school', async ({ m, url, body }) => {
    const { session } = await signedIn(t.app, ['coordinator']);
    const before = await snapshot();
    const res = await call(m, url(), session.headers, body());
    expect(res.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it.each(rows.filter((r) => r.m === 'POST'))(
    '$name refuses bad input (400) and changes nothing',
    async ({ url }) => {
      const before = await snapshot();
      const malformed = await t.app.inject({
        method: 'POST',
        url: url(),
        headers: { ...a.coordinator.session.headers, 'content-type': 'application/json' },
        payload: '{"page": 1,',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ code: 'malformed_json' });
      for (const bad of [{ page: 'one' }, { unknownField: 1 }, { id: -1, surname: 5 }, []]) {
        const res = await asA('POST', url(), bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each([
    '/api/coordinator/student/0',
    '/api/coordinator/student/abc',
    '/api/coordinator/participantTest/1.5',
  ])('GET %s answers 400 for a malformed id', async (url) => {
    expect((await asA('GET', url)).statusCode).toBe(400);
  });
});

describe('coordinator: students', () => {
  it("reads own school's student; 403 for school B's; 404 for an id that does not exist", async () => {
    const own = await asA('GET', `/api/coordinator/student/${a.studentIds[0]}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      id: a.studentIds[0],
      surname: 'Иванов',
      schoolId: a.schoolId,
      classId: a.classId,
      className: '7 «А»',
      parallel: 7,
      buildingId: a.buildingId,
    });
    expect((await asA('GET', `/api/coordinator/student/${b.studentIds[0]}`)).statusCode).toBe(403);
    expect((await asA('GET', '/api/coordinator/student/2000000000')).statusCode).toBe(404);
    expect((await asA('DELETE', `/api/coordinator/student/${b.studentIds[0]}`)).statusCode).toBe(403);
  });

  it('creates and updates a student of own school, audited; refuses other schools and bad dates', async () => {
    const created = await asA('POST', '/api/coordinator/student', {
      surname: ' Новикова ',
      name: 'Ирина',
      patronymic: 'Петровна',
      birthDate: '2012-05-06',
      gender: 'female',
      classId: a.otherClassId,
    });
    expect(created.statusCode).toBe(200);
    const s = created.json<StaffStudent>();
    expect(s).toMatchObject({
      surname: 'Новикова',
      gender: 'female',
      classId: a.otherClassId,
      parallel: 8,
      buildingId: a.otherBuildingId,
      schoolId: a.schoolId,
    });

    const updated = await asA('POST', '/api/coordinator/student', {
      id: s.id,
      surname: 'Новикова',
      name: 'Ирина',
      birthDate: '2012-05-07',
      classId: a.classId,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      id: s.id,
      birthDate: '2012-05-07',
      classId: a.classId,
      patronymic: 'Петровна',
    });
    const events = await t.database.query<{ action: string; details: { changes?: Record<string, unknown> } }>(
      "select action, details from audit_events where entity = 'student' and entity_id = $1 order by id",
      [String(s.id)],
    );
    expect(events.map((e) => e.action)).toEqual(['student.create', 'student.update']);
    expect(Object.keys(events[1]!.details.changes!).sort()).toEqual(['birthDate', 'classId']);

    const before = await snapshot();
    const other = await asA('POST', '/api/coordinator/student', {
      surname: 'Чужой',
      name: 'Класс',
      birthDate: '2012-01-01',
      classId: b.classId,
    });
    expect(other.statusCode).toBe(403);
    const moveOther = await asA('POST', '/api/coordinator/student', {
      id: b.studentIds[0],
      surname: 'Иванов',
      name: 'Иван',
      birthDate: '2012-01-01',
      classId: a.classId,
    });
    expect(moveOther.statusCode).toBe(403);
    const noClass = await asA('POST', '/api/coordinator/student', {
      surname: 'Нет',
      name: 'Класса',
      birthDate: '2012-01-01',
      classId: 2_000_000_000,
    });
    expect(noClass.statusCode).toBe(400);
    expect(noClass.json().errors[0].path).toBe('body.classId');
    for (const birthDate of ['2099-01-01', '2012-02-30', '12.05.2012']) {
      const res = await asA('POST', '/api/coordinator/student', {
        surname: 'А',
        name: 'Б',
        birthDate,
        classId: a.classId,
      });
      expect(res.statusCode, birthDate).toBe(400);
    }
    const unknownId = await asA('POST', '/api/coordinator/student', {
      id: 2_000_000_000,
      surname: 'А',
      name: 'Б',
      birthDate: '2012-01-01',
      classId: a.classId,
    });
    expect(unknownId.statusCode).toBe(404);
    const twin = await asA('POST', '/api/coordinator/student', {
      surname: 'новикова',
      name: 'Ирина',
      patronymic: 'Петровна',
      birthDate: '2012-05-07',
      classId: a.classId,
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().code).toBe('duplicate_student');
    expect(await snapshot()).toEqual(before);
  });

  it('lists students of own school only, paged, filtered and sorted', async () => {
    const res = await asA('POST', '/api/coordinator/student/list', {
      page: 1,
      pageSize: 2,
      sort: { field: 'surname', dir: 'asc' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ items: StaffStudent[]; total: number }>();
    const all = await t.database.query<{ n: number }>(
      'select count(*)::int as n from students where school_id = $1 and deleted_at is null',
      [a.schoolId],
    );
    expect(body.total).toBe(all[0]!.n);
    expect(body.items).toHaveLength(2);
    expect(body.items.every((s) => s.schoolId === a.schoolId)).toBe(true);
    const surnames = body.items.map((s) => s.surname);
    expect([...surnames].sort((x, y) => x.localeCompare(y))).toEqual(surnames);

    const filtered = await asA('POST', '/api/coordinator/student/list', {
      page: 1,
      pageSize: 50,
      filter: { parallel: 8, buildingId: a.otherBuildingId, search: 'кузн' },
    });
    expect(filtered.json()).toMatchObject({ total: 1, items: [{ surname: 'Кузнецова', parallel: 8 }] });
    const other = await asA('POST', '/api/coordinator/student/list', {
      ...list,
      filter: { classId: b.classId },
    });
    expect(other.json()).toEqual({ items: [], total: 0 });
    const badSort = await asA('POST', '/api/coordinator/student/list', {
      ...list,
      sort: { field: 'password' },
    });
    expect(badSort.statusCode).toBe(400);
  });

  it('deletes softly, drops unstarted registrations and refuses (409) while a work is in progress', async () => {
    const [id] = (
      await t.database.query<{ id: number }>(
        "insert into students (school_id, class_id, surname, name) values ($1, $2, 'Удаляев', 'Иван') returning id",
        [a.schoolId, a.classId],
      )
    ).map((r) => r.id);
    const planned = await createParticipantTest(t.app, a, { studentId: id });
    const busy = await createParticipantTest(t.app, a, { studentId: id, status: 'in_progress' });
    const variant = await createVariantWithTasks(t.app, busy.subjectTestId, [{ answerType: 'short_text' }]);
    const workId = await createExamWork(t.app, busy.participantTestId, variant.variantId);

    const before = await snapshot();
    const refused = await asA('DELETE', `/api/coordinator/student/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('work_in_progress');
    expect(await snapshot()).toEqual(before);

    await t.database.query("update exam_works set status = 'finished', finished_at = now() where id = $1", [
      workId,
    ]);
    const deleted = await asA('DELETE', `/api/coordinator/student/${id}`);
    expect(deleted.statusCode).toBe(200);
    const [st] = await t.database.query<{ deleted_at: Date | null }>(
      'select deleted_at from students where id = $1',
      [id],
    );
    expect(st!.deleted_at).not.toBeNull();
    const pts = await t.database.query<{ id: number; deleted_at: Date | null }>(
      'select id, deleted_at from participant_tests where student_id = $1 order by id',
      [id],
    );
    expect(pts.find((p) => p.id === planned.participantTestId)!.deleted_at).not.toBeNull();
    expect(pts.find((p) => p.id === busy.participantTestId)!.deleted_at).toBeNull();
    expect((await asA('GET', `/api/coordinator/student/${id}`)).statusCode).toBe(404);
    expect((await asA('DELETE', `/api/coordinator/student/${id}`)).statusCode).toBe(404);
    const [ev] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from audit_events where action = 'student.delete' and entity_id = $1",
      [String(id)],
    );
    expect(ev!.n).toBe(1);
  });
});

describe('coordinator: buildings, classes, parallels, diagnostics', () => {
  it('lists buildings, classes (with student counts) and parallels of own school only', async () => {
    const buildings = (await asA('POST', '/api/coordinator/buildings/list', list)).json();
    expect(buildings.total).toBe(2);
    expect(buildings.items.map((x: { id: number }) => x.id).sort()).toEqual(
      [a.buildingId, a.otherBuildingId].sort(),
    );
    const classes = (
      await asA('POST', '/api/coordinator/class/list', { ...list, sort: { field: 'name' } })
    ).json();
    expect(classes.items.map((c: { name: string }) => c.name)).toEqual(['7 «А»', '8 «Б»']);
    const counts = await t.database.query<{ class_id: number; n: number }>(
      'select class_id, count(*)::int as n from students where school_id = $1 and deleted_at is null group by class_id',
      [a.schoolId],
    );
    for (const c of classes.items as { id: number; studentCount: number }[])
      expect(c.studentCount).toBe(counts.find((x) => x.class_id === c.id)?.n ?? 0);
    const parallels = (await asA('POST', '/api/coordinator/parallel/list', list)).json();
    expect(parallels).toMatchObject({
      total: 2,
      items: [
        { id: 7, classCount: 1 },
        { id: 8, classCount: 1 },
      ],
    });
    const byBuilding = (
      await asA('POST', '/api/coordinator/class/list', { ...list, filter: { buildingId: b.buildingId } })
    ).json();
    expect(byBuilding.total).toBe(0);
  });

  it('lists diagnostics that include own school, with filters; byParam matches date, test and grade', async () => {
    const mine = await createDiagnosticFor(t.app, {
      schoolIds: [a.schoolId],
      testParallels: [7],
      name: 'Весенняя А',
    });
    const theirs = await createDiagnosticFor(t.app, { schoolIds: [b.schoolId], name: 'Весенняя Б' });
    const future = await createDiagnosticFor(t.app, {
      schoolIds: [a.schoolId],
      testParallels: [8],
      startsAt: new Date(Date.now() + 30 * 86_400_000),
      endsAt: new Date(Date.now() + 31 * 86_400_000),
    });
    const res = (await asA('POST', '/api/coordinator/diagnostic/list', list)).json();
    const ids = res.items.map((d: { id: number }) => d.id);
    expect(ids).toContain(mine.diagnosticId);
    expect(ids).toContain(future.diagnosticId);
    expect(ids).not.toContain(theirs.diagnosticId);
    expect(res.items.find((d: { id: number }) => d.id === mine.diagnosticId)).toMatchObject({
      status: 'running',
      subjectTests: [{ id: mine.subjectTestId, parallels: [7] }],
      participantCount: 0,
    });
    const planned = (
      await asA('POST', '/api/coordinator/diagnostic/list', { ...list, filter: { status: 'planned' } })
    ).json();
    expect(planned.items.map((d: { id: number }) => d.id)).toEqual([future.diagnosticId]);

    const byParam = await asA('POST', '/api/coordinator/diagnostic/byParam', {
      subjectTestId: mine.subjectTestId,
      parallel: 7,
      date: new Date().toISOString().slice(0, 10),
    });
    expect(byParam.statusCode).toBe(200);
    expect(byParam.json().map((d: { id: number }) => d.id)).toEqual([mine.diagnosticId]);
    const none = await asA('POST', '/api/coordinator/diagnostic/byParam', {
      subjectTestId: theirs.subjectTestId,
    });
    expect(none.json()).toEqual([]);
    const wrongGrade = await asA('POST', '/api/coordinator/diagnostic/byParam', {
      subjectTestId: mine.subjectTestId,
      parallel: 9,
    });
    expect(wrongGrade.json()).toEqual([]);
  });
});

describe('coordinator: organizators', () => {
  it('creates an organizator with a generated password returned once, worker row and assignments', async () => {
    const login = unique('orgNew');
    const res = await asA('POST', '/api/coordinator/organizator', {
      login,
      surname: 'Орлова',
      name: 'Ольга',
      email: `${login}@example.test`,
      classIds: [a.classId],
      buildingIds: [a.otherBuildingId],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<StaffOrganizatorSaveResult>();
    expect(body.generatedPassword).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(body.organizator).toMatchObject({
      login,
      isBlocked: false,
      classes: [{ id: a.classId, name: '7 «А»' }],
      buildings: [{ id: a.otherBuildingId }],
    });
    expect(body.organizator.workerId).not.toBeNull();
    const [u] = await t.database.query<{ school_id: number; password_hash: string }>(
      'select school_id, password_hash from users where id = $1',
      [body.organizator.id],
    );
    expect(u!.school_id).toBe(a.schoolId);
    expect(await verifyPassword(body.generatedPassword!, u!.password_hash)).toBe(true);
    const roles = await t.database.query<{ role: string }>('select role from user_roles where user_id = $1', [
      body.organizator.id,
    ]);
    expect(roles.map((r) => r.role)).toEqual(['organizator']);
    // The new organizator can log in and sees the classes of the assigned building.
    const login2 = await t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { login, password: body.generatedPassword },
    });
    expect(login2.statusCode).toBe(200);

    // The answer of a later read never carries the password again.
    const again = (
      await asA('POST', '/api/coordinator/organizator/list', { ...list, filter: { search: login } })
    ).json();
    expect(JSON.stringify(again)).not.toContain(body.generatedPassword);
  });

  it('updates an organizator: names, position, assignments, password (their sessions end)', async () => {
    const wt = await createWorkerTest(t.app);
    const { user } = await signedIn(t.app, ['organizator'], { schoolId: a.schoolId });
    const session = await sessionFor(t.app, user.id);
    const res = await asA('POST', '/api/coordinator/organizator', {
      id: user.id,
      login: user.login,
      surname: 'Иванова',
      name: 'Мария',
      password: 'a brand new password',
      positionId: wt.positionId,
      classIds: [a.otherClassId],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<StaffOrganizatorSaveResult>();
    expect(body.generatedPassword).toBeNull();
    expect(body.organizator).toMatchObject({
      surname: 'Иванова',
      positionId: wt.positionId,
      classes: [{ id: a.otherClassId }],
      workerTests: [{ workerTestId: wt.workerTestId, status: 'not_registered', participantTestId: null }],
    });
    const after = await t.app.inject({ method: 'GET', url: '/api/user', headers: session.headers });
    expect(after.statusCode).toBe(401);
  });

  it('answers 409 login_taken, 403 for other schools and higher roles, 404 for unknown ids; nothing changes', async () => {
    const before = await snapshot();
    const taken = await asA('POST', '/api/coordinator/organizator', {
      login: a.coordinator.user.login.toUpperCase(),
      surname: 'Дубль',
      name: 'Логин',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('login_taken');
    const otherSchool = await asA('POST', '/api/coordinator/organizator', {
      id: b.organizator.user.id,
      login: b.organizator.user.login,
      surname: 'Чужой',
      name: 'Организатор',
    });
    expect(otherSchool.statusCode).toBe(403);
    const admin = await createUser(t.app, { roles: ['organizator', 'admin'], schoolId: a.schoolId });
    const escalate = await asA('POST', '/api/coordinator/organizator', {
      id: admin.id,
      login: admin.login,
      surname: 'Захват',
      name: 'Админа',
      password: 'take over the admin',
    });
    expect(escalate.statusCode).toBe(403);
    const before2 = await snapshot();
    expect(
      (await asA('POST', `/api/coordinator/organizator/${admin.id}`, { blocked: true })).statusCode,
    ).toBe(403);
    const foreignClass = await asA('POST', '/api/coordinator/organizator', {
      login: unique('org'),
      surname: 'Чужой',
      name: 'Класс',
      classIds: [b.classId],
    });
    expect(foreignClass.statusCode).toBe(403);
    const unknownClass = await asA('POST', '/api/coordinator/organizator', {
      login: unique('org'),
      surname: 'Нет',
      name: 'Класса',
      classIds: [2_000_000_000],
    });
    expect(unknownClass.statusCode).toBe(400);
    expect((await asA('POST', '/api/coordinator/organizator/2000000000', { blocked: true })).statusCode).toBe(
      404,
    );
    expect(
      (await asA('POST', `/api/coordinator/organizator/${b.organizator.user.id}`, { blocked: true }))
        .statusCode,
    ).toBe(403);
    expect(await snapshot()).toEqual(before2);
    expect((await snapshot()).users.length).toBe(before.users.length + 1);
  });

  it('blocks (sessions end, audited with reason) and unblocks an organizator of own school', async () => {
    const { user, session } = await signedIn(t.app, ['organizator'], { schoolId: a.schoolId });
    const blocked = await asA('POST', `/api/coordinator/organizator/${user.id}`, {
      blocked: true,
      reason: 'уволен',
    });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json<StaffOrganizator>().isBlocked).toBe(true);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user', headers: session.headers })).statusCode,
    ).toBe(401);
    const [ev] = await t.database.query<{ reason: string; user_id: number }>(
      "select reason, user_id from audit_events where action = 'organizator.block' and entity_id = $1",
      [String(user.id)],
    );
    expect(ev).toMatchObject({ reason: 'уволен', user_id: a.coordinator.user.id });
    const unblocked = await asA('POST', `/api/coordinator/organizator/${user.id}`, { blocked: false });
    expect(unblocked.json<StaffOrganizator>().isBlocked).toBe(false);
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { login: user.login, password: user.password },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('lists organizators of own school only, with assignments', async () => {
    const res = (await asA('POST', '/api/coordinator/organizator/list', { page: 1, pageSize: 500 })).json();
    const ids = res.items.map((o: StaffOrganizator) => o.id);
    expect(ids).toContain(a.organizator.user.id);
    expect(ids).not.toContain(b.organizator.user.id);
    expect(res.items.find((o: StaffOrganizator) => o.id === a.organizator.user.id).classes).toEqual([
      { id: a.classId, name: '7 «А»' },
    ]);
    const byClass = (
      await asA('POST', '/api/coordinator/organizator/list', { ...list, filter: { classId: a.classId } })
    ).json();
    expect(byClass.items.every((o: StaffOrganizator) => o.classes.some((c) => c.id === a.classId))).toBe(
      true,
    );
  });

  it('exports the worker-test report as xlsx with a Cyrillic file name and formula-safe cells', async () => {
    const wt = await createWorkerTest(t.app, { name: '=HYPERLINK("http://evil","x")' });
    const login = unique('orgXls');
    const created = (
      await asA('POST', '/api/coordinator/organizator', {
        login,
        surname: '=1+2',
        name: '@SUM(A1)',
        positionId: wt.positionId,
        classIds: [a.classId],
      })
    ).json<StaffOrganizatorSaveResult>();
    const res = await asA('GET', '/api/coordinator/organizator/report/workerTest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]+\.xlsx"; filename\*=UTF-8''/,
    );
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("''")[1]!)).toMatch(
      /^Тестирование организаторов \d{4}-\d{2}-\d{2}\.xlsx$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const cells: unknown[] = [];
    ws.eachRow((row) => row.eachCell((c) => cells.push(c.value)));
    for (const v of cells) {
      if (typeof v === 'string') expect(v).not.toMatch(/^[=+\-@]/);
      expect(typeof v === 'object' && v !== null && 'formula' in v).toBe(false);
    }
    const rowOf: string[][] = [];
    ws.eachRow((row) =>
      rowOf.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)))),
    );
    const mine = rowOf.find((r) => r[1] === login)!;
    expect(mine[0]).toBe("'=1+2 @SUM(A1)");
    expect(mine[4]).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(mine[5]).toBe('не назначено');
    expect(mine.slice(9)).toEqual(['', '', ''].slice(0, mine.slice(9).length));
    // School B's organizators are not in school A's report.
    expect(rowOf.some((r) => r[1] === b.organizator.user.login)).toBe(false);
    expect(created.organizator.workerTests).toHaveLength(1);
  });
});

describe('coordinator: participant tests', () => {
  it("reads own school's participant test with codes; 403 for school B's; 404 unknown", async () => {
    const mine = await createParticipantTest(t.app, a);
    const theirs = await createParticipantTest(t.app, b);
    const res = await asA('GET', `/api/coordinator/participantTest/${mine.participantTestId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: mine.participantTestId,
      activationCode: mine.activationCode,
      status: 'planned',
      examWork: null,
      surname: 'Иванов',
    });
    expect(
      (await asA('GET', `/api/coordinator/participantTest/${theirs.participantTestId}`)).statusCode,
    ).toBe(403);
    expect((await asA('GET', '/api/coordinator/participantTest/2000000000')).statusCode).toBe(404);
  });
});
