import { eq } from 'drizzle-orm';
import type { Role } from '@attesta/contract';
import type { Db } from '../db/client.js';
import { userRoles, users } from '../db/schema/index.js';
import type { AuthContext } from './types.js';

/**
 * A user as a background job acts for them (a queued report, scanned pages applied later): their
 * roles now — only those of `keep` when given (the roles they had when they asked) — and their
 * school and oo now. Null when the account is blocked or gone, or no role is left, so a job never
 * acts with rights its user has lost meanwhile.
 */
export async function jobAuthOf(
  db: Db,
  userId: number,
  sessionId: string,
  keep?: readonly Role[],
): Promise<AuthContext | null> {
  const [user] = await db
    .select({ login: users.login, schoolId: users.schoolId, ooId: users.ooId, blocked: users.isBlocked })
    .from(users)
    .where(eq(users.id, userId));
  const now = (
    await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))
  ).map((r) => r.role as Role);
  const roles = keep ? keep.filter((role) => now.includes(role)) : now;
  if (!user || user.blocked || !roles.length) return null;
  return {
    userId,
    login: user.login,
    displayName: user.login,
    roles,
    email: null,
    schoolId: user.schoolId,
    ooId: user.ooId,
    studentId: null,
    workerId: null,
    participantTestId: null,
    activationCode: null,
    sessionId,
    via: 'cookie',
    kind: 'job',
    appShell: false,
    expiresAt: new Date(Date.now() + 3_600_000),
  };
}
