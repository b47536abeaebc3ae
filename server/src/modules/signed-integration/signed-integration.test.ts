import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyCreated, ApiKeyScope, ReportControl, UpstreamPushQueued } from '@attesta/contract';
import {
  countRows,
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type TestApp,
} from '../../../test/helpers.js';
import { loadConfig, type ConfigError } from '../../config.js';
import { auditEvents, diagnostics, queueItems, receivedResults } from '../../db/schema/index.js';
import { busOf, participantKey, type WorkEvent } from '../../events/work-bus.js';
import { createDiagnosticFixture } from '../../../test/diagnostic-fixtures.js';
import { createReportWorld, register, sit, type ReportWorld } from '../reports/test-support.js';
import { signedHeaders } from './signature.js';
import { queuePush, RECEIVE_PATH } from './upstream-push.service.js';

const PROCTORING_SECRET = 'proctoring-secret-of-at-least-32-characters';
const PUSH_SECRET = 'push-secret-shared-by-both-instances-0123456789';
const START = '/api/integration/proctoredu/start_session';
const END = '/api/integration/proctoredu/endsessiondata';

/**
 * The upstream on loopback: a small HTTP server in front of the app's own listener (the app is
 * both the pushing and the receiving instance). It answers 500 to the next `failures` requests.
 */
const upstream = { failures: 0, requests: 0, target: 0 };
let proxy: Server;
let t: TestApp;

