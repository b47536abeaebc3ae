import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Role } from '@attesta/contract';
import { batchColumns, coalesced, preparedOnce, runPrepared, type Db, type DbOrTx } from '../db/client.js';
import { sessions, userRoles, users, apiKeys } from '../db/schema/index.js';
import type { Broadcast } from '../lib/broadcast.js';
import type { Cache } from '../lib/cache.js';
import { randomToken, safeEqual, sha256 } from '../lib/tokens.js';
import type { AuthContext } from './types.js';

export interface SessionStoreOptions {
  idleMs: number;
  absoluteMs: number;
  /** How stale lastSeenAt may get before a request writes it (limits writes per request). */
  touchEveryMs?: number;
  /**
   * On a database server: keep resolved sessions in this process's memory too, for this long, so
   * a request needs no round trip for its session. Ending a session drops it here at once and, via
   * `broadcast` (Redis or PostgreSQL), in every other live instance before the ending call
   * returns (each acknowledges; `ackWaitMs` bounds the wait for one that does not answer). While
   * this instance does not hear the broadcast, its memory is not used.
   */
  local?: { ttlMs: number; broadcast: Broadcast | null; ackWaitMs?: number };
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

/** A resolved session as cached; `readAt`: when its rows were read (older than a change: stale). */
type Cached = Omit<AuthContext, 'via' | 'expiresAt'> & {
  expiresAt: string;
  lastSeenAt: string;
  readAt?: number;
};

const CACHE_TTL_SECONDS = 60;
const LOCAL_MAX_ENTRIES = 100_000;
/** How long an instance remembers that a session ended (longer than any cached copy lives). */
const ENDED_MEMORY_MS = 2 * CACHE_TTL_SECONDS * 1000;
const ENDED_MAX_ENTRIES = 200_000;
const ACK_WAIT_MS = 2000;
/** Clocks of instances differ a little: a shared copy read this close to a change is not trusted. */
const CLOCK_SKEW_MS = 1000;
const cacheKey = (id: string) => `sess:${id}`;

/** A session not yet written: its token and its row without the user (`SessionStore.draft`). */
export interface SessionDraft {
  token: string;
  row: Omit<SessionRow, 'userId'>;
}

interface SessionRow {
  id: string;
  userId: number;
  kind: NewSession['kind'];
  participantTestId: number | null;
  activationCode: string | null;
  appShell: boolean;
  userAgent: string | null;
  ip: string | null;
  at: Date;
  expiresAt: Date;
}

/** New sessions in one statement, one row each (created and last seen at `at`). */
async function insertSessions(db: DbOrTx, rows: SessionRow[]): Promise<void[]> {
  const column = batchColumns(rows);
  await runPrepared(
    db,
    'session_insert_many',
    sql`
    insert into sessions (id, user_id, kind, participant_test_id, activation_code, app_shell, user_agent, ip,
                          created_at, last_seen_at, expires_at)
    select id, user_id, kind, participant_test_id, activation_code, app_shell, user_agent, ip, at, at, expires_at
    from unnest(${column((r) => r.id, 'text[]')}, ${column((r) => r.userId, 'int[]')}, ${column((r) => r.kind, 'text[]')},
                ${column((r) => r.participantTestId, 'int[]')}, ${column((r) => r.activationCode, 'text[]')},
                ${column((r) => r.appShell, 'boolean[]')}, ${column((r) => r.userAgent, 'text[]')},
                ${column((r) => r.ip, 'inet[]')}, ${column((r) => r.at.toISOString(), 'timestamptz[]')},
                ${column((r) => r.expiresAt.toISOString(), 'timestamptz[]')})
      as r(id, user_id, kind, participant_test_id, activation_code, app_shell, user_agent, ip, at, expires_at)`,
  );
  return rows.map(() => undefined);
}

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
  /** The in-process layer in front of a shared cache (see SessionStoreOptions.local). */
  private readonly local = new Map<string, { entry: Cached; until: number }>();
  /**
   * Sessions that ended or changed lately (id → when this instance learnt it; `ended` for ends).
   * A request that read a session just before the change must not put its copy back into a cache
   * afterwards (it would be served from there again), and an ended one is never served again.
   */
  private readonly changes = new Map<string, { at: number; ended: boolean; until: number }>();
  /**
   * The ids (hashes) of tokens that resolved lately: every request of a session would hash its
   * token again (a tenth of a save's server time). Only tokens of sessions that existed get in;
   * an ended session's token still resolves to nothing, as its id does.
   */
  private readonly ids = new Map<string, string>();
  /** toAuth's views of each cached copy (gone with the copy). */
  private readonly authViews = new WeakMap<Cached, Partial<Record<'cookie' | 'bearer', AuthContext>>>();
  constructor(
    private readonly db: Db,
    private readonly options: SessionStoreOptions,
    private readonly cache: Cache | null,
  ) {
    this.touchEveryMs = options.touchEveryMs ?? 60_000;
    const broadcast = options.local?.broadcast;
    broadcast?.onMessage((message) => {
      const now = Date.now();
      const ended = message.startsWith('E:');
      for (const id of message.slice(2).split(',')) this.markChanged(id, ended, now);
    });
    // Messages may have been missed while not listening: nothing remembered before is trusted.
    broadcast?.onListening((listening) => {
      if (listening) this.local.clear();
    });
  }

