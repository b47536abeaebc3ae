import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import {
  CALL_AREAS,
  CALL_SCHEMAS,
  CALLS,
  currentParticipantTestSchema,
  ENDPOINTS,
  ROLES,
  type Role,
  type RoleRule,
} from '@attesta/contract';
import { accessPlugin, contractRoute } from '../auth/access.js';
import type { SessionStore } from '../auth/session-store.js';
import { signedIn, createTestApp, type Session, type TestApp } from '../../test/helpers.js';
import { besideTheClone } from '../../test/beside-the-clone.js';

// The contract table must be exactly ../shared/spec/endpoints.tsv, and every row — the
// specification's and our own (OUR_ENDPOINTS) — must be served with its roles: registered, 401
// without a session, 403 for every role it does not list. A user's clone has no
// ../shared: the comparison with the TSV is then skipped (the contract table itself is the
// project's copy of it), the 401/403 sweep over the table still runs.
const tsvPath = join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/spec/endpoints.tsv');
const haveTsv = besideTheClone(tsvPath);
if (!haveTsv) console.warn(`skipping the comparison with ${tsvPath}: ../shared is not beside this clone`);
const tsvRows = () =>
  readFileSync(tsvPath, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [method, path, roles, meaning] = line.split('\t');
      return { method, path, roles, meaning };
    });

const concrete = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'publish' ? 'true' : '1'));

let t: TestApp;
const sessionsByRole = new Map<Role, Session>();
beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) sessionsByRole.set(role, (await signedIn(t.app, [role])).session);
});
afterAll(async () => t.close());

describe('the call contract', () => {
  it.skipIf(!haveTsv)('is exactly spec/endpoints.tsv (needs ../shared)', () => {
    // The rows live in their areas' files (packages/contract/src/calls/), so the table's order is
    // not the TSV's: the two are compared as sets, each row once.
    const byKey = (a: { method?: string; path?: string }, b: { method?: string; path?: string }) =>
      `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`);
    expect(
      ENDPOINTS.map((e) => ({
        method: e.method,
        path: e.path,
        roles: typeof e.roles === 'string' ? e.roles : e.roles.join(','),
        meaning: e.meaning,
      })).sort(byKey),
    ).toEqual(tsvRows().sort(byKey));
  });

  it("is assembled from its areas' files, each call in exactly one area", () => {
    const keys = CALL_AREAS.flatMap((area) => Object.keys(area));
    expect(keys.length).toBe(new Set(keys).size);
    expect(new Set(keys)).toEqual(new Set(Object.keys(CALL_SCHEMAS)));
    expect(CALLS.length).toBe(keys.length);
  });

  it('refuses at start a route that is not a row of the contract, or has other roles than its row', async () => {
    const attempt = async (route: {
      method: 'GET' | 'POST';
      url: string;
      roles: RoleRule;
      schema?: Record<string, unknown>;
    }) => {
      const app = Fastify();
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      await app.register(cookie);
      await app.register(accessPlugin, { sessions: {} as SessionStore });
      try {
        app.route({
          method: route.method,
          url: route.url,
          config: { access: { roles: route.roles } },
          ...(route.schema ? { schema: route.schema } : {}),
          handler: async () => ({}),
        });
        await app.ready();
        return 'started';
      } catch (err) {
        return (err as Error).message;
      } finally {
        await app.close();
      }
    };
    expect(await attempt({ method: 'GET', url: '/api/no/such/call', roles: 'any' })).toMatch(
      /not a call of the contract/,
    );
    expect(await attempt({ method: 'GET', url: '/api/user/hasSession', roles: ['admin'] })).toMatch(
      /other roles/,
    );
    // A row with its own roles (and its schemas from the contract) starts.
    const hasSession = { method: 'GET', url: '/api/user/hasSession', roles: 'anon' } as const;
    const hasSessionAnswer = CALL_SCHEMAS['GET /api/user/hasSession'].response;
    expect(await attempt({ ...hasSession, schema: { response: { 200: hasSessionAnswer } } })).toBe('started');
    // A call whose schemas are in the contract takes them from there, never a copy of its own.
    const current = {
      method: 'GET',
      url: '/api/exam/test/currentParticipantTest',
      roles: ['participant'],
    } as const;
    expect(await attempt({ ...current, schema: { response: { 200: currentParticipantTestSchema } } })).toBe(
      'started',
    );
    expect(
      await attempt({ ...current, schema: { response: { 200: currentParticipantTestSchema.extend({}) } } }),
    ).toMatch(/must take its schemas from the contract/);
    // ...and cannot leave them out either.
    expect(await attempt(hasSession)).toMatch(/must take its schemas from the contract/);
    // An upload declares in its row what its body comes as; a route that says otherwise does not start.
    const { schema: upload, config } = contractRoute('POST /api/scans', {
      summary: '',
      tags: [],
      errors: [],
    });
    const scans = { method: 'POST', url: '/api/scans', roles: config.access.roles } as const;
    expect(await attempt({ ...scans, schema: upload })).toBe('started');
    const { consumes: _consumes, ...uploadAsJson } = upload as typeof upload & { consumes?: string[] };
    expect(await attempt({ ...scans, schema: uploadAsJson })).toMatch(
      /must take its schemas from the contract/,
    );
  });

  it('registers every call, ours included (never 404)', () => {
    for (const e of CALLS) {
      const url = e.path.replace(/\{(\w+)\}/g, ':$1');
      expect(t.app.hasRoute({ method: e.method, url }), `${e.method} ${e.path}`).toBe(true);
    }
  });

  it.each(CALLS.filter((e) => e.roles !== 'anon').map((e) => [`${e.method} ${e.path}`, e] as const))(
    '%s answers 401 without a session',
    async (_name, e) => {
      const res = await t.app.inject({
        method: e.method,
        url: concrete(e.path),
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        ...(e.method === 'GET' || e.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    },
  );

  it.each(
    CALLS.filter((e) => Array.isArray(e.roles) && e.roles.length < ROLES.length).map(
      (e) => [`${e.method} ${e.path}`, e] as const,
    ),
  )('%s answers 403 to every role it does not list', async (_name, e) => {
    const allowed = e.roles as readonly Role[];
    for (const outsider of ROLES.filter((r) => !allowed.includes(r))) {
      const res = await t.app.inject({
        method: e.method,
        url: concrete(e.path),
        headers: sessionsByRole.get(outsider)!.headers,
        ...(e.method === 'GET' || e.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect(res.statusCode, `${outsider} on ${e.method} ${e.path}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    }
  });
});
