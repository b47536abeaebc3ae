import { and, asc, count, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { ExamResult, NoResult, ResultListRequest, ResultVariant, ScaledScore } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  classes,
  diagnostics,
  examWorks,
  expertAssignments,
  organizatorAssignments,
  participantTests,
  results,
  schools,
  students,
  subjectTests,
  taskScores,
  tasks,
  variants,
  variantTasks,
  workers,
} from '../../db/schema/index.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { containsPattern, offsetOf, orderOf } from '../../lib/list.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { schoolDay } from '../../lib/calendar.js';
import * as workRepo from '../exam-test/index.js';
import { toParticipantVariant, type TaskRow } from '../exam-test/index.js';
import { finalGradingOf } from '../expert/index.js';
import { scaledScores } from '../reports/index.js';
import { ugnikDiagnosticCondition } from '../../auth/ugnik.access.js';
import {
  expertAssignmentsIn,
  findPt,
  isOwn,
  resultAccess,
  resultsNotPublished,
  staffReaches,
  type PtRow,
} from './results.access.js';

/*
 * Reads of results. Every response is built here field by field (docs/design.md §6): keys, solutions and
 * criteria only where the rules below allow them.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const noResult = () =>
  new AppError(404, 'no_result', 'There is no result for this participant test yet (see noresult)');

/** The live work of a participant test (the latest one if, unexpectedly, several). */
async function liveWorkOf(db: Db, ptId: number) {
  const [w] = await db
    .select()
    .from(examWorks)
    .where(and(eq(examWorks.participantTestId, ptId), isNull(examWorks.deletedAt)))
    .orderBy(sql`${examWorks.id} desc`)
    .limit(1);
  return w ?? null;
}

export interface LoadedResult {
  pt: PtRow;
  row: typeof results.$inferSelect;
  /** The scaled score under the adopted equating table (issue 28); null without one. */
  scaled?: ScaledScore | null;
  tasks: {
    variantTaskId: number;
    position: number;
    taskId: number;
    content: Record<string, unknown>;
    score: number | null;
    maxScore: number;
    status: 'auto' | 'awaiting_experts' | 'expert';
  }[];
}

/** The result of a participant test's live work with its task scores, or 404 `no_result`. */
export async function loadResult(db: Db, pt: PtRow): Promise<LoadedResult> {
  const work = await liveWorkOf(db, pt.id);
  if (!work) throw noResult();
  const [row] = await db.select().from(results).where(eq(results.examWorkId, work.id));
  if (!row) throw noResult();
  const rows = await db
    .select({
      variantTaskId: variantTasks.id,
      position: variantTasks.position,
      taskId: tasks.id,
      content: tasks.content,
      score: taskScores.finalScore,
      maxScore: taskScores.maxScore,
      status: taskScores.status,
    })
    .from(taskScores)
    .innerJoin(variantTasks, eq(variantTasks.id, taskScores.variantTaskId))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(taskScores.examWorkId, work.id))
    .orderBy(asc(variantTasks.position));
  const [scaled] = await scaledScores(db, [{ ...row, variantId: work.variantId }]);
  return {
    pt,
    row,
    scaled: scaled ?? null,
    tasks: rows.map((r) => ({
      ...r,
      maxScore: Number(r.maxScore),
      status: r.status as LoadedResult['tasks'][number]['status'],
    })),
  };
}

export function toExamResult({ pt, row, tasks: taskRows, scaled }: LoadedResult): ExamResult {
  return {
    participantTestId: pt.id,
    examWorkId: row.examWorkId,
    diagnosticId: row.diagnosticId,
    subjectTestId: row.subjectTestId,
    subjectTestName: pt.subjectTestName,
    status: row.status as ExamResult['status'],
    primaryScore: row.primaryScore,
    maxScore: row.maxScore,
    percent: row.percent,
    mark: row.mark,
    level: row.level,
    scaled: scaled ?? null,
    tasks: taskRows.map((t) => ({
      variantTaskId: t.variantTaskId,
      position: t.position,
      score: t.score,
      maxScore: t.maxScore,
      status: t.status,
    })),
    elements: Object.entries(row.perElement ?? {}).map(([code, e]) => ({
      code,
      name: e.name,
      score: e.score,
      max: e.max,
    })),
    verificationCode: row.verificationCode,
    computedAt: row.computedAt.toISOString(),
    published: pt.published,
    publishedAt: iso(pt.publishedAt),
  };
}

