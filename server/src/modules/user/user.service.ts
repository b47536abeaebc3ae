import type { Actor } from '../../auth/actor.js';
import type {
  CurrentUser,
  ParticipantCard,
  ParticipantCardBody,
  ProfileSaveBody,
  Role,
  UserDetails,
  UserListRequest,
  UserSaveBody,
} from '@attesta/contract';
import { toCurrentUser } from '../../auth/presenter.js';
import { userFields } from '../../auth/session-store.js';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { hashPassword } from '../../lib/password.js';
import * as repo from './user.repo.js';
import { areaExists } from '../areas/index.js';

/** Who asks, for audit and for not cutting off the caller's own session. */
export type { Actor };

const fieldError = (path: string, message: string) =>
  badRequest('validation_failed', `${path} ${message}`, [{ path, message }]);

/**
 * The unique indexes are the last word on logins and e-mails: a concurrent save that slipped past
 * the pre-check still answers 409, not 500. Drizzle wraps the driver's error in `cause`.
 */
function asUniqueConflict(err: unknown): never {
  const pgError = (e: unknown) => e as { code?: string; constraint?: string; message?: string } | undefined;
  const candidates = [pgError(err), pgError((err as { cause?: unknown })?.cause)];
  for (const e of candidates) {
    if (e?.code !== '23505') continue;
    const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
    if (where.includes('users_login_lower_idx')) throw loginTaken();
    if (where.includes('users_email_lower_idx')) throw emailTaken();
  }
  throw err;
}
/** Transaction failures: our own errors pass through, unique violations become 409. */
export const rethrowAppError = (err: unknown): never => {
  if (err instanceof AppError) throw err;
  return asUniqueConflict(err);
};
const loginTaken = () => conflict('login_taken', 'This login is already taken');
const emailTaken = () => conflict('email_taken', 'This e-mail is already used by another account');

// --- current user ---

export async function currentUser(ctx: AppContext, auth: AuthContext): Promise<CurrentUser> {
  return toCurrentUser(auth, { schoolName: await repo.schoolName(ctx.db, auth.schoolId) });
}

// --- admin: read ---

export async function getUser(ctx: AppContext, id: number): Promise<UserDetails> {
  const user = await repo.findUserDetails(ctx.db, id);
  if (!user) throw notFound('No such user');
  return user;
}

export function listUsers(ctx: AppContext, body: UserListRequest) {
  const sort = body.sort === undefined ? [] : Array.isArray(body.sort) ? body.sort : [body.sort];
  return repo.listUsers(ctx.db, { page: body.page, pageSize: body.pageSize, sort, filter: body.filter });
}

// --- admin: create or update ---

/** What a save did, so sessions can follow after the commit. */
interface SaveOutcome {
  id: number;
  blocked: boolean;
  passwordSet: boolean;
  changed: boolean;
}

type Change = { from: unknown; to: unknown };
const PROFILE_FIELDS = [
  'login',
  'email',
  'surname',
  'name',
  'patronymic',
  'schoolId',
  'ooId',
  'areaId',
  'isBlocked',
] as const;

async function assertReferencesExist(tx: Tx, body: UserSaveBody): Promise<void> {
  if (body.schoolId != null && !(await repo.schoolExists(tx, body.schoolId)))
    throw fieldError('body.schoolId', 'no such school');
  if (body.ooId != null && !(await repo.ooExists(tx, body.ooId))) throw fieldError('body.ooId', 'no such oo');
  if (body.areaId != null && !(await areaExists(tx, body.areaId)))
    throw fieldError('body.areaId', 'no such area');
}

/** 409 `login_taken` / `email_taken` when another account (not `exceptId`) has them, case-insensitively. */
export async function assertLoginAndEmailFree(
  tx: Tx,
  login?: string,
  email?: string | null,
  exceptId?: number,
) {
  if (login !== undefined && (await repo.loginInUse(tx, login, exceptId))) throw loginTaken();
  if (email && (await repo.emailInUse(tx, email, exceptId))) throw emailTaken();
}

const uniqueRoles = (roles: Role[]) => [...new Set(roles)].sort();

async function createUser(
  tx: Tx,
  actor: Actor,
  body: UserSaveBody,
  passwordHash?: string,
): Promise<SaveOutcome> {
  if (!body.login) throw fieldError('body.login', 'is required for a new user');
  await assertLoginAndEmailFree(tx, body.login, body.email);
  const row = await repo.insertUser(tx, {
    login: body.login,
    email: body.email ?? null,
    surname: body.surname ?? null,
    name: body.name ?? null,
    patronymic: body.patronymic ?? null,
    schoolId: body.schoolId ?? null,
    ooId: body.ooId ?? null,
    areaId: body.areaId ?? null,
    isBlocked: body.isBlocked ?? false,
    passwordHash: passwordHash ?? null,
    // An administrator entering the address vouches for it, as in Moodle's admin-created accounts.
    emailConfirmedAt: body.email ? new Date() : null,
  });
  const roles = uniqueRoles(body.roles ?? []);
  await repo.replaceRoles(tx, row.id, roles);
  await audit(tx, {
    userId: actor.auth.userId,
    action: 'user.create',
    entity: 'user',
    entityId: row.id,
    ip: actor.ip,
    details: {
      login: row.login,
      email: row.email,
      schoolId: row.schoolId,
      ooId: row.ooId,
      areaId: row.areaId,
      isBlocked: row.isBlocked,
      roles,
      passwordSet: !!passwordHash,
    },
  });
  return { id: row.id, blocked: row.isBlocked, passwordSet: !!passwordHash, changed: true };
}

