import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Role } from '@attesta/contract';
import { batchColumns, coalesced, readByKeys, runPrepared, type Db, type DbOrTx } from '../../db/client.js';
import {
  diagnostics,
  emailTokens,
  examWorks,
  parallels,
  participantTests,
  schools,
  students,
  userRoles,
  users,
  workers,
} from '../../db/schema/index.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import type { SessionDraft, SessionUser } from '../../auth/session-store.js';
import type { PrimedStart } from '../../lib/start-prime.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type EmailTokenPurpose = 'confirm' | 'reset';

/** Typed queries of the account area; no rules here. */

export async function findUserByLogin(db: DbOrTx, login: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.login}) = lower(${login})`)
    .limit(1);
  return row ?? null;
}

export type { SessionUser };

export interface CodeLoginInput {
  participantTestId: number;
  /** The participant user's login: one per student or worker, or one per impersonal test. */
  login: string;
  studentId: number | null;
  workerId: number | null;
  person: { surname: string; name: string; patronymic: string | null } | null;
  schoolId: number | null;
  ip: string | null;
  /** The session this login opens: written by the same statement, for a user that is not blocked. */
  session: SessionDraft['row'];
}

/**
 * The write side of an activation-code login in one statement (the 10:00 start storm runs it
 * thousands of times a minute): find or create the participant user, grant the participant role,
 * activate the participant test, audit the login and insert the session (`i.session`, drafted by
 * SessionStore.draft). A blocked user changes nothing and gets no session. Null when a
 * concurrent first login of the same person created the user a moment ago (call again).
 */
export async function codeLogin(
  db: DbOrTx,
  i: CodeLoginInput,
): Promise<{ user: SessionUser; roles: Role[] } | null> {
  // The sign-ins of one moment share the statement and its commit (db/client coalesced); two of
  // one login never share one.
  return coalesced(db, 'account_code_logins', i, codeLogins, (input) => input.login.toLowerCase());
}

async function codeLogins(
  db: DbOrTx,
  inputs: CodeLoginInput[],
): Promise<({ user: SessionUser; roles: Role[] } | null)[]> {
  const column = batchColumns(inputs);
  const rows = await runPrepared<SessionUser & { roles: string[] | string; ord: number | string }>(
    db,
    'account_code_logins',
    sql`
    with i as (
      select * from unnest(${column((i) => i.login, 'text[]')}, ${column((i) => i.studentId, 'int[]')},
                           ${column((i) => i.workerId, 'int[]')}, ${column((i) => i.person?.surname ?? null, 'text[]')},
                           ${column((i) => i.person?.name ?? null, 'text[]')},
                           ${column((i) => i.person?.patronymic ?? null, 'text[]')},
                           ${column((i) => i.schoolId, 'int[]')}, ${column((i) => i.participantTestId, 'int[]')},
                           ${column((i) => i.ip, 'inet[]')}, ${column((i) => i.session.id, 'text[]')},
                           ${column((i) => i.session.kind, 'text[]')},
                           ${column((i) => i.session.activationCode, 'text[]')},
                           ${column((i) => i.session.appShell, 'boolean[]')},
                           ${column((i) => i.session.userAgent, 'text[]')},
                           ${column((i) => i.session.at.toISOString(), 'timestamptz[]')},
                           ${column((i) => i.session.expiresAt.toISOString(), 'timestamptz[]')})
        with ordinality as i(login, student_id, worker_id, surname, name, patronymic, school_id, pt_id, ip,
                             session_id, session_kind, session_code, app_shell, user_agent, at, expires_at, ord)
    ), found as (
      select i.ord, f.*
      from i cross join lateral (
        select id, login, email, surname, name, patronymic, is_blocked, school_id, oo_id, student_id, worker_id,
               array(select r.role from user_roles r where r.user_id = users.id) as roles
        from users where lower(login) = lower(i.login) limit 1
      ) f
    ), ins as (
      insert into users (login, student_id, worker_id, surname, name, patronymic, school_id, password_hash)
      select login, student_id, worker_id, surname, name, patronymic, school_id, null
      from i where not exists (select 1 from found where found.ord = i.ord)
      order by login
      on conflict do nothing
      returning id, login, email, surname, name, patronymic, is_blocked, school_id, oo_id, student_id, worker_id,
                array[]::text[] as roles
    ), u as (
      select * from found
      union all
      select i.ord, ins.* from ins join i on i.login = ins.login
    ), role as (
      insert into user_roles (user_id, role)
      select id, 'participant' from u where not is_blocked and not ('participant' = any(roles))
      on conflict do nothing
    ), act as (
      update participant_tests p set status = 'active', updated_at = now()
      from u join i on i.ord = u.ord
      where p.id = i.pt_id and p.status = 'planned' and not u.is_blocked
    ), log as (
      insert into audit_events (user_id, action, entity, entity_id, details, ip)
      select u.id, 'login', 'participant_test', i.pt_id::text, '{"method":"code"}'::jsonb, i.ip
      from u join i on i.ord = u.ord where not u.is_blocked
    ), sess as (
      insert into sessions (id, user_id, kind, participant_test_id, activation_code, app_shell, user_agent, ip,
                            created_at, last_seen_at, expires_at)
      select i.session_id, u.id, i.session_kind, i.pt_id, i.session_code, i.app_shell, i.user_agent, i.ip,
             i.at, i.at, i.expires_at
      from u join i on i.ord = u.ord where not u.is_blocked
    )
    select ord, id, login, email, surname, name, patronymic, is_blocked as "isBlocked", school_id as "schoolId",
           oo_id as "ooId", student_id as "studentId", worker_id as "workerId", roles
    from u`,
  );
  const known: ({ user: SessionUser; roles: Role[] } | null)[] = inputs.map(() => null);
  for (const { ord, roles, ...user } of rows) {
    const granted = new Set([...parseRoles(roles), 'participant']) as Set<Role>;
    known[Number(ord) - 1] = { user: { ...user, id: Number(user.id) }, roles: [...granted].sort() };
  }
  return known;
}

/** A text[] column of a raw query: an array (node-postgres, PGlite) or its literal `{a,b}`. */
function parseRoles(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  if (!value || value === '{}') return [];
  return value.slice(1, -1).split(',');
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** A self-registered account uses its e-mail as login, so an address is taken either way. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) or lower(${users.login}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

export async function findUserByExternal(
  db: DbOrTx,
  provider: string,
  subject: string,
): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.externalProvider, provider), eq(users.externalSubject, subject)))
    .limit(1);
  return row ?? null;
}

export async function rolesOf(db: DbOrTx, userId: number): Promise<Role[]> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.role as Role);
}

/** Inserts a user with roles; null when the login or e-mail is already taken (a concurrent insert). */
export async function insertUser(db: DbOrTx, values: NewUser, roles: Role[]): Promise<UserRow | null> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
  if (!row) return null;
  await grantRoles(db, row.id, roles);
  return row;
}

export async function grantRoles(db: DbOrTx, userId: number, roles: Role[]): Promise<void> {
  if (!roles.length) return;
  await db
    .insert(userRoles)
    .values(roles.map((role) => ({ userId, role })))
    .onConflictDoNothing();
}

export async function updateUser(db: DbOrTx, id: number, values: Partial<NewUser>): Promise<void> {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id));
}

export async function schoolNameOf(db: DbOrTx, schoolId: number | null): Promise<string | null> {
  if (schoolId === null) return null;
  const [row] = await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId));
  return row?.name ?? null;
}

/** Issues a one-time e-mail token; only its hash is stored. Returns the secret for the link. */
export async function issueEmailToken(
  db: DbOrTx,
  userId: number,
  purpose: EmailTokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = randomToken();
  await db.insert(emailTokens).values({
    userId,
    purpose,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return token;
}

/**
 * Marks a live token used and returns its user, in one statement, so two concurrent uses of the
 * same link cannot both succeed.
 */
export async function consumeEmailToken(
  db: DbOrTx,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<number | null> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailTokens.tokenHash, sha256(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: emailTokens.userId });
  return row?.userId ?? null;
}

export async function listParallels(db: Db) {
  return db.select({ id: parallels.id, name: parallels.name }).from(parallels).orderBy(asc(parallels.id));
}

export interface CodeTarget {
  id: number;
  status: string;
  testDate: string;
  isImpersonal: boolean;
  schoolId: number | null;
  studentId: number | null;
  workerId: number | null;
  person: { surname: string; name: string; patronymic: string | null } | null;
  /** What the participant's start needs, as read now; null when a live work exists already. */
  start: PrimedStart | null;
}

/** The live participant test of an activation code (already normalised), with its person's name; never a guest's attempt. */
export async function findByActivationCode(db: DbOrTx, code: string): Promise<CodeTarget | null> {
  // The sign-ins of one moment (10:00) share one statement (db/client coalesced).
  return coalesced(db, 'account_find_by_activation_codes', code, findByActivationCodes);
}

async function findByActivationCodes(db: DbOrTx, codes: string[]): Promise<(CodeTarget | null)[]> {
  const rows = await readByKeys(
    db,
    'account_find_by_activation_code',
    codes,
    'text[]',
    (d, match, name) =>
      d
        .select({
          code: sql<string>`upper(${participantTests.activationCode})`,
          id: participantTests.id,
          status: participantTests.status,
          testDate: participantTests.testDate,
          isImpersonal: participantTests.isImpersonal,
          schoolId: participantTests.schoolId,
          studentId: participantTests.studentId,
          workerId: participantTests.workerId,
          student: { surname: students.surname, name: students.name, patronymic: students.patronymic },
          worker: { surname: workers.surname, name: workers.name, patronymic: workers.patronymic },
          // What the participant's start decides on (lib/start-prime.ts): read here once.
          diagnosticId: participantTests.diagnosticId,
          subjectTestId: participantTests.subjectTestId,
          classId: participantTests.classId,
          buildingId: participantTests.buildingId,
          startsAt: diagnostics.startsAt,
          endsAt: diagnostics.endsAt,
          firstPublishedAt: diagnostics.firstPublishedAt,
          extraTimePercent: sql<
            number | null
          >`(coalesce(${students.accommodations}, ${workers.accommodations}) ->> 'extraTimePercent')::int`,
          hasLiveWork: sql<boolean>`exists (select 1 from ${examWorks} where ${examWorks.participantTestId} = ${participantTests.id} and ${examWorks.deletedAt} is null)`,
        })
        .from(participantTests)
        .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
        .leftJoin(students, eq(students.id, participantTests.studentId))
        .leftJoin(workers, eq(workers.id, participantTests.workerId))
        .where(
          and(
            match(sql`upper(${participantTests.activationCode})`),
            isNull(participantTests.deletedAt),
            isNull(diagnostics.deletedAt),
            // A guest's attempt at an open test is sat by the guest's own session, never by its code.
            isNull(participantTests.guestUserId),
          ),
        )
        .prepare(name),
    (row) => row.code,
  );
  return rows.map((row) => {
    if (!row) return null;
    const { code: _code, student, worker, diagnosticId, subjectTestId, classId, buildingId, ...rest } = row;
    const { startsAt, endsAt, firstPublishedAt, extraTimePercent, hasLiveWork, ...target } = rest;
    return {
      ...target,
      person: student ?? worker ?? null,
      start: hasLiveWork
        ? null
        : {
            pt: {
              id: target.id,
              status: target.status,
              diagnosticId,
              subjectTestId,
              schoolId: target.schoolId,
              classId,
              buildingId,
              startsAt,
              endsAt,
              firstPublishedAt,
            },
            extraTimePercent,
          },
    };
  });
}
