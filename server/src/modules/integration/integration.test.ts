import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyScope,
  CreateWorkersResult,
  IntegrationMrko,
  IntegrationReportAll,
  PakSpecifications,
} from '@attesta/contract';
import { apiKeys, auditEvents, diagnostics, schools, userRoles, workers } from '../../db/schema/index.js';
import { sha256 } from '../../lib/tokens.js';
import { createTestApp, createOrg, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { createDiagnosticFixture } from '../../../test/diagnostic-fixtures.js';
import { createReportWorld, register, sit, type ReportWorld } from '../reports/test-support.js';

let t: TestApp;
let w: ReportWorld;
let published: { id: number; code: string };
let coordinator: Session;

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

async function makeKey(scopes: ApiKeyScope[], ooId?: number): Promise<ApiKeyCreated> {
  const res = await post(
    '/api/admin/apiKeys',
    { name: `key ${scopes.join('+')}`, scopes, ooId },
    w.admin.headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ApiKeyCreated;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await createReportWorld(t.app);
  coordinator = w.coordA;
  published = await createDiagnosticFixture(t.app, {
    parallels: [7],
    subjectTestIds: [w.math],
    schoolIds: [w.b.schoolId],
  });
  await t.app.ctx.db
    .update(diagnostics)
    .set({ resultsPublished: true, publishedAt: new Date() })
    .where(eq(diagnostics.id, published.id));
  const m = {
    diagnosticId: published.id,
    subjectTestId: w.math,
    testDate: w.yesterday,
    maxScores: [1, 1, 2, 2],
  };
  for (const i of [1, 2]) {
    const reg = await register(t.app, {
      ...m,
      org: w.b,
      classId: w.b.classId,
      studentId: w.b.studentIds[i]!,
    });
    await sit(t.app, reg, { ...m, variant: w.v2, scores: [1, 1, 2, i - 1] });
  }
});
afterAll(async () => t.close());

describe('API keys (/api/admin/apiKeys)', () => {
  it('401 without a session, 403 for another role', async () => {
    expect((await get('/api/admin/apiKeys')).statusCode).toBe(401);
    expect((await get('/api/admin/apiKeys', coordinator.headers)).statusCode).toBe(403);
    const res = await post('/api/admin/apiKeys', { name: 'x', scopes: ['mrko'] }, coordinator.headers);
    expect(res.statusCode).toBe(403);
  });

  it('400 for a bad body, and nothing is made', async () => {
    const db = t.app.ctx.db;
    const [before] = await db.select({ n: count() }).from(apiKeys);
    for (const body of [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['everything'] },
      { name: '', scopes: ['mrko'] },
      { name: 'x', scopes: ['mrko', 'mrko'] },
      { name: 'x', scopes: ['mrko'], ooId: 999_999 },
    ]) {
      const res = await post('/api/admin/apiKeys', body, w.admin.headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const [after] = await db.select({ n: count() }).from(apiKeys);
    expect(after!.n).toBe(before!.n);
  });

  it('answers the secret once, stores only its hash, lists without it, audited', async () => {
    const created = await makeKey(['mrko', 'reports'], w.b.ooId);
    const m = /^atk_([0-9a-f]{12})_([A-Za-z0-9_-]{40,})$/.exec(created.secret);
    expect(m).not.toBeNull();
    expect(created.key).toMatchObject({
      prefix: m![1],
      scopes: ['mrko', 'reports'],
      ooId: w.b.ooId,
      revokedAt: null,
    });
    const [row] = await t.app.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.key.id));
    expect(row!.keyHash).toBe(sha256(m![2]!));
    expect(JSON.stringify(row)).not.toContain(m![2]!);
    const roles = await t.app.ctx.db.select().from(userRoles).where(eq(userRoles.userId, row!.userId));
    expect(roles.map((r) => r.role)).toEqual(['integration']);

    const list = await get('/api/admin/apiKeys', w.admin.headers);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(m![2]!);
    const listed = (list.json() as { items: ApiKey[] }).items.find((k) => k.id === created.key.id);
    expect(listed).toMatchObject({ name: 'key mrko+reports', userLogin: `integration-${m![1]}` });
    const [a] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'api_key.create'), eq(auditEvents.entityId, String(created.key.id))));
    expect(a).toBeDefined();
    expect(JSON.stringify(a)).not.toContain(m![2]!);
  });

  it('a revoked key is refused (401); revoking an unknown key is 404', async () => {
    const k = await makeKey(['specifications']);
    const url = '/api/integration/pak/specifications?parallel=7';
    expect((await get(url, bearer(k.secret))).statusCode).toBe(200);
    const res = await post(`/api/admin/apiKeys/${k.key.id}/revoke`, {}, w.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ApiKey).revokedAt).not.toBeNull();
    expect((await get(url, bearer(k.secret))).statusCode).toBe(401);
    expect((await post(`/api/admin/apiKeys/999999/revoke`, {}, w.admin.headers)).statusCode).toBe(404);
    const events = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'api_key.revoke'), eq(auditEvents.entityId, String(k.key.id))));
    expect(events).toHaveLength(1);
  });
});

