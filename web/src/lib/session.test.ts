import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { currentUserSchema } from '@attesta/contract';
import { currentUserOf, currentUserQuery, readSessionTime, sessionTimeQuery } from './session';

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

describe('currentUserOf', () => {
  // The user this tab stored is read back without zod (the first chunks carry none): it must say
  // what the contract's schema says.
  const base = { id: 3, login: 'p', displayName: 'P', roles: ['participant'] };
  const users: unknown[] = [
    base,
    { ...base, extra: 1 },
    { ...base, email: null, schoolId: 4, schoolName: 'S', participantTestId: null },
    { ...base, email: 'a@b.c', schoolId: null, schoolName: null, participantTestId: 9 },
    { ...base, id: 0 },
    { ...base, id: 1.5 },
    { ...base, id: '3' },
    { ...base, roles: ['nobody'] },
    { ...base, roles: 'participant' },
    { ...base, login: undefined },
    { ...base, displayName: 5 },
    { ...base, email: 5 },
    { ...base, schoolId: 'x' },
    { ...base, participantTestId: 1.5 },
    [],
    null,
    'user',
  ];
  it.each(users.map((u) => [JSON.stringify(u), u]))('agrees with currentUserSchema: %s', (_, u) => {
    const parsed = currentUserSchema.safeParse(u);
    expect(currentUserOf(u)).toEqual(parsed.success ? parsed.data : null);
  });
});
