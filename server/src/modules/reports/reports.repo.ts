import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, count, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  answers,
  classes,
  diagnostics,
  examWorkEvents,
  examWorks,
  participantTests,
  results,
  schools,
  students,
  subjectExams,
  subjects,
  subjectTests,
  taskScores,
  tasks,
  users,
  variants,
  variantTasks,
  workers,
} from '../../db/schema/index.js';

/*
 * Queries of the reports. Registrations are read a page at a time in id order (keyset paging), so a
 * report of a whole region never holds more than a page of rows plus its own running totals; the
 * same generator feeds the queued report jobs (report-queue.ts). Each page is its own short
 * statement on one pooled connection at a time: no transaction stays open while a file is written.
 */

export const REPORT_PAGE_SIZE = 1000;

/**
 * The results the figures count (stats.ts isCounted) as SQL over the joins of rowQuery: a live
 * finished work of a registration not annulled, with a complete result.
 */
export const countedCondition: SQL = and(
  ne(participantTests.status, 'annulled'),
  sql`${examWorks.finishedAt} is not null`,
  eq(results.status, 'scored'),
  sql`${results.primaryScore} is not null`,
)!;

/** Live registrations of live diagnostics (every report's rows). */
/** Live registrations of live diagnostics; guests' practice attempts (open diagnostics) are no school's results. */
const liveRegistration = and(
  isNull(participantTests.deletedAt),
  isNull(diagnostics.deletedAt),
  ne(diagnostics.kind, 'open'),
);

/** Told after each page of rows is read (a queued job reports its progress). */
export type OnPage = (rows: number) => void | Promise<void>;

/** The joins every report query makes: a registration's diagnostic, its live work, the work's result. */
const diagnosticOfRegistration = eq(diagnostics.id, participantTests.diagnosticId);
const liveWorkOfRegistration = and(
  eq(examWorks.participantTestId, participantTests.id),
  isNull(examWorks.deletedAt),
);
const resultOfWork = eq(results.examWorkId, examWorks.id);

/** One live registration with its live work and that work's result, as every report reads it. */
export interface ReportRow {
  participantTestId: number;
  diagnosticId: number;
  diagnosticCode: string;
  diagnosticName: string;
  diagnosticEndsAt: Date;
  published: boolean;
  publishedAt: Date | null;
  subjectTestId: number;
  subjectTestName: string;
  subjectTestSourceId: string | null;
  subjectCode: string | null;
  subjectName: string;
  /** The order levels are written in: the test's level bands, then the levels of its mark scale. */
  levelOrder: string[];
  schoolId: number | null;
  schoolName: string | null;
  schoolCode: string | null;
  classId: number | null;
  className: string | null;
  buildingId: number | null;
  studentId: number | null;
  testDate: string;
  status: string;
  registrationCode: string;
  surname: string | null;
  name: string | null;
  patronymic: string | null;
  workId: number | null;
  workStatus: string | null;
  variantNumber: number | null;
  answerMode: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  finishReason: string | null;
  deadlineAt: Date | null;
  timeLimitSeconds: number | null;
  extraSeconds: number | null;
  pausedSeconds: number | null;
  resultStatus: string | null;
  primaryScore: number | null;
  maxScore: number | null;
  percent: number | null;
  mark: string | null;
  level: string | null;
  verificationCode: string | null;
}

const levelOrderOf = (bands: { level: string }[] | null, scale: { level?: string }[] | null): string[] => [
  ...new Set([
    ...(bands ?? []).map((b) => b.level),
    ...(scale ?? []).flatMap((s) => (s.level ? [s.level] : [])),
  ]),
];

