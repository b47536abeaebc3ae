import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffClass, StaffDiagnostic, StaffStudent } from '@attesta/contract';
import { organizatorAssignments } from '../../db/schema/index.js';
import {
  createDiagnosticFor,
  createSchoolWithStaff,
  createTestApp,
  isoDate,
  signedIn,
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

const post = (url: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const asOrg = (url: string, payload: unknown) => post(url, a.organizator.session.headers, payload);

const snapshot = async () => ({
  students: await t.database.query('select * from students order by id'),
  pts: await t.database.query('select * from participant_tests order by id'),
  audit: await t.database.query('select count(*)::int as n from audit_events'),
});

const list = { page: 1, pageSize: 50 };
const CALLS: { name: string; url: string; body: () => unknown }[] = [
  { name: 'student/list', url: '/api/organizator/student/list', body: () => list },
  { name: 'buildings/list', url: '/api/organizator/buildings/list', body: () => list },
  { name: 'class/list', url: '/api/organizator/class/list', body: () => list },
  { name: 'parallel/list', url: '/api/organizator/parallel/list', body: () => list },
  { name: 'diagnostic/list', url: '/api/organizator/diagnostic/list', body: () => list },
  { name: 'diagnostic/byParam', url: '/api/organizator/diagnostic/byParam', body: () => ({}) },
  { name: 'participantTest/list', url: '/api/organizator/participantTest/list', body: () => list },
  {
    name: 'student',
    url: '/api/organizator/student',
    body: () => ({ surname: 'Новый', name: 'Ученик', birthDate: '2012-01-02', classId: a.classId }),
  },
  {
    name: 'participantTest/save',
    url: '/api/organizator/participantTest/save',
    body: () => ({ diagnosticId: 1, subjectTestId: 1, testDate: '2030-01-01', classIds: [a.classId] }),
  },
];

describe('organizator calls: access', () => {
  it.each(CALLS)('POST $name answers 401 without a session', async ({ url, body }) => {
    const res = await post(url, { 'x-requested-with': 'XMLHttpRequest' }, body());
    expect(res.statusCode).toBe(401);
  });

  it.each(CALLS)(
    'POST $name answers 403 to other roles (coordinator, participant)',
    async ({ url, body }) => {
      const participant = await signedIn(t.app, ['participant', 'guest']);
      for (const headers of [a.coordinator.session.headers, participant.session.headers]) {
        const before = await snapshot();
        const res = await post(url, headers, body());
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('forbidden');
        expect(await snapshot()).toEqual(before);
      }
    },
  );

  it.each(CALLS)('POST $name answers 403 csrf without X-Requested-With', async ({ url, body }) => {
    const before = await snapshot();
    const res = await post(url, { cookie: a.organizator.session.cookie }, body());
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf');
    expect(await snapshot()).toEqual(before);
  });

  it.each(CALLS)('POST $name refuses bad input (400) and changes nothing', async ({ url }) => {
    const before = await snapshot();
    const malformed = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...a.organizator.session.headers, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('malformed_json');
    for (const bad of [{ page: 'x' }, { extra: true }, { classId: '1', surname: [] }, [1]]) {
      const res = await asOrg(url, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('organizator: scope = assigned classes and buildings', () => {
  it('lists only the assigned class, its building, its parallel and its students', async () => {
    const students = (await asOrg('/api/organizator/student/list', list)).json<{
      items: StaffStudent[];
      total: number;
    }>();
    expect(students.total).toBe(a.studentIds.length);
    expect(students.items.every((s) => s.classId === a.classId)).toBe(true);
    const classes = (await asOrg('/api/organizator/class/list', list)).json<{ items: StaffClass[] }>();
    expect(classes.items.map((c) => c.id)).toEqual([a.classId]);
    expect(classes.items[0]!.studentCount).toBe(a.studentIds.length);
    const buildings = (await asOrg('/api/organizator/buildings/list', list)).json();
    expect(buildings).toMatchObject({ total: 1, items: [{ id: a.buildingId, classCount: 1 }] });
    const parallels = (await asOrg('/api/organizator/parallel/list', list)).json();
    expect(parallels).toMatchObject({ total: 1, items: [{ id: 7 }] });
    const notAssigned = (
      await asOrg('/api/organizator/student/list', { ...list, filter: { classId: a.otherClassId } })
    ).json();
    expect(notAssigned.total).toBe(0);
  });

  it('a building assignment covers every class of that building', async () => {
    const { user, session } = await signedIn(t.app, ['organizator'], { schoolId: a.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: user.id, buildingId: a.otherBuildingId });
    const classes = (await post('/api/organizator/class/list', session.headers, list)).json<{
      items: StaffClass[];
    }>();
    expect(classes.items.map((c) => c.id)).toEqual([a.otherClassId]);
    const created = await post('/api/organizator/student', session.headers, {
      surname: 'Корпусов',
      name: 'Денис',
      birthDate: '2011-09-01',
      classId: a.otherClassId,
    });
    expect(created.statusCode).toBe(200);
    expect(
      (await post('/api/organizator/class/list', a.organizator.session.headers, list)).json().total,
    ).toBe(1);
  });

  it('creates and updates students in an assigned class only (403 otherwise, nothing changes)', async () => {
    const created = await asOrg('/api/organizator/student', {
      surname: 'Соколова',
      name: 'Вера',
      birthDate: '2012-07-08',
      gender: 'female',
      classId: a.classId,
    });
    expect(created.statusCode).toBe(200);
    const s = created.json<StaffStudent>();
    expect(s).toMatchObject({ classId: a.classId, schoolId: a.schoolId });
    const renamed = await asOrg('/api/organizator/student', {
      ...s,
      id: s.id,
      surname: 'Соколова-Белова',
      createdAt: undefined,
    });
    expect(renamed.statusCode).toBe(400); // unknown fields of the item are refused, not ignored
    const ok = await asOrg('/api/organizator/student', {
      id: s.id,
      surname: 'Соколова-Белова',
      name: 'Вера',
      birthDate: '2012-07-08',
      classId: a.classId,
    });
    expect(ok.json()).toMatchObject({ surname: 'Соколова-Белова', gender: 'female' });

    const before = await snapshot();
    const cases: unknown[] = [
      { surname: 'А', name: 'Б', birthDate: '2012-01-01', classId: a.otherClassId },
      { surname: 'А', name: 'Б', birthDate: '2012-01-01', classId: b.classId },
      { id: s.id, surname: 'А', name: 'Б', birthDate: '2012-01-01', classId: a.otherClassId },
      { id: a.otherStudentIds[0], surname: 'А', name: 'Б', birthDate: '2012-01-01', classId: a.classId },
      { id: b.studentIds[0], surname: 'А', name: 'Б', birthDate: '2012-01-01', classId: a.classId },
    ];
    for (const body of cases)
      expect((await asOrg('/api/organizator/student', body)).statusCode, JSON.stringify(body)).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('diagnostic/list shows diagnostics with participants in the rooms; byParam those open to the school', async () => {
    const d = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId], testParallels: [7] });
    const other = await createDiagnosticFor(t.app, { schoolIds: [b.schoolId], testParallels: [7] });
    const byParam = (
      await asOrg('/api/organizator/diagnostic/byParam', { date: isoDate(), parallel: 7 })
    ).json<StaffDiagnostic[]>();
    expect(byParam.map((x) => x.id)).toContain(d.diagnosticId);
    expect(byParam.map((x) => x.id)).not.toContain(other.diagnosticId);
    const before = (await asOrg('/api/organizator/diagnostic/list', list)).json<{
      items: StaffDiagnostic[];
    }>();
    expect(before.items.map((x) => x.id)).not.toContain(d.diagnosticId);

    const reg = await asOrg('/api/organizator/participantTest/save', {
      diagnosticId: d.diagnosticId,
      subjectTestId: d.subjectTestId,
      testDate: isoDate(),
      studentIds: [a.studentIds[0]],
    });
    expect(reg.statusCode).toBe(200);
    expect(reg.json().created).toBe(1);
    const after = (await asOrg('/api/organizator/diagnostic/list', list)).json<{
      items: StaffDiagnostic[];
    }>();
    expect(after.items.find((x) => x.id === d.diagnosticId)).toMatchObject({ participantCount: 1 });
    // A diagnostic of another school is not open to this organizator.
    const refused = await asOrg('/api/organizator/participantTest/save', {
      diagnosticId: other.diagnosticId,
      subjectTestId: other.subjectTestId,
      testDate: isoDate(),
      studentIds: [a.studentIds[0]],
    });
    expect(refused.statusCode).toBe(403);
  });
});
