import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type {
  Role,
  StaffOrganizator,
  StaffOrganizatorBlockBody,
  StaffOrganizatorListRequest,
  StaffOrganizatorSaveBody,
  StaffOrganizatorSaveResult,
} from '@attesta/contract';
import type { ScopeRule } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { hashPassword } from '../../lib/password.js';
import type { Actor } from '../school-data/index.js';
import { assertLoginAndEmailFree, rethrowUniqueConflict } from '../user/index.js';
import * as repo from './organizator.repo.js';

/**
 * Organizators of the coordinator's school: a user with the organizator role, a worker row (the
 * staff member, whose position decides the worker tests) and room assignments.
 */

/**
 * Roles a coordinator may manage. A user who also holds a higher role (coordinator, expert,
 * ugnik, admin...) is not theirs to rename, re-password or block: that would be a way into
 * someone else's account.
 */
const MANAGEABLE_ROLES: readonly Role[] = ['organizator', 'participant', 'guest'];

/** Whether a coordinator may manage an account holding these roles (at their own school). */
export const manageableByCoordinator = (roles: readonly Role[]) =>
  roles.every((r) => MANAGEABLE_ROLES.includes(r));

const fieldError = (path: string, message: string) =>
  badRequest('validation_failed', `${path} ${message}`, [{ path, message }]);

const schoolOf = (actor: Actor) => (actor.scope.role === 'coordinator' ? actor.scope.schoolId : -1);

/** 404 when no user has the id; 403 unless it is a manageable organizator of the school. */
async function assertOrganizatorOfSchool(db: DbOrTx, schoolId: number, id: number) {
  const target = await repo.userTarget(db, id);
  if (!target) throw notFound('No such organizator');
  const ok =
    target.schoolId === schoolId &&
    target.roles.includes('organizator') &&
    manageableByCoordinator(target.roles);
  if (!ok) throw forbidden('This organizator is outside your scope');
  return target;
}

/** Route rule for calls naming an organizator in the path. */
export const organizatorInScope =
  (getId: (req: FastifyRequest) => number): ScopeRule =>
  async (req, auth) => {
    if (auth.schoolId === null) return false;
    await assertOrganizatorOfSchool(req.server.ctx.db, auth.schoolId, getId(req));
    return true;
  };

export function listOrganizators(db: DbOrTx, actor: Actor, q: StaffOrganizatorListRequest) {
  return repo.listOrganizators(db, schoolOf(actor), q);
}

async function getOrganizator(db: DbOrTx, schoolId: number, id: number): Promise<StaffOrganizator> {
  const row = await repo.findOrganizator(db, schoolId, id);
  if (!row) throw notFound('No such organizator');
  return row;
}

/** A readable one-time password: 12 symbols without look-alikes (~59 bits). */
function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < 12; i++) s += alphabet[randomInt(alphabet.length)];
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

/** Class and building ids must be of the school: unknown ids 400, another school's 403. */
async function assertPlaces(tx: Tx, schoolId: number, body: StaffOrganizatorSaveBody) {
  const check = async (
    ids: number[] | undefined,
    rowsOf: (db: DbOrTx, ids: number[]) => Promise<{ id: number; schoolId: number }[]>,
    field: string,
  ) => {
    if (!ids?.length) return;
    const rows = await rowsOf(tx, [...new Set(ids)]);
    const known = new Map(rows.map((r) => [r.id, r.schoolId]));
    const missing = ids.findIndex((id) => !known.has(id));
    if (missing >= 0) throw fieldError(`body.${field}.${missing}`, 'does not exist');
    if (rows.some((r) => r.schoolId !== schoolId)) throw forbidden(`body.${field}: not of your school`);
  };
  await check(body.classIds, repo.classSchools, 'classIds');
  await check(body.buildingIds, repo.buildingSchools, 'buildingIds');
  if (body.positionId != null && !(await repo.positionExists(tx, body.positionId)))
    throw fieldError('body.positionId', 'no such worker position');
}

interface SaveOutcome {
  id: number;
  passwordSet: boolean;
}

/** What a staff member's worker row holds: the person of a school, whose position decides the worker tests. */
export type StaffWorkerValues = Pick<
  repo.WorkerInsert,
  'schoolId' | 'positionId' | 'surname' | 'name' | 'patronymic' | 'email' | 'externalId'
>;