export async function getResult(db: Db, auth: AuthContext, ptId: number) {
  const { pt } = await resultAccess(db, auth, ptId);
  return loadResult(db, pt);
}

// ------------------------------------------------------------------ variant with answers

/**
 * Staff other than admins see keys once the diagnostic's window has closed or its results are
 * published: an organizator must not read the key of a room that is still writing.
 */
const keysOpenFor = (pt: PtRow, now = new Date()) => pt.published || pt.endsAt <= now;

export async function resultVariant(db: Db, auth: AuthContext, workId: number): Promise<ResultVariant> {
  const work = await workRepo.findWork(db, workId);
  if (!work || work.deletedAt) throw notFound('No such exam work');
  const pt = await findPt(db, work.participantTestId);
  if (!pt) throw notFound('No such exam work');

  let kind: 'own' | 'staff' | 'expert';
  let onlyTasks: Set<number> | null = null;
  let anonCode: string | null = null;
  if (isOwn(auth, pt)) {
    if (!pt.published) throw resultsNotPublished();
    kind = 'own';
  } else if (await staffReaches(db, auth, pt)) {
    kind = 'staff';
  } else if (hasRole(auth, 'expert')) {
    const assigned = await expertAssignmentsIn(db, auth.userId, work.id);
    if (!assigned.length) throw forbidden('You have no assignment in this work');
    kind = 'expert';
    onlyTasks = new Set(assigned.map((a) => a.variantTaskId));
    anonCode = assigned[0]!.anonCode;
  } else throw forbidden('This work is outside your scope');
  if (!work.finishedAt) throw new AppError(409, 'work_not_finished', 'The work is not finished yet');

  const variant = await workRepo.findVariant(db, work.variantId);
  if (!variant) throw notFound('No such variant');
  const allRows = (await workRepo.variantTasksOf(db, work.variantId)) as TaskRow[];
  const rows = onlyTasks ? allRows.filter((r) => onlyTasks.has(r.variantTaskId)) : allRows;
  const taskFiles = await workRepo.taskFilesOf(
    db,
    rows.map((r) => r.taskId),
  );
  const base = toParticipantVariant(
    { ...variant, subjectTestName: pt.subjectTestName, instructionHtml: null },
    rows,
    taskFiles,
    work.id,
  );
  const { rows: answerRows, attached } = await workRepo.answersOf(db, work.id);
  const scores = await db.select().from(taskScores).where(eq(taskScores.examWorkId, work.id));
  const withKeys =
    kind === 'own' || kind === 'expert' || hasRole(auth, 'admin') || (kind === 'staff' && keysOpenFor(pt));
  // What the experts' final marks are made of goes where keys go, never to an expert (blind marking).
  const gradings = withKeys && kind !== 'expert' ? await finalGradingOf(db, work.id) : null;

  let participant: ResultVariant['participant'] = null;
  if (kind === 'staff') {
    const found = await workRepo.findParticipantPerson(db, pt);
    const p = found.person;
    participant = {
      name: p ? [p.surname, p.name, p.patronymic].filter(Boolean).join(' ') : 'Участник',
      schoolName: found.schoolName,
      className: found.className,
    };
  }

  return {
    examWorkId: work.id,
    variantId: variant.id,
    number: variant.number,
    subjectTestName: pt.subjectTestName,
    withKeys,
    anonCode,
    participant,
    tasks: base.tasks.map((t, i) => {
      const r = rows[i]!;
      const answer = answerRows.find((a) => a.variantTaskId === t.variantTaskId);
      const fileIds = attached.filter((f) => f.variantTaskId === t.variantTaskId).map((f) => f.fileId);
      const s = scores.find((x) => x.variantTaskId === t.variantTaskId);
      return {
        ...t,
        answer: answer || fileIds.length ? { value: answer?.value ?? null, fileIds } : null,
        // Blind marking: an expert never sees what others (or the engine) gave.
        score: kind === 'expert' ? null : (s?.finalScore ?? null),
        scoreStatus:
          kind === 'expert' ? null : ((s?.status as 'auto' | 'awaiting_experts' | 'expert') ?? null),
        ...(withKeys
          ? {
              reference: r.reference ?? null,
              solutionHtml: r.solutionHtml === null ? null : sanitizeHtml(r.solutionHtml),
              criteria:
                r.criteria?.map((c) => ({ code: c.code, text: c.text, maxScore: c.maxScore })) ?? null,
              checks: checksOf(s?.details),
            }
          : {}),
        ...(gradings ? { grading: gradings.get(t.variantTaskId) ?? null } : {}),
      };
    }),
  };
}