function rowQuery(db: Db) {
  return db
    .select({
      participantTestId: participantTests.id,
      diagnosticId: participantTests.diagnosticId,
      diagnosticCode: diagnostics.code,
      diagnosticName: diagnostics.name,
      diagnosticEndsAt: diagnostics.endsAt,
      published: diagnostics.resultsPublished,
      publishedAt: diagnostics.publishedAt,
      subjectTestId: participantTests.subjectTestId,
      subjectTestName: subjectTests.name,
      subjectTestSourceId: subjectTests.sourceId,
      subjectCode: subjects.code,
      subjectName: subjects.name,
      levelBands: subjectTests.levelBands,
      markScale: subjectTests.markScale,
      schoolId: participantTests.schoolId,
      schoolName: schools.name,
      schoolCode: schools.code,
      classId: participantTests.classId,
      className: classes.name,
      buildingId: participantTests.buildingId,
      studentId: participantTests.studentId,
      testDate: participantTests.testDate,
      status: participantTests.status,
      registrationCode: participantTests.registrationCode,
      surname: sql<string | null>`coalesce(${students.surname}, ${workers.surname})`,
      name: sql<string | null>`coalesce(${students.name}, ${workers.name})`,
      patronymic: sql<
        string | null
      >`case when ${students.id} is not null then ${students.patronymic} else ${workers.patronymic} end`,
      workId: examWorks.id,
      workStatus: examWorks.status,
      variantNumber: variants.number,
      answerMode: examWorks.answerMode,
      startedAt: examWorks.startedAt,
      finishedAt: examWorks.finishedAt,
      finishReason: examWorks.finishReason,
      deadlineAt: examWorks.deadlineAt,
      timeLimitSeconds: examWorks.timeLimitSeconds,
      extraSeconds: examWorks.extraSeconds,
      pausedSeconds: examWorks.pausedSeconds,
      resultStatus: results.status,
      primaryScore: results.primaryScore,
      maxScore: results.maxScore,
      percent: results.percent,
      mark: results.mark,
      level: results.level,
      verificationCode: results.verificationCode,
    })
    .from(participantTests)
    .innerJoin(diagnostics, diagnosticOfRegistration)
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId))
    .leftJoin(examWorks, liveWorkOfRegistration)
    .leftJoin(variants, eq(variants.id, examWorks.variantId))
    .leftJoin(results, resultOfWork);
}

type RawRow = Awaited<ReturnType<ReturnType<typeof rowQuery>['execute']>>[number];
const withLevelOrder = ({ levelBands, markScale, ...r }: RawRow): ReportRow => ({
  ...r,
  levelOrder: levelOrderOf(levelBands, markScale),
});

/** One page of live registrations matching `where` (scope and filters), after `afterId` in id order. */
export async function reportRowsPage(
  db: Db,
  where: SQL | undefined,
  afterId: number,
  limit = REPORT_PAGE_SIZE,
): Promise<ReportRow[]> {
  const rows = await rowQuery(db)
    .where(and(liveRegistration, gt(participantTests.id, afterId), where))
    .orderBy(asc(participantTests.id))
    .limit(limit);
  return rows.map(withLevelOrder);
}

/** The page of live registrations matching `where` that starts at `offset` in id order (screens' pages). */
export async function reportRowsAt(
  db: Db,
  where: SQL | undefined,
  offset: number,
  limit: number,
): Promise<ReportRow[]> {
  const rows = await rowQuery(db)
    .where(and(liveRegistration, where))
    .orderBy(asc(participantTests.id))
    .limit(limit)
    .offset(offset);
  return rows.map(withLevelOrder);
}

/**
 * Pages of live registrations matching `where`, in id order, until there are none. Between pages
 * the event loop gets a turn (a long report never holds it for more than a page), and `onPage`
 * hears how many rows were read.
 */
export async function* reportRowPages(
  db: Db,
  where: SQL | undefined,
  options: { pageSize?: number; onPage?: OnPage | undefined } = {},
): AsyncGenerator<ReportRow[]> {
  const pageSize = options.pageSize ?? REPORT_PAGE_SIZE;
  let after = 0;
  for (;;) {
    const page = await reportRowsPage(db, where, after, pageSize);
    if (!page.length) return;
    await options.onPage?.(page.length);
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.participantTestId;
    await nextTurn();
  }
}

/**
 * Runs the reads of `fn` in a read-only transaction without parallel workers. The counts and
 * aggregates over a region's results would otherwise take every core of the database for seconds
 * (a parallel plan), and the exam's saves wait behind them; one core, a little longer, leaves the
 * others to the exam.
 */
async function quietly<T>(db: Db, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
      return fn(tx);
    },
    { accessMode: 'read only' },
  );
}

/** How many live registrations match `where` (the joins of rowQuery that `where` may name). */
export async function countRegistrations(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await quietly(db, (tx) =>
    tx
      .select({ n: count() })
      .from(participantTests)
      .innerJoin(diagnostics, diagnosticOfRegistration)
      .leftJoin(examWorks, liveWorkOfRegistration)
      .leftJoin(results, resultOfWork)
      .where(and(liveRegistration, where)),
  );
  return Number(row?.n ?? 0);
}

