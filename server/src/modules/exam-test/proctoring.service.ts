import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { ProctoringToken, ProctoringUrl, ProctoringUrlQuery } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import { effectiveDeadline } from '../../lib/work-clock.js';
import * as repo from './proctoring.repo.js';

export type ProctoringConfig = NonNullable<Config['proctoring']>;

export const TOKEN_ISSUER = 'attesta';
/** A token outlives no sitting: the longest test plus pauses fits in 4 hours. */
export const MAX_TOKEN_SECONDS = 4 * 3600;
/** The service may still upload its recording and verdict a little after the deadline. */
export const DEADLINE_GRACE_SECONDS = 15 * 60;

/** Claims of a proctoring token, as verifyProctoringToken returns them. */
export interface ProctoringClaims extends JWTPayload {
  /** Participant test id. */
  sub: string;
  /** Exam work id, absent before the work starts. */
  ewid?: number;
  /** Display name of the participant, for the proctor's screen. */
  name: string;
  iat: number;
  exp: number;
  jti: string;
}

function requireConfig(config: Config): ProctoringConfig {
  if (!config.proctoring) {
    throw new AppError(
      404,
      'not_configured',
      'Online proctoring is not set up on this server (PROCTORING_URL and PROCTORING_SECRET)',
    );
  }
  return config.proctoring;
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * When a token issued at `now` expires: 4 hours at most, and never later than 15 minutes past the
 * end of the sitting (the work's deadline, or the diagnostic window before the work starts).
 * Null when that moment has already passed.
 */
export function tokenExpiry(now: Date, sittingEndsAt: Date): Date | null {
  const cap = Math.min(
    now.getTime() + MAX_TOKEN_SECONDS * 1000,
    sittingEndsAt.getTime() + DEADLINE_GRACE_SECONDS * 1000,
  );
  // JWT times are whole seconds: round down so the token never outlives the cap.
  const exp = Math.floor(cap / 1000) * 1000;
  return exp > now.getTime() ? new Date(exp) : null;
}

/** The participant test a participant session is bound to (activation-code sign-in). */
function participantTestOf(auth: AuthContext): number {
  if (auth.participantTestId === null) {
    throw forbidden('Sign in with the activation code of your test to use proctoring');
  }
  return auth.participantTestId;
}

/** GET getProctoringToken: a signed, short-lived token naming the participant test and its work. */
export async function issueProctoringToken(
  ctx: AppContext,
  auth: AuthContext,
  now = new Date(),
): Promise<ProctoringToken> {
  const config = requireConfig(ctx.config);
  const participantTestId = participantTestOf(auth);
  const row = await repo.findParticipantTestWithWork(ctx.db, participantTestId);
  if (!row) throw notFound('No such participant test');
  const { work } = row;
  if (work && (work.finishedAt || ['finished', 'scored'].includes(work.status))) {
    throw conflict('work_finished', 'The work is finished: proctoring is no longer needed');
  }
  const expiresAt = tokenExpiry(now, work ? effectiveDeadline(work, now) : row.windowEndsAt);
  if (!expiresAt) throw conflict('deadline_passed', 'The time for this test is over');

  const token = await new SignJWT({ name: auth.displayName, ...(work ? { ewid: work.id } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(participantTestId))
    .setIssuer(TOKEN_ISSUER)
    .setAudience(config.provider)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(expiresAt.getTime() / 1000)
    .setJti(randomToken(16))
    .sign(keyOf(config.secret));
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    examWorkId: work?.id ?? null,
    provider: config.provider,
  };
}

/**
 * Checks a proctoring token (signature, algorithm, issuer, audience, expiry) and returns its
 * claims; for the proctoring service's webhooks. Any failure is 401 `invalid_token`.
 */
export async function verifyProctoringToken(
  config: ProctoringConfig,
  token: string,
  options: { now?: Date } = {},
): Promise<ProctoringClaims> {
  try {
    const { payload } = await jwtVerify(token, keyOf(config.secret), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: config.provider,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      ...(options.now ? { currentDate: options.now } : {}),
    });
    if (typeof payload.name !== 'string') throw new Error('name claim missing');
    return payload as ProctoringClaims;
  } catch {
    throw unauthorized('The proctoring token is invalid or expired', 'invalid_token');
  }
}

const urlNotAllowed = (field: 'url' | 'returnUrl', message: string) =>
  badRequest('url_not_allowed', `${field}: ${message}`, [{ path: `querystring.${field}`, message }]);

function parseUrl(raw: string, base?: string): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}

/** The proctoring page to open: on the configured service's origin only (no open redirect). */
export function proctoringTarget(raw: string | undefined, serviceUrl: string): URL {
  if (!raw) return new URL(serviceUrl);
  const target = parseUrl(raw, serviceUrl);
  const allowed = new URL(serviceUrl).origin;
  if (!target || target.origin !== allowed || target.username || target.password) {
    throw urlNotAllowed('url', `must be a page of the proctoring service (${allowed})`);
  }
  return target;
}

/**
 * Where the service sends the participant back: a path of this site, or an absolute URL on it.
 * `siteOrigin` is PUBLIC_URL's origin, or the request's own when PUBLIC_URL is not set.
 */
export function returnTarget(raw: string, siteOrigin: string): string {
  // "//host" and "/\host" are protocol-relative to browsers: another site, not a path of ours.
  const looksLikePath = raw.startsWith('/') && !/^\/[/\\]/.test(raw);
  const hasControl = [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\');
  const target = hasControl ? null : parseUrl(raw, looksLikePath ? siteOrigin : undefined);
  const ok =
    target &&
    ['http:', 'https:'].includes(target.protocol) &&
    target.origin === siteOrigin &&
    !target.username &&
    !target.password;
  if (!ok) throw urlNotAllowed('returnUrl', `must be a path of this site or a URL on ${siteOrigin}`);
  return target.toString();
}

/** GET getProctoringUrl: the service page with a fresh token and the way back appended. */
export async function proctoringUrl(
  ctx: AppContext,
  auth: AuthContext,
  query: ProctoringUrlQuery,
  requestOrigin: string,
): Promise<ProctoringUrl> {
  const config = requireConfig(ctx.config);
  // Check the input before signing anything: a refused call issues no token.
  const target = proctoringTarget(query.url, config.url);
  const siteOrigin = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).origin : requestOrigin;
  const back = query.returnUrl ? returnTarget(query.returnUrl, siteOrigin) : null;
  const { token } = await issueProctoringToken(ctx, auth);
  target.searchParams.set('token', token);
  if (back) target.searchParams.set('returnUrl', back);
  return { url: target.toString() };
}
