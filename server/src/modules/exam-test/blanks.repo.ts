import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  answers,
  classes,
  diagnostics,
  examWorks,
  participantTests,
  schools,
  students,
  subjectTests,
  tasks,
  variants,
  variantTasks,
  workers,
} from '../../db/schema/index.js';

/** A live work: the work, its participant test and its diagnostic all not deleted. */
const live = (id: number) =>
  and(
    eq(examWorks.id, id),
    isNull(examWorks.deletedAt),
    isNull(participantTests.deletedAt),
    isNull(diagnostics.deletedAt),
  );

/** Everything the header of an answer form shows about a live work. */
export async function findWorkHeader(db: Db, id: number) {
  const [row] = await db
    .select({
      examWorkId: examWorks.id,
      variantId: examWorks.variantId,
      answerMode: examWorks.answerMode,
      registrationCode: participantTests.registrationCode,
      testDate: participantTests.testDate,
      isImpersonal: participantTests.isImpersonal,
      diagnosticName: diagnostics.name,
      subjectTestName: subjectTests.name,
      variantNumber: variants.number,
      schoolName: schools.name,
      className: classes.name,
      student: { surname: students.surname, name: students.name, patronymic: students.patronymic },
      worker: { surname: workers.surname, name: workers.name, patronymic: workers.patronymic },
      // A student's or worker's accommodations profile with large text gets the large-print form.
      largeText: sql<boolean>`coalesce((coalesce(${students.accommodations}, ${workers.accommodations}) ->> 'largeText')::boolean, false)`,
    })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(variants, eq(variants.id, examWorks.variantId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId))
    .where(live(id))
    .limit(1);
  return row ?? null;
}

/**
 * The tasks of a variant in order, with what a participant may see only: the reference answer,
 * scoring rule, solution and criteria are never even read here.
 */
export function variantTasksOf(db: Db, variantId: number) {
  return db
    .select({
      variantTaskId: variantTasks.id,
      position: variantTasks.position,
      answerType: tasks.answerType,
      content: tasks.content,
    })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(variantTasks.variantId, variantId))
    .orderBy(asc(variantTasks.position));
}

/**
 * The keys of a variant's number and digit-sequence tasks, read for one purpose: how many columns
 * their digit grids need (blanks.service.ts digitColumns). Nothing of them is printed.
 */
export function digitGridKeysOf(db: Db, variantId: number) {
  return db
    .select({
      variantTaskId: variantTasks.id,
      answerType: tasks.answerType,
      content: tasks.content,
      reference: tasks.reference,
    })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(
      and(eq(variantTasks.variantId, variantId), inArray(tasks.answerType, ['number', 'digit_sequence'])),
    );
}

/** Tasks the participant switched to the paper form. */
export async function blankModeTaskIds(db: Db, examWorkId: number): Promise<Set<number>> {
  const rows = await db
    .select({ variantTaskId: answers.variantTaskId })
    .from(answers)
    .where(and(eq(answers.examWorkId, examWorkId), eq(answers.answerMode, 'blank')));
  return new Set(rows.map((r) => r.variantTaskId));
}
