import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_ITEM_TYPES } from '@attesta/contract';
import { enqueue } from '../../jobs/queue.js';
import { registeredJobTypes } from '../../jobs/runner.js';
import { createOrg, createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { createDiagnosticFixture, createSubjectTest } from '../../../test/diagnostic-fixtures.js';

let t: TestApp;
let coordA: { id: number; session: Session };
let coordB: Session;
let admin: Session;
let diagA: number;
let diagB: number;
let diagAB: number;
let ownDiag: number;
const ids: Record<string, number> = {};

const list = (payload: unknown, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/ParticipantTest/queuelist',
    payload: payload as object,
    ...(headers ? { headers } : {}),
  });
const byType = (type: string, diagnosticId: number | string, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `/api/ParticipantTest/getqueuelistbytype/${type}/${diagnosticId}`,
    ...(headers ? { headers } : {}),
  });

beforeAll(async () => {
  t = await createTestApp();
  const a = await createOrg(t.app);
  const b = await createOrg(t.app);
  const c = await createOrg(t.app);
  const ca = await signedIn(t.app, ['coordinator'], { schoolId: a.schoolId });
  coordA = { id: ca.user.id, session: ca.session };
  coordB = (await signedIn(t.app, ['coordinator'], { schoolId: b.schoolId })).session;
  admin = (await signedIn(t.app, ['admin'])).session;
  const test = await createSubjectTest(t.app, { parallels: [7] });
  const base = { parallels: [7], subjectTestIds: [test] };
  diagA = (await createDiagnosticFixture(t.app, { ...base, schoolIds: [a.schoolId] })).id;
  diagB = (await createDiagnosticFixture(t.app, { ...base, schoolIds: [b.schoolId] })).id;
  diagAB = (await createDiagnosticFixture(t.app, { ...base, schoolIds: [a.schoolId, b.schoolId] })).id;
  // Created by coordinator A for school C (e.g. before moving): still A's to watch.
  ownDiag = (await createDiagnosticFixture(t.app, { ...base, schoolIds: [c.schoolId], createdBy: coordA.id }))
    .id;
  const db = t.app.ctx.db;
  const add = async (
    name: string,
    type: string,
    diagnosticId: number | null,
    payload: Record<string, unknown> = {},
  ) => {
    ids[name] = (await enqueue(db, { type, diagnosticId, payload })).item.id;
  };
  await add('planA', 'planning', diagA, {
    date: '2026-03-01',
    schoolId: a.schoolId,
    secretToken: 'do-not-show',
  });
  await add('resultA', 'result', diagA);
  await add('planB', 'planning', diagB);
  await add('planAB', 'planning', diagAB);
  await add('planOwn', 'planning', ownDiag);
  await add('exportNone', 'export', null);
});
afterAll(async () => t.close());

