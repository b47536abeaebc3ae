/** The signed-in user and the session's end, shared by the route guards, the header and the homes. */
import { currentUserSchema, type CurrentUser } from '@attesta/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiClient, type ApiClient } from './api-client';
import { parseSessionTime } from './format';

export const currentUserQueryKey = ['current-user'] as const;
export const sessionTimeQueryKey = ['session-time'] as const;

export function fetchCurrentUser(client: ApiClient = apiClient, signal?: AbortSignal): Promise<CurrentUser> {
  return client.get('/api/user', { signal, parse: (data) => currentUserSchema.parse(data) });
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
 * `GET /api/user/sessionTime` answers an ISO string; a JSON string and an `{ expiresAt }` /
 * `{ sessionTime }` object are all accepted until the contract fixes one shape.
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
    queryFn: async ({ signal }) => readSessionTime(await client.get('/api/user/sessionTime', { signal })),
    staleTime: 60_000,
  });
}