/** Fields of the body that differ from the stored row, as `{ field: { from, to } }`. */
function diffUser(current: repo.UserRow, body: UserSaveBody): Record<string, Change> {
  const changes: Record<string, Change> = {};
  for (const field of PROFILE_FIELDS) {
    const to = body[field];
    if (to !== undefined && to !== current[field]) changes[field] = { from: current[field], to };
  }
  return changes;
}

/** An administrator must not lock themselves out by mistake. */
function assertNotSelfLockout(actor: Actor, id: number, body: UserSaveBody) {
  if (id !== actor.auth.userId) return;
  if (body.isBlocked === true || (body.roles && !body.roles.includes('admin')))
    throw conflict('self_lockout', 'You cannot block yourself or remove your own admin role');
}

async function updateUser(
  tx: Tx,
  actor: Actor,
  id: number,
  body: UserSaveBody,
  passwordHash?: string,
): Promise<SaveOutcome> {
  assertNotSelfLockout(actor, id, body);
  const current = await repo.lockUser(tx, id);
  if (!current) throw notFound('No such user');
  const changes = diffUser(current, body);
  await assertLoginAndEmailFree(
    tx,
    changes.login ? body.login : undefined,
    changes.email ? body.email : undefined,
    id,
  );

  const write: repo.UserWrite = Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, c.to]));
  if (changes.email) write.emailConfirmedAt = body.email ? new Date() : null;
  if (passwordHash) write.passwordHash = passwordHash;

  const rolesBefore = await repo.roleCodesOf(tx, id);
  const rolesAfter = body.roles ? uniqueRoles(body.roles) : rolesBefore;
  if (rolesAfter.join() !== rolesBefore.join()) {
    await repo.replaceRoles(tx, id, rolesAfter);
    changes.roles = { from: rolesBefore, to: rolesAfter };
  }
  const changed = Object.keys(changes).length > 0 || !!passwordHash;
  if (!changed) return { id, blocked: false, passwordSet: false, changed: false };

  await repo.updateUser(tx, id, write);
  await audit(tx, {
    userId: actor.auth.userId,
    action: 'user.update',
    entity: 'user',
    entityId: id,
    ip: actor.ip,
    details: { changes, passwordSet: !!passwordHash },
  });
  return { id, blocked: changes.isBlocked?.to === true, passwordSet: !!passwordHash, changed: true };
}

/**
 * Sessions follow the saved user: blocking or a new password ends them (the caller's own
 * session excepted), any other change drops cached copies so roles and names are read afresh.
 */
async function applyToSessions(ctx: AppContext, actor: Actor, outcome: SaveOutcome): Promise<void> {
  if (outcome.blocked) await ctx.sessions.revokeWhere({ userId: outcome.id }, 'blocked');
  else if (outcome.passwordSet)
    await ctx.sessions.revokeWhere({ userId: outcome.id }, 'password_set_by_admin', actor.auth.sessionId);
  if (outcome.changed) await ctx.sessions.invalidateUser(outcome.id);
}

/** `POST /api/User`: create (no id) or update (id) a user, optionally setting the password. */
export async function saveUser(
  ctx: AppContext,
  actor: Actor,
  body: UserSaveBody,
  password?: string,
): Promise<UserDetails> {
  // The slow KDF runs before the transaction, so no row lock waits on it.
  const passwordHash = password ? await hashPassword(password) : undefined;
  const outcome = await ctx.db
    .transaction(async (tx) => {
      await assertReferencesExist(tx, body);
      return body.id === undefined
        ? createUser(tx, actor, body, passwordHash)
        : updateUser(tx, actor, body.id, body, passwordHash);
    })
    .catch(rethrowAppError);
  await applyToSessions(ctx, actor, outcome);
  return getUser(ctx, outcome.id);
}

/** `POST /api/user/{id}/changepassword`: an administrator sets another user's password. */
export async function setPassword(
  ctx: AppContext,
  actor: Actor,
  id: number,
  password: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockUser(tx, id))) throw notFound('No such user');
    await repo.updateUser(tx, id, { passwordHash });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'user.password_set',
      entity: 'user',
      entityId: id,
      ip: actor.ip,
    });
  });
  await ctx.sessions.revokeWhere({ userId: id }, 'password_set_by_admin', actor.auth.sessionId);
}

// --- own profile ---

