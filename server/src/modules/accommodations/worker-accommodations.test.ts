import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ACCOMMODATIONS, type Accommodations } from '@attesta/contract';
import {
  createOrg,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  createWorker,
  signedIn,
  signedInParticipant,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { auditEvents, examWorks, participantTests, workers } from '../../db/schema/index.js';

// Accommodations per worker: staff taking worker tests (issue 14, item 6; docs/accommodations.md).

let t: TestApp;
let admin: Session;
let school: SchoolWithStaff;
let otherSchool: SchoolWithStaff;
let mine: number[];
let foreign: number;
let schoolless: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  school = await createSchoolWithStaff(t.app);
  otherSchool = await createSchoolWithStaff(t.app);
  mine = [
    await createWorker(t.app, school.schoolId),
    await createWorker(t.app, school.schoolId),
    await createWorker(t.app, school.schoolId),
  ];
  foreign = await createWorker(t.app, otherSchool.schoolId);
  schoolless = await createWorker(t.app, null);
});
afterAll(async () => t.close());

const db = () => t.app.ctx.db;
const profile = (over: Partial<Accommodations> = {}): Accommodations => ({
  ...NO_ACCOMMODATIONS,
  extraTimePercent: 50,
  largeText: true,
  restBreakMinutes: 10,
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
  (await db().select({ a: workers.accommodations }).from(workers).where(eq(workers.id, id)))[0]!.a;
const audits = async (id: number) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'worker.accommodations'), eq(auditEvents.entityId, String(id))));

describe('one worker', () => {
  it('needs a session (401) and the coordinator or admin role (403)', async () => {
    const id = mine[0]!;
    expect((await send('GET', `workers/${id}`, null)).statusCode).toBe(401);
    expect((await send('PUT', `workers/${id}`, null, { accommodations: profile() })).statusCode).toBe(401);
    expect((await send('GET', 'workers', null)).statusCode).toBe(401);
    const expert = (await signedIn(t.app, ['expert'])).session;
    expect((await send('GET', `workers/${id}`, expert)).statusCode).toBe(403);
    expect((await send('GET', 'workers', expert)).statusCode).toBe(403);
    expect(
      (await send('PUT', `workers/${id}`, school.organizator.session, { accommodations: profile() }))
        .statusCode,
    ).toBe(403);
    expect(await stored(id)).toBeNull();
  });

  it('lets an admin set, read and clear any worker’s profile, audited, and lists who has one', async () => {
    const id = foreign;
    const res = await send('PUT', `workers/${id}`, admin, { accommodations: profile() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ workerId: id, accommodations: profile() });
    expect(await stored(id)).toEqual(profile());
    expect((await send('GET', `workers/${id}`, admin)).json()).toEqual({
      workerId: id,
      accommodations: profile(),
    });
    const [entry] = await audits(id);
    expect(entry).toMatchObject({ userId: expect.any(Number), entity: 'worker' });
    expect(entry!.details).toEqual({ accommodations: profile() });

    const list = await send('GET', `workers?schoolId=${otherSchool.schoolId}`, admin);
    expect(list.statusCode, list.body).toBe(200);
    const row = (list.json().items as { id: number; hasAccommodations: boolean; schoolName: string }[]).find(
      (w) => w.id === id,
    );
    expect(row).toMatchObject({ hasAccommodations: true, schoolName: expect.any(String) });
    expect(list.json().items.every((w: { schoolId: number }) => w.schoolId === otherSchool.schoolId)).toBe(
      true,
    );

    const cleared = await send('PUT', `workers/${id}`, admin, { accommodations: NO_ACCOMMODATIONS });
    expect(cleared.json()).toEqual({ workerId: id, accommodations: null });
    expect(await stored(id)).toBeNull();
    expect(await audits(id)).toHaveLength(2);
    // The admin reaches a worker of no school too.
    expect((await send('PUT', `workers/${schoolless}`, admin, { accommodations: null })).statusCode).toBe(
      200,
    );
  });

  it('lets a coordinator reach their own school’s workers only (403 otherwise), 404 for an unknown one', async () => {
    const coord = school.coordinator.session;
    expect((await send('PUT', `workers/${mine[0]}`, coord, { accommodations: profile() })).statusCode).toBe(
      200,
    );
    for (const id of [foreign, schoolless]) {
      expect((await send('GET', `workers/${id}`, coord)).statusCode).toBe(403);
      expect((await send('PUT', `workers/${id}`, coord, { accommodations: profile() })).statusCode).toBe(403);
      expect(await stored(id)).toBeNull();
    }
    const own = await send('GET', 'workers', coord);
    expect(
      own
        .json()
        .items.map((w: { id: number }) => w.id)
        .sort(),
    ).toEqual([...mine].sort());
    expect((await send('GET', `workers?schoolId=${otherSchool.schoolId}`, coord)).statusCode).toBe(403);
    expect((await send('GET', 'workers/99999999', admin)).statusCode).toBe(404);
    expect((await send('PUT', 'workers/99999999', admin, { accommodations: null })).statusCode).toBe(404);
  });

  it('refuses bad input with 400, changing nothing', async () => {
    const id = mine[2]!;
    for (const accommodations of [
      profile({ extraTimePercent: 201 }),
      { ...profile(), theme: 'pink' },
      { largeText: true },
    ]) {
      const res = await send('PUT', `workers/${id}`, admin, { accommodations });
      expect(res.statusCode, JSON.stringify(accommodations)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await send('GET', 'workers/abc', admin)).statusCode).toBe(400);
    expect((await send('GET', 'workers?page=0', admin)).statusCode).toBe(400);
    expect(await stored(id)).toBeNull();
  });
});

