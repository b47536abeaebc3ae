import { and, count, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminBuilding,
  AdminClass,
  AdminOo,
  AdminOoListRequest,
  AdminOoSortField,
  AdminSchool,
  AdminSchoolListRequest,
  AdminSchoolSortField,
  AdminStudent,
  AdminStudentListRequest,
  AdminStudentSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  oo,
  organizatorAssignments,
  participantTests,
  schools,
  students,
} from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf, paged } from '../../lib/list.js';
import { classOrder, outer } from '../../db/fragments.js';

/*
 * Queries of the admin's organisation pages: every oo, school, building, class and student, with
 * the counts the tables show. No scope: the routes are admin only.
 */

const OO_ID = outer('oo', 'id');
const SCHOOL_ID = outer('schools', 'id');
const BUILDING_ID = outer('buildings', 'id');
const CLASS_ID = outer('classes', 'id');
const STUDENT_ID = outer('students', 'id');

/** A scalar count subquery, as a number. */
export const int = (query: SQL) => sql<number>`(${query})`.mapWith(Number);
const iso = (d: Date) => d.toISOString();

// ---------------------------------------------------------------- oo

const schoolsOfOo = int(sql`select count(*)::int from schools s where s.oo_id = ${OO_ID}`);
const OO_SORT = { name: oo.name, schoolCount: schoolsOfOo, id: oo.id } satisfies Record<
  AdminOoSortField,
  unknown
>;

