/** Account calls of the registration and password pages. Each form handles its own failures. */
import type { Parallel, RegisterBody } from '@attesta/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiClient, type ApiClient } from '../../../lib/api-client';
import { call } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

type NewRegistration = Extract<RegisterBody, { email: string }>;

/** `POST /api/Account/Register` (new guest) → `{ status: 'confirmation_sent' }`. */
export function register(body: NewRegistration, client: ApiClient = apiClient) {
  return call('POST /api/Account/Register', { body }, quiet, client);
}

/** `POST /api/Account/Register` with the e-mailed token → `{ status: 'confirmed' }`. */
export function confirmRegistration(confirmationToken: string, client: ApiClient = apiClient) {
  return call('POST /api/Account/Register', { body: { confirmationToken } }, quiet, client);
}

/** `POST /api/Account/SendRegistrationEMail` with `kind: 'reset'`: always answers the same. */
export async function requestPasswordReset(email: string, client: ApiClient = apiClient): Promise<void> {
  await call('POST /api/Account/SendRegistrationEMail', { body: { email, kind: 'reset' } }, quiet, client);
}

/** `POST /api/Account/ResetPassword`. */
export async function resetPassword(
  body: { token: string; newPassword: string },
  client: ApiClient = apiClient,
) {
  await call('POST /api/Account/ResetPassword', { body }, quiet, client);
}

/** `POST /api/Account/ChangePassword`; the server ends the user's other sessions. */
export async function changePassword(
  body: { oldPassword: string; newPassword: string },
  client: ApiClient = apiClient,
) {
  await call('POST /api/Account/ChangePassword', { body }, quiet, client);
}

/**
 * `GET /api/Account/Parallels` for the optional grade of a registration. Failure is suppressed:
 * the form still works without it.
 */
export function parallelsQuery(client: ApiClient = apiClient) {
  return queryOptions({
    queryKey: ['account', 'parallels'],
    queryFn: ({ signal }): Promise<Parallel[]> =>
      call('GET /api/Account/Parallels', {}, { signal, suppressRedirect: true }, client),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