const sameAddress = (a: string | null, b: string | null) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/** `PUT /api/user/save`: own names and e-mail. A new address must be confirmed again. */
export async function saveProfile(
  ctx: AppContext,
  actor: Actor,
  body: ProfileSaveBody,
): Promise<CurrentUser> {
  const { auth } = actor;
  const row = await ctx.db
    .transaction(async (tx) => {
      const current = await repo.lockUser(tx, auth.userId);
      if (!current) throw notFound('No such user');
      const write: repo.UserWrite = {};
      const changes: Record<string, Change> = {};
      for (const field of ['surname', 'name', 'patronymic', 'email'] as const) {
        const to = body[field];
        if (to === undefined || to === current[field]) continue;
        write[field] = to;
        changes[field] = { from: current[field], to };
      }
      if (changes.email && !sameAddress(current.email, body.email ?? null)) {
        if (body.email && (await repo.emailInUse(tx, body.email, auth.userId))) throw emailTaken();
        write.emailConfirmedAt = null;
      }
      if (!Object.keys(changes).length) return current;
      await audit(tx, {
        userId: auth.userId,
        action: 'user.profile_update',
        entity: 'user',
        entityId: auth.userId,
        ip: actor.ip,
        details: { changes },
      });
      return repo.updateUser(tx, auth.userId, write);
    })
    .catch(rethrowAppError);
  await ctx.sessions.invalidateUser(auth.userId);
  const fresh = { ...auth, ...userFields(row, auth.roles) };
  return toCurrentUser(fresh, { schoolName: await repo.schoolName(ctx.db, fresh.schoolId) });
}

// --- participant card ---

/** The card may change until the work starts; after that the results are tied to it. */
const CARD_EDITABLE_STATUSES = ['planned', 'active'];

async function studentSchool(
  tx: Tx,
  pt: repo.ParticipantTestRow,
): Promise<{ student: repo.StudentRow | null; schoolId: number }> {
  if (pt.studentId) {
    const student = await repo.findStudent(tx, pt.studentId);
    if (student) return { student, schoolId: student.schoolId };
  }
  if (!pt.isImpersonal) throw conflict('conflict', 'This participant test has no student card to fill in');
  if (!pt.schoolId) throw conflict('conflict', 'This participant test belongs to no school');
  return { student: null, schoolId: pt.schoolId };
}

async function classInSchool(tx: Tx, classId: number | null | undefined, schoolId: number) {
  if (classId == null) return null;
  const cls = await repo.findClass(tx, classId);
  if (!cls || cls.schoolId !== schoolId) throw fieldError('body.classId', 'is not a class of your school');
  return cls;
}

/**
 * `PUT /api/user/saveParticipant`: the participant fills in their card. It writes to the student
 * of the session's participant test; an impersonal test gets a new student of its school.
 */
export async function saveParticipantCard(
  ctx: AppContext,
  actor: Actor,
  participantTestId: number,
  body: ParticipantCardBody,
): Promise<ParticipantCard> {
  return ctx.db.transaction(async (tx) => {
    // Locked, so two tabs submitting at once cannot create two students for one impersonal test.
    const pt = await repo.lockParticipantTest(tx, participantTestId);
    if (!pt || pt.deletedAt) throw notFound('No such participant test');
    if (!CARD_EDITABLE_STATUSES.includes(pt.status))
      throw conflict('card_locked', 'The card cannot be changed after the test has started');
    const { student, schoolId } = await studentSchool(tx, pt);
    const cls = await classInSchool(tx, body.classId, schoolId);

    const values: repo.StudentWrite = {
      surname: body.surname,
      name: body.name,
      patronymic: body.patronymic === undefined ? (student?.patronymic ?? null) : body.patronymic,
      birthDate: body.birthDate,
      classId: body.classId === undefined ? (student?.classId ?? null) : body.classId,
    };
    const saved = student
      ? await repo.updateStudent(tx, student.id, values)
      : await repo.insertStudent(tx, schoolId, values);
    // The organiser's room assignment wins; only an unassigned test takes the participant's class.
    const ptUpdate = {
      ...(student ? {} : { studentId: saved.id }),
      ...(cls && pt.classId === null ? { classId: cls.id } : {}),
    };
    if (Object.keys(ptUpdate).length) await repo.updateParticipantTest(tx, pt.id, ptUpdate);

    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant.card_save',
      entity: 'participant_test',
      entityId: pt.id,
      ip: actor.ip,
      details: {
        studentId: saved.id,
        createdStudent: !student,
        before: student && pickCard(student),
        after: pickCard(saved),
      },
    });
    const className = saved.classId ? ((await repo.findClass(tx, saved.classId))?.name ?? null) : null;
    return {
      participantTestId: pt.id,
      studentId: saved.id,
      schoolId: saved.schoolId,
      ...pickCard(saved),
      className,
    };
  });
}

const pickCard = (s: repo.StudentRow) => ({
  surname: s.surname,
  name: s.name,
  patronymic: s.patronymic,
  birthDate: s.birthDate,
  classId: s.classId,
});

/** The roles a user can hold, with their names (a plain read). */
export { listRoles } from './user.repo.js';