/** Creates (no id) or updates a staff member's worker row; its id. */
export async function saveStaffWorker(tx: Tx, id: number | null, values: StaffWorkerValues): Promise<number> {
  if (id === null) return repo.insertWorker(tx, values);
  await repo.updateWorker(tx, id, values);
  return id;
}

/** What a staff account (an organizator's, a coordinator's) holds besides its role. */
export interface StaffAccountValues {
  login: string;
  email: string | null;
  surname: string;
  name: string;
  patronymic: string | null;
  schoolId: number;
  workerId: number;
}

/**
 * A staff account of a school with its role. Without a password hash the account cannot log in
 * with a password until its owner sets one (the e-mailed link of a password reset).
 */
export async function createStaffAccount(
  tx: Tx,
  values: StaffAccountValues,
  role: Role,
  passwordHash: string | null,
): Promise<number> {
  const id = await repo.insertUser(tx, {
    ...values,
    passwordHash,
    // The coordinator or administrator entering the address vouches for it.
    emailConfirmedAt: values.email ? new Date() : null,
  });
  await repo.addRole(tx, id, role);
  return id;
}

/**
 * Changes a staff account's fields (a changed e-mail counts as confirmed, as on creation) and
 * gives it the role if it lacks it.
 */
export async function updateStaffAccount(
  tx: Tx,
  id: number,
  changes: Partial<StaffAccountValues>,
  role: Role,
): Promise<void> {
  const write: Partial<repo.UserInsert> = { ...changes };
  if (changes.email !== undefined) write.emailConfirmedAt = changes.email ? new Date() : null;
  if (Object.keys(write).length) await repo.updateUser(tx, id, write);
  await repo.addRole(tx, id, role);
}

async function createOrganizator(
  tx: Tx,
  actor: Actor,
  schoolId: number,
  body: StaffOrganizatorSaveBody,
  passwordHash: string,
  generated: boolean,
): Promise<SaveOutcome> {
  await assertLoginAndEmailFree(tx, body.login, body.email);
  const person = { surname: body.surname, name: body.name, patronymic: body.patronymic ?? null };
  const workerId = await saveStaffWorker(tx, null, {
    schoolId,
    positionId: body.positionId ?? null,
    ...person,
    email: body.email ?? null,
  });
  const id = await createStaffAccount(
    tx,
    { login: body.login, email: body.email ?? null, ...person, schoolId, workerId },
    'organizator',
    passwordHash,
  );
  await repo.replaceAssignments(tx, id, unique(body.classIds), unique(body.buildingIds));
  await audit(tx, {
    userId: actor.auth.userId,
    action: 'organizator.create',
    entity: 'user',
    entityId: id,
    ip: actor.ip,
    details: {
      login: body.login,
      schoolId,
      workerId,
      positionId: body.positionId ?? null,
      classIds: unique(body.classIds),
      buildingIds: unique(body.buildingIds),
      passwordGenerated: generated,
    },
  });
  return { id, passwordSet: true };
}

const unique = (ids: number[] | undefined) => [...new Set(ids ?? [])].sort((a, b) => a - b);

