import type { Accommodations } from '@attesta/contract';
import { and, asc, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { schools, students, workerPositions, workers } from '../../db/schema/index.js';
import { containsPattern, offsetOf, paged } from '../../lib/list.js';

/** Live students by id with their school and profile (deleted ones are not found). */
export async function findStudents(db: DbOrTx, ids: number[]) {
  return db
    .select({ id: students.id, schoolId: students.schoolId, accommodations: students.accommodations })
    .from(students)
    .where(and(inArray(students.id, ids), isNull(students.deletedAt)));
}

export async function setAccommodations(
  db: DbOrTx,
  ids: number[],
  accommodations: Accommodations | null,
): Promise<number> {
  const rows = await db
    .update(students)
    .set({ accommodations })
    .where(and(inArray(students.id, ids), isNull(students.deletedAt)))
    .returning({ id: students.id });
  return rows.length;
}

export async function findStudentAccommodations(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ accommodations: students.accommodations })
    .from(students)
    .where(and(eq(students.id, id), isNull(students.deletedAt)));
  return row ?? null;
}

// ------------------------------------------------------------------ workers

/** Workers by id with their school and profile. */
export async function findWorkers(db: DbOrTx, ids: number[]) {
  return db
    .select({ id: workers.id, schoolId: workers.schoolId, accommodations: workers.accommodations })
    .from(workers)
    .where(inArray(workers.id, ids));
}

export async function setWorkerAccommodations(
  db: DbOrTx,
  ids: number[],
  accommodations: Accommodations | null,
): Promise<number> {
  const rows = await db
    .update(workers)
    .set({ accommodations })
    .where(inArray(workers.id, ids))
    .returning({ id: workers.id });
  return rows.length;
}

/** A page of workers, by surname, with whether each has a profile. */
export async function listWorkers(
  db: DbOrTx,
  q: { schoolId?: number; search?: string; page: number; pageSize: number },
) {
  const where = and(
    q.schoolId !== undefined ? eq(workers.schoolId, q.schoolId) : undefined,
    q.search
      ? or(
          ilike(workers.surname, containsPattern(q.search)),
          ilike(workers.name, containsPattern(q.search)),
          ilike(workers.email, containsPattern(q.search)),
        )
      : undefined,
  );
  return paged(
    db
      .select({
        id: workers.id,
        surname: workers.surname,
        name: workers.name,
        patronymic: workers.patronymic,
        email: workers.email,
        schoolId: workers.schoolId,
        schoolName: schools.name,
        positionName: workerPositions.name,
        isBlocked: workers.isBlocked,
        hasAccommodations: sql<boolean>`${workers.accommodations} is not null`,
      })
      .from(workers)
      .leftJoin(schools, eq(schools.id, workers.schoolId))
      .leftJoin(workerPositions, eq(workerPositions.id, workers.positionId))
      .where(where)
      .orderBy(asc(workers.surname), asc(workers.name), asc(workers.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(workers).where(where),
  );
}