  /** The channel that carries session ends between instances (null: one process, none needed). */
  get broadcast(): Broadcast | null {
    return this.options.local?.broadcast ?? null;
  }

  /** Resolves once this instance hears the other instances' session ends. */
  async ready(): Promise<void> {
    await this.options.local?.broadcast?.ready();
  }

  /**
   * Opens a session. `known` (the user row and roles the caller has just read) primes the caches,
   * so the first request of the session needs no lookup.
   */
  async create(
    input: NewSession,
    known?: { user: SessionUser; roles: Role[] },
  ): Promise<{ token: string; sessionId: string; expiresAt: Date; auth: AuthContext | null }> {
    const draft = this.draft(input.kind, input);
    const row: SessionRow = { ...draft.row, userId: input.userId };
    // The sign-ins of one moment (10:00) share one INSERT (db/client coalesced).
    await coalesced(this.db, 'session_insert_many', row, insertSessions);
    return this.created(draft, input.userId, known);
  }

  /**
   * A new session's token and row, not yet written: for a statement that inserts the row itself
   * with the user it finds or creates (the code login's, account.repo `codeLogin`). Once that
   * statement has committed, `created` primes the caches as `create` does.
   */
  draft(kind: NewSession['kind'], input: Omit<NewSession, 'kind' | 'userId'>): SessionDraft {
    const token = randomToken();
    const sessionId = sha256(token);
    const now = Date.now();
    return {
      token,
      row: {
        id: sessionId,
        kind,
        participantTestId: input.participantTestId ?? null,
        activationCode: input.activationCode ?? null,
        appShell: input.appShell ?? false,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        ip: input.ip ?? null,
        at: new Date(now),
        expiresAt: new Date(now + this.options.absoluteMs),
      },
    };
  }

  /** The session of a draft whose row is written (by `create`, or by the caller's statement). */
  async created(
    draft: SessionDraft,
    userId: number,
    known?: { user: SessionUser; roles: Role[] },
  ): Promise<{ token: string; sessionId: string; expiresAt: Date; auth: AuthContext | null }> {
    const { token, row } = draft;
    const { id: sessionId, expiresAt } = row;
    if (!known || known.user.id !== userId || known.user.isBlocked) {
      return { token, sessionId, expiresAt, auth: null };
    }
    const entry: Cached = {
      ...userFields(known.user, sittingRoles(known.roles, row.participantTestId)),
      participantTestId: row.participantTestId,
      activationCode: row.activationCode,
      sessionId,
      kind: row.kind,
      appShell: row.appShell,
      expiresAt: expiresAt.toISOString(),
      lastSeenAt: row.at.toISOString(),
      readAt: row.at.getTime(),
    };
    await this.remember(sessionId, entry);
    return { token, sessionId, expiresAt, auth: this.toAuth(entry, 'cookie') };
  }

  /** When the session ends if unused: the earlier of the idle and the absolute end. */
  effectiveExpiry(lastSeenAt: Date, absolute: Date): Date {
    return new Date(Math.min(lastSeenAt.getTime() + this.options.idleMs, absolute.getTime()));
  }