describe('POST /api/ParticipantTest/queuelist', () => {
  it('401 without a session, 403 for other roles and without the anti-CSRF header', async () => {
    expect((await list({})).statusCode).toBe(401);
    const organizator = (await signedIn(t.app, ['organizator'])).session;
    expect((await list({}, organizator.headers)).statusCode).toBe(403);
    const csrf = await list({}, { cookie: admin.cookie });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json()).toMatchObject({ code: 'csrf' });
  });

  it('400 for unknown filter fields, sort fields or statuses', async () => {
    const h = admin.headers;
    expect((await list({ filter: { school: 1 } }, h)).statusCode).toBe(400);
    expect((await list({ sort: { field: 'payload', dir: 'asc' } }, h)).statusCode).toBe(400);
    expect((await list({ filter: { status: 'exploded' } }, h)).statusCode).toBe(400);
    expect((await list({ pageSize: 0 }, h)).statusCode).toBe(400);
  });

  it('admin sees every item, newest first, with only the public part of the payload', async () => {
    const res = await list({ page: 1, pageSize: 50 }, admin.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(6);
    expect(body.items.map((i: { id: number }) => i.id)).toEqual(Object.values(ids).sort((x, y) => y - x));
    const planA = body.items.find((i: { id: number }) => i.id === ids.planA);
    expect(planA).toMatchObject({ type: 'planning', status: 'queued', diagnosticId: diagA, progress: 0 });
    expect(planA.params).toEqual({ date: '2026-03-01', schoolId: expect.any(Number) });
    expect(JSON.stringify(body)).not.toContain('do-not-show');
  });

  it('a coordinator sees items of diagnostics with their school or of their own making, never others', async () => {
    const res = await list(
      { page: 1, pageSize: 50, sort: { field: 'id', dir: 'asc' } },
      coordA.session.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { id: number }) => i.id)).toEqual([
      ids.planA,
      ids.resultA,
      ids.planAB,
      ids.planOwn,
    ]);
    const b = await list({ page: 1, pageSize: 50, sort: { field: 'id', dir: 'asc' } }, coordB.headers);
    expect(b.json().items.map((i: { id: number }) => i.id)).toEqual([ids.planB, ids.planAB]);
  });

  it('filters by type, status and diagnostic, pages; a diagnostic outside the scope is 403, unknown 404', async () => {
    const h = coordA.session.headers;
    const planning = await list({ filter: { type: 'planning' } }, h);
    expect(planning.json().total).toBe(3);
    const page = await list(
      { page: 2, pageSize: 2, filter: { type: 'planning' }, sort: { field: 'id', dir: 'asc' } },
      h,
    );
    expect(page.json()).toMatchObject({ total: 3, items: [{ id: ids.planOwn }] });
    expect((await list({ filter: { status: 'done' } }, h)).json().total).toBe(0);
    const ofA = await list({ filter: { diagnosticId: diagA } }, h);
    expect(
      ofA
        .json()
        .items.map((i: { id: number }) => i.id)
        .sort(),
    ).toEqual([ids.planA, ids.resultA].sort());
    expect((await list({ filter: { diagnosticId: diagB } }, h)).statusCode).toBe(403);
    expect((await list({ filter: { diagnosticId: 999_999 } }, h)).statusCode).toBe(404);
  });
});

describe('GET /api/ParticipantTest/getqueuelistbytype/{type}/{diagnosticId}', () => {
  it('lists one type of a diagnostic in scope', async () => {
    const res = await byType('planning', diagA, coordA.session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((i: { id: number }) => i.id)).toEqual([ids.planA]);
    expect(
      (await byType('result', diagA, coordA.session.headers)).json().map((i: { id: number }) => i.id),
    ).toEqual([ids.resultA]);
    expect((await byType('planning', ownDiag, coordA.session.headers)).statusCode).toBe(200);
    expect((await byType('planning', diagB, admin.headers)).json()).toHaveLength(1);
  });

  it('401, 403 for another school’s diagnostic or role, 404 unknown, 400 bad type or id', async () => {
    expect((await byType('planning', diagA)).statusCode).toBe(401);
    expect((await byType('planning', diagB, coordA.session.headers)).statusCode).toBe(403);
    const expert = (await signedIn(t.app, ['expert'])).session;
    expect((await byType('planning', diagA, expert.headers)).statusCode).toBe(403);
    expect((await byType('planning', 999_999, coordA.session.headers)).statusCode).toBe(404);
    expect((await byType('haircut', diagA, coordA.session.headers)).statusCode).toBe(400);
    expect((await byType('planning', 'abc', coordA.session.headers)).statusCode).toBe(400);
  });
});

describe('queue item types', () => {
  it('every job type the server runs is one the contract names (so staff screens label it)', () => {
    const types = registeredJobTypes();
    expect(types.length).toBeGreaterThanOrEqual(8);
    expect(types.filter((type) => !(QUEUE_ITEM_TYPES as readonly string[]).includes(type))).toEqual([]);
  });
});
