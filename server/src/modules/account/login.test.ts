import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { SessionStore } from '../../auth/session-store.js';
import { DELAYS, LIMITS, Throttle } from '../../auth/throttle.js';
import { auditEvents, participantTests, sessions, users } from '../../db/schema/index.js';
import { sha256 } from '../../lib/tokens.js';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  createUser,
  isoDate,
  sessionFor,
  sessionFrom,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let org: OrgFixture;
/** The throttle's time (ms): the waits end when a test moves it, never while the machine is busy. */
let now = Date.now();
beforeAll(async () => {
  t = await createTestApp();
  t.app.ctx.throttle = new Throttle(t.app.ctx.redis, LIMITS, DELAYS, () => now);
  org = await createOrg(t.app);
});
afterAll(async () => t.close());

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
let ipSeq = 0;
/** A fresh client address per test, so the per-IP counters of one test do not leak into another. */
const freshIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

function login(payload: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/Account/login',
    headers: { ...XHR, ...options.headers },
    payload: payload as object,
    remoteAddress: options.ip ?? freshIp(),
  });
}

const countRows = async (table: typeof sessions | typeof users | typeof auditEvents) =>
  (await t.app.ctx.db.select({ n: count() }).from(table))[0]!.n;

describe('POST /api/Account/login with a password', () => {
  it('opens a session: httpOnly Lax cookie, the user, the bearer token of the same session', async () => {
    const user = await createUser(t.app, { roles: ['coordinator'], schoolId: org.schoolId });
    const res = await login({ login: user.login, password: user.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      id: user.id,
      login: user.login,
      displayName: 'Тестов Тест',
      roles: ['coordinator'],
      schoolId: org.schoolId,
      schoolName: expect.any(String),
    });
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const cookie = res.cookies.find((c) => c.name === 'attesta_sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 12 * 3600 });
    expect(cookie.value).toBe(body.token);
    expect(res.cookies.find((c) => c.name === 'attesta_dev')).toMatchObject({ httpOnly: true });
    const [row] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(body.token)));
    expect(row).toMatchObject({ userId: user.id, kind: 'password', appShell: false, revokedAt: null });
    // The same session works as a bearer token (no anti-CSRF header needed).
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/Account/LogOff',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(off.statusCode).toBe(200);
  });

  it('ignores the case of the login and lets a user without roles in', async () => {
    const user = await createUser(t.app, { roles: [], login: 'MixedCase' + Date.now() });
    const res = await login({ login: user.login.toUpperCase(), password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: user.id, roles: [] });
  });

  it('keeps the cookie for the browser session only when remember is false', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const res = await login({ login: user.login, password: user.password, remember: false });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'attesta_sid')!.maxAge).toBeUndefined();
  });

  it('answers an unknown login exactly like a wrong password (no enumeration), and audits both', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const auditBefore = await countRows(auditEvents);
    const wrong = await login({ login: user.login, password: 'not the password' });
    const unknown = await login({ login: 'nobody-' + Date.now(), password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ code: 'invalid_credentials' });
    expect(wrong.cookies).toEqual([]);
    expect(await countRows(auditEvents)).toBe(auditBefore + 2);
    const details = await t.app.ctx.db.select({ d: auditEvents.details }).from(auditEvents);
    expect(JSON.stringify(details)).not.toContain('not the password');
  });

  it('reveals a blocked account only after the right password', async () => {
    const user = await createUser(t.app, { roles: ['expert'], blocked: true });
    const wrong = await login({ login: user.login, password: 'wrong password' });
    expect(wrong.json()).toMatchObject({ status: 401, code: 'invalid_credentials' });
    const right = await login({ login: user.login, password: user.password });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({ code: 'account_blocked' });
    expect(right.cookies.find((c) => c.name === 'attesta_sid')).toBeUndefined();
  });

  it('refuses a guest whose e-mail is not confirmed (after the right password)', async () => {
    const user = await createUser(t.app, { roles: ['guest'] });
    await t.app.ctx.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, user.id));
    const res = await login({ login: user.login, password: user.password });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'email_not_confirmed' });
  });

  it('marks sessions opened from the app shell', async () => {
    const user = await createUser(t.app, { roles: ['organizator'] });
    const res = await login(
      { login: user.login, password: user.password },
      { headers: { 'user-agent': 'Mozilla/5.0 AttestaApp/2.1 (Android)' } },
    );
    const [row] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(res.json().token)));
    expect(row!.appShell).toBe(true);
  });

  it.each([
    ['malformed JSON', '{"login": ', 400, 'malformed_json'],
    ['wrong types', { login: 5, password: true }, 400, 'validation_failed'],
    ['unknown fields', { login: 'a', password: 'b', admin: true }, 400, 'validation_failed'],
    [
      'both shapes at once',
      { login: 'a', password: 'b', activationCode: 'ABCDE-FGHJK' },
      400,
      'validation_failed',
    ],
    ['an empty object', {}, 400, 'validation_failed'],
    ['a bad activation code', { activationCode: '<script>' }, 400, 'validation_failed'],
    ['an oversized body', { login: 'a', password: 'x'.repeat(1_100_000) }, 413, 'payload_too_large'],
  ])('refuses %s and changes nothing', async (_name, payload, status, code) => {
    const before = [await countRows(sessions), await countRows(users)];
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { ...XHR, 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ status, code });
    expect([await countRows(sessions), await countRows(users)]).toEqual(before);
  });
});