describe('many workers', () => {
  it('sets them all at once, each audited; all or nothing', async () => {
    const coord = school.coordinator.session;
    const ids = [mine[1]!, mine[2]!];
    const res = await send('PUT', 'workers', coord, { workerIds: ids, accommodations: profile() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    for (const id of ids) {
      expect(await stored(id)).toEqual(profile());
      expect((await audits(id)).at(-1)!.details).toEqual({ accommodations: profile(), bulk: 2 });
    }
    const refused = await send('PUT', 'workers', coord, {
      workerIds: [mine[1]!, foreign],
      accommodations: null,
    });
    expect(refused.statusCode).toBe(403);
    expect(await stored(mine[1]!)).toEqual(profile());
    const unknown = await send('PUT', 'workers', admin, {
      workerIds: [mine[1]!, 99999999],
      accommodations: null,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await stored(mine[1]!)).toEqual(profile());
    for (const body of [
      { workerIds: [], accommodations: null },
      { workerIds: [foreign, foreign], accommodations: null },
      { workerIds: [foreign] },
    ])
      expect((await send('PUT', 'workers', admin, body)).statusCode, JSON.stringify(body)).toBe(400);
    expect(
      (await send('PUT', 'workers', null, { workerIds: [foreign], accommodations: null })).statusCode,
    ).toBe(401);
  });
});

describe('the exam of a worker', () => {
  it('adds the extra time to the deadline, tells the worker their profile, and gives rest breaks', async () => {
    const org = await createOrg(t.app);
    const worker = await createWorker(t.app, org.schoolId);
    await db().update(workers).set({ accommodations: profile() }).where(eq(workers.id, worker));
    const pt = await createParticipantTest(t.app, org);
    await db()
      .update(participantTests)
      .set({ studentId: null, workerId: worker })
      .where(eq(participantTests.id, pt.participantTestId));
    await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'short_text', reference: 'x' }]);
    const { session } = await signedInParticipant(t.app, pt);
    const call = (method: 'GET' | 'POST', url: string) =>
      t.app.inject({
        method,
        url: `/api/exam/test/${url}`,
        headers: session.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });

    const current = await call('GET', 'currentParticipantTest');
    expect(current.json().participant.accommodations).toEqual(profile());
    const started = await call('POST', 'examwork/new');
    expect(started.statusCode, started.body).toBe(200);
    const state = started.json();
    expect(state.extraSeconds).toBe(45 * 60 * 0.5);
    const [row] = await db().select().from(examWorks).where(eq(examWorks.id, state.id));
    expect(row!.deadlineAt.getTime() - row!.startedAt.getTime()).toBe(45 * 60 * 1.5 * 1000);

    const pause = await call('GET', 'examwork/pause');
    expect(pause.json().restBreakSecondsLeft).toBe(10 * 60);
    const onBreak = await call('POST', 'examwork/break/start');
    expect(onBreak.statusCode, onBreak.body).toBe(200);
  });
});
