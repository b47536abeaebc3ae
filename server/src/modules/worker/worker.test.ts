import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createExamWork,
  createOrg,
  createSubjectTest,
  createTestApp,
  createVariantWithTasks,
  createWorker,
  createWorkerPosition,
  guardResults,
  signedIn,
  type GuardedCall,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let orgA: OrgFixture;
let orgB: OrgFixture;
let coordA: Session;
let coordB: Session;
let admin: Session;
let organizator: Session;
let positionId: number;
let workerTestKind: number;
let workerA: number;
let workerB: number;

const call = (session: Session, method: GuardedCall['method'], url: string, payload?: object) =>
  t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
const window = () => ({
  startsAt: new Date(Date.now() - 86_400_000).toISOString(),
  endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
});
async function save(session: Session, body: object = {}) {
  const res = await call(session, 'PUT', '/api/workerTest/save', {
    name: 'Подготовка организаторов',
    subjectTestId: workerTestKind,
    positionId,
    ...window(),
    ...body,
  });
  return res;
}
const code = (session: Session, workerTestId: number, workerId: number) =>
  call(
    session,
    'GET',
    `/api/workerTest/generateActivationCode?workerTestId=${workerTestId}&workerId=${workerId}`,
  );

beforeAll(async () => {
  t = await createTestApp();
  orgA = await createOrg(t.app);
  orgB = await createOrg(t.app);
  coordA = (await signedIn(t.app, ['coordinator'], { schoolId: orgA.schoolId })).session;
  coordB = (await signedIn(t.app, ['coordinator'], { schoolId: orgB.schoolId })).session;
  admin = (await signedIn(t.app, ['admin'])).session;
  organizator = (await signedIn(t.app, ['organizator'], { schoolId: orgA.schoolId })).session;
  positionId = await createWorkerPosition(t.app, 'Организатор в аудитории');
  workerTestKind = await createSubjectTest(t.app, { kind: 'worker', parallels: [] });
  workerA = await createWorker(t.app, orgA.schoolId, { positionId });
  workerB = await createWorker(t.app, orgB.schoolId, { positionId });
});
afterAll(async () => t.close());

describe('access', () => {
  it('401, 403 role, 403 csrf on every call (incl. the state-changing GET generateActivationCode)', async () => {
    const wt = (await save(coordA)).json();
    const calls: GuardedCall[] = [
      { method: 'POST', url: '/api/workerPosition/list', payload: { page: 1 } },
      { method: 'GET', url: `/api/workerTest/${wt.id}` },
      { method: 'DELETE', url: `/api/workerTest/${wt.id}` },
      { method: 'POST', url: '/api/workerTest/list', payload: { page: 1 } },
      { method: 'PUT', url: '/api/workerTest/save', payload: { name: 'x' } },
      {
        method: 'GET',
        url: `/api/workerTest/generateActivationCode?workerTestId=${wt.id}&workerId=${workerA}`,
      },
    ];
    for (const c of calls) {
      const r = await guardResults(t.app, c, { allowed: coordA, wrongRole: organizator });
      const csrf = c.method === 'GET' && !c.url.includes('generate') ? 200 : 'csrf';
      expect([c.url, r]).toEqual([c.url, { anonymous: 401, wrongRole: 403, noCsrf: csrf }]);
    }
    expect(await countRows(t.database, 'participant_tests')).toBe(0);
    expect((await call(coordA, 'GET', `/api/workerTest/${wt.id}`)).statusCode).toBe(200);
  });
});

