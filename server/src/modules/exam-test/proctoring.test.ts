import { jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigError } from '../../config.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';
import {
  MAX_TOKEN_SECONDS,
  tokenExpiry,
  verifyProctoringToken,
  type ProctoringConfig,
} from './proctoring.service.js';

const SECRET = 'proctoring-secret-of-at-least-32-characters';
const SERVICE = 'https://proctor.example.test/session/start?lang=ru';
const PUBLIC = 'https://attesta.example.test';
const proctoring: ProctoringConfig = { url: SERVICE, secret: SECRET, provider: 'proctoredu' };

let t: TestApp;
let bare: TestApp;
let org: OrgFixture;
beforeAll(async () => {
  [t, bare] = await Promise.all([
    createTestApp({ PROCTORING_URL: SERVICE, PROCTORING_SECRET: SECRET, PUBLIC_URL: PUBLIC }),
    createTestApp(),
  ]);
  org = await createOrg(t.app);
});
afterAll(async () => Promise.all([t.close(), bare.close()]));

const get = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'GET', url, headers });
const TOKEN = '/api/exam/test/getProctoringToken';
const URL_CALL = '/api/exam/test/getProctoringUrl';

/** A participant signed in to a participant test, with a work unless told otherwise. */
async function participant(work: Parameters<typeof createExamWork>[3] | null = {}) {
  const fixture = await createParticipantTest(t.app, org);
  const variant = await createVariantWithTasks(t.app, fixture.subjectTestId, tasksOfEveryType().slice(0, 1));
  const workId = work
    ? await createExamWork(t.app, fixture.participantTestId, variant.variantId, work)
    : null;
  const { session } = await signedInParticipant(t.app, fixture);
  return { fixture, workId, headers: { cookie: session.cookie } };
}

describe('proctoring configuration', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/attesta-test' };
  it('is off without settings and on with both, provider proctoredu by default', () => {
    expect(loadConfig(base).proctoring).toBeUndefined();
    expect(loadConfig({ ...base, PROCTORING_URL: SERVICE, PROCTORING_SECRET: SECRET }).proctoring).toEqual(
      proctoring,
    );
  });
  it('refuses half a configuration, a short secret and a non-http URL, with clear messages', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
      } catch (err) {
        return (err as ConfigError).problems.join('\n');
      }
      return '';
    };
    expect(problems({ PROCTORING_URL: SERVICE })).toMatch(/PROCTORING_URL and PROCTORING_SECRET: set both/);
    expect(problems({ PROCTORING_SECRET: SECRET })).toMatch(/set both/);
    expect(problems({ PROCTORING_URL: SERVICE, PROCTORING_SECRET: 'short' })).toMatch(
      /PROCTORING_SECRET: must be at least 32 characters/,
    );
    expect(problems({ PROCTORING_URL: 'ftp://x', PROCTORING_SECRET: SECRET })).toMatch(
      /PROCTORING_URL: must start with/,
    );
  });
});

describe('tokenExpiry', () => {
  const now = new Date('2026-05-14T09:00:00.500Z');
  it('is 4 hours at most, in whole seconds', () => {
    expect(tokenExpiry(now, new Date('2026-05-14T20:00:00Z'))).toEqual(new Date('2026-05-14T13:00:00Z'));
  });
  it('ends 15 minutes past the end of the sitting', () => {
    expect(tokenExpiry(now, new Date('2026-05-14T09:45:00Z'))).toEqual(new Date('2026-05-14T10:00:00Z'));
  });
  it('is null once that is past', () => {
    expect(tokenExpiry(now, new Date('2026-05-14T08:45:00Z'))).toBeNull();
  });
});

