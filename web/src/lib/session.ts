/** The signed-in user and the session's end, shared by the route guards, the header and the homes. */
import { ROLES, type CurrentUser, type Role } from '@attesta/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiClient, type ApiClient } from './api-client';
import { call } from './call';
import { parseSessionTime } from './format';

export const currentUserQueryKey = ['current-user'] as const;
export const sessionTimeQueryKey = ['session-time'] as const;

const LAST_USER_KEY = 'attesta.lastUser';

export async function fetchCurrentUser(
  client: ApiClient = apiClient,
  signal?: AbortSignal,
): Promise<CurrentUser> {
  const user = await call('GET /api/user', {}, { signal }, client);
  rememberUser(user);
  return user;
}

/**
 * Kept for the tab as soon as the user is known — at the login as on any later check — so that
 * a reload while offline right after the login still opens the running test.
 */
export function rememberUser(user: CurrentUser) {
  try {
    sessionStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
  } catch {
    // Only the offline reload of the runner needs it.
  }
}

/** Log off: the tab stays, its user does not. */
export function forgetUser() {
  try {
    sessionStorage.removeItem(LAST_USER_KEY);
  } catch {
    // nothing to do
  }
}

/**
 * The user this tab last saw (sessionStorage: gone with the tab). Used only when the server cannot
 * be reached at all, so that a reload while offline still opens the running test with its local
 * answer queue (docs/design.md §5); every call still needs the real session.
 */
export function lastKnownUser(): CurrentUser | null {
  try {
    const raw = sessionStorage.getItem(LAST_USER_KEY);
    return raw ? currentUserOf(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

export function currentUserQuery(client: ApiClient = apiClient) {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => fetchCurrentUser(client, signal),
    // The user changes only by logging in or out, and both replace the cache explicitly.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * `GET /api/user/sessionTime` answers an ISO string (its contract row); an `{ expiresAt }` /
 * `{ sessionTime }` object is read too.
 */
export function readSessionTime(data: unknown): Date | null {
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    return parseSessionTime(record.expiresAt ?? record.sessionTime);
  }
  return parseSessionTime(data);
}

export function sessionTimeQuery(client: ApiClient = apiClient) {
  return queryOptions({
    queryKey: sessionTimeQueryKey,
    queryFn: async ({ signal }) =>
      readSessionTime(await call('GET /api/user/sessionTime', {}, { signal }, client)),
    staleTime: 60_000,
  });
}

const KNOWN_ROLES: ReadonlySet<string> = new Set(ROLES);
const CURRENT_USER_KEYS = [
  'id',
  'login',
  'displayName',
  'roles',
  'email',
  'schoolId',
  'schoolName',
  'participantTestId',
] as const;

/**
 * A stored user as the contract's `currentUserSchema` reads it (only its keys kept), or null.
 * Checked without the schema, so the first chunks carry no zod (issue 24); `session.test.ts` holds
 * this to the schema's verdicts.
 */
export function currentUserOf(v: unknown): CurrentUser | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const u = v as Record<string, unknown>;
  const int = (x: unknown) => Number.isSafeInteger(x);
  const optional = (x: unknown, check: (x: unknown) => boolean) => x === undefined || x === null || check(x);
  const text = (x: unknown) => typeof x === 'string';
  const ok =
    int(u.id) &&
    (u.id as number) > 0 &&
    text(u.login) &&
    text(u.displayName) &&
    Array.isArray(u.roles) &&
    u.roles.every((r) => typeof r === 'string' && KNOWN_ROLES.has(r)) &&
    optional(u.email, text) &&
    optional(u.schoolId, int) &&
    optional(u.schoolName, text) &&
    optional(u.participantTestId, int);
  if (!ok) return null;
  const user: Record<string, unknown> = { roles: [...(u.roles as Role[])] };
  for (const key of CURRENT_USER_KEYS) if (key !== 'roles' && u[key] !== undefined) user[key] = u[key];
  return user as unknown as CurrentUser;
}
