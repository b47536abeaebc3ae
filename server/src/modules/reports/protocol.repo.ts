import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  auditEvents,
  buildings,
  classes,
  examWorkPauses,
  examWorks,
  organizatorAssignments,
  schools,
  subjectTests,
  userRoles,
  users,
} from '../../db/schema/index.js';

/* Queries of the sitting protocol: the room, its organizers, and what happened to its works. */

const userName = sql<string>`coalesce(nullif(concat_ws(' ', ${users.surname}, ${users.name}, ${users.patronymic}), ''), ${users.login})`;

/** The room: a class (with its building unless another is named) or a whole building. */
export async function roomOf(db: Db, ref: { classId?: number | undefined; buildingId?: number | undefined }) {
  const cls = ref.classId
    ? (
        await db
          .select({
            id: classes.id,
            name: classes.name,
            schoolId: classes.schoolId,
            buildingId: classes.buildingId,
          })
          .from(classes)
          .where(eq(classes.id, ref.classId))
      )[0]
    : undefined;
  const buildingId = ref.buildingId ?? cls?.buildingId ?? null;
  const building =
    buildingId !== null
      ? (
          await db
            .select({
              id: buildings.id,
              name: buildings.name,
              address: buildings.address,
              schoolId: buildings.schoolId,
            })
            .from(buildings)
            .where(eq(buildings.id, buildingId))
        )[0]
      : undefined;
  const schoolId = cls?.schoolId ?? building?.schoolId ?? null;
  const school =
    schoolId !== null
      ? (await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId)))[0]
      : undefined;
  return {
    schoolId,
    schoolName: school?.name ?? null,
    buildingId: building?.id ?? null,
    buildingName: building?.name ?? null,
    buildingAddress: building?.address ?? null,
    classId: cls?.id ?? null,
    className: cls?.name ?? null,
  };
}

/** Organizators assigned to the class or to the whole building of the room. */
export async function organizersOf(db: Db, room: { classId: number | null; buildingId: number | null }) {
  const targets = [
    room.classId !== null ? eq(organizatorAssignments.classId, room.classId) : undefined,
    room.buildingId !== null
      ? and(isNull(organizatorAssignments.classId), eq(organizatorAssignments.buildingId, room.buildingId))
      : undefined,
  ].filter((t) => t !== undefined);
  if (!targets.length) return [];
  const rows = await db
    .selectDistinct({ userId: users.id, name: userName })
    .from(organizatorAssignments)
    .innerJoin(users, eq(users.id, organizatorAssignments.userId))
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, 'organizator')))
    .where(or(...targets))
    .orderBy(userName);
  return rows;
}

export async function durationsOf(db: Db, subjectTestIds: readonly number[]) {
  if (!subjectTestIds.length) return new Map<number, number>();
  const rows = await db
    .select({ id: subjectTests.id, minutes: subjectTests.durationMinutes })
    .from(subjectTests)
    .where(inArray(subjectTests.id, [...subjectTestIds]));
  return new Map(rows.map((r) => [r.id, r.minutes]));
}

const resumer = alias(users, 'resumer');
const resumerName = sql<
  string | null
>`case when ${resumer.id} is null then null else coalesce(nullif(concat_ws(' ', ${resumer.surname}, ${resumer.name}, ${resumer.patronymic}), ''), ${resumer.login}) end`;

export async function pausesOf(db: Db, workIds: readonly number[]) {
  if (!workIds.length) return [];
  return db
    .select({
      examWorkId: examWorkPauses.examWorkId,
      startedAt: examWorkPauses.startedAt,
      endedAt: examWorkPauses.endedAt,
      byStaff: examWorkPauses.byStaff,
      by: sql<string | null>`case when ${users.id} is null then null else ${userName} end`,
      resumedBy: sql<string | null>`case when ${examWorkPauses.byStaff} then ${resumerName} end`,
      reason: examWorkPauses.reason,
    })
    .from(examWorkPauses)
    .leftJoin(users, eq(users.id, examWorkPauses.pausedBy))
    .leftJoin(resumer, eq(resumer.id, examWorkPauses.resumedBy))
    .where(inArray(examWorkPauses.examWorkId, [...workIds]))
    .orderBy(asc(examWorkPauses.startedAt), asc(examWorkPauses.id));
}

/** ChangeTimeTill as the audit trail recorded it (one event per work). */
export async function timeChangesOf(db: Db, workIds: readonly number[]) {
  if (!workIds.length) return [];
  const rows = await db
    .select({
      entityId: auditEvents.entityId,
      at: auditEvents.at,
      details: auditEvents.details,
      by: sql<string | null>`case when ${users.id} is null then null else ${userName} end`,
      reason: auditEvents.reason,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(
      and(
        eq(auditEvents.action, 'exam_work.change_time'),
        eq(auditEvents.entity, 'exam_work'),
        inArray(
          auditEvents.entityId,
          workIds.map((id) => String(id)),
        ),
      ),
    )
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));
  return rows.map((r) => ({
    examWorkId: Number(r.entityId),
    at: r.at,
    deltaSeconds: typeof r.details?.deltaSeconds === 'number' ? r.details.deltaSeconds : 0,
    by: r.by,
    reason: r.reason,
  }));
}

/** Works of the registrations that staff deleted (and that were not restored). */
export async function deletedWorksOf(db: Db, participantTestIds: readonly number[]) {
  if (!participantTestIds.length) return [];
  return db
    .select({
      participantTestId: examWorks.participantTestId,
      deletedAt: examWorks.deletedAt,
      reason: examWorks.deletedReason,
      by: sql<string | null>`case when ${users.id} is null then null else ${userName} end`,
    })
    .from(examWorks)
    .leftJoin(users, eq(users.id, examWorks.deletedBy))
    .where(and(inArray(examWorks.participantTestId, [...participantTestIds]), isNotNull(examWorks.deletedAt)))
    .orderBy(asc(examWorks.deletedAt));
}
