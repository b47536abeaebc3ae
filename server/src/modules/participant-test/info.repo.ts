import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  diagnostics,
  examWorks,
  participantTests,
  schools,
  students,
  subjectTests,
} from '../../db/schema/index.js';

export type ParticipantTestRow = typeof participantTests.$inferSelect;

/** The card's own row with the names it shows (one statement). */
export async function findCardRow(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      pt: participantTests,
      diagnostic: {
        id: diagnostics.id,
        code: diagnostics.code,
        name: diagnostics.name,
        kind: diagnostics.kind,
      },
      subjectTest: { id: subjectTests.id, name: subjectTests.name },
      student: {
        id: students.id,
        surname: students.surname,
        name: students.name,
        patronymic: students.patronymic,
        birthDate: students.birthDate,
      },
      schoolName: schools.name,
      className: classes.name,
      buildingName: buildings.name,
    })
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(buildings, eq(buildings.id, participantTests.buildingId))
    .where(
      and(eq(participantTests.id, id), isNull(participantTests.deletedAt), isNull(diagnostics.deletedAt)),
    )
    .limit(1);
  return row ?? null;
}

/** The live work of a participant test with its answer count. */
export async function liveWorkSummary(db: DbOrTx, participantTestId: number) {
  const [row] = await db
    .select({
      work: examWorks,
      answerCount: sql<number>`(select count(*)::int from answers a where a.exam_work_id = "exam_works"."id")`,
    })
    .from(examWorks)
    .where(and(eq(examWorks.participantTestId, participantTestId), isNull(examWorks.deletedAt)))
    .limit(1);
  return row ?? null;
}

export function deletedWorks(db: DbOrTx, participantTestId: number) {
  return db
    .select({
      id: examWorks.id,
      status: examWorks.status,
      deletedAt: examWorks.deletedAt,
      deletedReason: examWorks.deletedReason,
    })
    .from(examWorks)
    .where(and(eq(examWorks.participantTestId, participantTestId), isNotNull(examWorks.deletedAt)))
    .orderBy(desc(examWorks.deletedAt));
}

/** A live participant test with its diagnostic window, locked for the rest of the transaction. */
export async function lockParticipantTest(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      pt: participantTests,
      startsAt: diagnostics.startsAt,
      endsAt: diagnostics.endsAt,
      firstPublishedAt: diagnostics.firstPublishedAt,
    })
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .where(
      and(eq(participantTests.id, id), isNull(participantTests.deletedAt), isNull(diagnostics.deletedAt)),
    )
    .for('update', { of: participantTests })
    .limit(1);
  return row ?? null;
}

/** The id of the live exam work of a participant test, locked. */
export async function lockLiveWork(db: DbOrTx, participantTestId: number) {
  const [row] = await db
    .select({ id: examWorks.id, status: examWorks.status, deviceId: examWorks.deviceId })
    .from(examWorks)
    .where(and(eq(examWorks.participantTestId, participantTestId), isNull(examWorks.deletedAt)))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** The school of a class or a building (null when there is none). */
export async function schoolOfClass(db: DbOrTx, classId: number): Promise<number | null> {
  const [row] = await db.select({ schoolId: classes.schoolId }).from(classes).where(eq(classes.id, classId));
  return row?.schoolId ?? null;
}

export async function schoolOfBuilding(db: DbOrTx, buildingId: number): Promise<number | null> {
  const [row] = await db
    .select({ schoolId: buildings.schoolId })
    .from(buildings)
    .where(eq(buildings.id, buildingId));
  return row?.schoolId ?? null;
}

export async function updateParticipantTest(
  db: DbOrTx,
  id: number,
  values: Partial<Pick<ParticipantTestRow, 'testDate' | 'classId' | 'buildingId' | 'status'>>,
): Promise<void> {
  await db
    .update(participantTests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(participantTests.id, id));
}

/** How many exam works (live or deleted) a participant test has had. */
export async function examWorkCount(db: DbOrTx, participantTestId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(examWorks)
    .where(eq(examWorks.participantTestId, participantTestId));
  return row?.n ?? 0;
}
