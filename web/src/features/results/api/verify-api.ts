/** `GET /api/results/verify/{code}`: anyone checks a result document by its verification code. */
import { call } from '../../../lib/call';

export const verifyKeys = { verify: (code: string) => ['verify', code] as const };

/** The page shows a failure itself. */
export const verifyResult = (code: string, signal?: AbortSignal) =>
  call('GET /api/results/verify/{code}', { params: { code } }, { suppressRedirect: true, signal });