describe('login rate limiting', () => {
  it('answers 429 with Retry-After after 5 wrong passwords from one address; elsewhere the real user only waits a moment', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const attacker = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await login({ login: user.login, password: `guess ${i}` }, { ip: attacker });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await login({ login: user.login, password: user.password }, { ip: attacker });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'too_many_requests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    // The account's wait after 5 failures is a second; the (login, address) pair stays blocked.
    now += 1000;
    expect((await login({ login: user.login, password: user.password }, { ip: attacker })).statusCode).toBe(
      429,
    );
    const real = await login({ login: user.login, password: user.password }, { ip: freshIp() });
    expect(real.statusCode).toBe(200);
  });

  it('lets a known device past the account-wide wait, which stays short for everybody else', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const first = await login({ login: user.login, password: user.password });
    const device = first.cookies.find((c) => c.name === 'attesta_dev')!;
    // A distributed attack: 30 attempts from 30 addresses.
    for (let i = 0; i < 30; i++) await login({ login: user.login, password: `spray ${i}` });

    const stranger = await login({ login: user.login, password: user.password });
    expect(stranger.statusCode).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeLessThanOrEqual(60);
    const forged = await login(
      { login: user.login, password: user.password },
      { headers: { cookie: `attesta_dev=${user.id}` } },
    );
    expect(forged.statusCode).toBe(429);
    const known = await login(
      { login: user.login, password: user.password },
      { headers: { cookie: `attesta_dev=${device.value}` } },
    );
    expect(known.statusCode).toBe(200);
  });

  it('does not lock out the real user by mistyping once', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const ip = freshIp();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) await login({ login: user.login, password: 'typo' }, { ip });
      expect((await login({ login: user.login, password: user.password }, { ip })).statusCode).toBe(200);
    }
  });
});

