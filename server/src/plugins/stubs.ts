import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type CallKey } from '@attesta/contract';
import { contractRoute } from '../auth/access.js';
import { notImplemented } from '../lib/errors.js';

const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url.toLowerCase()}`;

/** Collects the routes modules register, so the stubs can fill in exactly the rest. */
export function trackRoutes(app: FastifyInstance): Set<string> {
  const seen = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) seen.add(routeKey(m, route.url ?? route.path));
  });
  return seen;
}

/**
 * Every call of the contract that no module implements yet answers 501 `not_implemented` —
 * after the access layer has answered 401/403 — so coverage and access are visible from day one.
 */
export function registerStubs(app: FastifyInstance, implemented: Set<string>): string[] {
  const stubbed: string[] = [];
  for (const e of ENDPOINTS) {
    const route = contractRoute(`${e.method} ${e.path}` as CallKey, {
      summary: e.meaning,
      description: 'Not built yet: answers 501 `not_implemented`.',
      tags: [],
      errors: [501],
    });
    if (implemented.has(routeKey(route.method, route.url))) continue;
    app.route({
      ...route,
      handler: async () => {
        throw notImplemented();
      },
    });
    stubbed.push(`${e.method} ${e.path}`);
  }
  return stubbed;
}
