import type { Accommodations } from '@attesta/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { students } from '../../db/schema/index.js';

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
