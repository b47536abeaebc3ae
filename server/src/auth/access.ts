import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CALL_SCHEMAS,
  CALLS,
  errorBodySchema,
  type CallKey,
  type CallSchemas,
  type CallSchemasOf,
  operationIdOf,
  type HttpMethod,
  type RawAnswer,
  type RoleRule,
} from '@attesta/contract';
import { forbidden, unauthorized } from '../lib/errors.js';
import type { SessionStore } from './session-store.js';
import type { AuthContext } from './types.js';

/**
 * A record-level rule: answers whether the caller may touch what the request names (own school,
 * assigned classes, own participant test...). Runs after validation, so params/body are typed.
 * Return false for 403; throw notFound() where existence itself is private.
 */
export type ScopeRule = (req: FastifyRequest, auth: AuthContext) => boolean | Promise<boolean>;

/**
 * A credential a route accepts instead of a session: a short-lived signed link (html container
 * resources, which a sandboxed frame requests without our cookie). Declared on the route next to
 * its scope rule, so access is still decided here and nowhere else.
 */
export interface SignedAccess {
  /** Whether the request presents a signature at all; then it needs no session. */
  presented: (req: FastifyRequest) => boolean;
  /**
   * Runs instead of the scope rule, after validation: whether the presented signature is valid
   * for this request (and matches the caller's session, if one came along). False → 403.
   */
  grants: (req: FastifyRequest, auth: AuthContext | null) => boolean | Promise<boolean>;
}

export interface AccessRule {
  roles: RoleRule;
  scope?: ScopeRule;
  signed?: SignedAccess;
  /** A GET that changes state (needs the anti-CSRF header). */
  stateChanging?: boolean;
  /** Reading session state (hasSession, sessionTime) must not keep an idle session alive. */
  passive?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, or null for anonymous requests. */
    auth: AuthContext | null;
    /** The raw session token the caller presented (cookie or bearer), for log off. */
    sessionToken: string | null;
  }
  interface FastifyContextConfig {
    access?: AccessRule;
    /** What a call answers when it is not JSON (its contract row's `raw`), for the API document. */
    rawAnswer?: RawAnswer;
  }
}

export const SESSION_COOKIE = 'attesta_sid';
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_VALUE = 'XMLHttpRequest';

const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const byKey = new Map(CALLS.map((e) => [`${e.method} ${e.path}`, e]));
const byUrl = new Map(CALLS.map((e) => [`${e.method} ${toFastifyPath(e.path)}`, e]));
const sameRoles = (a: RoleRule, b: RoleRule) =>
  typeof a === 'string' || typeof b === 'string' ? a === b : [...a].sort().join() === [...b].sort().join();

/**
 * Method, URL and access rule of a call of the contract: the part of `contractRoute` that comes from
 * its ENDPOINTS row. Roles come from the contract itself, so a route cannot drift from
 * spec/endpoints.tsv. Not exported: every route is declared with `contractRoute`.
 */
function endpoint(key: CallKey, scope?: ScopeRule, flags: { passive?: boolean; signed?: SignedAccess } = {}) {
  const e = byKey.get(key);
  if (!e) throw new Error(`not in the contract: ${key}`);
  const access: AccessRule = {
    roles: e.roles,
    ...(scope ? { scope } : {}),
    ...('stateChanging' in e ? { stateChanging: true } : {}),
    ...(flags.passive ? { passive: true } : {}),
    ...(flags.signed ? { signed: flags.signed } : {}),
  };
  return { method: e.method as HttpMethod, url: toFastifyPath(e.path), config: { access } };
}

/** Statuses a route documents besides 200 (each with the one error body). */
export type ErrorStatus =
  400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 428 | 429 | 501 | 502 | 503 | 504;

/** What a route says about itself beyond its contract row: texts for OpenAPI and its error statuses. */
export interface RouteDocs {
  summary: string;
  description?: string;
  tags: string[];
  errors: readonly ErrorStatus[];
}

type Has<S, F extends string, As extends string> = S extends { [P in F]: infer Z }
  ? { [P in As]: Z }
  : unknown;
type ContractSchema<K extends CallKey> = Omit<RouteDocs, 'errors'> &
  Has<CallSchemasOf<K>, 'params', 'params'> &
  Has<CallSchemasOf<K>, 'query', 'querystring'> &
  Has<CallSchemasOf<K>, 'headers', 'headers'> &
  Has<CallSchemasOf<K>, 'body', 'body'> & {
    response: Has<CallSchemasOf<K>, 'response', '200'> &
      Has<CallSchemasOf<K>, 'accepted', '202'> &
      Partial<Record<ErrorStatus, typeof errorBodySchema>>;
  };

/** The one error body, as OpenAPI shows it under each documented status. */
const documentedError = errorBodySchema.describe('error `{status, code, message, errors?}`');

/**
 * A route declared from its contract row, the one way to declare a route: method, URL and access
 * from its ENDPOINTS row, and the schemas of `CALL_SCHEMAS` (params, query, body, the 200 or 202 answer)
 * with the documented errors, so path and schemas are paired in the contract only. Spread into
 * `app.route({...})` with a handler.
 */
