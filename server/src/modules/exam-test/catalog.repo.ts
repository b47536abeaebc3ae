import { and, asc, eq, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { SubjectTestSummary } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  diagnosticSchools,
  diagnostics,
  diagnosticSubjectTests,
  parallels,
  subjectExams,
  subjects,
  subjectTests,
  tasks,
  testGroups,
  variants,
  variantTasks,
} from '../../db/schema/index.js';

/** Tasks of the test's first variant (variants of one test have the same number of tasks); null without variants. */
const taskCount = sql<number | null>`(select count(vt.id)::int from variants v
  left join variant_tasks vt on vt.variant_id = v.id
  where v.id = (select v1.id from variants v1 where v1.subject_test_id = "subject_tests"."id" order by v1.number, v1.id limit 1)
  having count(v.id) > 0)`;

const summaryColumns = {
  id: subjectTests.id,
  name: subjectTests.name,
  subjectName: subjects.name,
  parallels: subjectTests.parallels,
  durationMinutes: subjectTests.durationMinutes,
  description: subjectTests.description,
  taskCount,
  allowBlank: subjectTests.allowBlank,
  allowCalculator: subjectTests.allowCalculator,
  testGroupId: subjectTests.testGroupId,
  hasQuiz: sql<boolean>`${subjectTests.quizId} is not null`,
};

function summaries(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(summaryColumns)
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(where)
    .orderBy(asc(subjectTests.name), asc(subjectTests.id));
}

export type SummaryRow = Omit<SubjectTestSummary, 'description'> & { description: string | null };

export async function findSummary(db: DbOrTx, id: number): Promise<SummaryRow | null> {
  const [row] = await summaries(db, eq(subjectTests.id, id));
  return row ?? null;
}

export const summariesOfGroup = (db: DbOrTx, testGroupId: number, parallel: number): Promise<SummaryRow[]> =>
  summaries(
    db,
    and(
      eq(subjectTests.testGroupId, testGroupId),
      eq(subjectTests.status, 'published'),
      sql`${parallel} = any(${subjectTests.parallels})`,
    ),
  );

export async function findSubjectTestTexts(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      name: subjectTests.name,
      description: subjectTests.description,
      instructionHtml: subjectTests.instructionHtml,
      parallels: subjectTests.parallels,
    })
    .from(subjectTests)
    .where(eq(subjectTests.id, id))
    .limit(1);
  return row ?? null;
}

export const listTestGroups = (db: DbOrTx) =>
  db.select({ id: testGroups.id, name: testGroups.name }).from(testGroups).orderBy(asc(testGroups.name));

export const parallelsByIds = (db: DbOrTx, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select({ id: parallels.id, name: parallels.name })
        .from(parallels)
        .where(sql`${parallels.id} = any(${sql.param(ids)}::smallint[])`)
        .orderBy(asc(parallels.id));

export async function findVariant(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: variants.id,
      number: variants.number,
      subjectTestId: variants.subjectTestId,
      subjectTestName: subjectTests.name,
      subjectName: subjects.name,
      instructionHtml: subjectTests.instructionHtml,
    })
    .from(variants)
    .innerJoin(subjectTests, eq(subjectTests.id, variants.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(eq(variants.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * Whether a live diagnostic that has already started includes this school and offers this
 * subject test: the school's staff may then print the variants of that test.
 */
export async function schoolHasStartedDiagnostic(
  db: DbOrTx,
  schoolId: number,
  subjectTestId: number,
  now: Date,
): Promise<boolean> {
  const [hit] = await db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .innerJoin(diagnosticSchools, eq(diagnosticSchools.diagnosticId, diagnostics.id))
    .innerJoin(diagnosticSubjectTests, eq(diagnosticSubjectTests.diagnosticId, diagnostics.id))
    .where(
      and(
        eq(diagnosticSchools.schoolId, schoolId),
        eq(diagnosticSubjectTests.subjectTestId, subjectTestId),
        isNull(diagnostics.deletedAt),
        lte(diagnostics.startsAt, now),
      ),
    )
    .limit(1);
  return !!hit;
}

/**
 * What a printed variant shows of each task: position, type, text, participant-visible content and
 * points. Only these columns are read, so keys, scoring rules and solutions never enter the render.
 */
export const printableTasks = (db: DbOrTx, variantId: number) =>
  db
    .select({
      position: variantTasks.position,
      maxScore: variantTasks.maxScore,
      answerType: tasks.answerType,
      html: tasks.html,
      content: tasks.content,
    })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(variantTasks.variantId, variantId))
    .orderBy(asc(variantTasks.position));
export type PrintableTask = Awaited<ReturnType<typeof printableTasks>>[number];
