import {
  hasAccommodations,
  type Accommodations,
  type BulkAccommodationsBody,
  type StudentAccommodations,
} from '@attesta/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { forbidden, notFound } from '../../lib/errors.js';
import * as repo from './accommodations.repo.js';

/**
 * Accommodations profiles of students (issue 14, item 2; docs/accommodations.md). An admin sets any
 * student's, a coordinator only those of their own school's students; a bulk change is all or
 * nothing. The exam reads the profile itself: extra time when a work starts, the rest in the runner.
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
