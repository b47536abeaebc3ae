import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Role } from '@attesta/contract';
import type { Db } from '../db/client.js';
import { sessions, userRoles, users, apiKeys } from '../db/schema/index.js';
import type { Cache } from '../lib/cache.js';
import { randomToken, safeEqual, sha256 } from '../lib/tokens.js';
import type { AuthContext } from './types.js';

export interface SessionStoreOptions {
  idleMs: number;
  absoluteMs: number;
  /** How stale lastSeenAt may get before a request writes it (limits writes per request). */
  touchEveryMs?: number;
}

export interface NewSession {
  userId: number;
  kind: 'password' | 'activation_code' | 'external' | 'registration';
  participantTestId?: number | null;
  activationCode?: string | null;
  appShell?: boolean;
  userAgent?: string | null;
  ip?: string | null;
}

type Cached = Omit<AuthContext, 'via' | 'expiresAt'> & { expiresAt: string; lastSeenAt: string };

const CACHE_TTL_SECONDS = 60;
const cacheKey = (id: string) => `sess:${id}`;

export const displayNameOf = (u: {
  surname: string | null;
  name: string | null;
  patronymic: string | null;
  login: string;
}) => [u.surname, u.name, u.patronymic].filter(Boolean).join(' ') || u.login;

/**
 * Sessions live in the database (they survive restarts and are shared by every instance); an
 * optional cache (Redis) saves the lookup. The client holds a random token; the row id is its hash.
 */
export class SessionStore {
  private readonly touchEveryMs: number;
  constructor(
    private readonly db: Db,
    private readonly options: SessionStoreOptions,
    private readonly cache: Cache | null,
  ) {
    this.touchEveryMs = options.touchEveryMs ?? 60_000;
  }

