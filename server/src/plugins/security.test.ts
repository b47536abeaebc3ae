import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS, securityHeadersOf, securityPlugin } from './security.js';

/*
 * The security headers are worked out once (helmet run against a recording response) and copied
 * onto every reply: the same headers @fastify/helmet set per request, without its per-request cost.
 */
const app = Fastify();
beforeAll(async () => {
  await app.register(securityPlugin);
  app.get('/page', async () => ({ ok: true }));
  app.get(
    '/sandboxed',
    { helmet: { contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } } },
    async (_req, reply) => reply.header('content-security-policy', 'sandbox allow-scripts').send('x'),
  );
  await app.ready();
});
afterAll(() => app.close());

describe('security headers', () => {
  it('are the headers helmet sets for the app options, with the strict CSP', () => {
    const headers = securityHeadersOf(SECURITY_HEADERS);
    expect(headers).toMatchObject({
      'content-security-policy': expect.stringContaining("default-src 'self';script-src 'self';"),
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'same-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
    });
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers).not.toHaveProperty('cross-origin-embedder-policy');
  });

  it('go on every reply, unknown routes and HEAD requests included', async () => {
    const expected = securityHeadersOf(SECURITY_HEADERS);
    for (const [method, url] of [
      ['GET', '/page'],
      ['HEAD', '/page'],
      ['GET', '/no-such-page'],
    ] as const) {
      const res = await app.inject({ method, url });
      for (const [name, value] of Object.entries(expected))
        expect(res.headers[name], `${method} ${url} ${name}`).toBe(value);
    }
  });

  it("a route's own options are merged over the app's: the sandboxed content keeps its own CSP", async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/sandboxed' });
      expect(res.headers['content-security-policy']).toBe('sandbox allow-scripts');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
