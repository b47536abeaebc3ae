import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { buildings, classes, oo, schools, studentClassHistory, students } from '../../db/schema/index.js';

/** The queries of the roster import: what it matches against, and its writes. */

export interface OoRow {
  id: number;
  name: string;
}
export interface SchoolRow {
  id: number;
  ooId: number;
  name: string;
}
export interface ClassRow {
  id: number;
  parallelId: number;
  letter: string;
  buildingId: number | null;
}
export interface StudentRow {
  id: number;
  classId: number | null;
  surname: string;
  name: string;
  patronymic: string | null;
  birthDate: string | null;
  externalId: string | null;
}
export type StudentWrite = Omit<StudentRow, 'id'>;

/** One import at a time writes (held to the end of the transaction). */
export async function lockImports(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('attesta:roster-import'))`);
}

export const allOo = (db: DbOrTx): Promise<OoRow[]> =>
  db.select({ id: oo.id, name: oo.name }).from(oo).orderBy(oo.id);

export const allSchools = (db: DbOrTx): Promise<SchoolRow[]> =>
  db.select({ id: schools.id, ooId: schools.ooId, name: schools.name }).from(schools).orderBy(schools.id);

export const buildingsOf = (db: DbOrTx, schoolId: number): Promise<OoRow[]> =>
  db
    .select({ id: buildings.id, name: buildings.name })
    .from(buildings)
    .where(eq(buildings.schoolId, schoolId))
    .orderBy(buildings.id);

export const classesOf = (db: DbOrTx, schoolId: number): Promise<ClassRow[]> =>
  db
    .select({
      id: classes.id,
      parallelId: classes.parallelId,
      letter: classes.letter,
      buildingId: classes.buildingId,
    })
    .from(classes)
    .where(eq(classes.schoolId, schoolId));

/** Live (not deleted) students of a school. */
export const liveStudentsOf = (db: DbOrTx, schoolId: number): Promise<StudentRow[]> =>
  db
    .select({
      id: students.id,
      classId: students.classId,
      surname: students.surname,
      name: students.name,
      patronymic: students.patronymic,
      birthDate: students.birthDate,
      externalId: students.externalId,
    })
    .from(students)
    .where(and(eq(students.schoolId, schoolId), isNull(students.deletedAt)))
    .orderBy(students.id);

export async function insertOo(tx: Tx, name: string): Promise<number> {
  const [row] = await tx.insert(oo).values({ name }).returning({ id: oo.id });
  return row!.id;
}

export async function insertSchool(tx: Tx, ooId: number, name: string): Promise<number> {
  const [row] = await tx.insert(schools).values({ ooId, name }).returning({ id: schools.id });
  return row!.id;
}

export async function insertBuilding(tx: Tx, schoolId: number, name: string): Promise<number> {
  const [row] = await tx.insert(buildings).values({ schoolId, name }).returning({ id: buildings.id });
  return row!.id;
}

export async function insertClass(
  tx: Tx,
  values: { schoolId: number; parallelId: number; letter: string; name: string; buildingId: number | null },
): Promise<number> {
  const [row] = await tx.insert(classes).values(values).returning({ id: classes.id });
  return row!.id;
}

export async function setClassBuilding(tx: Tx, classId: number, buildingId: number): Promise<void> {
  await tx.update(classes).set({ buildingId }).where(eq(classes.id, classId));
}

const CHUNK = 500;

export async function insertStudents(tx: Tx, rows: (StudentWrite & { schoolId: number })[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await tx.insert(students).values(rows.slice(i, i + CHUNK));
}

/**
 * Sets the students' fields to the file's values, a chunk per statement (a json recordset: one
 * parameter on either driver). An external id is set, never cleared.
 */
export async function updateStudents(tx: Tx, rows: (StudentWrite & { id: number })[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + CHUNK));
    await tx.execute(sql`
      update ${students} s
         set class_id = v."classId", surname = v.surname, name = v.name, patronymic = v.patronymic,
             birth_date = v."birthDate", external_id = coalesce(v."externalId", s.external_id)
        from jsonb_to_recordset(${chunk}::jsonb) as v(
               id int, "classId" int, surname text, name text, patronymic text, "birthDate" date,
               "externalId" text)
       where s.id = v.id`);
  }
}

export async function insertClassMoves(
  tx: Tx,
  moves: { studentId: number; fromClassId: number | null; toClassId: number; changedBy: number }[],
): Promise<void> {
  for (let i = 0; i < moves.length; i += CHUNK)
    await tx.insert(studentClassHistory).values(moves.slice(i, i + CHUNK));
}
