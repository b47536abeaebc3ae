import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, SESSION_COOKIE, contractRoute } from '../../auth/access.js';
import { activationCodeInScope, userInScope } from '../../auth/shared.access.js';
import { hashPassword } from '../../lib/password.js';
import { AccountService, safeReturnUrl, type Caller, type OpenedSession } from './account.service.js';
import { OidcClient, type PendingLogin } from './oidc.js';

export const DEVICE_COOKIE = 'attesta_dev';
const OIDC_COOKIE = 'attesta_oidc';
const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 3600;
const OIDC_COOKIE_MAX_AGE = 10 * 60;

const tags = ['account'];

const loginAnswer = (s: OpenedSession) => ({
  user: s.user,
  expiresAt: s.expiresAt.toISOString(),
  token: s.token,
});

/**
 * `/api/Account/*`: sign-in by password, activation code or an external provider; registration;
 * passwords; ending one's own or (staff) other people's sessions. HTTP only — rules live in
 * AccountService.
 */
export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config } = app.ctx;
  const oidc = config.oidc ? new OidcClient(config.oidc, config.env !== 'production') : null;
  const service = new AccountService(app.ctx, app.log, oidc);

  const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;
  const callerOf = (req: FastifyRequest): Caller => ({
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    origin: origin(req),
  });
  const cookieBase = { httpOnly: true, sameSite: 'lax', path: '/', secure: config.cookieSecure } as const;

  /** `remember: false` keeps the cookie for this browser session only; the server-side end is the same. */
  function setSessionCookie(reply: FastifyReply, session: OpenedSession, remember = true) {
    reply.setCookie(SESSION_COOKIE, session.token, {
      ...cookieBase,
      ...(remember ? { maxAge: Math.floor(config.sessionAbsoluteMs / 1000) } : {}),
    });
  }
  const clearSessionCookie = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, cookieBase);

  /** The user id of a valid signed device cookie (set by an earlier successful password login). */
  function deviceUserOf(req: FastifyRequest): number | null {
    const raw = req.cookies[DEVICE_COOKIE];
    if (!raw) return null;
    const { valid, value } = req.unsignCookie(raw);
    const id = valid && value ? Number(value) : NaN;
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  }

  app.route({
    ...contractRoute('POST /api/Account/login', {
      summary: 'Log in by login + password, or by activation code (participant)',
      description:
        'Sets the httpOnly session cookie and answers the user with the bearer form of the same session. ' +
        'Unknown login and wrong password answer alike (401 `invalid_credentials`); ' +
        '403 `account_blocked`, `email_not_confirmed`, `participant_test_annulled`, `activation_code_not_active`; ' +
        '401 `invalid_activation_code`; 429 with Retry-After after repeated failures (a password login: ' +
        'per login and address, per address, and a growing wait of at most 60 s per account that a device ' +
        'which signed in to the account before does not see). Activation codes are never refused for their ' +
        "address's sake: after many wrong codes from one address (or service-wide) the answer is 428 " +
        '`proof_of_work_required`; solve a challenge of `GET /api/Account/LoginChallenge` and send it as ' +
        '`proof` (400 `proof_of_work_invalid` for a wrong, expired or reused one).',
      tags,
      errors: [400, 401, 403, 413, 428, 429],
    }),
    handler: async (req, reply) => {
      const body = req.body;
      if ('activationCode' in body) {
        const session = await service.loginWithCode(body.activationCode, callerOf(req), body.proof);
        setSessionCookie(reply, session);
        return loginAnswer(session);
      }
      const session = await service.loginWithPassword(body, callerOf(req), deviceUserOf(req));
      setSessionCookie(reply, session, body.remember ?? true);
      reply.setCookie(DEVICE_COOKIE, String(session.userId), {
        ...cookieBase,
        signed: true,
        maxAge: DEVICE_COOKIE_MAX_AGE,
      });
      return loginAnswer(session);
    },
  });

  // Not a call of the specification: the proof of work of activation-code attempts needs it.
  app.route({
    ...contractRoute('GET /api/Account/LoginChallenge', {
      summary: 'A single-use proof-of-work challenge for activation-code attempts (ALTCHA v2)',
      description:
        'Asked for by 428 `proof_of_work_required`. Solve it (PBKDF2/SHA-256, about a second in a browser; ' +
        'longer while the service is under a guessing attack) and send `JSON.stringify({challenge, solution})` ' +
        'as `proof` with the code (or in the `X-Proof-Of-Work` header of the code check). Valid for 5 minutes, once.',
      tags,
      errors: [429],
    }),
    handler: async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return app.ctx.pow.challenge();
    },
  });

  app.route({
    ...contractRoute('POST /api/Account/LogOff', {
      summary: 'End the current session',
      description:
        '`redirectTo` is `returnUrl` when it is a same-site relative path, otherwise null (go to the root).',
      tags,
      // A body is optional: most clients log off with an empty POST.
      errors: [400, 401, 403],
    }),
    handler: async (req, reply) => {
      await service.logOff(authOf(req));
      clearSessionCookie(reply);
      return { redirectTo: safeReturnUrl(req.body?.returnUrl) };
    },
  });

  app.route({
    ...contractRoute('POST /api/Account/ChangePassword', {
      summary: 'Change own password',
      description:
        'Every other session of the user ends. 400 `wrong_password` (old password wrong), ' +
        '400 `password_unchanged`; 403 `password_not_set` for accounts without a password (participants).',
      tags,
      errors: [400, 401, 403, 429],
    }),
    handler: async (req) => {
      await service.changePassword(authOf(req), req.body, callerOf(req));
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/Account/Register', {
      summary: 'Self-register a guest account, or confirm it with the e-mailed token',
      description:
        'A new registration always answers `confirmation_sent` (also when the address is taken: its owner ' +
        'gets a reminder instead). The confirmation shape answers `confirmed` or 400 `invalid_token`.',
      tags,
      errors: [400, 413, 429],
    }),
    handler: async (req) => {
      const body = req.body;
      if ('confirmationToken' in body) {
        await service.confirmEmail(body.confirmationToken, callerOf(req));
        return { status: 'confirmed' as const };
      }
      await service.register(body, callerOf(req));
      return { status: 'confirmation_sent' as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/Account/SendRegistrationEMail', {
      summary: '(Re)send the confirmation or the password-reset e-mail',
      description: 'Always answers `{ok: true}`, whether or not the address has an account.',
      tags,
      errors: [400, 429],
    }),
    handler: async (req) => {
      await service.sendAccountMail(req.body, callerOf(req));
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('POST /api/Account/ResetPassword', {
      summary: 'Set a new password with the token of the reset e-mail',
      description:
        'Ends every session of the user. 400 `invalid_token` for an unknown, used or expired token.',
      tags,
      errors: [400],
    }),
    handler: async (req) => {
      await service.resetPassword(req.body, callerOf(req));
      return { ok: true as const };
    },
  });

  app.route({
    ...contractRoute('GET /api/Account/Parallels', {
      summary: 'Parallels (grades) for the registration form',
      tags,
      // Only what any call answers to a malformed query (invalid_text).
      errors: [400],
    }),
    handler: async () => service.parallels(),
  });

  app.route({
    ...contractRoute('GET /api/Account/hashpassword', {
      summary: "Hash a password with the server's hasher (for bulk imports)",
      tags,
      errors: [400, 401, 403],
    }),
    // The password travels in the query string: keep this route's requests out of the log.
    logLevel: 'warn',
    handler: async (req) => ({ hash: await hashPassword(req.query.pass) }),
  });

  app.route({
    ...contractRoute(
      'POST /api/Account/LogoutByActivationCode',
      {
        summary: 'End every session bound to an activation code',
        description: 'Coordinator: own school; organizator: assigned classes and buildings; admin: any.',
        tags,
        errors: [400, 401, 403, 404],
      },
      activationCodeInScope((req) => bodyOf<{ activationCode: string }>(req).activationCode),
    ),
    handler: async (req) => ({
      ended: await service.logoutByActivationCode(
        authOf(req),
        req.body.activationCode,
        callerOf(req),
        req.body.reason ?? null,
      ),
    }),
  });

  app.route({
    ...contractRoute(
      'POST /api/Account/LogoutByAppLogin',
      {
        summary: 'End every app-shell session of a login',
        description: 'Coordinator and organizator: users of their own school; admin: any.',
        tags,
        errors: [400, 401, 403, 404],
      },
      userInScope((req) => bodyOf<{ login: string }>(req).login),
    ),
    handler: async (req) => ({
      ended: await service.logoutByAppLogin(
        authOf(req),
        req.body.login,
        callerOf(req),
        req.body.reason ?? null,
      ),
    }),
  });

  app.route({
    ...contractRoute('POST /api/Account/LogoutParticipant', {
      summary: 'The participant leaves; the exam work stays saved',
      tags,
      errors: [401, 403],
    }),
    handler: async (req, reply) => {
      await service.logoutParticipant(authOf(req));
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  });

  registerExternalLogin(app, service, { origin, callerOf, setSessionCookie, cookieBase });
}

