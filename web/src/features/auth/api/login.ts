import type { LoginBody, LoginResponse, PowChallenge } from '@attesta/contract';
import { apiClient, type ApiClient } from '../../../lib/api-client';
import { call } from '../../../lib/call';

/**
 * `POST /api/Account/login`. Failures are the form's business (wrong password, throttling), so
 * the default redirect to the error pages is suppressed.
 */
export function login(body: LoginBody, client: ApiClient = apiClient): Promise<LoginResponse> {
  return call('POST /api/Account/login', { body }, { suppressRedirect: true }, client);
}

/** `GET /api/Account/LoginChallenge`: the proof of work a code login needs after many wrong codes. */
export function loginChallenge(client: ApiClient = apiClient): Promise<PowChallenge> {
  return call('GET /api/Account/LoginChallenge', {}, { suppressRedirect: true }, client);
}