describe('worker positions and tests', () => {
  it('lists positions', async () => {
    const res = await call(coordA, 'POST', '/api/workerPosition/list', {
      page: 1,
      filter: { search: 'аудитории' },
    });
    expect(res.json()).toEqual({ items: [{ id: positionId, name: 'Организатор в аудитории' }], total: 1 });
  });

  it('creates a worker test with its own worker diagnostic in one go; updates both', async () => {
    const res = await save(coordA, { schoolId: orgA.schoolId });
    expect(res.statusCode, res.body).toBe(200);
    const wt = res.json();
    expect(wt).toMatchObject({
      schoolId: orgA.schoolId,
      positionId,
      subjectTestId: workerTestKind,
      diagnosticCode: expect.stringMatching(/^W-\d{4}-/),
      editable: true,
      participantCount: 0,
    });
    const [d] = await t.database.query<{ kind: string; name: string; created_by_role: string }>(
      'select kind, name, created_by_role from diagnostics where id = $1',
      [wt.diagnosticId],
    );
    expect(d).toEqual({ kind: 'worker', name: 'Подготовка организаторов', created_by_role: 'coordinator' });
    const updated = await save(coordA, { id: wt.id, name: 'Новое имя', positionId: null });
    expect(updated.json()).toMatchObject({ id: wt.id, name: 'Новое имя', positionId: null });
    const [d2] = await t.database.query<{ name: string }>('select name from diagnostics where id = $1', [
      wt.diagnosticId,
    ]);
    expect(d2!.name).toBe('Новое имя');
    expect(
      await countRows(t.database, 'audit_events', `entity = 'worker_test' and entity_id = '${wt.id}'`),
    ).toBe(2);
  });

  it('coordinators see own and global tests, change only their own; admin all', async () => {
    const own = (await save(coordA)).json();
    const global = (await save(admin, { schoolId: null })).json();
    const otherSchool = (await save(coordB)).json();
    const ids = (await call(coordA, 'POST', '/api/workerTest/list', { page: 1, pageSize: 500 }))
      .json()
      .items.map((w: { id: number }) => w.id);
    expect(ids).toEqual(expect.arrayContaining([own.id, global.id]));
    expect(ids).not.toContain(otherSchool.id);
    expect((await call(coordA, 'GET', `/api/workerTest/${global.id}`)).json().editable).toBe(false);
    expect((await call(coordA, 'GET', `/api/workerTest/${otherSchool.id}`)).statusCode).toBe(403);
    expect((await call(coordA, 'DELETE', `/api/workerTest/${otherSchool.id}`)).statusCode).toBe(403);
    expect((await call(coordA, 'DELETE', `/api/workerTest/${global.id}`)).statusCode).toBe(403);
    expect((await save(coordA, { id: global.id })).statusCode).toBe(403);
    expect((await save(coordA, { id: otherSchool.id })).statusCode).toBe(403);
    expect((await save(coordA, { schoolId: orgB.schoolId })).statusCode).toBe(403);
    expect((await call(coordA, 'GET', '/api/workerTest/99999999')).statusCode).toBe(404);
    const all = (await call(admin, 'POST', '/api/workerTest/list', { page: 1, pageSize: 500 })).json();
    expect(all.items.map((w: { id: number }) => w.id)).toEqual(
      expect.arrayContaining([own.id, global.id, otherSchool.id]),
    );
  });

  it('bad saves change nothing', async () => {
    const before = [await countRows(t.database, 'worker_tests'), await countRows(t.database, 'diagnostics')];
    const bad = [
      { endsAt: new Date(Date.now() - 2 * 86_400_000).toISOString() },
      { subjectTestId: 99_999_999 },
      { positionId: 99_999_999 },
      { name: '' },
      { extra: 1 },
      { startsAt: 'yesterday' },
    ];
    for (const body of bad)
      expect([JSON.stringify(body), (await save(coordA, body)).statusCode]).toEqual([
        JSON.stringify(body),
        400,
      ]);
    expect((await save(admin, { schoolId: 99_999_999 })).statusCode).toBe(400);
    expect([await countRows(t.database, 'worker_tests'), await countRows(t.database, 'diagnostics')]).toEqual(
      before,
    );
  });
});

describe('activation codes and deletion', () => {
  it('creates a worker’s sitting once, with a unique code; scope on worker and test', async () => {
    const wt = (await save(coordA)).json();
    const first = await code(coordA, wt.id, workerA);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      activationCode: expect.stringMatching(/^[2-9A-Z]{5}-[2-9A-Z]{5}$/),
      created: true,
    });
    const again = (await code(coordA, wt.id, workerA)).json();
    expect(again).toEqual({ ...first.json(), created: false });
    const [pt] = await t.database.query<{ worker_id: number; diagnostic_id: number; school_id: number }>(
      'select worker_id, diagnostic_id, school_id from participant_tests where id = $1',
      [first.json().participantTestId],
    );
    expect(pt).toEqual({ worker_id: workerA, diagnostic_id: wt.diagnosticId, school_id: orgA.schoolId });
    expect((await code(coordA, wt.id, workerB)).statusCode).toBe(403);
    expect((await code(coordB, wt.id, workerB)).statusCode).toBe(403);
    expect((await code(coordA, wt.id, 99_999_999)).statusCode).toBe(404);
    expect(
      (await call(coordA, 'GET', `/api/workerTest/generateActivationCode?workerTestId=${wt.id}`)).statusCode,
    ).toBe(400);
    const blocked = await createWorker(t.app, orgA.schoolId, { blocked: true });
    expect((await code(coordA, wt.id, blocked)).json().code).toBe('worker_blocked');
    // A global test: each school's coordinator makes codes for their own workers.
    const global = (await save(admin, { schoolId: null })).json();
    expect((await code(coordB, global.id, workerB)).json().created).toBe(true);
    expect((await call(coordA, 'GET', `/api/workerTest/${wt.id}`)).json().participantCount).toBe(1);
  });

  it('deletes softly without exam works; 409 has_exam_works otherwise', async () => {
    const wt = (await save(coordA)).json();
    const sitting = (await code(coordA, wt.id, workerA)).json();
    const variant = await createVariantWithTasks(t.app, workerTestKind, [{ answerType: 'short_text' }]);
    await createExamWork(t.app, sitting.participantTestId, variant.variantId);
    const refused = await call(coordA, 'DELETE', `/api/workerTest/${wt.id}`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'has_exam_works']);
    const changed = await save(coordA, {
      id: wt.id,
      subjectTestId: await createSubjectTest(t.app, { kind: 'worker' }),
    });
    expect([changed.statusCode, changed.json().code]).toEqual([409, 'has_participant_tests']);

    const empty = (await save(coordA)).json();
    await code(coordA, empty.id, workerA);
    const ok = await call(coordA, 'DELETE', `/api/workerTest/${empty.id}`);
    expect([ok.statusCode, ok.json()]).toEqual([200, { ok: true }]);
    expect((await call(coordA, 'GET', `/api/workerTest/${empty.id}`)).statusCode).toBe(404);
    expect(
      await countRows(
        t.database,
        'participant_tests',
        `diagnostic_id = ${empty.diagnosticId} and deleted_at is null`,
      ),
    ).toBe(0);
  });
});