export interface TaskColumnRow {
  subjectTestId: number;
  subjectTestName: string;
  position: number;
  maxScore: number;
}

/**
 * The task positions of the counted results matching `where` (scope, filters, counted), per
 * subject test, with the highest maximum at each: the task columns of a file, known before its
 * rows are streamed. Read from the variants the results' works used (a work's task scores are
 * those of its variant's tasks, scored out of their maxima), so one pass over the works rather
 * than over every task score.
 */
export async function taskColumnsOf(db: Db, where: SQL | undefined): Promise<TaskColumnRow[]> {
  const rows = await quietly(db, (tx) => {
    const used = tx
      .selectDistinct({ subjectTestId: participantTests.subjectTestId, variantId: examWorks.variantId })
      .from(participantTests)
      .innerJoin(diagnostics, diagnosticOfRegistration)
      .innerJoin(examWorks, liveWorkOfRegistration)
      .innerJoin(results, resultOfWork)
      .where(and(liveRegistration, countedCondition, where))
      .as('used');
    return tx
      .select({
        subjectTestId: used.subjectTestId,
        subjectTestName: subjectTests.name,
        position: variantTasks.position,
        maxScore: sql<string>`max(${variantTasks.maxScore})`,
      })
      .from(used)
      .innerJoin(subjectTests, eq(subjectTests.id, used.subjectTestId))
      .innerJoin(variantTasks, eq(variantTasks.variantId, used.variantId))
      .groupBy(used.subjectTestId, subjectTests.name, variantTasks.position)
      .orderBy(used.subjectTestId, variantTasks.position);
  });
  return rows.map((r) => ({ ...r, maxScore: Number(r.maxScore) }));
}

/** A counted result as a file's row reads it: few columns, its task scores in one text. */
export interface FileResultRow {
  participantTestId: number;
  subjectTestId: number;
  registrationCode: string;
  surname: string | null;
  schoolName: string | null;
  className: string | null;
  variantNumber: number | null;
  primaryScore: number;
  maxScore: number;
  percent: number;
  mark: string | null;
  level: string | null;
  /** `position:score` pairs in position order, `,` between them (score empty when null). */
  scores: string | null;
}

/**
 * One keyset page of counted results matching `where` for a streamed file: only the columns a file
 * writes, and the task scores aggregated by PostgreSQL into one text per row (one statement per
 * page, a few values per row instead of fifty fields and twenty score rows).
 */
export async function fileResultsPage(
  db: Db,
  where: SQL | undefined,
  afterId: number,
  limit = REPORT_PAGE_SIZE,
): Promise<FileResultRow[]> {
  return db
    .select({
      participantTestId: participantTests.id,
      subjectTestId: participantTests.subjectTestId,
      registrationCode: participantTests.registrationCode,
      surname: sql<string | null>`coalesce(${students.surname}, ${workers.surname})`,
      schoolName: schools.name,
      className: classes.name,
      variantNumber: variants.number,
      primaryScore: sql<number>`${results.primaryScore}::float8`,
      maxScore: sql<number>`${results.maxScore}::float8`,
      percent: sql<number>`${results.percent}::float8`,
      mark: results.mark,
      level: results.level,
      scores: sql<
        string | null
      >`(select string_agg(vt.position || ':' || coalesce(ts.final_score::text, ''), ','
          order by vt.position)
        from ${taskScores} ts join ${variantTasks} vt on vt.id = ts.variant_task_id
        where ts.exam_work_id = ${examWorks.id})`,
    })
    .from(participantTests)
    .innerJoin(diagnostics, diagnosticOfRegistration)
    .innerJoin(examWorks, liveWorkOfRegistration)
    .innerJoin(results, resultOfWork)
    .leftJoin(variants, eq(variants.id, examWorks.variantId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId))
    .where(and(liveRegistration, countedCondition, gt(participantTests.id, afterId), where))
    .orderBy(asc(participantTests.id))
    .limit(limit);
}

