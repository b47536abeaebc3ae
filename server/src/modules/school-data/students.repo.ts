/* Students of the schools in the caller's reach: lists, cards, writes, twins. */
import { and, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { StaffStudent, StaffStudentListRequest, StaffStudentSortField } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { buildings, classes, examWorks, participantTests, students } from '../../db/schema/index.js';
import { containsPattern, listPage, orderOf } from '../../lib/list.js';
import { classInScope, type StaffScope } from './school-data.access.js';

import { PT_ID } from './repo-support.js';
import { classOrder } from '../../db/fragments.js';

// ---------------------------------------------------------------- students

export const studentColumns = {
  id: students.id,
  surname: students.surname,
  name: students.name,
  patronymic: students.patronymic,
  birthDate: students.birthDate,
  gender: students.gender,
  schoolId: students.schoolId,
  classId: students.classId,
  className: classes.name,
  parallel: classes.parallelId,
  buildingId: classes.buildingId,
  buildingName: buildings.name,
  createdAt: students.createdAt,
  hasAccommodations: sql<boolean>`${students.accommodations} is not null`,
};
export type StudentRow = {
  [K in keyof typeof studentColumns]: K extends 'createdAt' ? Date : unknown;
};

export function toStudent(r: StudentRow): StaffStudent {
  return {
    id: r.id as number,
    surname: r.surname as string,
    name: r.name as string,
    patronymic: r.patronymic as string | null,
    birthDate: r.birthDate as string | null,
    gender: r.gender === 'male' || r.gender === 'female' ? r.gender : null,
    schoolId: r.schoolId as number,
    classId: r.classId as number | null,
    className: r.className as string | null,
    parallel: r.parallel as number | null,
    buildingId: r.buildingId as number | null,
    buildingName: r.buildingName as string | null,
    createdAt: r.createdAt.toISOString(),
    hasAccommodations: Boolean(r.hasAccommodations),
  };
}

export const studentInScope = (scope: StaffScope) => classInScope(scope, students.classId, students.schoolId);

/** Classes in school order: by parallel, then letter (7 «А», 7 «Б», 8 «А»...); a sort key of lists. */

export const STUDENT_SORT = {
  surname: students.surname,
  name: students.name,
  birthDate: students.birthDate,
  className: classOrder,
  createdAt: students.createdAt,
  id: students.id,
} satisfies Record<StaffStudentSortField, unknown>;

export const personSearch = (pattern: string) =>
  or(
    ilike(students.surname, pattern),
    ilike(students.name, pattern),
    sql`(${students.surname} || ' ' || ${students.name}) ilike ${pattern}`,
  );

/** One page of live students in scope plus the total: two statements. */
export async function listStudents(db: DbOrTx, scope: StaffScope, q: StaffStudentListRequest) {
  const f = q.filter ?? {};
  const where = and(
    isNull(students.deletedAt),
    studentInScope(scope),
    f.search ? personSearch(containsPattern(f.search)) : undefined,
    f.classId !== undefined ? eq(students.classId, f.classId) : undefined,
    f.parallel !== undefined ? eq(classes.parallelId, f.parallel) : undefined,
    f.buildingId !== undefined ? eq(classes.buildingId, f.buildingId) : undefined,
  );
  const page = await listPage(
    db
      .select(studentColumns)
      .from(students)
      .leftJoin(classes, eq(classes.id, students.classId))
      .leftJoin(buildings, eq(buildings.id, classes.buildingId))
      .where(where),
    orderOf(q.sort, STUDENT_SORT, students.id),
    q,
    db.select({ n: count() }).from(students).leftJoin(classes, eq(classes.id, students.classId)).where(where),
  );
  return { items: page.items.map(toStudent), total: page.total };
}

/** A live student by id, with whether it lies within scope (null: no such live student). */
export async function findStudent(
  db: DbOrTx,
  id: number,
  scope?: StaffScope,
): Promise<{ student: StaffStudent; inScope: boolean } | null> {
  const [row] = await db
    .select({
      ...studentColumns,
      inScope: scope ? sql<boolean>`${studentInScope(scope)}` : sql<boolean>`false`,
    })
    .from(students)
    .leftJoin(classes, eq(classes.id, students.classId))
    .leftJoin(buildings, eq(buildings.id, classes.buildingId))
    .where(and(eq(students.id, id), isNull(students.deletedAt)))
    .limit(1);
  return row ? { student: toStudent(row), inScope: Boolean(row.inScope) } : null;
}

export async function lockStudent(db: DbOrTx, id: number) {
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.id, id), isNull(students.deletedAt)))
    .for('update');
  return row ?? null;
}

/** Whether the student has an attempt that is running or paused right now. */
export async function hasWorkInProgress(db: DbOrTx, studentId: number): Promise<boolean> {
  const rows = await db
    .select({ id: examWorks.id })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        eq(participantTests.studentId, studentId),
        isNull(examWorks.deletedAt),
        isNull(examWorks.finishedAt),
        inArray(examWorks.status, ['new', 'in_progress', 'paused']),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type StudentWrite = Pick<
  typeof students.$inferInsert,
  'surname' | 'name' | 'patronymic' | 'birthDate' | 'gender' | 'classId'
>;

export async function insertStudent(db: DbOrTx, schoolId: number, values: StudentWrite): Promise<number> {
  const [row] = await db
    .insert(students)
    .values({ schoolId, ...values })
    .returning({ id: students.id });
  return row!.id;
}

export async function updateStudent(db: DbOrTx, id: number, values: Partial<StudentWrite>) {
  await db.update(students).set(values).where(eq(students.id, id));
}

export async function softDeleteStudent(db: DbOrTx, id: number, at: Date) {
  await db.update(students).set({ deletedAt: at }).where(eq(students.id, id));
}

/** Another live student of the school with the same full name and birth date. */
export async function findTwin(
  db: DbOrTx,
  schoolId: number,
  person: { surname: string; name: string; patronymic: string | null; birthDate: string },
  exceptId?: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: students.id })
    .from(students)
    .where(
      and(
        eq(students.schoolId, schoolId),
        isNull(students.deletedAt),
        sql`lower(${students.surname}) = lower(${person.surname})`,
        sql`lower(${students.name}) = lower(${person.name})`,
        sql`lower(coalesce(${students.patronymic}, '')) = lower(${person.patronymic ?? ''})`,
        eq(students.birthDate, person.birthDate),
        exceptId ? sql`${students.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/** Participant tests of a student that have not started (no live work): they go with the student. */
export async function unstartedParticipantTestIds(db: DbOrTx, studentId: number): Promise<number[]> {
  const rows = await db
    .select({ id: participantTests.id })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.studentId, studentId),
        isNull(participantTests.deletedAt),
        inArray(participantTests.status, ['planned', 'active', 'absent']),
        sql`not exists (select 1 from exam_works w where w.participant_test_id = ${PT_ID} and w.deleted_at is null)`,
      ),
    );
  return rows.map((r) => r.id);
}

export async function softDeleteParticipantTests(db: DbOrTx, ids: number[], at: Date) {
  if (ids.length)
    await db
      .update(participantTests)
      .set({ deletedAt: at, updatedAt: at })
      .where(inArray(participantTests.id, ids));
}
