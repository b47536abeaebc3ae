import { loginResponseSchema, type LoginBody, type LoginResponse } from '@attesta/contract';
import { apiClient, type ApiClient } from '../../../lib/api-client';

/**
 * `POST /api/Account/login`. Failures are the form's business (wrong password, throttling), so
 * the default redirect to the error pages is suppressed.
 */
export function login(body: LoginBody, client: ApiClient = apiClient): Promise<LoginResponse> {
  return client.post('/api/Account/login', body, {
    suppressRedirect: true,
    parse: (data) => loginResponseSchema.parse(data),
  });
}