describe('GET /api/integration/mrko/exportResults', () => {
  const url = '/api/integration/mrko/exportResults';

  it('401 without a key, 403 for another role and for a key without the scope', async () => {
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, coordinator.headers)).statusCode).toBe(403);
    const other = await makeKey(['reports']);
    expect((await get(url, bearer(other.secret))).statusCode).toBe(403);
    expect((await get(url, bearer('atk_0000000000aa_notarealsecretnotarealsecret'))).statusCode).toBe(401);
  });

  it('400 for a bad date or page', async () => {
    const k = await makeKey(['mrko']);
    const bad = await get(`${url}?startDate=2026-02-30`, bearer(k.secret));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_date' });
    expect((await get(`${url}?pageSize=0`, bearer(k.secret))).statusCode).toBe(400);
    expect((await get(`${url}?format=xml`, bearer(k.secret))).statusCode).toBe(400);
  });

  it('pages of published marks only, for a key and for an admin; the last use recorded', async () => {
    const k = await makeKey(['mrko']);
    const first = await get(
      `${url}?startDate=${w.yesterday}&endDate=${w.yesterday}&pageSize=1`,
      bearer(k.secret),
    );
    expect(first.statusCode, first.body).toBe(200);
    const a = first.json() as IntegrationMrko;
    expect(a).toMatchObject({ format: 'mrko.marks', version: 1, page: 1, pageSize: 1, total: 2 });
    expect(a.items).toHaveLength(1);
    const second = (await get(`${url}?pageSize=1&page=2`, bearer(k.secret))).json() as IntegrationMrko;
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.participantCode).not.toBe(a.items[0]!.participantCode);
    // the report world's own diagnostic is not published: none of its results leave
    const all = (await get(url, w.admin.headers)).json() as IntegrationMrko;
    expect(all.total).toBe(2);
    expect(all.items.every((i) => i.schoolCode !== null)).toBe(true);
    const [row] = await t.app.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, k.key.id));
    expect(row!.lastUsedAt).not.toBeNull();
    const audited = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'integration.export'), eq(auditEvents.userId, k.key.userId)));
    expect(audited.length).toBeGreaterThan(0);
  });

  it('a key limited to another ОО reads nothing; format=csv answers every page', async () => {
    const limited = await makeKey(['mrko'], w.a.ooId);
    expect(((await get(url, bearer(limited.secret))).json() as IntegrationMrko).total).toBe(0);
    const k = await makeKey(['mrko'], w.b.ooId);
    const csv = await get(`${url}?format=csv&pageSize=1`, bearer(k.secret));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^schoolCode;schoolName;className/);
    expect(lines).toHaveLength(3);
  });
});

describe('GET /api/integration/report/all', () => {
  const url = '/api/integration/report/all';

  it('401, 403 (role, scope), 400 without the period', async () => {
    expect((await get(`${url}?startDate=${w.yesterday}&endDate=${w.yesterday}`)).statusCode).toBe(401);
    expect(
      (await get(`${url}?startDate=${w.yesterday}&endDate=${w.yesterday}`, coordinator.headers)).statusCode,
    ).toBe(403);
    const other = await makeKey(['mrko']);
    expect(
      (await get(`${url}?startDate=${w.yesterday}&endDate=${w.yesterday}`, bearer(other.secret))).statusCode,
    ).toBe(403);
    const k = await makeKey(['reports']);
    expect((await get(url, bearer(k.secret))).statusCode).toBe(400);
    const range = await get(`${url}?startDate=${w.yesterday}&endDate=2000-01-01`, bearer(k.secret));
    expect(range.json()).toMatchObject({ code: 'invalid_date_range' });
  });

  it('every published result of the period in the attesta layout, paged', async () => {
    const k = await makeKey(['reports']);
    const res = await get(`${url}?startDate=${w.yesterday}&endDate=${w.yesterday}`, bearer(k.secret));
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as IntegrationReportAll;
    expect(r).toMatchObject({ format: 'attesta.results', total: 2, page: 1, pageSize: 100 });
    expect(r.items.map((i) => i.diagnosticCode)).toEqual([published.code, published.code]);
    const empty = (
      await get(`${url}?startDate=${w.tomorrow}&endDate=${w.tomorrow}`, bearer(k.secret))
    ).json();
    expect(empty).toMatchObject({ total: 0, items: [] });
  });
});