describe('GET getProctoringToken', () => {
  it('should require authentication', async () => {
    expect((await get(t, TOKEN)).statusCode).toBe(401);
  });

  it('refuses staff (403)', async () => {
    const { session } = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await get(t, TOKEN, { cookie: session.cookie })).statusCode).toBe(403);
  });

  it('refuses a participant account not bound to a participant test (403)', async () => {
    const { session } = await signedIn(t.app, ['participant']);
    expect((await get(t, TOKEN, { cookie: session.cookie })).statusCode).toBe(403);
  });

  it('answers 404 not_configured when the server has no proctoring service', async () => {
    const fixture = await createParticipantTest(bare.app, await createOrg(bare.app));
    const { session } = await signedInParticipant(bare.app, fixture);
    const res = await get(bare, TOKEN, { cookie: session.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'not_configured',
      message: expect.stringContaining('PROCTORING_URL'),
    });
  });

  it('signs a token with the claims, verifiable with the secret and expiring within 4 hours', async () => {
    const { fixture, workId, headers } = await participant();
    const before = Math.floor(Date.now() / 1000);
    const res = await get(t, TOKEN, headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<{ token: string; expiresAt: string; examWorkId: number; provider: string }>();
    expect(body).toMatchObject({ examWorkId: workId, provider: 'proctoredu' });

    const { payload, protectedHeader } = await jwtVerify(body.token, new TextEncoder().encode(SECRET), {
      issuer: 'attesta',
      audience: 'proctoredu',
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({
      sub: String(fixture.participantTestId),
      ewid: workId,
      name: 'Тестов Тест',
      iss: 'attesta',
      aud: 'proctoredu',
      jti: expect.any(String),
    });
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.exp! * 1000).toBe(Date.parse(body.expiresAt));
    // The work's deadline (45 minutes) + 15 minutes is sooner than 4 hours.
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(60 * 60 + 1);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(MAX_TOKEN_SECONDS);

    const claims = await verifyProctoringToken(proctoring, body.token);
    expect(claims.sub).toBe(String(fixture.participantTestId));
    expect(claims.ewid).toBe(workId);
  });

  it('issues a token before the work starts, without ewid, within the diagnostic window', async () => {
    const { headers } = await participant(null);
    const body = (await get(t, TOKEN, headers)).json<{ token: string; examWorkId: number | null }>();
    expect(body.examWorkId).toBeNull();
    const claims = await verifyProctoringToken(proctoring, body.token);
    expect(claims.ewid).toBeUndefined();
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(MAX_TOKEN_SECONDS);
  });

  it('answers 409 when the work is finished or its time is long over', async () => {
    const finished = await participant({ status: 'finished' });
    expect((await get(t, TOKEN, finished.headers)).json()).toMatchObject({
      status: 409,
      code: 'work_finished',
    });
    const late = await participant({
      startedAt: new Date(Date.now() - 3 * 3600_000),
      timeLimitSeconds: 3600,
    });
    expect((await get(t, TOKEN, late.headers)).json()).toMatchObject({
      status: 409,
      code: 'deadline_passed',
    });
  });

  it('rejects tampered, foreign, expired and wrongly addressed tokens', async () => {
    const { headers } = await participant();
    const { token } = (await get(t, TOKEN, headers)).json<{ token: string }>();
    const [head, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    const invalid = { status: 401, code: 'invalid_token' };

    await expect(verifyProctoringToken(proctoring, `${head}.${forged}.${signature}`)).rejects.toMatchObject(
      invalid,
    );
    await expect(
      verifyProctoringToken({ ...proctoring, secret: 'another-secret-of-at-least-32-characters!' }, token),
    ).rejects.toMatchObject(invalid);
    await expect(verifyProctoringToken({ ...proctoring, provider: 'other' }, token)).rejects.toMatchObject(
      invalid,
    );
    await expect(
      verifyProctoringToken(proctoring, token, { now: new Date(Date.now() + 5 * 3600_000) }),
    ).rejects.toMatchObject(invalid);
    const unsigned = `${head}.${payload}.`;
    await expect(verifyProctoringToken(proctoring, unsigned)).rejects.toMatchObject(invalid);
    const wrongIssuer = await new SignJWT({ name: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('someone')
      .setAudience('proctoredu')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('j')
      .sign(new TextEncoder().encode(SECRET));
    await expect(verifyProctoringToken(proctoring, wrongIssuer)).rejects.toMatchObject(invalid);
  });
});

describe('GET getProctoringUrl', () => {
  const call = (headers: Record<string, string>, query: Record<string, string> = {}) =>
    get(t, `${URL_CALL}?${new URLSearchParams(query).toString()}`, headers);

  it('should require authentication and a participant', async () => {
    expect((await get(t, URL_CALL)).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    expect((await get(t, URL_CALL, { cookie: session.cookie })).statusCode).toBe(403);
  });

  it('answers 404 not_configured when the server has no proctoring service', async () => {
    const fixture = await createParticipantTest(bare.app, await createOrg(bare.app));
    const { session } = await signedInParticipant(bare.app, fixture);
    const res = await get(bare, URL_CALL, { cookie: session.cookie });
    expect(res.json()).toMatchObject({ status: 404, code: 'not_configured' });
  });

  it('answers the service page with a verifiable token and the absolute way back', async () => {
    const { fixture, headers } = await participant();
    const res = await call(headers, { returnUrl: '/exam/run?x=1' });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json<{ url: string }>().url);
    expect(`${url.origin}${url.pathname}`).toBe('https://proctor.example.test/session/start');
    expect(url.searchParams.get('lang')).toBe('ru');
    expect(url.searchParams.get('returnUrl')).toBe(`${PUBLIC}/exam/run?x=1`);
    const claims = await verifyProctoringToken(proctoring, url.searchParams.get('token')!);
    expect(claims.sub).toBe(String(fixture.participantTestId));
  });

  it('accepts another page of the service and an absolute return URL on PUBLIC_URL', async () => {
    const { headers } = await participant();
    const res = await call(headers, {
      url: 'https://proctor.example.test/room/42',
      returnUrl: `${PUBLIC}/exam/finish`,
    });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json<{ url: string }>().url);
    expect(url.pathname).toBe('/room/42');
    expect(url.searchParams.get('returnUrl')).toBe(`${PUBLIC}/exam/finish`);
    expect(url.searchParams.get('token')).toBeTruthy();
  });

  it('refuses a page outside the service origin (400 url_not_allowed)', async () => {
    const { headers } = await participant();
    for (const bad of [
      'https://evil.example.test/session/start',
      'http://proctor.example.test/session/start',
      'https://proctor.example.test:8443/x',
      'https://user:pw@proctor.example.test/x',
      'javascript:alert(1)',
    ]) {
      const res = await call(headers, { url: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ code: 'url_not_allowed', errors: [{ path: 'querystring.url' }] });
    }
  });

  it('refuses a return address off this site (400 url_not_allowed)', async () => {
    const { headers } = await participant();
    for (const bad of [
      'https://evil.example.test/',
      '//evil.example.test/x',
      '/\\evil.example.test',
      'javascript:alert(1)',
      'exam/run',
      `${PUBLIC}.evil.test/`,
      'http://attesta.example.test/',
    ]) {
      const res = await call(headers, { returnUrl: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'url_not_allowed',
        errors: [{ path: 'querystring.returnUrl' }],
      });
    }
  });
});