/** A body already validated by the route schema (scope rules run after validation). */
function bodyOf<T>(req: FastifyRequest): T {
  return req.body as T;
}

interface ExternalHelpers {
  origin: (req: FastifyRequest) => string;
  callerOf: (req: FastifyRequest) => Caller;
  setSessionCookie: (reply: FastifyReply, session: OpenedSession) => void;
  cookieBase: { httpOnly: true; sameSite: 'lax'; path: '/'; secure: boolean };
}

const pendingSchema = z.object({ state: z.string(), nonce: z.string(), verifier: z.string() });

/** `ExternalLogin` (browser redirect flow) and `ObtainLocalAccessToken` (app shell). */
function registerExternalLogin(
  app: FastifyInstance,
  service: AccountService,
  { origin, callerOf, setSessionCookie, cookieBase }: ExternalHelpers,
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const loginPage = (error: string) => `/login?error=${encodeURIComponent(error.slice(0, 100))}`;

  function readPending(req: FastifyRequest): PendingLogin | null {
    const raw = req.cookies[OIDC_COOKIE];
    const unsigned = raw ? req.unsignCookie(raw) : null;
    if (!unsigned?.valid || !unsigned.value) return null;
    try {
      return pendingSchema.parse(JSON.parse(unsigned.value));
    } catch {
      return null;
    }
  }

  typed.route({
    ...contractRoute('GET /api/Account/ExternalLogin', {
      summary: 'Start or finish an external (OpenID Connect) login',
      description:
        'Without `code`: 302 to the provider. The provider calls back here with `code` and `state` ' +
        '(or `error`): 302 to `/` signed in, or to `/login?error=...`. 404 `not_configured`, 400 `unknown_provider`.',
      tags,
      errors: [400, 404, 503],
    }),
    // The provider's callback carries a one-time code in the query string.
    logLevel: 'warn',
    handler: async (req, reply) => {
      const oidc = service.requireOidc(req.query.provider);
      // Without a query (openid-client strips the callback's query when it repeats the redirect URI
      // to the token endpoint) and normalised by URL (`:80` dropped), so both legs send the same.
      const redirectUri = new URL(`${origin(req)}/api/Account/ExternalLogin`).href;
      const { code, state, error, iss } = req.query;
      if (error) {
        reply.clearCookie(OIDC_COOKIE, cookieBase);
        return reply.redirect(loginPage(error));
      }
      if (!code) {
        const started = await service.startExternal(oidc, redirectUri);
        reply.setCookie(OIDC_COOKIE, JSON.stringify(started.pending), {
          ...cookieBase,
          signed: true,
          maxAge: OIDC_COOKIE_MAX_AGE,
        });
        return reply.redirect(started.url);
      }
      const pending = readPending(req);
      reply.clearCookie(OIDC_COOKIE, cookieBase);
      if (!pending) return reply.redirect(loginPage('external_login_expired'));
      const callback = new URL(redirectUri);
      for (const [k, v] of Object.entries({ code, state, iss })) if (v) callback.searchParams.set(k, v);
      try {
        const session = await service.finishExternal(oidc, callback, pending, callerOf(req));
        setSessionCookie(reply, session);
        return reply.redirect('/');
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        req.log.warn({ reason: (err as Error).message }, 'external login failed');
        return reply.redirect(
          loginPage(code === 'account_blocked' ? 'account_blocked' : 'external_login_failed'),
        );
      }
    },
  });

  typed.route({
    ...contractRoute('GET /api/Account/ObtainLocalAccessToken', {
      summary: 'Exchange an external provider access token for a local session token (app shell)',
      description:
        'The token is checked at the provider userinfo endpoint and its subject must equal `providerKey`. ' +
        'Answers like login but sets no cookie (a GET must not sign a browser in). ' +
        '401 `invalid_external_token`, 404 `not_configured`, 400 `unknown_provider`, 503 `service_unavailable`.',
      tags,
      errors: [400, 401, 403, 404, 429, 503],
    }),
    // The provider's access token is in the query string.
    logLevel: 'warn',
    handler: async (req) => {
      const oidc = service.requireOidc(req.query.provider);
      const session = await service.obtainLocalAccessToken(oidc, req.query, callerOf(req));
      return loginAnswer(session);
    },
  });
}
