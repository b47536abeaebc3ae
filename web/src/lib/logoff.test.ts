import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { clearAuthToken, getAuthToken, rememberTokenIfAppShell } from './auth-token';
import { logOff, resolveRedirect } from './logoff';
import {
  loadRunnerSnapshot,
  loadRunnerVariant,
  saveRunnerSnapshot,
  saveRunnerVariant,
} from './runner-snapshot';
import { currentUserQueryKey, lastKnownUser, rememberUser } from './session';
import type { CurrentParticipantTest, ParticipantVariant } from '@attesta/contract';

// Only what the copy's own logic reads; the rest of the shapes does not matter to a log off.
const sitting = {
  id: 77,
  serverTime: '2030-01-01T10:00:00.000Z',
  examWork: null,
} as unknown as CurrentParticipantTest;
const variant = { id: 3, tasks: [] } as unknown as ParticipantVariant;

function setup(response: () => Response) {
  const fetch = vi.fn(async () => response());
  const navigate = vi.fn();
  const logger = { error: vi.fn() };
  const client = createApiClient({
    fetch: fetch as unknown as typeof globalThis.fetch,
    navigate,
    logger,
    getToken: () => null,
  });
  const queryClient = new QueryClient();
  queryClient.setQueryData(currentUserQueryKey, { id: 1, login: 'a', displayName: 'A', roles: ['admin'] });
  rememberTokenIfAppShell('tok', 'X AttestaApp/1.0');
  const assign = vi.fn();
  return { fetch, navigate, logger, client, queryClient, assign };
}

const ok = (body: unknown) => () =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('logOff', () => {
  afterEach(() => clearAuthToken());

  it('posts LogOff, clears the cached user and token, then goes to the site root', async () => {
    const s = setup(ok({ redirectTo: null }));
    await logOff({
      client: s.client,
      queryClient: s.queryClient,
      assign: s.assign,
      rootUrl: 'https://exam.example.org/',
    });
    expect(s.fetch).toHaveBeenCalledWith('/api/Account/LogOff', expect.objectContaining({ method: 'POST' }));
    expect(s.queryClient.getQueryData(currentUserQueryKey)).toBeUndefined();
    expect(getAuthToken()).toBeNull();
    expect(s.assign).toHaveBeenCalledWith('https://exam.example.org/');
  });

  it("forgets the runner's local copy and the tab's user (a shared classroom PC), never the outbox", async () => {
    await saveRunnerSnapshot(sitting);
    await saveRunnerVariant(variant);
    rememberUser({ id: 9, login: 'p', displayName: 'P', roles: ['participant'] });
    localStorage.setItem('attesta.flags.pending.5', '{"101":true}');
    const s = setup(ok({ redirectTo: null }));
    await logOff({ client: s.client, queryClient: s.queryClient, assign: s.assign, rootUrl: '/' });
    expect(await loadRunnerSnapshot()).toBeNull();
    expect(await loadRunnerVariant(variant.id)).toBeNull();
    expect(lastKnownUser()).toBeNull();
    expect(localStorage.getItem('attesta.flags.pending.5')).toBe('{"101":true}');
  });

  it('goes to a given address', async () => {
    const s = setup(ok({ redirectTo: '/server-choice' }));
    await logOff(
      { client: s.client, queryClient: s.queryClient, assign: s.assign, rootUrl: 'https://x.org/app/' },
      '/login',
    );
    expect(s.assign).toHaveBeenCalledWith('https://x.org/app/login');
  });

  it("follows the server's in-app redirect when no address is given", async () => {
    const s = setup(ok({ redirectTo: '/login?bye=1' }));
    await logOff({
      client: s.client,
      queryClient: s.queryClient,
      assign: s.assign,
      rootUrl: 'https://x.org/',
    });
    expect(s.assign).toHaveBeenCalledWith('https://x.org/login?bye=1');
  });

  it('still cleans up and leaves when the server call fails, only logging it', async () => {
    const s = setup(
      () =>
        new Response(JSON.stringify({ status: 401, code: 'unauthorized', message: 'x' }), {
          status: 401,
          statusText: 'Unauthorized',
        }),
    );
    await logOff({
      client: s.client,
      queryClient: s.queryClient,
      assign: s.assign,
      rootUrl: 'https://x.org/',
    });
    expect(s.navigate).not.toHaveBeenCalled();
    expect(s.logger.error).toHaveBeenCalledWith('POST /api/Account/LogOff: 401 Unauthorized');
    expect(s.queryClient.getQueryData(currentUserQueryKey)).toBeUndefined();
    expect(s.assign).toHaveBeenCalledWith('https://x.org/');
  });

  it('resolves redirect targets safely', () => {
    expect(resolveRedirect(undefined, 'https://x.org/')).toBe('https://x.org/');
    expect(resolveRedirect('https://sso.example.org/logout', 'https://x.org/')).toBe(
      'https://sso.example.org/logout',
    );
    expect(resolveRedirect('//evil.example', 'https://x.org/')).toBe('https://x.org/');
  });
});