async function updateOrganizator(
  tx: Tx,
  actor: Actor,
  schoolId: number,
  id: number,
  body: StaffOrganizatorSaveBody,
  passwordHash: string | undefined,
): Promise<SaveOutcome> {
  await assertOrganizatorOfSchool(tx, schoolId, id);
  const user = (await repo.lockUser(tx, id))!;
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const userWrite: Partial<repo.UserInsert> = {};
  const next = {
    login: body.login,
    surname: body.surname,
    name: body.name,
    patronymic: body.patronymic === undefined ? user.patronymic : body.patronymic,
    email: body.email === undefined ? user.email : body.email,
  };
  for (const [k, to] of Object.entries(next) as [keyof typeof next, string | null][]) {
    if (to !== user[k]) {
      changes[k] = { from: user[k], to };
      (userWrite as Record<string, unknown>)[k] = to;
    }
  }
  await assertLoginAndEmailFree(
    tx,
    changes.login ? body.login : undefined,
    changes.email ? next.email : null,
    id,
  );
  if (changes.email) {
    userWrite.emailConfirmedAt = next.email ? new Date() : null;
  }
  if (passwordHash) userWrite.passwordHash = passwordHash;

  const workerValues = {
    surname: next.surname,
    name: next.name,
    patronymic: next.patronymic,
    email: next.email,
    ...(body.positionId !== undefined ? { positionId: body.positionId } : {}),
  };
  if (user.workerId === null) {
    userWrite.workerId = await repo.insertWorker(tx, { schoolId, ...workerValues });
    changes.workerId = { from: null, to: userWrite.workerId };
  } else {
    const positionBefore = await repo.workerPosition(tx, user.workerId);
    if (body.positionId !== undefined && body.positionId !== positionBefore)
      changes.positionId = { from: positionBefore, to: body.positionId };
    await repo.updateWorker(tx, user.workerId, workerValues);
  }

  if (body.classIds !== undefined || body.buildingIds !== undefined) {
    const before = await repo.assignmentsOf(tx, id);
    const classIds =
      body.classIds !== undefined
        ? unique(body.classIds)
        : unique(before.filter((a) => a.classId !== null).map((a) => a.classId!));
    const buildingIds =
      body.buildingIds !== undefined
        ? unique(body.buildingIds)
        : unique(before.filter((a) => a.classId === null).map((a) => a.buildingId!));
    const was = {
      classIds: unique(before.filter((a) => a.classId !== null).map((a) => a.classId!)),
      buildingIds: unique(before.filter((a) => a.classId === null).map((a) => a.buildingId!)),
    };
    if (was.classIds.join() !== classIds.join() || was.buildingIds.join() !== buildingIds.join()) {
      await repo.replaceAssignments(tx, id, classIds, buildingIds);
      changes.assignments = { from: was, to: { classIds, buildingIds } };
    }
  }

  if (Object.keys(userWrite).length) await repo.updateUser(tx, id, userWrite);
  if (Object.keys(changes).length || passwordHash)
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'organizator.update',
      entity: 'user',
      entityId: id,
      ip: actor.ip,
      details: { changes, passwordSet: !!passwordHash },
    });
  return { id, passwordSet: !!passwordHash };
}

/**
 * `POST /api/coordinator/organizator`: create or update an organizator of the caller's school.
 * A new organizator without a password gets a generated one, returned once in the answer.
 */
export async function saveOrganizator(
  ctx: AppContext,
  actor: Actor,
  body: StaffOrganizatorSaveBody,
): Promise<StaffOrganizatorSaveResult> {
  const schoolId = schoolOf(actor);
  const generatedPassword = body.id === undefined && !body.password ? generatePassword() : null;
  const password = body.password ?? generatedPassword ?? undefined;
  // The slow KDF runs before the transaction, so no row lock waits on it.
  const passwordHash = password ? await hashPassword(password) : undefined;
  const outcome = await ctx.db
    .transaction(async (tx) => {
      await assertPlaces(tx, schoolId, body);
      return body.id === undefined
        ? createOrganizator(tx, actor, schoolId, body, passwordHash!, generatedPassword !== null)
        : updateOrganizator(tx, actor, schoolId, body.id, body, passwordHash);
    })
    .catch(rethrowUniqueConflict);
  if (body.id !== undefined) {
    // A new password ends the organizator's sessions; other changes reach them at once.
    if (outcome.passwordSet)
      await ctx.sessions.revokeWhere({ userId: outcome.id }, 'password_set_by_coordinator');
    await ctx.sessions.invalidateUser(outcome.id);
  }
  return { organizator: await getOrganizator(ctx.db, schoolId, outcome.id), generatedPassword };
}

/** `POST /api/coordinator/organizator/{id}`: block (their sessions end) or unblock. */
export async function setBlocked(
  ctx: AppContext,
  actor: Actor,
  id: number,
  body: StaffOrganizatorBlockBody,
): Promise<StaffOrganizator> {
  const schoolId = schoolOf(actor);
  if (id === actor.auth.userId) throw conflict('self_lockout', 'You cannot block yourself');
  const changed = await ctx.db.transaction(async (tx) => {
    await assertOrganizatorOfSchool(tx, schoolId, id);
    const user = (await repo.lockUser(tx, id))!;
    if (user.isBlocked === body.blocked) return false;
    await repo.updateUser(tx, id, { isBlocked: body.blocked });
    if (user.workerId !== null) await repo.updateWorker(tx, user.workerId, { isBlocked: body.blocked });
    await audit(tx, {
      userId: actor.auth.userId,
      action: body.blocked ? 'organizator.block' : 'organizator.unblock',
      entity: 'user',
      entityId: id,
      reason: body.reason ?? null,
      ip: actor.ip,
    });
    return true;
  });
  if (changed && body.blocked) await ctx.sessions.revokeWhere({ userId: id }, 'blocked');
  if (changed) await ctx.sessions.invalidateUser(id);
  return getOrganizator(ctx.db, schoolId, id);
}