/** Keyset pages of fileResultsPage until there are none; the event loop gets a turn between pages. */
export async function* fileResultPages(db: Db, where: SQL | undefined): AsyncGenerator<FileResultRow[]> {
  let after = 0;
  for (;;) {
    const page = await fileResultsPage(db, where, after);
    if (!page.length) return;
    yield page;
    if (page.length < REPORT_PAGE_SIZE) return;
    after = page[page.length - 1]!.participantTestId;
    await nextTurn();
  }
}

export interface TaskScoreRow {
  examWorkId: number;
  position: number;
  taskId: number;
  score: number | null;
  maxScore: number;
}

/** Task scores of works, in task order. */
export async function taskScoresOf(db: Db, workIds: readonly number[]): Promise<TaskScoreRow[]> {
  if (!workIds.length) return [];
  const rows = await db
    .select({
      examWorkId: taskScores.examWorkId,
      position: variantTasks.position,
      taskId: variantTasks.taskId,
      score: taskScores.finalScore,
      maxScore: taskScores.maxScore,
    })
    .from(taskScores)
    .innerJoin(variantTasks, eq(variantTasks.id, taskScores.variantTaskId))
    .where(inArray(taskScores.examWorkId, [...workIds]))
    .orderBy(asc(taskScores.examWorkId), asc(variantTasks.position));
  return rows.map((r) => ({ ...r, maxScore: Number(r.maxScore) }));
}

export interface AnswerScoreRow {
  examWorkId: number;
  taskId: number;
  answerType: string;
  value: unknown;
  savedAt: Date | null;
  score: number | null;
  maxScore: number;
}

/** Every task of the works with the saved answer (if any) and its score, for the similarity check. */
export async function answersWithScoresOf(db: Db, workIds: readonly number[]): Promise<AnswerScoreRow[]> {
  if (!workIds.length) return [];
  const rows = await db
    .select({
      examWorkId: taskScores.examWorkId,
      taskId: variantTasks.taskId,
      answerType: tasks.answerType,
      value: answers.value,
      savedAt: answers.savedAt,
      score: taskScores.finalScore,
      maxScore: taskScores.maxScore,
    })
    .from(taskScores)
    .innerJoin(variantTasks, eq(variantTasks.id, taskScores.variantTaskId))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .leftJoin(
      answers,
      and(eq(answers.examWorkId, taskScores.examWorkId), eq(answers.variantTaskId, taskScores.variantTaskId)),
    )
    .where(inArray(taskScores.examWorkId, [...workIds]));
  return rows.map((r) => ({ ...r, maxScore: Number(r.maxScore) }));
}

/** The last save of each work (signs of life for offline gaps). */
export async function saveTimesOf(db: Db, workIds: readonly number[]) {
  if (!workIds.length) return [];
  return db
    .select({ examWorkId: answers.examWorkId, savedAt: answers.savedAt })
    .from(answers)
    .where(inArray(answers.examWorkId, [...workIds]))
    .orderBy(asc(answers.examWorkId), asc(answers.savedAt));
}

/** Integrity and other events of works, in time order. */
export async function eventsOf(db: Db, workIds: readonly number[]) {
  if (!workIds.length) return [];
  return db
    .select({
      examWorkId: examWorkEvents.examWorkId,
      at: examWorkEvents.at,
      kind: examWorkEvents.kind,
      details: examWorkEvents.details,
    })
    .from(examWorkEvents)
    .where(inArray(examWorkEvents.examWorkId, [...workIds]))
    .orderBy(asc(examWorkEvents.examWorkId), asc(examWorkEvents.at), asc(examWorkEvents.id));
}

/** External login ids of the students' own accounts (the first account of each student). */
export async function externalIdsOf(db: Db, studentIds: readonly number[]) {
  if (!studentIds.length) return new Map<number, { provider: string; subject: string }>();
  const rows = await db
    .select({ studentId: users.studentId, provider: users.externalProvider, subject: users.externalSubject })
    .from(users)
    .where(
      and(
        inArray(users.studentId, [...studentIds]),
        sql`${users.externalProvider} is not null and ${users.externalSubject} is not null`,
      ),
    )
    .orderBy(asc(users.id));
  const out = new Map<number, { provider: string; subject: string }>();
  for (const r of rows)
    if (r.studentId !== null && !out.has(r.studentId))
      out.set(r.studentId, { provider: r.provider!, subject: r.subject! });
  return out;
}