export function contractRoute<K extends CallKey>(
  key: K,
  docs: RouteDocs,
  scope?: ScopeRule,
  flags: { passive?: boolean; signed?: SignedAccess } = {},
) {
  const s: CallSchemas = (CALL_SCHEMAS as Record<CallKey, CallSchemas>)[key];
  const { errors, ...text } = docs;
  const route = endpoint(key, scope, flags);
  const [method, path] = splitKey(key);
  const schema = {
    ...text,
    operationId: operationIdOf(method, path),
    ...(s.params ? { params: s.params } : {}),
    ...(s.query ? { querystring: s.query } : {}),
    ...(s.headers ? { headers: s.headers } : {}),
    ...(s.body ? { body: s.body } : {}),
    ...(s.consumes ? { consumes: [...s.consumes] } : {}),
    response: {
      ...(s.response ? { 200: s.response } : {}),
      ...(s.accepted ? { 202: s.accepted } : {}),
      ...Object.fromEntries(errors.map((status) => [status, documentedError])),
    },
  };
  return {
    ...route,
    config: { ...route.config, ...(s.raw ? { rawAnswer: s.raw } : {}) },
    schema: schema as unknown as ContractSchema<K>,
  };
}

const splitKey = (key: string) => {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1)] as const;
};

/** The caller of a route whose rule requires a session (never null there). */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

function isStateChanging(req: FastifyRequest, rule: AccessRule): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(req.method) || !!rule.stateChanging;
}

function bearerOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export interface AccessPluginOptions {
  sessions: SessionStore;
}

/**
 * The one place that decides access. Every /api route must declare `config.access`; a request
 * is then: identified (cookie, bearer token or API key) → 401 without a live session where one is
 * needed → 403 `csrf` for a cookie session changing state without the anti-CSRF header → 403 for a
 * role not allowed → (after validation) 403 when the scope rule refuses. A route that accepts a
 * signed link (`signed`) needs no session when the request presents one; the signature's own check
 * then replaces the role and scope rules (403 `bad_signature` when it fails).
 */
export const accessPlugin = fp<AccessPluginOptions>(
  async (app, { sessions }) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('sessionToken', null);

    app.addHook('onRoute', (route) => {
      const url = route.url ?? route.path;
      if (!url.toLowerCase().startsWith('/api/') || url.startsWith('/api/docs')) return;
      if (!route.config?.access) throw new Error(`route ${route.method} ${url} declares no access rule`);
      // Every call is a row of the contract (the specification's or ours), with the row's roles.
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        const row = byUrl.get(`${method} ${url}`);
        if (!row)
          throw new Error(
            `route ${method} ${url} is not a call of the contract (ENDPOINTS or OUR_ENDPOINTS)`,
          );
        if (!sameRoles(row.roles, route.config.access.roles))
          throw new Error(`route ${method} ${url} declares other roles than its contract row`);
        // Every call has its schemas in the contract and takes them from there (contractRoute), never a copy.
        const s = (CALL_SCHEMAS as Partial<Record<string, CallSchemas>>)[`${row.method} ${row.path}`];
        const schema = route.schema as
          | {
              params?: unknown;
              querystring?: unknown;
              body?: unknown;
              consumes?: readonly string[];
              response?: Record<number, unknown>;
            }
          | undefined;
        if (
          !s ||
          schema?.params !== s.params ||
          schema?.querystring !== s.query ||
          schema?.body !== s.body ||
          (schema?.consumes ?? []).join() !== (s.consumes ?? []).join() ||
          (s.response !== undefined && schema?.response?.[200] !== s.response) ||
          (s.accepted !== undefined && schema?.response?.[202] !== s.accepted)
        )
          throw new Error(`route ${method} ${url} must take its schemas from the contract (contractRoute)`);
      }
    });

    app.addHook('onRequest', async (req: FastifyRequest, _reply: FastifyReply) => {
      const rule = req.routeOptions.config?.access;
      if (!rule) return;
      const signed = !!rule.signed?.presented(req);

      const bearer = bearerOf(req);
      const cookie = req.cookies?.[SESSION_COOKIE];
      if (bearer) {
        req.auth = bearer.startsWith('atk_')
          ? await sessions.resolveApiKey(bearer)
          : await sessions.resolve(bearer, 'bearer', !rule.passive);
        req.sessionToken = req.auth?.via === 'bearer' ? bearer : null;
        if (!req.auth && rule.roles !== 'anon')
          throw unauthorized('Your session has ended, sign in again', 'session_expired');
      } else if (cookie) {
        req.auth = await sessions.resolve(cookie, 'cookie', !rule.passive);
        req.sessionToken = req.auth ? cookie : null;
      }

      if (rule.roles !== 'anon' && !req.auth && !signed) {
        throw cookie
          ? unauthorized('Your session has ended, sign in again', 'session_expired')
          : unauthorized();
      }
      // Ambient credentials (the cookie) need proof the call comes from our own page.
      if (
        req.auth?.via === 'cookie' &&
        isStateChanging(req, rule) &&
        req.headers[CSRF_HEADER] !== CSRF_VALUE
      ) {
        throw forbidden(`State-changing calls must send the header X-Requested-With: ${CSRF_VALUE}`, 'csrf');
      }
      if (Array.isArray(rule.roles) && !signed) {
        const allowed = rule.roles as readonly string[];
        if (!req.auth!.roles.some((r) => allowed.includes(r)))
          throw forbidden('Your role does not allow this call');
      }
    });

    app.addHook('preHandler', async (req) => {
      const rule = req.routeOptions.config?.access;
      if (rule?.signed?.presented(req)) {
        if (!(await rule.signed.grants(req, req.auth)))
          throw forbidden('This link is invalid or has expired; open the task again', 'bad_signature');
        return;
      }
      if (!rule?.scope) return;
      if (!req.auth) throw unauthorized();
      if (!(await rule.scope(req, req.auth))) throw forbidden('This record is outside your scope');
    });
  },
  { name: 'access', dependencies: ['@fastify/cookie'] },
);