  async create(input: NewSession): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
    const token = randomToken();
    const sessionId = sha256(token);
    const now = Date.now();
    const expiresAt = new Date(now + this.options.absoluteMs);
    await this.db.insert(sessions).values({
      id: sessionId,
      userId: input.userId,
      kind: input.kind,
      participantTestId: input.participantTestId ?? null,
      activationCode: input.activationCode ?? null,
      appShell: input.appShell ?? false,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      ip: input.ip ?? null,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt,
    });
    return { token, sessionId, expiresAt };
  }

  /** When the session ends if unused: the earlier of the idle and the absolute end. */
  effectiveExpiry(lastSeenAt: Date, absolute: Date): Date {
    return new Date(Math.min(lastSeenAt.getTime() + this.options.idleMs, absolute.getTime()));
  }

  /** Resolves a token to its live session, sliding the idle expiry. Null when unknown, revoked or expired. */
  async resolve(token: string, via: 'cookie' | 'bearer', touch = true): Promise<AuthContext | null> {
    if (!token || token.length > 200) return null;
    const id = sha256(token);
    let entry = await this.readCache(id);
    if (!entry) {
      entry = await this.load(id);
      if (!entry) return null;
      await this.cache?.set(cacheKey(id), JSON.stringify(entry), CACHE_TTL_SECONDS);
    }
    const now = Date.now();
    const lastSeen = new Date(entry.lastSeenAt);
    const absolute = new Date(entry.expiresAt);
    if (absolute.getTime() <= now || lastSeen.getTime() + this.options.idleMs <= now) {
      await this.revoke(id, 'expired');
      return null;
    }
    if (touch && now - lastSeen.getTime() > this.touchEveryMs) {
      entry.lastSeenAt = new Date(now).toISOString();
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, id));
      await this.cache?.set(cacheKey(id), JSON.stringify(entry), CACHE_TTL_SECONDS);
    }
    const { lastSeenAt: _l, expiresAt: _e, ...rest } = entry;
    return { ...rest, via, expiresAt: this.effectiveExpiry(new Date(entry.lastSeenAt), absolute) };
  }

  private async readCache(id: string): Promise<Cached | null> {
    const raw = await this.cache?.get(cacheKey(id));
    return raw ? (JSON.parse(raw) as Cached) : null;
  }

  private async load(id: string): Promise<Cached | null> {
    // One round trip: the session, its user and the user's roles (this runs on every request).
    const [row] = await this.db
      .select({
        session: sessions,
        user: users,
        roles: sql<
          string[]
        >`array(select ${userRoles.role} from ${userRoles} where ${userRoles.userId} = ${users.id} order by 1)`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
      .limit(1);
    if (!row || row.user.isBlocked) return null;
    return {
      ...userFields(row.user, row.roles as Role[]),
      participantTestId: row.session.participantTestId,
      activationCode: row.session.activationCode,
      sessionId: id,
      kind: row.session.kind,
      appShell: row.session.appShell,
      expiresAt: row.session.expiresAt.toISOString(),
      lastSeenAt: row.session.lastSeenAt.toISOString(),
    };
  }

  async rolesOf(userId: number): Promise<Role[]> {
    const rows = await this.db
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, userId));
    return rows.map((r) => r.role as Role).sort();
  }

  /** Resolves an integration API key `atk_<prefix>_<secret>`. */
  async resolveApiKey(key: string): Promise<AuthContext | null> {
    const match = /^atk_([A-Za-z0-9]{8,32})_([A-Za-z0-9_-]{20,100})$/.exec(key);
    if (!match) return null;
    const [, prefix, secret] = match as unknown as [string, string, string];
    const [row] = await this.db
      .select({ key: apiKeys, user: users })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)))
      .limit(1);
    if (!row || row.user.isBlocked || !safeEqual(row.key.keyHash, sha256(secret))) return null;
    const roles = await this.rolesOf(row.user.id);
    return {
      ...userFields(row.user, roles),
      participantTestId: null,
      activationCode: null,
      sessionId: `api_key:${row.key.id}`,
      via: 'api_key',
      kind: 'api_key',
      appShell: false,
      expiresAt: new Date(Date.now() + this.options.absoluteMs),
    };
  }

  async revoke(sessionId: string, reason: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    await this.cache?.del(cacheKey(sessionId));
  }

  /** Ends every live session matching the filter; returns how many ended. */
  async revokeWhere(
    filter: { userId?: number; activationCode?: string; participantTestId?: number; appShell?: boolean },
    reason: string,
    exceptSessionId?: string,
  ): Promise<number> {
    const conditions = [isNull(sessions.revokedAt)];
    if (filter.userId !== undefined) conditions.push(eq(sessions.userId, filter.userId));
    if (filter.activationCode !== undefined)
      conditions.push(sql`upper(${sessions.activationCode}) = upper(${filter.activationCode})`);
    if (filter.participantTestId !== undefined)
      conditions.push(eq(sessions.participantTestId, filter.participantTestId));
    if (filter.appShell !== undefined) conditions.push(eq(sessions.appShell, filter.appShell));
    if (exceptSessionId) conditions.push(sql`${sessions.id} <> ${exceptSessionId}`);
    const ended = await this.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(...conditions))
      .returning({ id: sessions.id });
    await this.cache?.del(...ended.map((s) => cacheKey(s.id)));
    return ended.length;
  }

  /** Drops cached copies of a user's sessions after their roles or profile changed. */
  async invalidateUser(userId: number): Promise<void> {
    if (!this.cache) return;
    const live = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    await this.cache.del(...live.map((s) => cacheKey(s.id)));
  }

  async invalidateUsers(userIds: number[]): Promise<void> {
    if (!this.cache || !userIds.length) return;
    const live = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.userId, userIds), isNull(sessions.revokedAt)));
    await this.cache.del(...live.map((s) => cacheKey(s.id)));
  }
}

export function userFields(
  user: typeof users.$inferSelect,
  roles: Role[],
): Pick<
  AuthContext,
  'userId' | 'login' | 'displayName' | 'roles' | 'email' | 'schoolId' | 'ooId' | 'studentId' | 'workerId'
> {
  return {
    userId: user.id,
    login: user.login,
    displayName: displayNameOf(user),
    roles,
    email: user.email,
    schoolId: user.schoolId,
    ooId: user.ooId,
    studentId: user.studentId,
    workerId: user.workerId,
  };
}
