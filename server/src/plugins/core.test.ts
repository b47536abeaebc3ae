import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp } from '../../test/helpers.js';

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

  it('answers a not-built call with 401 first, then 403 for the wrong role, then 501', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/api/ugnik/diagnostic/list', payload: {} });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ status: 401, code: 'unauthorized' });

    const { session: guest } = await signedIn(t.app, ['guest']);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/ugnik/diagnostic/list',
      headers: guest.headers,
      payload: {},
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'forbidden' });

    const { session: ugnik } = await signedIn(t.app, ['ugnik']);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/ugnik/diagnostic/list',
      headers: ugnik.headers,
      payload: {},
    });
    expect(ok.statusCode).toBe(501);
    expect(ok.json()).toMatchObject({ status: 501, code: 'not_implemented' });
  });

  it('matches paths case-insensitively', async () => {
    const { session } = await signedIn(t.app, ['ugnik']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/API/UGNIK/Diagnostic/LIST',
      headers: session.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(501);
  });

  it('refuses a cookie session changing state without the anti-CSRF header', async () => {
    const { session } = await signedIn(t.app, ['ugnik']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ugnik/diagnostic/list',
      headers: { cookie: session.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf' });
    // The same call with a bearer token needs no header: no ambient credential is involved.
    const bearer = await t.app.inject({
      method: 'POST',
      url: '/api/ugnik/diagnostic/list',
      headers: { authorization: `Bearer ${session.token}` },
      payload: {},
    });
    expect(bearer.statusCode).toBe(501);
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
      url: '/api/ugnik/diagnostic/list',
      headers: { cookie: 'attesta_sid=nonsense', 'x-requested-with': 'XMLHttpRequest' },
      payload: {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'session_expired' });
  });
});