describe('POST /api/Account/login with an activation code', () => {
  it('signs the participant in, bound to the participant test, and activates it', async () => {
    const pt = await createParticipantTest(t.app, org);
    const res = await login(
      { activationCode: pt.activationCode.toLowerCase().replace('-', '') },
      { headers: { 'user-agent': 'AttestaApp/1.0' } },
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      login: `student-${org.studentIds[0]}`,
      displayName: 'Иванов Иван',
      roles: ['participant'],
      participantTestId: pt.participantTestId,
      schoolId: org.schoolId,
    });
    const [row] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(body.token)));
    expect(row).toMatchObject({
      kind: 'activation_code',
      participantTestId: pt.participantTestId,
      activationCode: pt.activationCode,
      appShell: true,
    });
    const [test] = await t.app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, pt.participantTestId));
    expect(test!.status).toBe('active');
    const [participant] = await t.app.ctx.db.select().from(users).where(eq(users.id, body.user.id));
    expect(participant).toMatchObject({ studentId: org.studentIds[0], passwordHash: null });
  });

  it('reuses the student user across codes and tests', async () => {
    const a = await createParticipantTest(t.app, org, { studentId: org.studentIds[1]! });
    const b = await createParticipantTest(t.app, org, { studentId: org.studentIds[1]! });
    const first = await login({ activationCode: a.activationCode });
    const second = await login({ activationCode: b.activationCode });
    expect(first.json().user.id).toBe(second.json().user.id);
    expect(second.json().user.participantTestId).toBe(b.participantTestId);
  });

  it('refuses a blocked participant user: no session is written', async () => {
    const pt = await createParticipantTest(t.app, org, { studentId: org.studentIds[2]! });
    const first = await login({ activationCode: pt.activationCode });
    expect(first.statusCode).toBe(200);
    await t.app.ctx.db.update(users).set({ isBlocked: true }).where(eq(users.id, first.json().user.id));
    const refused = await login({ activationCode: pt.activationCode });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'account_blocked' });
    const [{ n }] = (await t.app.ctx.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.participantTestId, pt.participantTestId))) as [{ n: number }];
    expect(n).toBe(1);
    await t.app.ctx.db.update(users).set({ isBlocked: false }).where(eq(users.id, first.json().user.id));
  });

  it('creates one user per impersonal participant test', async () => {
    const pt = await createParticipantTest(t.app, org, { impersonal: true });
    const res = await login({ activationCode: pt.activationCode });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.login).toBe(`participant-${pt.participantTestId}`);
  });

  it('refuses an annulled participant test and one whose date has not come', async () => {
    const annulled = await createParticipantTest(t.app, org, { status: 'annulled' });
    const res = await login({ activationCode: annulled.activationCode });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'participant_test_annulled' });

    const tomorrow = isoDate(1);
    const early = await createParticipantTest(t.app, org, { testDate: tomorrow });
    const res2 = await login({ activationCode: early.activationCode });
    expect(res2.statusCode).toBe(403);
    expect(res2.json().code).toBe('activation_code_not_active');
    expect(res2.json().message).toContain(tomorrow.split('-').reverse().join('.'));
  });

  it('answers 401 for an unknown code and for a deleted participant test', async () => {
    const before = await countRows(sessions);
    const res = await login({ activationCode: 'ZZZZZ-ZZZZZ' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'invalid_activation_code' });

    const pt = await createParticipantTest(t.app, org);
    await t.app.ctx.db
      .update(participantTests)
      .set({ deletedAt: new Date() })
      .where(eq(participantTests.id, pt.participantTestId));
    expect((await login({ activationCode: pt.activationCode })).statusCode).toBe(401);
    expect(await countRows(sessions)).toBe(before);
  });

  it('limits guesses of one code, with Retry-After', async () => {
    const code = 'QQQQQ-QQQQQ';
    for (let i = 0; i < 10; i++) await login({ activationCode: code });
    const res = await login({ activationCode: code });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('sessions', () => {
  it('survive a rebuild of the app over the same database', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const session = sessionFrom(await login({ login: user.login, password: user.password }));
    const second = await buildApp(t.config, {
      database: t.database,
      mailer: { send: async () => undefined },
      logger: false,
      web: false,
    });
    try {
      const res = await second.inject({
        method: 'POST',
        url: '/api/Account/LogOff',
        headers: session.headers,
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('end after the idle timeout and after the absolute lifetime', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    // No cache, so every resolve reads the row; the clock is moved by rewriting the row.
    const store = new SessionStore(
      t.app.ctx.db,
      { idleMs: 60_000, absoluteMs: 3_600_000, touchEveryMs: 0 },
      null,
    );
    const ago = (ms: number) => new Date(Date.now() - ms);
    const setRow = (token: string, values: Partial<typeof sessions.$inferInsert>) =>
      t.app.ctx.db
        .update(sessions)
        .set(values)
        .where(eq(sessions.id, sha256(token)));

    const idle = await store.create({ userId: user.id, kind: 'password' });
    await setRow(idle.token, { lastSeenAt: ago(59_000) });
    expect(await store.resolve(idle.token, 'cookie')).not.toBeNull(); // used in time: slides on
    await setRow(idle.token, { lastSeenAt: ago(61_000) });
    expect(await store.resolve(idle.token, 'cookie')).toBeNull();

    const absolute = await store.create({ userId: user.id, kind: 'password' });
    await setRow(absolute.token, { createdAt: ago(3_600_000), expiresAt: ago(1) });
    // Freshly used, yet past its absolute end.
    expect(await store.resolve(absolute.token, 'cookie')).toBeNull();
    const [row] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(absolute.token)));
    expect(row!.revokedReason).toBe('expired');
  });

  it('answer 401 session_expired over HTTP once the row says expired', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const session = await sessionFor(t.app, user.id);
    await t.app.ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 3_600_000) })
      .where(eq(sessions.id, sha256(session.token)));
    const res = await t.app.inject({ method: 'POST', url: '/api/Account/LogOff', headers: session.headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'session_expired' });
  });
});

describe('external login when no provider is configured', () => {
  it('answers 404 not_configured', async () => {
    for (const url of [
      '/api/Account/ExternalLogin?provider=oidc',
      '/api/Account/ObtainLocalAccessToken?provider=oidc&providerKey=1&externalAccessToken=x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'not_configured',
        message: expect.stringContaining('OIDC_ISSUER'),
      });
    }
  });
});
