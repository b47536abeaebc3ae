import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeys } from '../db/schema/index.js';
import { sha256 } from '../lib/tokens.js';
import { buildApp } from '../app.js';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '@attesta/contract';
import { accessPlugin } from '../auth/access.js';
import { errorsPlugin } from './errors.js';
import { registerStubs } from './stubs.js';
import { createTestApp, createUser, signedIn, testConfig, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('core server', () => {
  it('answers the health check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('answers unknown API paths with the JSON error format', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, code: 'not_found', message: expect.any(String) });
  });

  it('serves the OpenAPI document with every contract path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/ugnik/diagnostic/{id}');
  });

  it('sets security headers and a CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 401 without a session, then 403 for the wrong role, before anything else', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/api/user/list', payload: { page: 'x' } });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ status: 401, code: 'unauthorized' });

    const { session: guest } = await signedIn(t.app, ['guest']);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: guest.headers,
      payload: { page: 'x' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'forbidden' });

    const { session: admin } = await signedIn(t.app, ['admin']);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: admin.headers,
      payload: {},
    });
    expect(ok.statusCode).toBe(200);
  });

  it('every call of the contract is built by a module: none is left to the 501 stub', () => {
    expect(t.app.stubbedEndpoints).toEqual([]);
  });

  it('a call no module builds answers 401 without a session, 403 to a role it does not list, then 501 not_implemented', async () => {
    // The stubs on a server without the modules: every call of the contract is a stub there.
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorsPlugin);
    await app.register(cookie);
    await app.register(accessPlugin, { sessions: t.app.ctx.sessions });
    const stubbed = registerStubs(app, new Set());
    await app.ready();
    try {
      expect(stubbed).toHaveLength(ENDPOINTS.length);
      const call = (headers: Record<string, string>) =>
        app.inject({ method: 'POST', url: '/api/user/list', headers, payload: {} });
      const { session: admin } = await signedIn(t.app, ['admin']);
      const { session: guest } = await signedIn(t.app, ['guest']);
      const anonymous = await call({ 'x-requested-with': 'XMLHttpRequest' });
      expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'unauthorized']);
      const wrongRole = await call(guest.headers);
      expect([wrongRole.statusCode, wrongRole.json().code]).toEqual([403, 'forbidden']);
      const allowed = await call(admin.headers);
      expect(allowed.json()).toMatchObject({ status: 501, code: 'not_implemented' });
    } finally {
      await app.close();
    }
  });

  it('matches paths case-insensitively', async () => {
    const { session } = await signedIn(t.app, ['admin']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/API/USER/List',
      headers: session.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a cookie session changing state without the anti-CSRF header', async () => {
    const { session } = await signedIn(t.app, ['admin']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { cookie: session.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf' });
    // The same call with a bearer token needs no header: no ambient credential is involved.
    const bearer = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { authorization: `Bearer ${session.token}` },
      payload: {},
    });
    expect(bearer.statusCode).toBe(200);
  });

  it("treats the specification's state-changing GETs like POSTs for CSRF", async () => {
    const { session } = await signedIn(t.app, ['coordinator']);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/examresults/changePublish/1/true',
      headers: { cookie: session.cookie },
    });
    expect(res.json()).toMatchObject({ code: 'csrf' });
  });

  it('answers an expired or unknown session with 401 session_expired', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { cookie: 'attesta_sid=nonsense', 'x-requested-with': 'XMLHttpRequest' },
      payload: {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'session_expired' });
  });

  it('rejects malformed JSON and oversized bodies with the error format, before any handler', async () => {
    const { session } = await signedIn(t.app, ['admin']);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { ...session.headers, 'content-type': 'application/json' },
      payload: '{"page": 1,',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400, code: 'malformed_json' });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { ...session.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ filter: { text: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('accepts an integration API key as a bearer credential, and refuses a revoked one', async () => {
    const user = await createUser(t.app, { roles: ['integration'] });
    const secret = 'k'.repeat(32);
    const [key] = await t.app.ctx.db
      .insert(apiKeys)
      .values({ userId: user.id, name: 'MRKO', prefix: 'mrko0001', keyHash: sha256(secret) })
      .returning();
    const call = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/user',
        headers: { authorization: `Bearer atk_mrko0001_${secret}` },
      });
    const ok = await call();
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, roles: ['integration'] });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer atk_mrko0001_${'z'.repeat(32)}` },
    });
    expect(wrong.statusCode).toBe(401);
    const { eq } = await import('drizzle-orm');
    await t.app.ctx.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key!.id));
    expect((await call()).statusCode).toBe(401);
  });
});

describe('serving the web client', () => {
  it('serves files, falls back to index.html for app routes, and keeps /api 404s as JSON', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'attesta-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Attesta</title><div id="root"></div>');
    writeFileSync(join(dist, 'robots.txt'), 'User-agent: *');
    const app = await buildApp(testConfig({ WEB_DIST: dist }), { database: t.database, logger: false });
    try {
      const index = await app.inject({ method: 'GET', url: '/coordinator/students?page=2' });
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toContain('text/html');
      expect(index.body).toContain('<div id="root">');
      expect((await app.inject({ method: 'GET', url: '/robots.txt' })).body).toBe('User-agent: *');
      expect((await app.inject({ method: 'GET', url: '/missing.js' })).statusCode).toBe(404);
      const api = await app.inject({ method: 'GET', url: '/api/missing' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await app.close();
    }
  });
});

describe('idle expiry', () => {
  it('is not slid by polling the session state, but is by real calls', async () => {
    const { eq } = await import('drizzle-orm');
    const { sessions } = await import('../db/schema/index.js');
    const { session } = await signedIn(t.app, ['coordinator']);
    const id = sha256(session.token);
    const past = new Date(Date.now() - 10 * 60_000);
    await t.app.ctx.db.update(sessions).set({ lastSeenAt: past }).where(eq(sessions.id, id));
    await t.app.ctx.cache?.del(`sess:${id}`);
    const lastSeen = async () =>
      (await t.app.ctx.db.select().from(sessions).where(eq(sessions.id, id)))[0]!.lastSeenAt.getTime();
    for (const url of ['/api/user/sessionTime', '/api/user/hasSession']) {
      expect((await t.app.inject({ method: 'GET', url, headers: session.headers })).statusCode).toBe(200);
    }
    expect(await lastSeen()).toBe(past.getTime());
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user', headers: session.headers })).statusCode,
    ).toBe(200);
    expect(await lastSeen()).toBeGreaterThan(past.getTime());
  });
});