export function listOo(db: DbOrTx, q: AdminOoListRequest): Promise<{ items: AdminOo[]; total: number }> {
  const search = q.filter?.search;
  const where = search
    ? or(...[oo.name, oo.shortName, oo.inn].map((c) => ilike(c, containsPattern(search))))
    : undefined;
  return paged(
    db
      .select({ id: oo.id, name: oo.name, shortName: oo.shortName, inn: oo.inn, schoolCount: schoolsOfOo })
      .from(oo)
      .where(where)
      .orderBy(...orderOf(q.sort ?? { field: 'name', dir: 'asc' }, OO_SORT, oo.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(oo).where(where),
  );
}

export async function ooById(db: DbOrTx, id: number): Promise<AdminOo | null> {
  const [row] = await db
    .select({ id: oo.id, name: oo.name, shortName: oo.shortName, inn: oo.inn, schoolCount: schoolsOfOo })
    .from(oo)
    .where(eq(oo.id, id));
  return row ?? null;
}

export async function insertOo(db: DbOrTx, values: typeof oo.$inferInsert): Promise<number> {
  const [row] = await db.insert(oo).values(values).returning({ id: oo.id });
  return row!.id;
}

// ---------------------------------------------------------------- schools

const schoolBuildingCount = int(sql`select count(*)::int from buildings b where b.school_id = ${SCHOOL_ID}`);
const schoolClassCount = int(sql`select count(*)::int from classes c where c.school_id = ${SCHOOL_ID}`);
const schoolStudentCount = int(
  sql`select count(*)::int from students s where s.school_id = ${SCHOOL_ID} and s.deleted_at is null`,
);

const schoolColumns = {
  id: schools.id,
  ooId: schools.ooId,
  ooName: oo.name,
  name: schools.name,
  shortName: schools.shortName,
  code: schools.code,
  areaId: schools.areaId,
  areaName: sql<string | null>`(select a.name from areas a where a.id = ${outer('schools', 'area_id')})`,
  buildingCount: schoolBuildingCount,
  classCount: schoolClassCount,
  studentCount: schoolStudentCount,
  createdAt: schools.createdAt,
};

const SCHOOL_SORT = {
  name: schools.name,
  code: schools.code,
  ooName: oo.name,
  classCount: schoolClassCount,
  studentCount: schoolStudentCount,
  createdAt: schools.createdAt,
  id: schools.id,
} satisfies Record<AdminSchoolSortField, unknown>;

const toSchool = (r: Omit<AdminSchool, 'createdAt'> & { createdAt: Date }): AdminSchool => ({
  ...r,
  createdAt: iso(r.createdAt),
});

export async function listSchools(db: DbOrTx, q: AdminSchoolListRequest) {
  const f = q.filter ?? {};
  const where = and(
    f.search
      ? or(
          ...[schools.name, schools.shortName, schools.code].map((c) => ilike(c, containsPattern(f.search!))),
        )
      : undefined,
    f.ooId !== undefined ? eq(schools.ooId, f.ooId) : undefined,
  );
  const page = await paged(
    db
      .select(schoolColumns)
      .from(schools)
      .innerJoin(oo, eq(oo.id, schools.ooId))
      .where(where)
      .orderBy(...orderOf(q.sort ?? { field: 'name', dir: 'asc' }, SCHOOL_SORT, schools.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(schools).where(where),
  );
  return { items: page.items.map(toSchool), total: page.total };
}

export async function schoolById(db: DbOrTx, id: number): Promise<AdminSchool | null> {
  const [row] = await db
    .select(schoolColumns)
    .from(schools)
    .innerJoin(oo, eq(oo.id, schools.ooId))
    .where(eq(schools.id, id));
  return row ? toSchool(row) : null;
}

export async function lockSchool(db: DbOrTx, id: number) {
  const [row] = await db.select().from(schools).where(eq(schools.id, id)).for('update');
  return row ?? null;
}

/** Another school with this code (codes are unique, compared as written). */
export async function schoolWithCode(db: DbOrTx, code: string, exceptId?: number): Promise<number | null> {
  const [row] = await db
    .select({ id: schools.id })
    .from(schools)
    .where(and(eq(schools.code, code), exceptId ? sql`${schools.id} <> ${exceptId}` : undefined));
  return row?.id ?? null;
}

export type SchoolWrite = Pick<
  typeof schools.$inferInsert,
  'ooId' | 'name' | 'shortName' | 'code' | 'areaId'
>;

export async function insertSchool(db: DbOrTx, values: SchoolWrite): Promise<number> {
  const [row] = await db.insert(schools).values(values).returning({ id: schools.id });
  return row!.id;
}

export async function updateSchool(db: DbOrTx, id: number, values: SchoolWrite) {
  await db.update(schools).set(values).where(eq(schools.id, id));
}

// ---------------------------------------------------------------- buildings

const buildingColumns = {
  id: buildings.id,
  schoolId: buildings.schoolId,
  name: buildings.name,
  address: buildings.address,
  classCount: int(sql`select count(*)::int from classes c where c.building_id = ${BUILDING_ID}`),
  studentCount: int(sql`select count(*)::int from students s join classes c on c.id = s.class_id
    where c.building_id = ${BUILDING_ID} and s.deleted_at is null`),
};

export function buildingsOfSchool(db: DbOrTx, schoolId: number): Promise<AdminBuilding[]> {
  return db
    .select(buildingColumns)
    .from(buildings)
    .where(eq(buildings.schoolId, schoolId))
    .orderBy(buildings.name, buildings.id);
}

export async function buildingById(db: DbOrTx, id: number): Promise<AdminBuilding | null> {
  const [row] = await db.select(buildingColumns).from(buildings).where(eq(buildings.id, id));
  return row ?? null;
}

export async function lockBuilding(db: DbOrTx, id: number) {
  const [row] = await db.select().from(buildings).where(eq(buildings.id, id)).for('update');
  return row ?? null;
}

export type BuildingWrite = Pick<typeof buildings.$inferInsert, 'name' | 'address'>;

export async function insertBuilding(db: DbOrTx, schoolId: number, values: BuildingWrite): Promise<number> {
  const [row] = await db
    .insert(buildings)
    .values({ schoolId, ...values })
    .returning({ id: buildings.id });
  return row!.id;
}

export async function updateBuilding(db: DbOrTx, id: number, values: BuildingWrite) {
  await db.update(buildings).set(values).where(eq(buildings.id, id));
}

// ---------------------------------------------------------------- classes

const liveStudentsOfClass = int(
  sql`select count(*)::int from students s where s.class_id = ${CLASS_ID} and s.deleted_at is null`,
);

const classColumns = {
  id: classes.id,
  schoolId: classes.schoolId,
  name: classes.name,
  letter: classes.letter,
  parallel: classes.parallelId,
  buildingId: classes.buildingId,
  buildingName: buildings.name,
  studentCount: liveStudentsOfClass,
};

/** Every class of a school, by grade then letter. */
export function classesOfSchool(db: DbOrTx, schoolId: number): Promise<AdminClass[]> {
  return db
    .select(classColumns)
    .from(classes)
    .leftJoin(buildings, eq(buildings.id, classes.buildingId))
    .where(eq(classes.schoolId, schoolId))
    .orderBy(classes.parallelId, classes.letter, classes.id);
}

export async function classById(db: DbOrTx, id: number): Promise<AdminClass | null> {
  const [row] = await db
    .select(classColumns)
    .from(classes)
    .leftJoin(buildings, eq(buildings.id, classes.buildingId))
    .where(eq(classes.id, id));
  return row ?? null;
}

export async function lockClass(db: DbOrTx, id: number) {
  const [row] = await db.select().from(classes).where(eq(classes.id, id)).for('update');
  return row ?? null;
}

/** Another class of the school with this grade and letter. */
export async function classWithLetter(
  db: DbOrTx,
  schoolId: number,
  parallel: number,
  letter: string,
  exceptId?: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .where(
      and(
        eq(classes.schoolId, schoolId),
        eq(classes.parallelId, parallel),
        eq(classes.letter, letter),
        exceptId ? sql`${classes.id} <> ${exceptId}` : undefined,
      ),
    );
  return row?.id ?? null;
}

export type ClassWrite = Pick<typeof classes.$inferInsert, 'parallelId' | 'letter' | 'name' | 'buildingId'>;

export async function insertClass(db: DbOrTx, schoolId: number, values: ClassWrite): Promise<number> {
  const [row] = await db
    .insert(classes)
    .values({ schoolId, ...values })
    .returning({ id: classes.id });
  return row!.id;
}

export async function updateClass(db: DbOrTx, id: number, values: ClassWrite) {
  await db.update(classes).set(values).where(eq(classes.id, id));
}

/** What keeps a class from being deleted: its live students, and registrations made in it. */
export async function classUsage(db: DbOrTx, id: number) {
  const [live] = await db
    .select({ n: count() })
    .from(students)
    .where(and(eq(students.classId, id), isNull(students.deletedAt)));
  const [registered] = await db
    .select({ n: count() })
    .from(participantTests)
    .where(eq(participantTests.classId, id));
  return { liveStudents: live?.n ?? 0, participantTests: registered?.n ?? 0 };
}

/**
 * Deletes a class that has no live students and no registrations: deleted students let go of it,
 * organizator assignments to it go. Returns the users whose assignment was removed.
 */
export async function deleteClass(db: DbOrTx, id: number): Promise<number[]> {
  await db
    .update(students)
    .set({ classId: null })
    .where(and(eq(students.classId, id), sql`${students.deletedAt} is not null`));
  const dropped = await db
    .delete(organizatorAssignments)
    .where(eq(organizatorAssignments.classId, id))
    .returning({ userId: organizatorAssignments.userId });
  await db.delete(classes).where(eq(classes.id, id));
  return dropped.map((d) => d.userId);
}

// ---------------------------------------------------------------- students

const participantTestsOfStudent = int(
  sql`select count(*)::int from participant_tests p where p.student_id = ${STUDENT_ID} and p.deleted_at is null`,
);

const studentColumns = {
  id: students.id,
  surname: students.surname,
  name: students.name,
  patronymic: students.patronymic,
  birthDate: students.birthDate,
  gender: students.gender,
  schoolId: students.schoolId,
  schoolName: schools.name,
  classId: students.classId,
  className: classes.name,
  parallel: classes.parallelId,
  buildingId: classes.buildingId,
  buildingName: buildings.name,
  participantTestCount: participantTestsOfStudent,
  createdAt: students.createdAt,
  hasAccommodations: sql<boolean>`${students.accommodations} is not null`,
};

type StudentRow = Omit<AdminStudent, 'gender' | 'createdAt'> & { gender: string | null; createdAt: Date };
const toStudent = (r: StudentRow): AdminStudent => ({
  ...r,
  gender: r.gender === 'male' || r.gender === 'female' ? r.gender : null,
  createdAt: iso(r.createdAt),
});

const STUDENT_SORT = {
  surname: students.surname,
  name: students.name,
  birthDate: students.birthDate,
  className: classOrder,
  schoolName: schools.name,
  createdAt: students.createdAt,
  id: students.id,
} satisfies Record<AdminStudentSortField, unknown>;

function selectStudents(db: DbOrTx) {
  return db
    .select(studentColumns)
    .from(students)
    .innerJoin(schools, eq(schools.id, students.schoolId))
    .leftJoin(classes, eq(classes.id, students.classId))
    .leftJoin(buildings, eq(buildings.id, classes.buildingId));
}

export async function listStudents(db: DbOrTx, q: AdminStudentListRequest) {
  const f = q.filter ?? {};
  const pattern = f.search ? containsPattern(f.search) : null;
  const where = and(
    isNull(students.deletedAt),
    pattern
      ? or(
          ilike(students.surname, pattern),
          sql`(${students.surname} || ' ' || ${students.name}) ilike ${pattern}`,
        )
      : undefined,
    f.schoolId !== undefined ? eq(students.schoolId, f.schoolId) : undefined,
    f.classId !== undefined ? eq(students.classId, f.classId) : undefined,
    f.parallel !== undefined ? eq(classes.parallelId, f.parallel) : undefined,
  );
  const page = await paged(
    selectStudents(db)
      .where(where)
      .orderBy(
        ...orderOf(
          q.sort ?? [
            { field: 'surname', dir: 'asc' },
            { field: 'name', dir: 'asc' },
          ],
          STUDENT_SORT,
          students.id,
        ),
      )
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(students).leftJoin(classes, eq(classes.id, students.classId)).where(where),
  );
  return { items: (page.items as StudentRow[]).map(toStudent), total: page.total };
}

export async function studentById(db: DbOrTx, id: number): Promise<AdminStudent | null> {
  const [row] = await selectStudents(db).where(and(eq(students.id, id), isNull(students.deletedAt)));
  return row ? toStudent(row as StudentRow) : null;
}

export async function liveParticipantTestCount(db: DbOrTx, studentId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(participantTests)
    .where(and(eq(participantTests.studentId, studentId), isNull(participantTests.deletedAt)));
  return row?.n ?? 0;
}