beforeAll(async () => {
  proxy = createServer((req, res) => {
    upstream.requests++;
    if (upstream.failures > 0) {
      upstream.failures--;
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":500}');
      return;
    }
    const forward = httpRequest(
      { host: '127.0.0.1', port: upstream.target, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  t = await createTestApp({
    PROCTORING_URL: 'https://proctor.example.test/start',
    PROCTORING_SECRET,
    UPSTREAM_ATTESTA_URL: `http://127.0.0.1:${port}`,
    UPSTREAM_ATTESTA_SECRET: PUSH_SECRET,
    ATTESTA_RECEIVE_SECRET: PUSH_SECRET,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  upstream.target = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => proxy.close(resolve));
});

/** A JSON body POSTed signed with `secret` (headers overridable). */
function signedPost(
  url: string,
  body: unknown,
  o: { secret?: string; now?: Date; headers?: Record<string, string>; raw?: string } = {},
) {
  const payload = o.raw ?? JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      'content-type': 'application/json',
      ...signedHeaders(o.secret ?? PROCTORING_SECRET, payload, o.now),
      ...o.headers,
    },
  });
}

const counts = async () => ({
  sessions: await countRows(t.database, 'proctoring_sessions'),
  events: await countRows(t.database, 'exam_work_events', "kind like 'proctoring%'"),
  pushes: await countRows(t.database, 'received_pushes'),
  results: await countRows(t.database, 'received_results'),
});

describe('proctoring webhooks', () => {
  let workId: number;
  let participantTestId: number;
  let diagnosticId: number;
  let buildingId: number;
  let token: string;
  const heard: WorkEvent[] = [];

  beforeAll(async () => {
    const org = await createOrg(t.app);
    buildingId = org.buildingId;
    const fixture = await createParticipantTest(t.app, org);
    const variant = await createVariantWithTasks(
      t.app,
      fixture.subjectTestId,
      tasksOfEveryType().slice(0, 1),
    );
    workId = await createExamWork(t.app, fixture.participantTestId, variant.variantId, {});
    participantTestId = fixture.participantTestId;
    diagnosticId = fixture.diagnosticId;
    const { session } = await signedInParticipant(t.app, fixture);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/exam/test/getProctoringToken',
      headers: { cookie: session.cookie },
    });
    token = (res.json() as { token: string }).token;
    busOf(t.app.ctx)!.subscribe(participantKey(participantTestId), (e) => heard.push(e));
  });

  it('refuse a missing, wrong or stale signature and a replay, changing nothing', async () => {
    const before = await counts();
    const body = { sessionId: 'sess-refused', token };
    const unsigned = await t.app.inject({ method: 'POST', url: START, payload: body });
    expect(unsigned.statusCode).toBe(401);
    const wrong = await signedPost(START, body, { secret: 'another-secret-of-at-least-32-characters!' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'bad_signature' });
    const tampered = await signedPost(START, body, {
      headers: signedHeaders(PROCTORING_SECRET, JSON.stringify({ ...body, sessionId: 'other' })),
    });
    expect(tampered.json()).toMatchObject({ status: 401, code: 'bad_signature' });
    const stale = await signedPost(START, body, { now: new Date(Date.now() - 6 * 60_000) });
    expect(stale.json()).toMatchObject({ status: 401, code: 'stale_request' });
    const future = await signedPost(START, body, { now: new Date(Date.now() + 6 * 60_000) });
    expect(future.json()).toMatchObject({ status: 401, code: 'stale_request' });
    // A session or API key of the role is no substitute for the signature.
    const { session } = await signedIn(t.app, ['integration']);
    const keyOnly = await t.app.inject({
      method: 'POST',
      url: START,
      payload: body,
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(keyOnly.json()).toMatchObject({ status: 401, code: 'bad_signature' });
    expect(await counts()).toEqual(before);
  });

  it('start_session records the session against the work of the token, once', async () => {
    const payload = JSON.stringify({ sessionId: 'sess-1', token });
    const headers = signedHeaders(PROCTORING_SECRET, payload);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: START,
        payload,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const res = await send();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ examWorkId: workId, sessionId: 'sess-1', verdict: null, changed: true });
    const before = await counts();
    // The very same request again is a replay.
    const replay = await send();
    expect(replay.json()).toMatchObject({ status: 409, code: 'replayed_request' });
    // A new request for the same session changes nothing.
    const again = await signedPost(START, { sessionId: 'sess-1', token });
    expect(again.json()).toMatchObject({ examWorkId: workId, changed: false });
    expect(await counts()).toEqual(before);
    expect(
      heard.some((e) => e.kind === 'integrity' && e.data?.integrity === 'proctoring_session_started'),
    ).toBe(true);
  });

  it('answer 404 for a token naming no work and for an unknown session without a token', async () => {
    const org = await createOrg(t.app);
    const other = await createParticipantTest(t.app, org);
    const { session } = await signedInParticipant(t.app, other);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/exam/test/getProctoringToken',
      headers: { cookie: session.cookie },
    });
    const before = await counts();
    const noWork = await signedPost(START, {
      sessionId: 'sess-nowork',
      token: (res.json() as { token: string }).token,
    });
    expect(noWork.statusCode).toBe(404);
    const unknown = await signedPost(END, { sessionId: 'sess-unknown', verdict: 'нарушений нет' });
    expect(unknown.statusCode).toBe(404);
    const badToken = await signedPost(START, { sessionId: 'sess-x', token: `${token}x` });
    expect(badToken.json()).toMatchObject({ status: 401, code: 'invalid_token' });
    expect(await counts()).toEqual(before);
  });

  it('endsessiondata leaves the verdict on the work once: control report and live room show it', async () => {
    const end = {
      sessionId: 'sess-1',
      verdict: 'подозрительно',
      score: 42,
      comment: 'второй человек в кадре',
    };
    const res = await signedPost(END, end);
    expect(res.json()).toEqual({
      examWorkId: workId,
      sessionId: 'sess-1',
      verdict: 'подозрительно',
      changed: true,
    });
    const after = await counts();
    const same = await signedPost(END, end);
    expect(same.json()).toMatchObject({ examWorkId: workId, changed: false });
    const other = await signedPost(END, { ...end, verdict: 'нарушений нет' });
    expect(other.json()).toMatchObject({ status: 409, code: 'conflict' });
    expect(await counts()).toEqual(after);
    expect(
      heard.some(
        (e) =>
          e.kind === 'integrity' &&
          e.data?.integrity === 'proctoring_verdict' &&
          e.data.verdict === end.verdict,
      ),
    ).toBe(true);

    const { session: admin } = await signedIn(t.app, ['admin']);
    const control = await t.app.inject({
      method: 'GET',
      url: `/api/reports/control?diagnosticId=${diagnosticId}`,
      headers: admin.headers,
    });
    expect(control.statusCode).toBe(200);
    expect((control.json() as ReportControl).anomalies).toContainEqual(
      expect.objectContaining({ kind: 'proctoring', examWorkId: workId, verdict: 'подозрительно' }),
    );
    const room = await t.app.inject({
      method: 'GET',
      url: `/api/monitoring/room?diagnosticId=${diagnosticId}&buildingId=${buildingId}`,
      headers: admin.headers,
    });
    expect(JSON.stringify(room.json())).toContain('"proctoringVerdict":"подозрительно"');
  });

  it('an end without a start ties the session by its token', async () => {
    const org = await createOrg(t.app);
    const fixture = await createParticipantTest(t.app, org);
    const variant = await createVariantWithTasks(
      t.app,
      fixture.subjectTestId,
      tasksOfEveryType().slice(0, 1),
    );
    const otherWork = await createExamWork(t.app, fixture.participantTestId, variant.variantId, {});
    const { session } = await signedInParticipant(t.app, fixture);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/exam/test/getProctoringToken',
      headers: { cookie: session.cookie },
    });
    const otherToken = (res.json() as { token: string }).token;
    const end = await signedPost(END, { sessionId: 'sess-2', token: otherToken, verdict: 'нарушений нет' });
    expect(end.json()).toMatchObject({ examWorkId: otherWork, verdict: 'нарушений нет', changed: true });
  });
});