describe('GET /api/integration/pak/specifications', () => {
  const url = '/api/integration/pak/specifications';

  it('401, 403 (role, scope), 400 for a bad parallel or system', async () => {
    expect((await get(`${url}?parallel=7`)).statusCode).toBe(401);
    expect((await get(`${url}?parallel=7`, coordinator.headers)).statusCode).toBe(403);
    const other = await makeKey(['workers']);
    expect((await get(`${url}?parallel=7`, bearer(other.secret))).statusCode).toBe(403);
    const k = await makeKey(['specifications']);
    for (const q of ['', '?parallel=12', '?parallel=x', '?parallel=7&system=mars'])
      expect((await get(`${url}${q}`, bearer(k.secret))).statusCode, q).toBe(400);
  });

  it("the grade's subject tests with their specification elements", async () => {
    const k = await makeKey(['specifications']);
    const res = await get(`${url}?parallel=7`, bearer(k.secret));
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as PakSpecifications;
    const math = r.items.find((i) => i.subjectTestId === w.math);
    expect(math?.specification?.id).toBe(w.specId);
    expect(math!.specification!.elements.map((e) => e.id)).toEqual(
      expect.arrayContaining([w.elements.algebra, w.elements.equations, w.elements.geometry]),
    );
    expect(r.items.every((i) => i.parallels.includes(7))).toBe(true);
    const none = (await get(`${url}?parallel=7&system=worker`, w.admin.headers)).json() as PakSpecifications;
    expect(none.items.find((i) => i.subjectTestId === w.math)).toBeUndefined();
    expect(none.system).toBe('worker');
  });
});

describe('POST /api/integration/attesta/CreateWorkers', () => {
  const url = '/api/integration/attesta/CreateWorkers';
  let codeB = '';
  let codeA = '';
  beforeAll(async () => {
    const rows = await t.app.ctx.db
      .select()
      .from(schools)
      .where(inArray(schools.id, [w.a.schoolId, w.b.schoolId]));
    codeA = rows.find((s) => s.id === w.a.schoolId)!.code!;
    codeB = rows.find((s) => s.id === w.b.schoolId)!.code!;
  });
  const worker = (externalId: string, schoolCode: string, extra: object = {}) => ({
    externalId,
    schoolCode,
    position: 'Организатор в аудитории',
    surname: 'Учителева',
    name: 'Анна',
    patronymic: 'Петровна',
    email: `${externalId}@school.example`,
    ...extra,
  });
  const byExternal = (ids: string[]) =>
    t.app.ctx.db.select().from(workers).where(inArray(workers.externalId, ids));

  it('401, 403 (role, scope, another ОО), 400 for bad input; nothing changes', async () => {
    const body = { workers: [worker('ext-x1', codeB)] };
    expect((await post(url, body)).statusCode).toBe(401);
    expect((await post(url, body, coordinator.headers)).statusCode).toBe(403);
    const other = await makeKey(['mrko']);
    expect((await post(url, body, bearer(other.secret))).statusCode).toBe(403);
    const limited = await makeKey(['workers'], w.a.ooId);
    expect((await post(url, body, bearer(limited.secret))).statusCode).toBe(403);
    const k = await makeKey(['workers']);
    const unknown = await post(
      url,
      { workers: [worker('ext-x1', codeB), worker('ext-x2', 'NO-SUCH')] },
      bearer(k.secret),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'not_found',
      errors: [{ path: 'body.workers.1.schoolCode' }],
    });
    for (const bad of [
      { workers: [] },
      { workers: [worker('ext-x1', codeB), worker('ext-x1', codeB)] },
      { workers: [worker('bad id!', codeB)] },
      { workers: [worker('ext-x1', codeB, { surname: '' })] },
    ])
      expect((await post(url, bad, bearer(k.secret))).statusCode).toBe(400);
    expect(await byExternal(['ext-x1', 'ext-x2'])).toEqual([]);
  });

  it('creates, then the same body gives the same rows, and a change updates', async () => {
    const k = await makeKey(['workers'], w.b.ooId);
    const body = {
      workers: [worker('ext-1', codeB), worker('ext-2', codeB, { position: null, email: null })],
    };
    const first = await post(url, body, bearer(k.secret));
    expect(first.statusCode, first.body).toBe(200);
    const r1 = first.json() as CreateWorkersResult;
    expect(r1).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const rows1 = await byExternal(['ext-1', 'ext-2']);
    const again = (await post(url, body, bearer(k.secret))).json() as CreateWorkersResult;
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(again.items.map((i) => i.workerId)).toEqual(r1.items.map((i) => i.workerId));
    expect(await byExternal(['ext-1', 'ext-2'])).toEqual(rows1);
    const changed = await post(
      url,
      { workers: [worker('ext-1', codeB, { surname: 'Новикова' })] },
      w.admin.headers,
    );
    expect(changed.json()).toMatchObject({
      created: 0,
      updated: 1,
      items: [{ workerId: r1.items[0]!.workerId }],
    });
    const [row] = await byExternal(['ext-1']);
    expect(row).toMatchObject({ surname: 'Новикова', schoolId: w.b.schoolId });
    // a key of another ОО may not move or change it
    const limited = await makeKey(['workers'], w.a.ooId);
    const move = await post(url, { workers: [worker('ext-1', codeA)] }, bearer(limited.secret));
    expect(move.statusCode).toBe(403);
    const org = await createOrg(t.app);
    expect(org.ooId).not.toBe(w.b.ooId);
  });
});

// a signed-in integration user without a key is not a key
it('an integration session without a key is refused (403)', async () => {
  const { session } = await signedIn(t.app, ['integration']);
  expect((await get('/api/integration/pak/specifications?parallel=7', session.headers)).statusCode).toBe(403);
});
