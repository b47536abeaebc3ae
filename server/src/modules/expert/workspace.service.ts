import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ExpertAssignment, ExpertDisagreement } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  answerFiles,
  answers,
  examWorks,
  expertAssignments,
  expertMarks,
  files,
  participantTests,
  subjectExams,
  subjects,
  subjectTests,
  taskScores,
  tasks,
  users,
  variantTasks,
} from '../../db/schema/index.js';
import { SCHOOL_UTC_OFFSET_MS } from '../../lib/calendar.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { htmlToText, sanitizeHtml } from '../../lib/sanitize.js';
import { isEditable, rubricOf, takeWaiting, thresholdOf, type Criterion } from './grading.service.js';
import { neutralName } from '../../lib/file-sniff.js';

/*
 * The expert's grading workspace. Every response is built here from allowlisted columns: the
 * anonymous code stands for the participant; names, schools, classes and codes are never selected.
 */

/** School calendar day (yyyy-mm-dd) a work was finished (started, for works never finished). */
// The offset is inlined (not a bind parameter) so that GROUP BY matches the selected expression.
const offset = sql.raw(`interval '${SCHOOL_UTC_OFFSET_MS / 60_000} minutes'`);
export const workDay = sql<string>`to_char((coalesce(${examWorks.finishedAt}, ${examWorks.startedAt}) at time zone 'UTC') + ${offset}, 'YYYY-MM-DD')`;

const ownOrAll = (auth: AuthContext): SQL | undefined =>
  hasRole(auth, 'admin') && !hasRole(auth, 'expert')
    ? undefined
    : eq(expertAssignments.expertId, auth.userId);

/** Files attached to an answer, under neutral names (the participant may have named them after themselves). */
export async function answerFilesOf(db: DbOrTx, examWorkId: number, variantTaskId: number) {
  const rows = await db
    .select({ id: files.id, name: files.name, mime: files.mime, size: files.size })
    .from(answerFiles)
    .innerJoin(files, eq(files.id, answerFiles.fileId))
    .where(
      and(
        eq(answerFiles.examWorkId, examWorkId),
        eq(answerFiles.variantTaskId, variantTaskId),
        sql`${files.deletedAt} is null`,
      ),
    )
    .orderBy(asc(files.id));
  return rows.map((f, i) => ({
    id: f.id,
    name: neutralName(`file-${i + 1}`, f.name),
    mime: f.mime,
    size: f.size,
  }));
}

const viewColumns = {
  id: expertAssignments.id,
  examWorkId: expertAssignments.examWorkId,
  variantTaskId: expertAssignments.variantTaskId,
  expertId: expertAssignments.expertId,
  anonCode: expertAssignments.anonCode,
  round: expertAssignments.round,
  status: expertAssignments.status,
  total: expertAssignments.total,
  comment: expertAssignments.comment,
  gradedAt: expertAssignments.gradedAt,
  subjectTestId: subjectTests.id,
  subjectTestName: subjectTests.name,
  subjectName: subjects.name,
  workDate: workDay,
  position: variantTasks.position,
  maxScore: variantTasks.maxScore,
  answerType: tasks.answerType,
  html: tasks.html,
  criteria: tasks.criteria,
  solutionHtml: tasks.solutionHtml,
  reference: tasks.reference,
  scoring: tasks.scoring,
  taskStatus: taskScores.status,
  hasThird: sql<boolean>`exists (select 1 from ${expertAssignments} t where t.exam_work_id = ${expertAssignments.examWorkId} and t.variant_task_id = ${expertAssignments.variantTaskId} and t.round = 3)`,
};

