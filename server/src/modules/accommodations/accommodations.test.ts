import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ACCOMMODATIONS, type Accommodations } from '@attesta/contract';
import {
  createOrg,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { auditEvents, diagnostics, examWorks, students } from '../../db/schema/index.js';

// Accommodations per student (issue 14, item 2; docs/accommodations.md).

let t: TestApp;
let admin: Session;
let school: SchoolWithStaff;
let otherSchool: SchoolWithStaff;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  school = await createSchoolWithStaff(t.app);
  otherSchool = await createSchoolWithStaff(t.app);
});
afterAll(async () => t.close());

const db = () => t.app.ctx.db;
const profile = (over: Partial<Accommodations> = {}): Accommodations => ({
  ...NO_ACCOMMODATIONS,
  extraTimePercent: 50,
  largeText: true,
  theme: 'high_contrast',
  ...over,
});
const send = (method: 'GET' | 'PUT', url: string, session: Session | null, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/accommodations/${url}`,
    headers: session?.headers ?? { 'x-requested-with': 'XMLHttpRequest' },
    ...(payload ? { payload } : {}),
  });
const stored = async (id: number) =>
  (await db().select({ a: students.accommodations }).from(students).where(eq(students.id, id)))[0]!.a;
const audits = async (id: number) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'student.accommodations'), eq(auditEvents.entityId, String(id))));

describe('one student', () => {
  it('needs a session and the coordinator or admin role', async () => {
    const id = school.studentIds[0]!;
    expect((await send('GET', `students/${id}`, null)).statusCode).toBe(401);
    expect((await send('PUT', `students/${id}`, null, { accommodations: profile() })).statusCode).toBe(401);
    const expert = (await signedIn(t.app, ['expert'])).session;
    expect((await send('GET', `students/${id}`, expert)).statusCode).toBe(403);
    expect(
      (await send('PUT', `students/${id}`, school.organizator.session, { accommodations: profile() }))
        .statusCode,
    ).toBe(403);
    expect(await stored(id)).toBeNull();
  });

  it('lets a coordinator set, read and clear their own school’s students only, audited', async () => {
    const id = school.studentIds[1]!;
    const coord = school.coordinator.session;
    const res = await send('PUT', `students/${id}`, coord, { accommodations: profile() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ studentId: id, accommodations: profile() });
    expect(await stored(id)).toEqual(profile());
    expect((await send('GET', `students/${id}`, coord)).json()).toEqual({
      studentId: id,
      accommodations: profile(),
    });
    const [entry] = await audits(id);
    expect(entry).toMatchObject({ userId: school.coordinator.user.id, entity: 'student' });
    expect(entry!.details).toEqual({ accommodations: profile() });

    // The student list tells who has a profile.
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/coordinator/student/list',
      headers: coord.headers,
      payload: { page: 1, pageSize: 50 },
    });
    const flags = Object.fromEntries(
      (list.json().items as { id: number; hasAccommodations: boolean }[]).map((s) => [
        s.id,
        s.hasAccommodations,
      ]),
    );
    expect(flags[id]).toBe(true);
    expect(flags[school.studentIds[0]!]).toBe(false);

    // A profile that changes nothing is none.
    const cleared = await send('PUT', `students/${id}`, coord, { accommodations: NO_ACCOMMODATIONS });
    expect(cleared.json()).toEqual({ studentId: id, accommodations: null });
    expect(await stored(id)).toBeNull();
    expect(await audits(id)).toHaveLength(2);
  });

  it('keeps the magnifier: a profile with only the magnifier is one; one without it stays without', async () => {
    const id = school.studentIds[2]!;
    const coord = school.coordinator.session;
    const only = { ...NO_ACCOMMODATIONS, magnifier: true };
    const res = await send('PUT', `students/${id}`, coord, { accommodations: only });
    expect(res.json()).toEqual({ studentId: id, accommodations: only });
    expect(await stored(id)).toEqual(only);
    const off = await send('PUT', `students/${id}`, coord, {
      accommodations: { ...NO_ACCOMMODATIONS, magnifier: false },
    });
    expect(off.json().accommodations).toBeNull();
    expect(
      (await send('PUT', `students/${id}`, coord, { accommodations: { ...only, magnifier: 'yes' } }))
        .statusCode,
    ).toBe(400);
  });

  it('refuses a student of another school (403) and an unknown one (404), changing nothing', async () => {
    const foreign = otherSchool.studentIds[0]!;
    const coord = school.coordinator.session;
    expect((await send('GET', `students/${foreign}`, coord)).statusCode).toBe(403);
    expect((await send('PUT', `students/${foreign}`, coord, { accommodations: profile() })).statusCode).toBe(
      403,
    );
    expect(await stored(foreign)).toBeNull();
    expect(await audits(foreign)).toHaveLength(0);
    expect((await send('GET', 'students/99999999', admin)).statusCode).toBe(404);
  });

  it('refuses bad input with 400, changing nothing', async () => {
    const id = school.studentIds[2]!;
    const coord = school.coordinator.session;
    for (const accommodations of [
      profile({ extraTimePercent: 201 }),
      profile({ extraTimePercent: -1 }),
      { ...profile(), theme: 'pink' },
      { ...profile(), extra: 1 },
      { largeText: true },
    ]) {
      const res = await send('PUT', `students/${id}`, coord, { accommodations });
      expect(res.statusCode, JSON.stringify(accommodations)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await send('GET', 'students/abc', coord)).statusCode).toBe(400);
    expect(await stored(id)).toBeNull();
  });

  it('lets an admin set any school’s student', async () => {
    const id = otherSchool.otherStudentIds[0]!;
    const res = await send('PUT', `students/${id}`, admin, { accommodations: profile({ lineReader: true }) });
    expect(res.statusCode).toBe(200);
    expect(await stored(id)).toEqual(profile({ lineReader: true }));
    // The admin's student list says who has a profile too.
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/admin/students/list',
      headers: admin.headers,
      payload: { page: 1, filter: { schoolId: otherSchool.schoolId } },
    });
    const flags = Object.fromEntries(
      (list.json().items as { id: number; hasAccommodations: boolean }[]).map((s) => [
        s.id,
        s.hasAccommodations,
      ]),
    );
    expect(flags[id]).toBe(true);
    expect(flags[otherSchool.studentIds[0]!]).toBe(false);
  });
});

describe('many students', () => {
  it('sets them all at once, each audited', async () => {
    const ids = school.otherStudentIds;
    const res = await send('PUT', 'students', school.coordinator.session, {
      studentIds: ids,
      accommodations: profile({ textToSpeech: true }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    for (const id of ids) {
      expect(await stored(id)).toEqual(profile({ textToSpeech: true }));
      expect(await audits(id)).toHaveLength(1);
    }
  });

  it('is all or nothing: one student of another school refuses the whole call', async () => {
    const mine = school.studentIds[0]!;
    const res = await send('PUT', 'students', school.coordinator.session, {
      studentIds: [mine, otherSchool.studentIds[1]!],
      accommodations: profile(),
    });
    expect(res.statusCode).toBe(403);
    expect(await stored(mine)).toBeNull();
    const unknown = await send('PUT', 'students', admin, {
      studentIds: [mine, 99999999],
      accommodations: profile(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(await stored(mine)).toBeNull();
  });

  it('refuses no students, repeated ones and a bad profile with 400; needs the role', async () => {
    const coord = school.coordinator.session;
    const mine = school.studentIds[0]!;
    for (const body of [
      { studentIds: [], accommodations: profile() },
      { studentIds: [mine, mine], accommodations: profile() },
      { studentIds: [mine], accommodations: profile({ extraTimePercent: 500 }) },
      { studentIds: [mine] },
    ]) {
      const res = await send('PUT', 'students', coord, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await stored(mine)).toBeNull();
    expect(
      (await send('PUT', 'students', null, { studentIds: [mine], accommodations: null })).statusCode,
    ).toBe(401);
    expect(
      (
        await send('PUT', 'students', school.organizator.session, {
          studentIds: [mine],
          accommodations: null,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('the exam', () => {
  async function startFor(
    studentId: number | undefined,
    org = undefined as Awaited<ReturnType<typeof createOrg>> | undefined,
  ) {
    const place = org ?? (await createOrg(t.app));
    const pt = await createParticipantTest(t.app, place, { studentId: studentId ?? place.studentIds[0] });
    await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'short_text', reference: 'x' }]);
    const { session } = await signedInParticipant(t.app, pt);
    const call = (method: 'GET' | 'POST', url: string) =>
      t.app.inject({
        method,
        url: `/api/exam/test/${url}`,
        headers: session.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
    return { pt, call };
  }

  it('adds the extra time to the deadline the server keeps, and tells the participant their own profile', async () => {
    const org = await createOrg(t.app);
    const [withIt, without] = org.studentIds;
    await db().update(students).set({ accommodations: profile() }).where(eq(students.id, withIt!));

    const a = await startFor(withIt, org);
    const current = await a.call('GET', 'currentParticipantTest');
    expect(current.json().participant.accommodations).toEqual(profile());
    const started = await a.call('POST', 'examwork/new');
    expect(started.statusCode, started.body).toBe(200);
    const state = started.json();
    expect(state.extraSeconds).toBe(45 * 60 * 0.5);
    expect(Date.parse(state.deadlineAt) - Date.parse(state.startedAt)).toBe(45 * 60 * 1.5 * 1000);
    const [row] = await db().select().from(examWorks).where(eq(examWorks.id, state.id));
    expect(row!.deadlineAt.getTime() - row!.startedAt.getTime()).toBe(45 * 60 * 1.5 * 1000);

    const b = await startFor(without, org);
    expect((await b.call('GET', 'currentParticipantTest')).json().participant.accommodations).toBeNull();
    const plain = (await b.call('POST', 'examwork/new')).json();
    expect(plain.extraSeconds).toBe(0);
    expect(Date.parse(plain.deadlineAt) - Date.parse(plain.startedAt)).toBe(45 * 60 * 1000);
  });

  it('is still capped by the end of the diagnostic window', async () => {
    const org = await createOrg(t.app);
    await db()
      .update(students)
      .set({ accommodations: profile({ extraTimePercent: 100 }) })
      .where(eq(students.id, org.studentIds[0]!));
    const a = await startFor(org.studentIds[0], org);
    const windowEnd = new Date(Date.now() + 60 * 60 * 1000);
    await db().update(diagnostics).set({ endsAt: windowEnd }).where(eq(diagnostics.id, a.pt.diagnosticId));
    const state = (await a.call('POST', 'examwork/new')).json();
    expect(state.extraSeconds).toBe(45 * 60);
    expect(Date.parse(state.deadlineAt)).toBe(windowEnd.getTime());
  });
});