/**
 * Right or wrong per piece of an answer, from the engine's details of the task score: gaps of a
 * cloze (`blanks`), gaps of a gap match or left items of a matching (`pairs`); null otherwise.
 */
function checksOf(stored: Record<string, unknown> | null | undefined): Record<string, boolean> | null {
  const details = stored?.details as { kind?: unknown; blanks?: unknown; pairs?: unknown } | null | undefined;
  const pieces =
    details?.kind === 'blanks' ? details.blanks : details?.kind === 'pairs' ? details.pairs : null;
  if (!Array.isArray(pieces)) return null;
  const out: Record<string, boolean> = {};
  for (const p of pieces as { id?: unknown; left?: unknown; correct?: unknown }[]) {
    const id = details?.kind === 'blanks' ? p.id : p.left;
    if (typeof id === 'string' && typeof p.correct === 'boolean') out[id] = p.correct;
  }
  return out;
}

// ------------------------------------------------------------------ reference of one task

export async function referenceOf(db: Db, auth: AuthContext, variantTaskId: number) {
  const [r] = await db
    .select({
      variantTaskId: variantTasks.id,
      variantId: variantTasks.variantId,
      subjectTestId: variants.subjectTestId,
      position: variantTasks.position,
      maxScore: variantTasks.maxScore,
      answerType: tasks.answerType,
      reference: tasks.reference,
      solutionHtml: tasks.solutionHtml,
      criteria: tasks.criteria,
    })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .innerJoin(variants, eq(variants.id, variantTasks.variantId))
    .where(eq(variantTasks.id, variantTaskId));
  if (!r) throw notFound('No such variant task');

  if (!(await mayReadReference(db, auth, r))) throw forbidden('This task is outside your scope');
  return {
    variantTaskId: r.variantTaskId,
    position: r.position,
    answerType: r.answerType,
    reference: r.reference ?? null,
    solutionHtml: r.solutionHtml === null ? null : sanitizeHtml(r.solutionHtml),
    criteria: r.criteria?.map((c) => ({ code: c.code, text: c.text, maxScore: c.maxScore })) ?? null,
    maxScore: Number(r.maxScore),
  };
}

/**
 * admin: any task. expert: tasks they have an assignment on. coordinator: tasks of a subject test
 * their school sat in a diagnostic whose window has closed or whose results are published (never
 * while the school may still be writing). participant: a task of their own work's variant, after
 * publication (403 `results_not_published` before).
 */
