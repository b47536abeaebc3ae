import {
  hasAccommodations,
  WORKER_LIST_PAGE_SIZE,
  type Accommodations,
  type BulkAccommodationsBody,
  type BulkWorkerAccommodationsBody,
  type StudentAccommodations,
  type WorkerAccommodations,
  type WorkerList,
} from '@attesta/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { forbidden, notFound } from '../../lib/errors.js';
import * as repo from './accommodations.repo.js';

/**
 * Accommodations profiles of students and workers (issue 14, items 2 and 6; docs/accommodations.md).
 * An admin sets anyone's, a coordinator only those of their own school's students and workers; a
 * bulk change is all or nothing. The exam reads the profile itself: extra time when a work starts, the rest in the runner.
 */
export interface Actor {
  userId: number;
  ip: string | null;
  /** The coordinator's school; null for an admin (every school). */
  ownSchoolId: number | null;
}

/** A profile that changes nothing is stored as none. */
const normalized = (a: Accommodations | null): Accommodations | null => (hasAccommodations(a) ? a : null);

/** The live students of `ids`, every one of them within the actor's reach (404, 403 otherwise). */
async function reachableStudents(db: DbOrTx, actor: Actor, ids: number[]) {
  const rows = await repo.findStudents(db, ids);
  if (rows.length !== ids.length) throw notFound('No such student');
  if (actor.ownSchoolId !== null && rows.some((r) => r.schoolId !== actor.ownSchoolId))
    throw forbidden('Accommodations are set for students of your own school only');
  return rows;
}

export async function getStudentAccommodations(
  ctx: AppContext,
  actor: Actor,
  studentId: number,
): Promise<StudentAccommodations> {
  const [row] = await reachableStudents(ctx.db, actor, [studentId]);
  return { studentId, accommodations: row!.accommodations ?? null };
}

export async function setStudentAccommodations(
  ctx: AppContext,
  actor: Actor,
  studentId: number,
  accommodations: Accommodations | null,
): Promise<StudentAccommodations> {
  await setMany(ctx, actor, { studentIds: [studentId], accommodations });
  return { studentId, accommodations: normalized(accommodations) };
}

export async function setManyAccommodations(ctx: AppContext, actor: Actor, body: BulkAccommodationsBody) {
  return { updated: await setMany(ctx, actor, body) };
}

async function setMany(ctx: AppContext, actor: Actor, body: BulkAccommodationsBody): Promise<number> {
  const profile = normalized(body.accommodations);
  return ctx.db.transaction(async (tx) => {
    await reachableStudents(tx, actor, body.studentIds);
    const updated = await repo.setAccommodations(tx, body.studentIds, profile);
    for (const id of body.studentIds)
      await audit(tx, {
        userId: actor.userId,
        action: 'student.accommodations',
        entity: 'student',
        entityId: id,
        ip: actor.ip,
        details: {
          accommodations: profile,
          ...(body.studentIds.length > 1 ? { bulk: body.studentIds.length } : {}),
        },
      });
    return updated;
  });
}

// ------------------------------------------------------------------ workers

/** The workers of `ids`, every one of them within the actor's reach (404, 403 otherwise). */
async function reachableWorkers(db: DbOrTx, actor: Actor, ids: number[]) {
  const rows = await repo.findWorkers(db, ids);
  if (rows.length !== ids.length) throw notFound('No such worker');
  if (actor.ownSchoolId !== null && rows.some((r) => r.schoolId !== actor.ownSchoolId))
    throw forbidden('Accommodations are set for workers of your own school only');
  return rows;
}

export async function listWorkers(
  ctx: AppContext,
  actor: Actor,
  q: { page?: number; pageSize?: number; schoolId?: number; search?: string },
): Promise<WorkerList> {
  if (actor.ownSchoolId !== null && q.schoolId !== undefined && q.schoolId !== actor.ownSchoolId)
    throw forbidden('A coordinator lists the workers of their own school only');
  return repo.listWorkers(ctx.db, {
    schoolId: actor.ownSchoolId ?? q.schoolId,
    search: q.search,
    page: q.page ?? 1,
    pageSize: q.pageSize ?? WORKER_LIST_PAGE_SIZE,
  });
}

export async function getWorkerAccommodations(
  ctx: AppContext,
  actor: Actor,
  workerId: number,
): Promise<WorkerAccommodations> {
  const [row] = await reachableWorkers(ctx.db, actor, [workerId]);
  return { workerId, accommodations: row!.accommodations ?? null };
}

export async function setWorkerAccommodations(
  ctx: AppContext,
  actor: Actor,
  workerId: number,
  accommodations: Accommodations | null,
): Promise<WorkerAccommodations> {
  await setManyWorkers(ctx, actor, { workerIds: [workerId], accommodations });
  return { workerId, accommodations: normalized(accommodations) };
}

export async function setManyWorkerAccommodations(
  ctx: AppContext,
  actor: Actor,
  body: BulkWorkerAccommodationsBody,
) {
  return { updated: await setManyWorkers(ctx, actor, body) };
}

async function setManyWorkers(
  ctx: AppContext,
  actor: Actor,
  body: BulkWorkerAccommodationsBody,
): Promise<number> {
  const profile = normalized(body.accommodations);
  return ctx.db.transaction(async (tx) => {
    await reachableWorkers(tx, actor, body.workerIds);
    const updated = await repo.setWorkerAccommodations(tx, body.workerIds, profile);
    for (const id of body.workerIds)
      await audit(tx, {
        userId: actor.userId,
        action: 'worker.accommodations',
        entity: 'worker',
        entityId: id,
        ip: actor.ip,
        details: {
          accommodations: profile,
          ...(body.workerIds.length > 1 ? { bulk: body.workerIds.length } : {}),
        },
      });
    return updated;
  });
}
