import { and, asc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
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
 * same generator will feed the queued report jobs.
 */

export const REPORT_PAGE_SIZE = 1000;

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
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId))
    .leftJoin(
      examWorks,
      and(eq(examWorks.participantTestId, participantTests.id), isNull(examWorks.deletedAt)),
    )
    .leftJoin(variants, eq(variants.id, examWorks.variantId))
    .leftJoin(results, eq(results.examWorkId, examWorks.id));
}

/** One page of live registrations matching `where` (scope and filters), after `afterId` in id order. */
export async function reportRowsPage(
  db: Db,
  where: SQL | undefined,
  afterId: number,
  limit = REPORT_PAGE_SIZE,
): Promise<ReportRow[]> {
  const rows = await rowQuery(db)
    .where(
      and(
        isNull(participantTests.deletedAt),
        isNull(diagnostics.deletedAt),
        gt(participantTests.id, afterId),
        where,
      ),
    )
    .orderBy(asc(participantTests.id))
    .limit(limit);
  return rows.map(({ levelBands, markScale, ...r }) => ({
    ...r,
    levelOrder: levelOrderOf(levelBands, markScale),
  }));
}

/** Pages of live registrations matching `where`, in id order, until there are none. */
export async function* reportRowPages(
  db: Db,
  where: SQL | undefined,
  pageSize = REPORT_PAGE_SIZE,
): AsyncGenerator<ReportRow[]> {
  let after = 0;
  for (;;) {
    const page = await reportRowsPage(db, where, after, pageSize);
    if (!page.length) return;
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.participantTestId;
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
