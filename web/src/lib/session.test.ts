import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { currentUserQuery, readSessionTime, sessionTimeQuery } from './session';

const user = { id: 1, login: 'coordinator', displayName: 'Иванова Анна', roles: ['coordinator'] };

function client(body: unknown, status = 200) {
  const logger = { error: vi.fn() };
  const navigate = vi.fn();
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  return {
    api: createApiClient({
      fetch: fetch as unknown as typeof globalThis.fetch,
      logger,
      navigate,
      getToken: () => null,
    }),
    logger,
    navigate,
  };
}

describe('session queries', () => {
  it('loads and validates the current user', async () => {
    const { api } = client(user);
    await expect(new QueryClient().fetchQuery(currentUserQuery(api))).resolves.toEqual(user);
  });

  it('a missing session only logs, so the guard can send the user to /login', async () => {
    const { api, logger, navigate } = client(
      { status: 401, code: 'unauthorized', message: 'no session' },
      401,
    );
    await expect(new QueryClient().fetchQuery(currentUserQuery(api))).rejects.toMatchObject({ status: 401 });
    expect(navigate).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalled();
  });

  it('reads the session time in the shapes the server may use', async () => {
    const { api } = client('2025-05-20T10:15:00Z');
    const at = await new QueryClient().fetchQuery(sessionTimeQuery(api));
    expect(at?.toISOString()).toBe('2025-05-20T10:15:00.000Z');
    expect(readSessionTime({ expiresAt: '2025-05-20T10:15:00Z' })?.getTime()).toBe(
      Date.UTC(2025, 4, 20, 10, 15),
    );
    expect(readSessionTime({ sessionTime: '2025-05-20T10:15:00Z' })).not.toBeNull();
    expect(readSessionTime(null)).toBeNull();
  });
});
