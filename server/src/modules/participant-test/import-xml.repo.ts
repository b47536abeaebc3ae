import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { classes, participantTests, schools, students } from '../../db/schema/index.js';

export interface ClassPlace {
  id: number;
  schoolId: number;
  buildingId: number | null;
}

const classPlace = { id: classes.id, schoolId: classes.schoolId, buildingId: classes.buildingId };

export async function classById(db: DbOrTx, id: number): Promise<ClassPlace | null> {
  const [row] = await db.select(classPlace).from(classes).where(eq(classes.id, id));
  return row ?? null;
}

/** A class of the school (by its code) by name; spaces, case and quotes do not matter (`7А` = `7 «А»`). */
export async function classByName(
  db: DbOrTx,
  schoolCode: string,
  className: string,
): Promise<ClassPlace | null> {
  const normalized = (v: unknown) => sql`regexp_replace(lower(${v}), '[[:space:]«»"'']', '', 'g')`;
  const [row] = await db
    .select(classPlace)
    .from(classes)
    .innerJoin(schools, eq(schools.id, classes.schoolId))
    .where(and(eq(schools.code, schoolCode), sql`${normalized(classes.name)} = ${normalized(className)}`))
    .limit(1);
  return row ?? null;
}

export async function schoolExistsByCode(db: DbOrTx, code: string): Promise<boolean> {
  const [row] = await db.select({ id: schools.id }).from(schools).where(eq(schools.code, code));
  return !!row;
}

export interface StudentKey {
  surname: string;
  name: string;
  patronymic: string | null;
  birthDate?: string | undefined;
}

/** The school's live student with these names and birth date (case-insensitive; ё = е). */
export async function findStudent(db: DbOrTx, schoolId: number, s: StudentKey): Promise<number | null> {
  const norm = (v: unknown) => sql`replace(lower(coalesce(${v}, '')), 'ё', 'е')`;
  const [row] = await db
    .select({ id: students.id })
    .from(students)
    .where(
      and(
        eq(students.schoolId, schoolId),
        isNull(students.deletedAt),
        sql`${norm(students.surname)} = ${norm(s.surname)}`,
        sql`${norm(students.name)} = ${norm(s.name)}`,
        sql`${norm(students.patronymic)} = ${norm(s.patronymic)}`,
        sql`${students.birthDate} is not distinct from ${s.birthDate ?? null}`,
      ),
    )
    .orderBy(students.id)
    .limit(1);
  return row?.id ?? null;
}

export async function insertStudent(
  db: DbOrTx,
  values: StudentKey & { schoolId: number; classId: number },
): Promise<number> {
  const [row] = await db
    .insert(students)
    .values({ ...values, birthDate: values.birthDate ?? null })
    .returning({ id: students.id });
  return row!.id;
}

/** The live participant test of a student for a subject test of a diagnostic. */
export async function findLiveRegistration(
  db: DbOrTx,
  key: { diagnosticId: number; subjectTestId: number; studentId: number },
) {
  const [row] = await db
    .select({ id: participantTests.id, activationCode: participantTests.activationCode })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.diagnosticId, key.diagnosticId),
        eq(participantTests.subjectTestId, key.subjectTestId),
        eq(participantTests.studentId, key.studentId),
        isNull(participantTests.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}