describe('upstream push and its receiving side', () => {
  let w: ReportWorld;
  let first: UpstreamPushQueued;

  beforeAll(async () => {
    w = await createReportWorld(t.app);
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, w.diagnosticId));
  });

  const importCall = (id: number, headers: Record<string, string> = w.admin.headers) =>
    t.app.inject({ method: 'GET', url: `/api/integration/importResultToAttesta/${id}`, headers });

  it('refuses other roles, unknown diagnostics, nothing published and no configuration', async () => {
    expect((await importCall(w.diagnosticId, w.coordA.headers)).statusCode).toBe(403);
    expect((await importCall(999_999)).statusCode).toBe(404);
    const [empty] = await t.app.ctx.db
      .insert(diagnostics)
      .values({
        code: 'EMPTY-PUSH',
        name: 'empty',
        startsAt: new Date(),
        endsAt: new Date(),
        resultsPublished: true,
      })
      .returning();
    expect((await importCall(empty!.id)).json()).toMatchObject({
      status: 409,
      code: 'results_not_published',
    });
    const off = { ...t.app.ctx, config: { ...t.app.ctx.config, upstreamAttesta: undefined } };
    await expect(
      queuePush(off, { auth: {}, ip: null, ooId: null } as never, w.diagnosticId),
    ).rejects.toMatchObject({
      status: 409,
      code: 'not_configured',
    });
    expect(await countRows(t.database, 'queue_items', "type = 'upstream_push'")).toBe(0);
  });

  it('delivers once, after a retry when the upstream fails first', async () => {
    const res = await importCall(w.diagnosticId);
    expect(res.statusCode).toBe(202);
    first = res.json();
    expect(first.results).toBeGreaterThan(0);
    expect(first.idempotencyKey).toMatch(new RegExp(`^attesta-${w.diagnosticId}-[0-9a-f]{32}$`));
    // Asked again while queued: the same item.
    expect((await importCall(w.diagnosticId)).json()).toEqual(first);

    upstream.failures = 1;
    upstream.requests = 0;
    const failed = await t.app.jobs.runOnce();
    expect(failed).toMatchObject({
      id: first.queueItemId,
      status: 'queued',
      attempts: 1,
      errorCode: 'upstream_failed',
    });
    expect(failed!.runAfter.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await counts()).toMatchObject({ pushes: 0, results: 0 });

    await t.app.ctx.db
      .update(queueItems)
      .set({ runAfter: new Date() })
      .where(eq(queueItems.id, first.queueItemId));
    const done = await t.app.jobs.runOnce();
    expect(done).toMatchObject({ status: 'done', attempts: 2 });
    expect(done!.result).toMatchObject({
      idempotencyKey: first.idempotencyKey,
      results: first.results,
      received: first.results,
    });
    expect(upstream.requests).toBe(2);
    expect(await counts()).toMatchObject({ pushes: 1, results: first.results });

    // Pushed again (the earlier item is done): delivered, and the receiver applies nothing twice.
    const again = (await importCall(w.diagnosticId)).json() as UpstreamPushQueued;
    expect(again.queueItemId).not.toBe(first.queueItemId);
    expect(again.idempotencyKey).toBe(first.idempotencyKey);
    expect(await t.app.jobs.runOnce()).toMatchObject({ status: 'done' });
    expect(await counts()).toMatchObject({ pushes: 1, results: first.results });
  });

  it('leaves an audit row for each request, each attempt and each push received', async () => {
    const rows = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, 'integration.push%'))
      .orderBy(asc(auditEvents.id));
    const ofDiagnostic = rows.filter(
      (r) => r.entity === 'diagnostic' && r.entityId === String(w.diagnosticId),
    );
    const adminId = (await t.app.inject({ method: 'GET', url: '/api/user', headers: w.admin.headers })).json<{
      id: number;
    }>().id;
    expect(ofDiagnostic.map((r) => r.action)).toEqual([
      'integration.push', // asked
      'integration.push', // asked again while queued: the same item
      'integration.push.failed', // the upstream answered 500
      'integration.push.delivered', // the retry
      'integration.push', // asked again after delivery
      'integration.push.delivered',
    ]);
    const [asked, again] = ofDiagnostic;
    expect(asked).toMatchObject({
      userId: adminId,
      details: {
        queueItemId: first.queueItemId,
        queued: true,
        idempotencyKey: first.idempotencyKey,
        results: first.results,
        via: 'session',
        ooId: null,
      },
    });
    expect(again!.details).toMatchObject({ queueItemId: first.queueItemId, queued: false });
    expect(ofDiagnostic[2]).toMatchObject({
      userId: null,
      details: {
        queueItemId: first.queueItemId,
        attempt: 1,
        code: 'upstream_failed',
        final: false,
        requestedBy: adminId,
      },
    });
    expect(ofDiagnostic[3]).toMatchObject({
      userId: null,
      details: { queueItemId: first.queueItemId, attempt: 2, upstreamStatus: 200, received: first.results },
    });
    // The receiving side (the same app here): the first push stored, the second one only answered.
    const received = rows.filter((r) => r.action === 'integration.push.received');
    expect(received.map((r) => [r.entity, r.entityId, r.userId, r.details])).toEqual([
      [
        'received_push',
        first.idempotencyKey,
        null,
        { diagnosticExternalId: String(w.diagnosticId), results: first.results, repeated: false },
      ],
      [
        'received_push',
        first.idempotencyKey,
        null,
        { diagnosticExternalId: String(w.diagnosticId), results: first.results, repeated: true },
      ],
    ]);
    expect(received[0]!.ip).toBe('127.0.0.1');
  });

  it('the receiver answers a second identical push with the first answer and refuses bad ones', async () => {
    // The received rows are the sender's export items.
    const [row] = await t.app.ctx.db.select().from(receivedResults).limit(1);
    expect(row?.payload).toMatchObject({
      diagnosticCode: expect.any(String),
      participantCode: row!.participantCode,
    });

    const report = {
      format: 'attesta.results',
      version: 1,
      generatedAt: new Date().toISOString(),
      items: [],
    };
    const body = { diagnosticExternalId: String(w.diagnosticId), report };
    const key = { 'idempotency-key': first.idempotencyKey };
    const before = await counts();
    // Same key, other content.
    const other = await signedPost(RECEIVE_PATH, body, { secret: PUSH_SECRET, headers: key });
    expect(other.json()).toMatchObject({ status: 409, code: 'conflict' });
    const fresh = { 'idempotency-key': 'attesta-test-fresh-key' };
    const wrong = await signedPost(RECEIVE_PATH, body, { secret: PROCTORING_SECRET, headers: fresh });
    expect(wrong.json()).toMatchObject({ status: 401, code: 'bad_signature' });
    const stale = await signedPost(RECEIVE_PATH, body, {
      secret: PUSH_SECRET,
      headers: fresh,
      now: new Date(Date.now() - 10 * 60_000),
    });
    expect(stale.json()).toMatchObject({ status: 401, code: 'stale_request' });
    const noKey = await signedPost(RECEIVE_PATH, body, { secret: PUSH_SECRET });
    expect(noKey.statusCode).toBe(400);
    expect(await counts()).toEqual(before);

    const payload = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...fresh, ...signedHeaders(PUSH_SECRET, payload) };
    const ok = await t.app.inject({ method: 'POST', url: RECEIVE_PATH, payload, headers });
    expect(ok.json()).toMatchObject({ idempotencyKey: 'attesta-test-fresh-key', received: 0 });
    const replay = await t.app.inject({ method: 'POST', url: RECEIVE_PATH, payload, headers });
    expect(replay.json()).toMatchObject({ status: 409, code: 'replayed_request' });
    const repeat = await signedPost(RECEIVE_PATH, body, { secret: PUSH_SECRET, headers: fresh });
    expect(repeat.json()).toEqual(ok.json());
    expect(await counts()).toMatchObject({ pushes: before.pushes + 1, results: before.results });
  });

  it('an API key pushes only with the push scope, and a key of one ОО only a diagnostic wholly of it', async () => {
    const makeKey = async (scopes: ApiKeyScope[], ooId?: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/apiKeys',
        headers: w.admin.headers,
        payload: { name: `push ${scopes.join('+')}`, scopes, ooId },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { authorization: `Bearer ${(res.json() as ApiKeyCreated).secret}` };
    };
    // A diagnostic of school B only (B's ОО), with results published.
    const ofB = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [w.math],
      schoolIds: [w.b.schoolId],
    });
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, ofB.id));
    const m = { diagnosticId: ofB.id, subjectTestId: w.math, testDate: w.yesterday, maxScores: [1, 1, 2, 2] };
    const reg = await register(t.app, {
      ...m,
      org: w.b,
      classId: w.b.classId,
      studentId: w.b.studentIds[0]!,
    });
    await sit(t.app, reg, { ...m, variant: w.v1, scores: [1, 1, 2, 1] });

    const pushed = () =>
      countRows(
        t.database,
        'queue_items',
        `type = 'upstream_push' and diagnostic_id in (${ofB.id}, ${w.diagnosticId})`,
      );
    const before = await pushed();
    const audited = () => countRows(t.database, 'audit_events', `action = 'integration.push'`);
    const auditedBefore = await audited();

    // Keys of every other scope, and one of every other scope together, are refused.
    for (const scopes of [
      ['mrko'],
      ['reports'],
      ['specifications'],
      ['workers'],
      ['mrko', 'reports', 'specifications', 'workers'],
    ] as ApiKeyScope[][]) {
      const res = await importCall(ofB.id, await makeKey(scopes));
      expect(res.statusCode, scopes.join()).toBe(403);
    }
    // A push key of A's ОО: not B's diagnostic, nor D (schools A and B); an unknown diagnostic is 404.
    const ofA = await makeKey(['push'], w.a.ooId);
    expect((await importCall(ofB.id, ofA)).statusCode).toBe(403);
    expect((await importCall(w.diagnosticId, ofA)).statusCode).toBe(403);
    expect((await importCall(999_999, ofA)).statusCode).toBe(404);
    // No key at all, and a revoked-looking one: 401.
    expect((await importCall(ofB.id, {})).statusCode).toBe(401);
    expect(
      (await importCall(ofB.id, { authorization: 'Bearer atk_000000000000_notarealsecretnotarealsecret' }))
        .statusCode,
    ).toBe(401);
    expect(await pushed()).toBe(before);
    expect(await audited()).toBe(auditedBefore);

    // A push key of B's ОO: B's diagnostic, not D (school A is of another ОО).
    const ofBKey = await makeKey(['push'], w.b.ooId);
    expect((await importCall(w.diagnosticId, ofBKey)).statusCode).toBe(403);
    const ok = await importCall(ofB.id, ofBKey);
    expect(ok.statusCode, ok.body).toBe(202);
    // A push key of every ОО: any diagnostic.
    const everyOo = await makeKey(['push', 'mrko']);
    expect((await importCall(w.diagnosticId, everyOo)).statusCode).toBe(202);
    expect(await pushed()).toBe(before + 2);

    const [row] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'integration.push'), eq(auditEvents.entityId, String(ofB.id))));
    expect(row?.details).toMatchObject({ via: 'api_key', ooId: w.b.ooId, queued: true });
  });
});