function assignmentsQuery(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(viewColumns)
    .from(expertAssignments)
    .innerJoin(examWorks, eq(examWorks.id, expertAssignments.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .innerJoin(variantTasks, eq(variantTasks.id, expertAssignments.variantTaskId))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .leftJoin(
      taskScores,
      and(
        eq(taskScores.examWorkId, expertAssignments.examWorkId),
        eq(taskScores.variantTaskId, expertAssignments.variantTaskId),
      ),
    )
    .where(where);
}

type AssignmentRow = Awaited<ReturnType<typeof assignmentsQuery>>[number];

/**
 * For a third check: the marks of rounds 1 and 2 side by side, as «expert 1» and «expert 2» (by
 * round). Only marks and totals leave: never the experts' ids or names, nor their comments (free
 * text may name or betray its author, and the third expert grades on the answer, not on prose).
 * Rounds 1 and 2 never get it: their marking is blind.
 */
async function disagreementOf(
  db: DbOrTx,
  row: AssignmentRow,
  rubric: Criterion[],
): Promise<ExpertDisagreement | null> {
  if (row.round !== 3) return null;
  const rounds = await db
    .select({
      id: expertAssignments.id,
      round: expertAssignments.round,
      total: expertAssignments.total,
    })
    .from(expertAssignments)
    .where(
      and(
        eq(expertAssignments.examWorkId, row.examWorkId),
        eq(expertAssignments.variantTaskId, row.variantTaskId),
        inArray(expertAssignments.round, [1, 2]),
        eq(expertAssignments.status, 'graded'),
      ),
    );
  const first = rounds.find((r) => r.round === 1);
  const second = rounds.find((r) => r.round === 2);
  if (!first || !second) return null;
  const marks = await db
    .select({
      assignmentId: expertMarks.assignmentId,
      criterionCode: expertMarks.criterionCode,
      score: expertMarks.score,
    })
    .from(expertMarks)
    .where(inArray(expertMarks.assignmentId, [first.id, second.id]));
  const scoreOf = (assignmentId: number, code: string) =>
    marks.find((m) => m.assignmentId === assignmentId && m.criterionCode === code)?.score ?? null;
  const t1 = first.total ?? 0;
  const t2 = second.total ?? 0;
  return {
    criteria: rubric.map((c) => {
      const expert1 = scoreOf(first.id, c.code);
      const expert2 = scoreOf(second.id, c.code);
      return {
        criterionCode: c.code,
        expert1,
        expert2,
        difference: expert1 === null || expert2 === null ? null : Math.abs(expert1 - expert2),
      };
    }),
    totals: { expert1: t1, expert2: t2, difference: Math.abs(t1 - t2) },
    threshold: thresholdOf(row.scoring),
  };
}

async function toView(db: DbOrTx, row: AssignmentRow): Promise<ExpertAssignment> {
  const [answer] = await db
    .select({ value: answers.value })
    .from(answers)
    .where(and(eq(answers.examWorkId, row.examWorkId), eq(answers.variantTaskId, row.variantTaskId)));
  const marks =
    row.status === 'graded'
      ? await db
          .select({ criterionCode: expertMarks.criterionCode, score: expertMarks.score })
          .from(expertMarks)
          .where(eq(expertMarks.assignmentId, row.id))
          .orderBy(asc(expertMarks.criterionCode))
      : null;
  const rubric = rubricOf(row.criteria, row.maxScore);
  return {
    id: row.id,
    anonCode: row.anonCode,
    round: row.round,
    status: row.status === 'graded' ? 'graded' : 'assigned',
    editable: isEditable(row.taskStatus, row.round, !!row.hasThird),
    subjectTestId: row.subjectTestId,
    subjectTestName: row.subjectTestName,
    subjectName: row.subjectName,
    workDate: row.workDate,
    task: {
      position: row.position,
      answerType: row.answerType,
      html: sanitizeHtml(row.html),
      criteria: rubric.map((c) => ({
        code: c.code,
        text: htmlToText(c.text),
        maxScore: c.maxScore,
        step: c.step,
      })),
      maxScore: row.maxScore,
      solutionHtml: row.solutionHtml ? sanitizeHtml(row.solutionHtml) : null,
      reference: row.reference ?? null,
    },
    answer: {
      value: answer?.value ?? null,
      files: await answerFilesOf(db, row.examWorkId, row.variantTaskId),
    },
    marks,
    total: row.total,
    comment: row.comment,
    gradedAt: row.gradedAt ? row.gradedAt.toISOString() : null,
    disagreement: await disagreementOf(db, row, rubric),
  };
}

/** One assignment: its expert sees it; an admin may look at any (oversight). 404/403 otherwise. */
export async function getAssignment(db: DbOrTx, auth: AuthContext, id: number): Promise<ExpertAssignment> {
  const [row] = await assignmentsQuery(db, eq(expertAssignments.id, id)).limit(1);
  if (!row) throw notFound('No such assignment');
  if (row.expertId !== auth.userId && !hasRole(auth, 'admin'))
    throw forbidden('This assignment is not yours');
  return toView(db, row);
}

/**
 * The caller's next open assignment (third checks first, then oldest), with progress in the same
 * filter. With nothing open the expert first takes answers of their subjects that wait for an
 * expert (takeWaiting); what still waits and cannot be theirs is counted in `waiting`, so the
 * workspace never says «all graded» while answers of their subjects wait unassigned.
 */
export async function nextAssignment(
  db: Db,
  auth: AuthContext,
  filter: { subjectTestId?: number | undefined; date?: string | undefined },
) {
  const scope = and(
    eq(expertAssignments.expertId, auth.userId),
    filter.subjectTestId ? eq(subjectTests.id, filter.subjectTestId) : undefined,
    filter.date ? sql`${workDay} = ${filter.date}` : undefined,
  );
  const open = () =>
    assignmentsQuery(db, and(scope, eq(expertAssignments.status, 'assigned')))
      .orderBy(desc(expertAssignments.round), asc(expertAssignments.assignedAt), asc(expertAssignments.id))
      .limit(1);
  let [row] = await open();
  let waiting = { otherExpert: 0, dailyLimit: 0 };
  if (!row) {
    const took = await takeWaiting(db, auth.userId, filter, workDay);
    waiting = { otherExpert: took.otherExpert, dailyLimit: took.dailyLimit };
    if (took.taken) [row] = await open();
  }
  const [progress] = await db
    .select({
      done: sql<number>`count(*) filter (where ${expertAssignments.status} = 'graded')::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(expertAssignments)
    .innerJoin(examWorks, eq(examWorks.id, expertAssignments.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .where(scope);
  return {
    assignment: row ? await toView(db, row) : null,
    progress: { done: Number(progress?.done ?? 0), total: Number(progress?.total ?? 0) },
    waiting,
  };
}

/** Counts by subject test and school day: the expert's own, or (admin) everyone's. */
export async function queue(db: DbOrTx, auth: AuthContext) {
  const rows = await db
    .select({
      subjectTestId: subjectTests.id,
      subjectTestName: subjectTests.name,
      subjectName: subjects.name,
      date: workDay,
      assigned: sql<number>`count(*) filter (where ${expertAssignments.status} = 'assigned')::int`,
      graded: sql<number>`count(*) filter (where ${expertAssignments.status} = 'graded')::int`,
      thirdChecks: sql<number>`count(*) filter (where ${expertAssignments.round} = 3)::int`,
    })
    .from(expertAssignments)
    .innerJoin(examWorks, eq(examWorks.id, expertAssignments.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(ownOrAll(auth))
    .groupBy(subjectTests.id, subjectTests.name, subjects.name, workDay)
    .orderBy(workDay, subjectTests.name);
  return {
    items: rows.map((r) => ({
      ...r,
      assigned: Number(r.assigned),
      graded: Number(r.graded),
      thirdChecks: Number(r.thirdChecks),
    })),
  };
}

// ---------------------------------------------------------------- agreement

interface PairStats {
  n: number;
  exact: number;
  absDiff: number;
  third: number;
}
const stats = (s: PairStats) => ({
  doubleMarked: s.n,
  exactAgreementPercent: s.n ? Math.round((1000 * s.exact) / s.n) / 10 : null,
  meanAbsDifference: s.n ? Math.round((100 * s.absDiff) / s.n) / 100 : null,
  thirdCheckRate: s.n ? Math.round((1000 * s.third) / s.n) / 1000 : null,
});

/**
 * Inter-rater agreement over answers graded in both rounds 1 and 2: per expert and per task.
 * An admin sees everyone; an expert only themselves and the answers they double-marked.
 */
export async function agreement(
  db: DbOrTx,
  auth: AuthContext,
  filter: { subjectTestId?: number | undefined },
) {
  const a2 = sql`a2`;
  const rows = await db
    .select({
      examWorkId: expertAssignments.examWorkId,
      variantTaskId: expertAssignments.variantTaskId,
      expert1: expertAssignments.expertId,
      total1: expertAssignments.total,
      expert2: sql<number>`${a2}.expert_id`,
      total2: sql<number>`${a2}.total::float8`,
      hasThird: sql<boolean>`exists (select 1 from ${expertAssignments} a3 where a3.exam_work_id = ${expertAssignments.examWorkId} and a3.variant_task_id = ${expertAssignments.variantTaskId} and a3.round = 3)`,
      taskId: variantTasks.taskId,
      position: variantTasks.position,
      subjectTestName: subjectTests.name,
    })
    .from(expertAssignments)
    .innerJoin(
      sql`${expertAssignments} a2`,
      sql`a2.exam_work_id = ${expertAssignments.examWorkId} and a2.variant_task_id = ${expertAssignments.variantTaskId} and a2.round = 2 and a2.status = 'graded'`,
    )
    .innerJoin(variantTasks, eq(variantTasks.id, expertAssignments.variantTaskId))
    .innerJoin(examWorks, eq(examWorks.id, expertAssignments.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .where(
      and(
        eq(expertAssignments.round, 1),
        eq(expertAssignments.status, 'graded'),
        filter.subjectTestId ? eq(subjectTests.id, filter.subjectTestId) : undefined,
      ),
    );
  const adminView = hasRole(auth, 'admin');
  const mine = adminView
    ? rows
    : rows.filter((r) => r.expert1 === auth.userId || Number(r.expert2) === auth.userId);
  const perExpert = new Map<number, PairStats>();
  const perTask = new Map<
    number,
    PairStats & { taskId: number; position: number; subjectTestName: string }
  >();
  const add = (s: PairStats, diff: number, third: boolean) => {
    s.n++;
    if (diff === 0) s.exact++;
    s.absDiff += diff;
    if (third) s.third++;
  };
  for (const r of mine) {
    const diff = Math.abs((r.total1 ?? 0) - Number(r.total2 ?? 0));
    for (const e of [r.expert1, Number(r.expert2)]) {
      if (!adminView && e !== auth.userId) continue;
      if (!perExpert.has(e)) perExpert.set(e, { n: 0, exact: 0, absDiff: 0, third: 0 });
      add(perExpert.get(e)!, diff, !!r.hasThird);
    }
    if (!perTask.has(r.variantTaskId))
      perTask.set(r.variantTaskId, {
        n: 0,
        exact: 0,
        absDiff: 0,
        third: 0,
        taskId: r.taskId,
        position: r.position,
        subjectTestName: r.subjectTestName,
      });
    add(perTask.get(r.variantTaskId)!, diff, !!r.hasThird);
  }
  const ids = [...perExpert.keys()];
  const names = ids.length
    ? await db
        .select({ id: users.id, login: users.login, surname: users.surname, name: users.name })
        .from(users)
        .where(inArray(users.id, ids))
    : [];
  const nameOf = (id: number) => {
    const u = names.find((x) => x.id === id);
    return u ? [u.surname, u.name].filter(Boolean).join(' ') || u.login : String(id);
  };
  return {
    experts: ids
      .sort((a, b) => a - b)
      .map((id) => ({ expertId: id, displayName: nameOf(id), ...stats(perExpert.get(id)!) })),
    tasks: [...perTask.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([variantTaskId, s]) => ({
        variantTaskId,
        taskId: s.taskId,
        position: s.position,
        subjectTestName: s.subjectTestName,
        ...stats(s),
      })),
  };
}
