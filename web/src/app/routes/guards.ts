/** Route loaders that decide who may see a page before it renders (react-router data APIs). */
import type { CurrentUser } from '@attesta/contract';
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { homePathFor, homeRolesOf, ROLE_HOME_PATH, type HomeRole } from '../../lib/roles';
import { ApiError, apiClient } from '../../lib/api-client';
import { call } from '../../lib/call';
import { safeReturnUrl } from '../../lib/location';
import { currentUserQuery, lastKnownUser } from '../../lib/session';

function appPathOf(request: Request, basename: string): string {
  const url = new URL(request.url);
  const prefix = basename.replace(/\/$/, '');
  const path =
    prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
  return `${path}${url.search}`;
}

/**
 * The signed-in user, or a redirect to /login that brings the user back afterwards.
 * `GET /api/user` is a synchronous-style call: its failure is only logged, the decision is ours.
 */
async function userOrLogin(
  queryClient: QueryClient,
  request: Request,
  basename: string,
): Promise<CurrentUser> {
  try {
    return await queryClient.ensureQueryData(currentUserQuery());
  } catch (error) {
    // Offline (no answer at all, not a refusal): keep the tab's last user, so the runner opens.
    const last = error instanceof ApiError && error.isNetworkError ? lastKnownUser() : null;
    if (last) {
      queryClient.setQueryData(currentUserQuery().queryKey, last);
      return last;
    }
    throw redirect(`/login?${new URLSearchParams({ returnUrl: appPathOf(request, basename) })}`);
  }
}

export function requireUser(queryClient: QueryClient, basename = '/') {
  return ({ request }: LoaderFunctionArgs) => userOrLogin(queryClient, request, basename);
}

/** A home of a role the user does not hold sends them to their own home. */
export function requireRole(queryClient: QueryClient, role: HomeRole, basename = '/') {
  return async ({ request }: LoaderFunctionArgs) => {
    const user = await userOrLogin(queryClient, request, basename);
    if (!homeRolesOf(user.roles).includes(role)) throw redirect(homePathFor(user.roles));
    return null;
  };
}

/**
 * The runner: a session that sits a test — a participant's, or a guest's sitting an open test
 * (whose participant role is no home of theirs, docs/open-tests.md).
 */
export function requireSitting(queryClient: QueryClient, basename = '/') {
  return async ({ request }: LoaderFunctionArgs) => {
    const user = await userOrLogin(queryClient, request, basename);
    if (!user.roles.includes('participant')) throw redirect(homePathFor(user.roles));
    return null;
  };
}

/** `/`: the role home when signed in, otherwise the login page. */
export function rootRedirect(queryClient: QueryClient) {
  return async () => {
    try {
      const user = await queryClient.ensureQueryData(currentUserQuery());
      return redirect(homePathFor(user.roles));
    } catch {
      return redirect('/login');
    }
  };
}

/**
 * `/login` while the session is still valid: straight to the work — the page the user was sent
 * from (`returnUrl`), a participant's running work (`participantWork` says where it is), or the
 * role home. `hasSession` asks first, so a visitor without a session makes no failing call.
 */
export function loginRedirect(queryClient: QueryClient, participantWork: () => Promise<string>) {
  return async ({ request }: LoaderFunctionArgs) => {
    let user: CurrentUser;
    try {
      if (!(await call('GET /api/user/hasSession', {}, {}, apiClient))) return null;
      user = await queryClient.ensureQueryData(currentUserQuery());
    } catch {
      // No answer, or the session ended meanwhile: the login page is the way in.
      return null;
    }
    const back = safeReturnUrl(new URL(request.url).searchParams.get('returnUrl'));
    if (back) return redirect(back);
    const home = homePathFor(user.roles);
    return redirect(home === ROLE_HOME_PATH.participant ? await participantWork() : home);
  };
}