  /** Resolves a token to its live session, sliding the idle expiry. Null when unknown, revoked or expired. */
  async resolve(token: string, via: 'cookie' | 'bearer', touch = true): Promise<AuthContext | null> {
    if (!token || token.length > 200) return null;
    const id = this.ids.get(token) ?? sha256(token);
    const now = Date.now();
    let entry = this.readLocal(id, now) ?? this.fresh(id, await this.readCache(id), CLOCK_SKEW_MS);
    if (!entry) {
      let loaded = await this.load(id);
      // Read while it changed: read again (a change is committed before anyone hears of it).
      if (loaded && !this.fresh(id, loaded) && !this.changes.get(id)?.ended) loaded = await this.load(id);
      entry = this.fresh(id, loaded);
      if (!entry) return null;
      await this.remember(id, entry);
    } else if (this.options.local && !this.local.has(id)) this.keepLocal(id, entry, now);
    if (this.ids.size >= LOCAL_MAX_ENTRIES) this.ids.clear();
    this.ids.set(token, id);
    const lastSeen = new Date(entry.lastSeenAt);
    const absolute = new Date(entry.expiresAt);
    if (absolute.getTime() <= now || lastSeen.getTime() + this.options.idleMs <= now) {
      await this.revoke(id, 'expired', false);
      return null;
    }
    if (touch && now - lastSeen.getTime() > this.touchEveryMs) {
      entry = { ...entry, lastSeenAt: new Date(now).toISOString() };
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, id));
      await this.remember(id, entry);
    }
    return this.toAuth(entry, via);
  }

  /**
   * The request's view of a cached session, built once per cached copy and way of sending it
   * (every request of a session reads the same copy until it is touched or read again): frozen,
   * since requests share it.
   */
  private toAuth(entry: Cached, via: 'cookie' | 'bearer'): AuthContext {
    let views = this.authViews.get(entry);
    if (!views) this.authViews.set(entry, (views = {}));
    let auth = views[via];
    if (!auth) {
      const { lastSeenAt, expiresAt, readAt: _readAt, ...rest } = entry;
      auth = Object.freeze({
        ...rest,
        via,
        expiresAt: this.effectiveExpiry(new Date(lastSeenAt), new Date(expiresAt)),
      });
      views[via] = auth;
    }
    return auth;
  }

  private readLocal(id: string, now: number): Cached | null {
    if (!this.trustLocal()) return null;
    const hit = this.local.get(id);
    if (!hit) return null;
    if (hit.until > now) return hit.entry;
    this.local.delete(id);
    return null;
  }

  /** The memory layer is used only while this instance hears every session end. */
  private trustLocal(): boolean {
    const local = this.options.local;
    return Boolean(local) && (!local!.broadcast || local!.broadcast.listening);
  }

  /** The entry, unless its session ended or it was read before (or, `skewMs`, about when) it changed. */
  private fresh(id: string, entry: Cached | null, skewMs = 0): Cached | null {
    if (!entry) return null;
    const change = this.changes.get(id);
    if (!change || change.until <= Date.now()) return entry;
    if (change.ended || (entry.readAt ?? 0) <= change.at + skewMs) return null;
    return entry;
  }

  private keepLocal(id: string, entry: Cached, now = Date.now()) {
    const local = this.options.local;
    if (!local || !this.trustLocal() || !this.fresh(id, entry)) return;
    if (this.local.size >= LOCAL_MAX_ENTRIES) this.local.clear();
    this.local.set(id, { entry, until: now + local.ttlMs });
  }

  private async remember(id: string, entry: Cached) {
    if (!this.fresh(id, entry)) return;
    this.keepLocal(id, entry);
    await this.cache?.set(cacheKey(id), JSON.stringify(entry), CACHE_TTL_SECONDS);
  }

  private markChanged(id: string, ended: boolean, now: number) {
    this.local.delete(id);
    if (this.changes.size >= ENDED_MAX_ENTRIES) {
      for (const [key, c] of this.changes) if (c.until <= now) this.changes.delete(key);
      if (this.changes.size >= ENDED_MAX_ENTRIES) this.changes.clear();
    }
    const ever = ended || Boolean(this.changes.get(id)?.ended);
    this.changes.set(id, { at: now, ended: ever, until: now + ENDED_MEMORY_MS });
  }

  /**
   * Drops sessions from every cache: here, the shared one, and every other instance's memory.
   * With `wait`, returns only once each live instance has acknowledged (bounded by ackWaitMs):
   * after that no request anywhere is served with these sessions. Expiry needs no wait (every
   * instance sees the same clock and rows).
   */
  private async forget(ids: string[], ended: boolean, wait = true) {
    if (!ids.length) return;
    const now = Date.now();
    for (const id of ids) this.markChanged(id, ended, now);
    await this.cache?.del(...ids.map(cacheKey));
    const local = this.options.local;
    if (!local?.broadcast) return;
    const waitMs = wait ? (local.ackWaitMs ?? ACK_WAIT_MS) : 0;
    const sends: Promise<unknown>[] = [];
    // 100 ids (64 characters each) keep a message under PostgreSQL's NOTIFY limit.
    for (let i = 0; i < ids.length; i += 100)
      sends.push(
        local.broadcast.publish(`${ended ? 'E' : 'C'}:${ids.slice(i, i + 100).join(',')}`, { waitMs }),
      );
    await Promise.all(sends);
    // An instance that read a session just before it ended may have written it back to the shared
    // cache; every live instance now knows it ended, so nobody writes it again.
    if (wait) await this.cache?.del(...ids.map(cacheKey));
  }

  private async readCache(id: string): Promise<Cached | null> {
    const raw = await this.cache?.get(cacheKey(id));
    return raw ? (JSON.parse(raw) as Cached) : null;
  }

  private async load(id: string): Promise<Cached | null> {
    const readAt = Date.now();
    // One round trip: the session, its user and the user's roles (this runs on every request).
    const query = preparedOnce(this.db, 'session_load', (d) =>
      d
        .select({
          session: sessions,
          user: users,
          roles: sql<
            string[]
          >`array(select ${userRoles.role} from ${userRoles} where ${userRoles.userId} = ${users.id} order by 1)`,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, sql.placeholder('id')), isNull(sessions.revokedAt)))
        .limit(1)
        .prepare('session_load'),
    );
    const [row] = await query.execute({ id });
    if (!row || row.user.isBlocked) return null;
    return {
      ...userFields(row.user, sittingRoles(row.roles as Role[], row.session.participantTestId)),
      participantTestId: row.session.participantTestId,
      activationCode: row.session.activationCode,
      sessionId: id,
      kind: row.session.kind,
      appShell: row.session.appShell,
      expiresAt: row.session.expiresAt.toISOString(),
      lastSeenAt: row.session.lastSeenAt.toISOString(),
      readAt,
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

  /**
   * Binds a live session to a participant test (a guest's attempt at an open test,
   * docs/open-tests.md): from its next request on it acts as that test's participant, as a code
   * login's session does. Every cached copy is dropped first (here and in every instance).
   */
  async bindParticipantTest(sessionId: string, participantTestId: number): Promise<void> {
    await this.db
      .update(sessions)
      .set({ participantTestId })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    await this.forget([sessionId], false);
  }

  /** Ends one session; on return no instance serves it any more (see forget). */
  async revoke(sessionId: string, reason: string, waitForInstances = true): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    await this.forget([sessionId], true, waitForInstances);
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
    await this.forget(
      ended.map((s) => s.id),
      true,
    );
    return ended.length;
  }

  /** Drops cached copies of a user's sessions after their roles or profile changed. */
  async invalidateUser(userId: number): Promise<void> {
    await this.invalidateUsers([userId]);
  }

  async invalidateUsers(userIds: number[]): Promise<void> {
    if ((!this.cache && !this.options.local) || !userIds.length) return;
    const live = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.userId, userIds), isNull(sessions.revokedAt)));
    // Not ended: their next request reads them afresh (a blocked user's then finds nothing).
    await this.forget(
      live.map((s) => s.id),
      false,
    );
  }
}

/**
 * The roles a session acts with: its user's, and `participant` for a guest's session while it is
 * bound to a participant test (their attempt at an open test, docs/open-tests.md): never an account
 * role of the guest. A code login's user holds the participant role anyway, so nothing else changes.
 */
export function sittingRoles(roles: readonly Role[], participantTestId: number | null): Role[] {
  const all = new Set(roles);
  if (participantTestId !== null && all.has('guest')) all.add('participant');
  return [...all].sort();
}

/** What a session keeps of its user. */
export type SessionUser = Pick<
  typeof users.$inferSelect,
  | 'id'
  | 'login'
  | 'email'
  | 'surname'
  | 'name'
  | 'patronymic'
  | 'isBlocked'
  | 'schoolId'
  | 'ooId'
  | 'studentId'
  | 'workerId'
>;

export function userFields(
  user: SessionUser,
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
