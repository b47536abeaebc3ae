import type { CurrentUser } from '@attesta/contract';
import type { AuthContext } from './types.js';

/** The user object of `GET /api/user` and of the login answer (allowlisted fields only). */
export function toCurrentUser(auth: AuthContext, extra: { schoolName?: string | null } = {}): CurrentUser {
  return {
    id: auth.userId,
    login: auth.login,
    displayName: auth.displayName,
    roles: auth.roles,
    email: auth.email,
    schoolId: auth.schoolId,
    schoolName: extra.schoolName ?? null,
    participantTestId: auth.participantTestId,
  };
}