async function mayReadReference(
  db: Db,
  auth: AuthContext,
  r: { variantTaskId: number; variantId: number; subjectTestId: number },
): Promise<boolean> {
  if (hasRole(auth, 'admin')) return true;
  if (hasRole(auth, 'expert')) {
    const [a] = await db
      .select({ id: expertAssignments.id })
      .from(expertAssignments)
      .where(
        and(
          eq(expertAssignments.expertId, auth.userId),
          eq(expertAssignments.variantTaskId, r.variantTaskId),
        ),
      )
      .limit(1);
    if (a) return true;
  }
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null) {
    const [hit] = await db
      .select({ id: participantTests.id })
      .from(participantTests)
      .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
      .where(
        and(
          eq(participantTests.schoolId, auth.schoolId),
          eq(participantTests.subjectTestId, r.subjectTestId),
          isNull(participantTests.deletedAt),
          or(eq(diagnostics.resultsPublished, true), sql`${diagnostics.endsAt} <= now()`),
        ),
      )
      .limit(1);
    if (hit) return true;
  }
  if (hasRole(auth, 'participant') && auth.participantTestId !== null) {
    const pt = await findPt(db, auth.participantTestId);
    const work = pt ? await liveWorkOf(db, pt.id) : null;
    if (pt && work && work.variantId === r.variantId) {
      if (!pt.published) throw resultsNotPublished();
      // Keys never reach anyone who can still write.
      if (!work.finishedAt) throw new AppError(409, 'work_not_finished', 'The work is not finished yet');
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------ list

const personName = sql<string>`coalesce(
  nullif(concat_ws(' ', ${students.surname}, ${students.name}, ${students.patronymic}), ''),
  nullif(concat_ws(' ', ${workers.surname}, ${workers.name}, ${workers.patronymic}), ''),
  'Участник')`;

/** SQL scope of the caller over participant tests; undefined = everything (admin). */
function listScope(auth: AuthContext): SQL | undefined {
  // Guests' attempts at open tests are read by the guests themselves only (docs/open-tests.md).
  if (hasRole(auth, 'admin')) return isNull(participantTests.guestUserId);
  const parts: SQL[] = [];
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null)
    parts.push(eq(participantTests.schoolId, auth.schoolId));
  if (hasRole(auth, 'organizator'))
    parts.push(sql`exists (select 1 from ${organizatorAssignments} oa where oa.user_id = ${auth.userId}
      and (oa.class_id = ${participantTests.classId} or oa.building_id = ${participantTests.buildingId}))`);
  if (hasRole(auth, 'ugnik')) parts.push(ugnikDiagnosticCondition(auth));
  return parts.length ? or(...parts) : sql`false`;
}

export async function listResults(db: Db, auth: AuthContext, q: ResultListRequest) {
  const f = q.filter ?? {};
  const where = and(
    listScope(auth),
    isNull(participantTests.deletedAt),
    isNull(diagnostics.deletedAt),
    isNull(examWorks.deletedAt),
    f.diagnosticId !== undefined ? eq(results.diagnosticId, f.diagnosticId) : undefined,
    f.subjectTestId !== undefined ? eq(results.subjectTestId, f.subjectTestId) : undefined,
    f.classId !== undefined ? eq(participantTests.classId, f.classId) : undefined,
    f.status !== undefined ? eq(results.status, f.status) : undefined,
    f.search !== undefined
      ? or(
          ilike(personName, containsPattern(f.search)),
          eq(participantTests.registrationCode, f.search),
          eq(results.verificationCode, f.search.toUpperCase()),
        )
      : undefined,
  );
  const base = () =>
    db
      .select({
        participantTestId: participantTests.id,
        examWorkId: results.examWorkId,
        diagnosticId: results.diagnosticId,
        diagnosticName: diagnostics.name,
        subjectTestId: results.subjectTestId,
        subjectTestName: subjectTests.name,
        participantName: personName,
        registrationCode: participantTests.registrationCode,
        schoolId: participantTests.schoolId,
        schoolName: schools.name,
        classId: participantTests.classId,
        className: classes.name,
        participantTestStatus: participantTests.status,
        status: results.status,
        primaryScore: results.primaryScore,
        maxScore: results.maxScore,
        percent: results.percent,
        mark: results.mark,
        level: results.level,
        published: diagnostics.resultsPublished,
        computedAt: results.computedAt,
        variantId: examWorks.variantId,
      })
      .from(results)
      .innerJoin(examWorks, eq(examWorks.id, results.examWorkId))
      .innerJoin(participantTests, eq(participantTests.id, results.participantTestId))
      .innerJoin(diagnostics, eq(diagnostics.id, results.diagnosticId))
      .innerJoin(subjectTests, eq(subjectTests.id, results.subjectTestId))
      .leftJoin(students, eq(students.id, participantTests.studentId))
      .leftJoin(workers, eq(workers.id, participantTests.workerId))
      .leftJoin(schools, eq(schools.id, participantTests.schoolId))
      .leftJoin(classes, eq(classes.id, participantTests.classId));
  const order = orderOf(
    q.sort ?? { field: 'participantName', dir: 'asc' },
    {
      participantName: personName,
      primaryScore: results.primaryScore,
      percent: results.percent,
      computedAt: results.computedAt,
      id: results.id,
    },
    results.id,
  );
  const [rows, [total]] = await Promise.all([
    base()
      .where(where)
      .orderBy(...order)
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db
      .select({ n: count() })
      .from(results)
      .innerJoin(examWorks, eq(examWorks.id, results.examWorkId))
      .innerJoin(participantTests, eq(participantTests.id, results.participantTestId))
      .innerJoin(diagnostics, eq(diagnostics.id, results.diagnosticId))
      .leftJoin(students, eq(students.id, participantTests.studentId))
      .leftJoin(workers, eq(workers.id, participantTests.workerId))
      .where(where),
  ]);
  const scaled = await scaledScores(db, rows);
  return {
    items: rows.map(({ variantId: _variant, ...r }, i) => ({
      ...r,
      status: r.status as 'awaiting_experts' | 'scored',
      computedAt: r.computedAt.toISOString(),
      scaled: scaled[i] ?? null,
    })),
    total: total?.n ?? 0,
  };
}

// ------------------------------------------------------------------ why no result

const NO_RESULT_MESSAGES: Record<NonNullable<NoResult['reason']>, string> = {
  absent: 'Участник не явился на диагностику',
  not_started: 'Участник ещё не начинал работу',
  not_finished: 'Работа начата, но ещё не завершена',
  annulled: 'Результат участника аннулирован',
  awaiting_grading: 'Работа завершена и ожидает проверки',
  deleted_work: 'Работа участника удалена организатором',
};

export async function whyNoResult(db: Db, auth: AuthContext, ptId: number): Promise<NoResult> {
  const pt = await findPt(db, ptId);
  if (!pt) throw notFound('No such participant test');
  if (!(await staffReaches(db, auth, pt))) throw forbidden('This participant test is outside your scope');
  const reason = await noResultReason(db, pt);
  return { participantTestId: pt.id, reason, message: reason ? NO_RESULT_MESSAGES[reason] : null };
}

async function noResultReason(db: Db, pt: PtRow): Promise<NoResult['reason']> {
  if (pt.status === 'annulled') return 'annulled';
  const work = await liveWorkOf(db, pt.id);
  if (work) {
    if (!work.finishedAt) return 'not_finished';
    const [r] = await db
      .select({ status: results.status })
      .from(results)
      .where(eq(results.examWorkId, work.id));
    return r?.status === 'scored' ? null : 'awaiting_grading';
  }
  if (pt.status === 'absent') return 'absent';
  const [deleted] = await db
    .select({ id: examWorks.id })
    .from(examWorks)
    .where(and(eq(examWorks.participantTestId, pt.id), isNotNull(examWorks.deletedAt)))
    .limit(1);
  if (deleted) return 'deleted_work';
  // No work at all: absent once the test day or the window is over, else not started yet.
  const now = new Date();
  return pt.testDate < schoolDay(now) || pt.endsAt <= now ? 'absent' : 'not_started';
}

// ------------------------------------------------------------------ publication counts

/** What still keeps a diagnostic's results from being published. */
export async function gradingState(db: DbOrTx, diagnosticId: number) {
  const [awaiting] = await db
    .select({ n: count() })
    .from(results)
    .innerJoin(examWorks, eq(examWorks.id, results.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, results.participantTestId))
    .where(
      and(
        eq(results.diagnosticId, diagnosticId),
        eq(results.status, 'awaiting_experts'),
        isNull(examWorks.deletedAt),
        isNull(participantTests.deletedAt),
        sql`${participantTests.status} <> 'annulled'`,
      ),
    );
  const [unscored] = await db
    .select({ n: count() })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        eq(participantTests.diagnosticId, diagnosticId),
        isNotNull(examWorks.finishedAt),
        isNull(examWorks.deletedAt),
        isNull(participantTests.deletedAt),
        sql`${participantTests.status} <> 'annulled'`,
        sql`not exists (select 1 from results r where r.exam_work_id = ${examWorks.id})`,
      ),
    );
  const awaitingGrading = awaiting?.n ?? 0;
  const unscoredN = unscored?.n ?? 0;
  const reason = awaitingGrading > 0 ? 'awaiting_grading' : unscoredN > 0 ? 'unscored' : null;
  return {
    enabled: reason === null,
    awaitingGrading,
    unscored: unscoredN,
    reason: reason as 'awaiting_grading' | 'unscored' | null,
    message:
      reason === 'awaiting_grading'
        ? `Ожидают проверки экспертами: ${awaitingGrading}`
        : reason === 'unscored'
          ? `Завершённых работ без результата: ${unscoredN}`
          : null,
  };
}
