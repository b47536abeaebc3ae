/**
 * Log off (spec §2, §4): end the session on the server, forget the cached user and the stored
 * token, then leave for the given address or the site root. A full page load, not a router move,
 * so nothing of the previous user stays in memory.
 */
import type { QueryClient } from '@tanstack/react-query';
import { apiClient, type ApiClient } from './api-client';
import { clearAuthToken } from './auth-token';
import { call } from './call';
import { getRootUrl, safeReturnUrl } from './location';
import { clearRunnerSnapshot } from './runner-snapshot';
import { forgetUser } from './session';

export interface LogOffDeps {
  queryClient: QueryClient;
  client?: ApiClient;
  /** Page navigation; `window.location.assign` by default. */
  assign?: (url: string) => void;
  rootUrl?: string;
}

/** An app path (`/login`) becomes an address under the root URL; absolute URLs stay as given. */
export function resolveRedirect(target: string | null | undefined, rootUrl: string): string {
  if (!target) return rootUrl;
  if (/^https?:\/\//i.test(target)) return target;
  const path = safeReturnUrl(target);
  return path ? `${rootUrl.replace(/\/$/, '')}${path}` : rootUrl;
}

export async function logOff(deps: LogOffDeps, redirectTo?: string): Promise<void> {
  const client = deps.client ?? apiClient;
  let serverTarget: string | null = null;
  try {
    const answer = await call('POST /api/Account/LogOff', { body: null }, {}, client);
    // Only an in-app path from the server is followed; an absolute URL there would be an open redirect.
    serverTarget = safeReturnUrl(answer.redirectTo);
  } catch {
    // Already logged by the api client (a synchronous-style call); the local clean-up still has to run.
  }
  deps.queryClient.clear();
  clearAuthToken();
  forgetUser();
  await clearRunnerSnapshot();
  const rootUrl = deps.rootUrl ?? getRootUrl();
  (deps.assign ?? ((url) => window.location.assign(url)))(
    resolveRedirect(redirectTo ?? serverTarget, rootUrl),
  );
}