describe('receiving the same push twice at once', () => {
  it('stores it once and answers both alike', async () => {
    const [row] = await t.app.ctx.db.select().from(receivedResults).limit(1);
    const report = {
      format: 'attesta.results',
      version: 1,
      generatedAt: new Date().toISOString(),
      items: [{ ...row!.payload, participantCode: 'CONCURRENT-1' }],
    };
    const body = { diagnosticExternalId: 'concurrent', report };
    const key = { 'idempotency-key': 'attesta-test-concurrent-key' };
    const before = await counts();
    const [a, b] = await Promise.all([
      signedPost(RECEIVE_PATH, body, { secret: PUSH_SECRET, headers: key }),
      signedPost(RECEIVE_PATH, body, { secret: PUSH_SECRET, headers: key }),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(await counts()).toMatchObject({ pushes: before.pushes + 1, results: before.results + 1 });
  });
});

describe('upstream configuration', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/attesta-test' };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      return (err as ConfigError).problems.join('\n');
    }
    return '';
  };

  it('is off without settings and on with both, the URL without its trailing slash', () => {
    expect(loadConfig(base).upstreamAttesta).toBeUndefined();
    expect(loadConfig(base).attestaReceiveSecret).toBeUndefined();
    expect(
      loadConfig({
        ...base,
        UPSTREAM_ATTESTA_URL: 'https://up.example.test/',
        UPSTREAM_ATTESTA_SECRET: PUSH_SECRET,
      }).upstreamAttesta,
    ).toEqual({ url: 'https://up.example.test', secret: PUSH_SECRET });
  });

  it('refuses half a configuration, short secrets and plain http beyond this machine', () => {
    expect(problems({ UPSTREAM_ATTESTA_URL: 'https://up.example.test' })).toMatch(/set both/);
    expect(problems({ UPSTREAM_ATTESTA_SECRET: PUSH_SECRET })).toMatch(/set both/);
    expect(
      problems({ UPSTREAM_ATTESTA_URL: 'https://up.example.test', UPSTREAM_ATTESTA_SECRET: 'short' }),
    ).toMatch(/UPSTREAM_ATTESTA_SECRET: must be at least 32 characters/);
    expect(problems({ ATTESTA_RECEIVE_SECRET: 'short' })).toMatch(
      /ATTESTA_RECEIVE_SECRET: must be at least 32/,
    );
    for (const url of [
      'http://up.example.test',
      'http://localhost.evil.test',
      'ftp://up.example.test',
      'not a url',
    ])
      expect(problems({ UPSTREAM_ATTESTA_URL: url, UPSTREAM_ATTESTA_SECRET: PUSH_SECRET })).toMatch(
        /UPSTREAM_ATTESTA_URL: must be an https:\/\/ URL/,
      );
    expect(
      problems({ UPSTREAM_ATTESTA_URL: 'http://127.0.0.1:8080', UPSTREAM_ATTESTA_SECRET: PUSH_SECRET }),
    ).toBe('');
  });
});
