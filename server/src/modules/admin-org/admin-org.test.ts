import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizatorAssignments, students } from '../../db/schema/index.js';
import {
  countRows,
  createOrg,
  createParticipantTest,
  createTestApp,
  guardResults,
  isoDate,
  signedIn,
  type GuardedCall,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let admin: Session;
let others: Record<'coordinator' | 'ugnik' | 'participant', Session>;
let org: OrgFixture;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app, 'Гимназия № 1');
  admin = (await signedIn(t.app, ['admin'])).session;
  others = {
    coordinator: (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session,
    ugnik: (await signedIn(t.app, ['ugnik'])).session,
    participant: (await signedIn(t.app, ['participant'])).session,
  };
});
afterAll(async () => t.close());

const call = (session: Session, method: GuardedCall['method'], url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: session.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** Rows of the tables an admin write may touch: bad input must leave every count as it was. */
const counts = async () => ({
  oo: await countRows(t.database, 'oo'),
  schools: await countRows(t.database, 'schools'),
  buildings: await countRows(t.database, 'buildings'),
  classes: await countRows(t.database, 'classes'),
  students: await countRows(t.database, 'students', 'deleted_at is null'),
  audit: await countRows(t.database, 'audit_events'),
});

const auditOf = (action: string, entityId: number) =>
  t.database.query<{ user_id: number; details: Record<string, unknown> }>(
    'select user_id, details from audit_events where action = $1 and entity_id = $2 order by id',
    [action, String(entityId)],
  );

describe('access to /api/admin/*', () => {
  const calls: GuardedCall[] = [
    { method: 'POST', url: '/api/admin/oo/list', payload: { page: 1 } },
    { method: 'POST', url: '/api/admin/oo', payload: { name: 'ОО' } },
    { method: 'POST', url: '/api/admin/schools/list', payload: { page: 1 } },
    { method: 'GET', url: '/api/admin/schools/1' },
    { method: 'POST', url: '/api/admin/schools', payload: { ooId: 1, name: 'Школа' } },
    { method: 'PUT', url: '/api/admin/schools/1', payload: { ooId: 1, name: 'Школа' } },
    { method: 'GET', url: '/api/admin/schools/1/buildings' },
    { method: 'POST', url: '/api/admin/schools/1/buildings', payload: { name: 'Корпус' } },
    { method: 'PUT', url: '/api/admin/buildings/1', payload: { name: 'Корпус' } },
    { method: 'GET', url: '/api/admin/schools/1/classes' },
    { method: 'POST', url: '/api/admin/schools/1/classes', payload: { parallel: 5, letter: 'Я' } },
    { method: 'PUT', url: '/api/admin/classes/1', payload: { parallel: 5, letter: 'Я' } },
    { method: 'DELETE', url: '/api/admin/classes/1' },
    { method: 'POST', url: '/api/admin/students/list', payload: { page: 1 } },
    { method: 'GET', url: '/api/admin/students/1' },
    { method: 'POST', url: '/api/admin/students', payload: { classId: 1, surname: 'А', name: 'Б' } },
    { method: 'PUT', url: '/api/admin/students/1', payload: { classId: 1, surname: 'А', name: 'Б' } },
    { method: 'DELETE', url: '/api/admin/students/1' },
    { method: 'POST', url: '/api/admin/diagnostics/list', payload: { page: 1 } },
    { method: 'GET', url: '/api/admin/diagnostics/1' },
  ];

  it('401 without a session, 403 for coordinator, ugnik and participant, 403 csrf on writes', async () => {
    const before = await counts();
    for (const c of calls) {
      const r = await guardResults(t.app, c, { allowed: admin, wrongRole: others.coordinator });
      expect([c.method, c.url, r.anonymous, r.wrongRole]).toEqual([c.method, c.url, 401, 403]);
      // Every non-GET changes state (lists are POSTs too) and needs the anti-CSRF header.
      if (c.method !== 'GET') expect([c.method, c.url, r.noCsrf]).toEqual([c.method, c.url, 'csrf']);
      else expect(r.noCsrf).not.toBe('csrf');
      for (const role of ['ugnik', 'participant'] as const) {
        const res = await call(others[role], c.method, c.url, c.payload);
        expect([role, c.url, res.statusCode, res.json().code]).toEqual([role, c.url, 403, 'forbidden']);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('are documented in OpenAPI under the admin-org tag', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
    };
    for (const c of calls) {
      const path = c.url.replace(/\/1(?=\/|$)/g, '/{id}');
      const op = doc.paths[path]?.[c.method.toLowerCase()];
      expect(op?.tags, `${c.method} ${path}`).toEqual(['admin-org']);
      expect(op?.summary).toBeTruthy();
    }
  });
});

describe('oo and schools', () => {
  it('creates an ОО and a school; lists, filters, sorts and pages schools with counts', async () => {
    const before = await counts();
    const bad = await call(admin, 'POST', '/api/admin/oo', { name: ' ', inn: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
    expect(await counts()).toEqual(before);

    const ooRes = await call(admin, 'POST', '/api/admin/oo', { name: 'ГБОУ Лицей', inn: '7701234567' });
    expect(ooRes.statusCode).toBe(200);
    const ooId = ooRes.json().id as number;
    expect(ooRes.json()).toMatchObject({ name: 'ГБОУ Лицей', inn: '7701234567', schoolCount: 0 });

    const created = await call(admin, 'POST', '/api/admin/schools', {
      ooId,
      name: 'Лицей № 2',
      shortName: 'Л2',
      code: 'L-2',
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      ooId,
      ooName: 'ГБОУ Лицей',
      name: 'Лицей № 2',
      code: 'L-2',
      buildingCount: 0,
      classCount: 0,
      studentCount: 0,
    });
    const schoolId = created.json().id as number;
    const [event] = await auditOf('school.create', schoolId);
    expect(event).toMatchObject({ details: { via: 'admin', name: 'Лицей № 2', code: 'L-2' } });

    const list = await call(admin, 'POST', '/api/admin/schools/list', {
      page: 1,
      pageSize: 1,
      sort: { field: 'studentCount', dir: 'desc' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(2);
    expect(list.json().items).toEqual([
      expect.objectContaining({ id: org.schoolId, buildingCount: 1, classCount: 1, studentCount: 3 }),
    ]);
    const page2 = await call(admin, 'POST', '/api/admin/schools/list', {
      page: 2,
      pageSize: 1,
      sort: { field: 'studentCount', dir: 'desc' },
    });
    expect(page2.json().items.map((s: { id: number }) => s.id)).toEqual([schoolId]);
    const filtered = await call(admin, 'POST', '/api/admin/schools/list', {
      page: 1,
      filter: { search: 'л2' },
    });
    expect(filtered.json()).toMatchObject({ total: 1, items: [{ id: schoolId }] });
    const byOo = await call(admin, 'POST', '/api/admin/schools/list', { page: 1, filter: { ooId } });
    expect(byOo.json().total).toBe(1);

    const ooList = await call(admin, 'POST', '/api/admin/oo/list', { page: 1, filter: { search: '7701' } });
    expect(ooList.json()).toEqual({
      items: [expect.objectContaining({ id: ooId, schoolCount: 1 })],
      total: 1,
    });

    for (const body of [
      { page: 1, sort: { field: 'password', dir: 'asc' } },
      { page: 1, filter: { district: 'x' } },
      { page: 0 },
    ]) {
      const res = await call(admin, 'POST', '/api/admin/schools/list', body);
      expect([body, res.statusCode]).toEqual([body, 400]);
    }
  });

  it('updates a school; refuses bad input (400), unknown ids (404) and a taken code (409) changing nothing', async () => {
    const created = await call(admin, 'POST', '/api/admin/schools', {
      ooId: org.ooId,
      name: 'Школа № 3',
      code: 'S-3',
    });
    const id = created.json().id as number;
    const before = await counts();
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/api/admin/schools', { ooId: org.ooId, name: '' }, 400, 'validation_failed'],
      ['POST', '/api/admin/schools', { ooId: 999999, name: 'Х' }, 400, 'validation_failed'],
      ['POST', '/api/admin/schools', { ooId: org.ooId, name: 'Х', code: 'S 3!' }, 400, 'validation_failed'],
      ['POST', '/api/admin/schools', { ooId: org.ooId, name: 'Х', extra: 1 }, 400, 'validation_failed'],
      ['POST', '/api/admin/schools', { ooId: org.ooId, name: 'Х', code: 'S-3' }, 409, 'school_code_taken'],
      ['PUT', `/api/admin/schools/${id}`, { ooId: 'x', name: 'Х' }, 400, 'validation_failed'],
      ['PUT', '/api/admin/schools/abc', { ooId: org.ooId, name: 'Х' }, 400, 'validation_failed'],
      ['PUT', '/api/admin/schools/999999', { ooId: org.ooId, name: 'Х' }, 404, 'not_found'],
      ['GET', '/api/admin/schools/999999', undefined, 404, 'not_found'],
    ];
    for (const [method, url, body, status, code] of cases) {
      const res = await call(admin, method as GuardedCall['method'], url, body);
      expect([method, url, body, res.statusCode, res.json().code]).toEqual([method, url, body, status, code]);
    }
    const other = await call(admin, 'GET', `/api/admin/schools/${org.schoolId}`);
    const taken = await call(admin, 'PUT', `/api/admin/schools/${org.schoolId}`, {
      ooId: org.ooId,
      name: other.json().name,
      code: 'S-3',
    });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'school_code_taken']);
    expect(await counts()).toEqual(before);

    const updated = await call(admin, 'PUT', `/api/admin/schools/${id}`, {
      ooId: org.ooId,
      name: 'Школа № 3 им. Пушкина',
      shortName: 'Ш3',
    });
    expect(updated.statusCode).toBe(200);
    // An omitted code keeps its value.
    expect(updated.json()).toMatchObject({ name: 'Школа № 3 им. Пушкина', shortName: 'Ш3', code: 'S-3' });
    const [event] = await auditOf('school.update', id);
    expect(event!.details).toEqual({
      via: 'admin',
      changes: {
        name: { from: 'Школа № 3', to: 'Школа № 3 им. Пушкина' },
        shortName: { from: null, to: 'Ш3' },
      },
    });
    const cleared = await call(admin, 'PUT', `/api/admin/schools/${id}`, {
      ooId: org.ooId,
      name: 'Школа № 3 им. Пушкина',
      code: null,
    });
    expect(cleared.json().code).toBeNull();
    expect((await call(admin, 'GET', `/api/admin/schools/${id}`)).json()).toEqual(cleared.json());
  });
});

describe('buildings and classes', () => {
  it('adds and renames buildings; 404 for an unknown school or building', async () => {
    const before = await counts();
    expect((await call(admin, 'POST', '/api/admin/schools/999999/buildings', { name: 'К' })).statusCode).toBe(
      404,
    );
    expect((await call(admin, 'POST', `/api/admin/schools/${org.schoolId}/buildings`, {})).statusCode).toBe(
      400,
    );
    expect((await call(admin, 'PUT', '/api/admin/buildings/999999', { name: 'К' })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);

    const made = await call(admin, 'POST', `/api/admin/schools/${org.schoolId}/buildings`, {
      name: 'Корпус Б',
      address: 'ул. Ленина, 1',
    });
    expect(made.json()).toMatchObject({ schoolId: org.schoolId, name: 'Корпус Б', classCount: 0 });
    const renamed = await call(admin, 'PUT', `/api/admin/buildings/${made.json().id}`, { name: 'Корпус В' });
    expect(renamed.json()).toMatchObject({ name: 'Корпус В', address: 'ул. Ленина, 1' });
    const list = await call(admin, 'GET', `/api/admin/schools/${org.schoolId}/buildings`);
    expect(list.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: org.buildingId, classCount: 1, studentCount: 3 }),
        expect.objectContaining({ id: made.json().id, name: 'Корпус В' }),
      ]),
    );
    expect((await call(admin, 'GET', '/api/admin/schools/999999/buildings')).statusCode).toBe(404);
  });

  it('creates, lists, updates and deletes classes with the 400/404/409 rules', async () => {
    const url = `/api/admin/schools/${org.schoolId}/classes`;
    const other = await createOrg(t.app);
    const before = await counts();
    const refused: [unknown, number, string][] = [
      [{ parallel: 12, letter: 'А' }, 400, 'validation_failed'],
      [{ parallel: 5, letter: '' }, 400, 'validation_failed'],
      [{ parallel: 5, letter: 'А-Б' }, 400, 'validation_failed'],
      [{ parallel: 5, letter: 'В', buildingId: other.buildingId }, 400, 'validation_failed'],
      [{ parallel: 5, letter: 'В', buildingId: 999999 }, 400, 'validation_failed'],
      [{ parallel: 7, letter: 'а' }, 409, 'class_exists'],
    ];
    for (const [body, status, code] of refused) {
      const res = await call(admin, 'POST', url, body);
      expect([body, res.statusCode, res.json().code]).toEqual([body, status, code]);
    }
    expect(
      (await call(admin, 'POST', '/api/admin/schools/999999/classes', { parallel: 5, letter: 'В' }))
        .statusCode,
    ).toBe(404);
    expect(await counts()).toEqual(before);

    const made = await call(admin, 'POST', url, { parallel: 5, letter: 'в', buildingId: org.buildingId });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({
      schoolId: org.schoolId,
      name: '5 «В»',
      letter: 'В',
      parallel: 5,
      buildingId: org.buildingId,
      buildingName: 'Основное здание',
      studentCount: 0,
    });
    const classId = made.json().id as number;

    const list = await call(admin, 'GET', url);
    expect(list.json().map((c: { name: string }) => c.name)).toEqual(['5 «В»', '7 «А»']);
    expect(list.json()[1]).toMatchObject({ id: org.classId, studentCount: 3 });

    // A default name follows the new grade; a custom name stays.
    const moved = await call(admin, 'PUT', `/api/admin/classes/${classId}`, { parallel: 6, letter: 'В' });
    expect(moved.json()).toMatchObject({ name: '6 «В»', buildingId: org.buildingId });
    await call(admin, 'PUT', `/api/admin/classes/${classId}`, { parallel: 6, letter: 'В', name: 'Шестой В' });
    const kept = await call(admin, 'PUT', `/api/admin/classes/${classId}`, { parallel: 6, letter: 'Г' });
    expect(kept.json()).toMatchObject({ name: 'Шестой В', letter: 'Г' });
    const taken = await call(admin, 'PUT', `/api/admin/classes/${classId}`, { parallel: 7, letter: 'А' });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'class_exists']);
    expect(
      (await call(admin, 'PUT', '/api/admin/classes/999999', { parallel: 6, letter: 'Г' })).statusCode,
    ).toBe(404);

    // A class with students stays.
    const full = await call(admin, 'DELETE', `/api/admin/classes/${org.classId}`);
    expect([full.statusCode, full.json().code]).toEqual([409, 'class_has_students']);

    // A class where participants were registered stays too, even once its students left.
    const used = await call(admin, 'POST', url, { parallel: 9, letter: 'А' });
    const usedId = used.json().id as number;
    const pupil = await call(admin, 'POST', '/api/admin/students', {
      classId: usedId,
      surname: 'Орлов',
      name: 'Ян',
    });
    await createParticipantTest(
      t.app,
      { ...org, classId: usedId },
      { studentId: pupil.json().id, testDate: isoDate() },
    );
    await t.app.ctx.db
      .update(students)
      .set({ deletedAt: new Date() })
      .where(eq(students.id, pupil.json().id));
    const inUse = await call(admin, 'DELETE', `/api/admin/classes/${usedId}`);
    expect([inUse.statusCode, inUse.json().code]).toEqual([409, 'class_in_use']);

    // An empty class goes, with the organizator assignments to it; deleted students let go of it.
    const { user: organizator } = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db.insert(organizatorAssignments).values({ userId: organizator.id, classId });
    const gone = await t.app.ctx.db
      .insert(students)
      .values({ schoolId: org.schoolId, classId, surname: 'Ушедший', name: 'У', deletedAt: new Date() })
      .returning();
    const del = await call(admin, 'DELETE', `/api/admin/classes/${classId}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ ok: true });
    expect(await countRows(t.database, 'classes', `id = ${classId}`)).toBe(0);
    expect(await countRows(t.database, 'organizator_assignments', `class_id = ${classId}`)).toBe(0);
    expect(await countRows(t.database, 'students', `id = ${gone[0]!.id} and class_id is null`)).toBe(1);
    const [event] = await auditOf('class.delete', classId);
    expect(event!.details).toMatchObject({
      via: 'admin',
      organizatorAssignmentsRemovedFor: [organizator.id],
    });
    expect((await call(admin, 'DELETE', `/api/admin/classes/${classId}`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/admin/schools/999999/classes')).statusCode).toBe(404);
  });
});

describe('students', () => {
  it('lists students of every school with filters, sort and paging', async () => {
    const other = await createOrg(t.app, 'Школа № 99');
    const all = await call(admin, 'POST', '/api/admin/students/list', { page: 1, pageSize: 500 });
    expect(all.statusCode).toBe(200);
    const ids = all.json().items.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([...org.studentIds, ...other.studentIds]));

    const ofSchool = await call(admin, 'POST', '/api/admin/students/list', {
      page: 1,
      filter: { schoolId: other.schoolId },
      sort: { field: 'surname', dir: 'desc' },
    });
    expect(ofSchool.json().total).toBe(3);
    expect(ofSchool.json().items.map((s: { surname: string }) => s.surname)).toEqual([
      'Сидоров',
      'Петрова',
      'Иванов',
    ]);
    expect(ofSchool.json().items[0]).toMatchObject({
      schoolId: other.schoolId,
      schoolName: 'Школа № 99',
      classId: other.classId,
      className: '7 «А»',
      parallel: 7,
      buildingName: 'Основное здание',
      participantTestCount: 0,
    });

    const search = await call(admin, 'POST', '/api/admin/students/list', {
      page: 1,
      filter: { search: 'петров', schoolId: other.schoolId, classId: other.classId, parallel: 7 },
    });
    expect(search.json()).toMatchObject({ total: 1, items: [{ id: other.studentIds[1] }] });
    const none = await call(admin, 'POST', '/api/admin/students/list', {
      page: 1,
      filter: { schoolId: other.schoolId, parallel: 8 },
    });
    expect(none.json()).toEqual({ items: [], total: 0 });
    const paged = await call(admin, 'POST', '/api/admin/students/list', {
      page: 2,
      pageSize: 2,
      filter: { schoolId: other.schoolId },
    });
    expect(paged.json()).toMatchObject({ total: 3, items: [{ surname: 'Сидоров' }] });
    const bad = await call(admin, 'POST', '/api/admin/students/list', { page: 1, filter: { parallel: 12 } });
    expect(bad.statusCode).toBe(400);
  });

  it('creates, moves within the school and updates a student; refuses bad input changing nothing', async () => {
    const other = await createOrg(t.app);
    const classB = (
      await call(admin, 'POST', `/api/admin/schools/${org.schoolId}/classes`, { parallel: 8, letter: 'Б' })
    ).json().id as number;
    const body = {
      classId: org.classId,
      surname: 'Новикова',
      name: 'Ольга',
      patronymic: 'Игоревна',
      birthDate: '2013-04-05',
      gender: 'female',
    };
    const before = await counts();
    const refused: [unknown, number, string][] = [
      [{ ...body, surname: '  ' }, 400, 'validation_failed'],
      [{ ...body, classId: 999999 }, 400, 'validation_failed'],
      [{ ...body, birthDate: isoDate(2) }, 400, 'validation_failed'],
      [{ ...body, birthDate: '1890-01-01' }, 400, 'validation_failed'],
      [{ ...body, birthDate: '05.04.2013' }, 400, 'validation_failed'],
      [{ ...body, gender: 'x' }, 400, 'validation_failed'],
      [{ ...body, schoolId: 1 }, 400, 'validation_failed'],
    ];
    for (const [b, status, code] of refused) {
      const res = await call(admin, 'POST', '/api/admin/students', b);
      expect([b, res.statusCode, res.json().code]).toEqual([b, status, code]);
    }
    expect(await counts()).toEqual(before);

    const made = await call(admin, 'POST', '/api/admin/students', body);
    expect(made.statusCode).toBe(200);
    const id = made.json().id as number;
    expect(made.json()).toMatchObject({ ...body, schoolId: org.schoolId, className: '7 «А»' });
    expect((await auditOf('student.create', id))[0]!.details).toMatchObject({
      via: 'admin',
      surname: 'Новикова',
    });

    const twin = await call(admin, 'POST', '/api/admin/students', { ...body, surname: 'НОВИКОВА' });
    expect([twin.statusCode, twin.json().code]).toEqual([409, 'duplicate_student']);

    const elsewhere = await call(admin, 'PUT', `/api/admin/students/${id}`, {
      ...body,
      classId: other.classId,
    });
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([400, 'validation_failed']);
    expect(elsewhere.json().errors[0].path).toBe('body.classId');
    expect((await call(admin, 'PUT', '/api/admin/students/999999', body)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/admin/students/${id}`)).json()).toEqual(made.json());

    // Moving within the school; omitted optional fields keep their values.
    const moved = await call(admin, 'PUT', `/api/admin/students/${id}`, {
      classId: classB,
      surname: 'Новикова',
      name: 'Оля',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      classId: classB,
      className: '8 «Б»',
      name: 'Оля',
      patronymic: 'Игоревна',
      birthDate: '2013-04-05',
      gender: 'female',
    });
    const [event] = await auditOf('student.update', id);
    expect(event!.details).toEqual({
      via: 'admin',
      changes: { name: { from: 'Ольга', to: 'Оля' }, classId: { from: org.classId, to: classB } },
    });
  });

  it('deletes only a student without participant tests', async () => {
    const pupil = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, pupil, { studentId: pupil.studentIds[0]! });
    const kept = await call(admin, 'DELETE', `/api/admin/students/${pupil.studentIds[0]}`);
    expect([kept.statusCode, kept.json().code]).toEqual([409, 'student_has_participant_tests']);
    const shown = await call(admin, 'GET', `/api/admin/students/${pupil.studentIds[0]}`);
    expect(shown.json().participantTestCount).toBe(1);
    expect(pt.participantTestId).toBeGreaterThan(0);

    const del = await call(admin, 'DELETE', `/api/admin/students/${pupil.studentIds[1]}`);
    expect(del.json()).toEqual({ ok: true });
    expect((await call(admin, 'GET', `/api/admin/students/${pupil.studentIds[1]}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/api/admin/students/${pupil.studentIds[1]}`)).statusCode).toBe(404);
    expect((await auditOf('student.delete', pupil.studentIds[1]!))[0]!.details).toMatchObject({
      via: 'admin',
      surname: 'Петрова',
    });
    const list = await call(admin, 'POST', '/api/admin/students/list', {
      page: 1,
      filter: { schoolId: pupil.schoolId },
    });
    expect(list.json().total).toBe(2);
    expect((await call(admin, 'DELETE', '/api/admin/students/abc')).statusCode).toBe(400);
  });
});
