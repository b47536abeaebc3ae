import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  examWorks,
  expertAssignments,
  expertMarks,
  participantTests,
  subjectTests,
  taskScores,
  tasks,
  variantTasks,
} from '../../db/schema/index.js';
import { finalRounds, rubricOf } from './grading.service.js';

/*
 * What the experts' final mark of an answer is made of, as a result page shows it (issue 14, item 4):
 * each rubric criterion with its mark, and the comments of the rounds that count. Nothing here names
 * an expert or an assignment: no user ids, no rounds, no anonymous codes.
 */

export interface FinalGrading {
  criteria: { code: string; text: string; maxScore: number; score: number }[];
  comments: string[];
}

/** Mean of the counted rounds' marks for one criterion, to the hundredth (a mean of three may be 1/3). */
const meanOf = (scores: number[]) =>
  Math.round((scores.reduce((s, x) => s + x, 0) / scores.length) * 100) / 100;

/**
 * The final grading of every answer of a work that has the experts' final mark (task_scores.status
 * `expert`), by variant task id. The rounds that count are those of the final mark (`finalRounds`):
 * a criterion's mark is their mean (their own mark when one round counts), the comments are theirs,
 * in round order, blank ones left out. An answer given its final mark without graded rounds (an
 * admin's correction) has none.
 */
export async function finalGradingOf(db: DbOrTx, examWorkId: number): Promise<Map<number, FinalGrading>> {
  const finals = await db
    .select({
      variantTaskId: taskScores.variantTaskId,
      maxScore: variantTasks.maxScore,
      criteria: tasks.criteria,
      rule: subjectTests.expertRule,
    })
    .from(taskScores)
    .innerJoin(variantTasks, eq(variantTasks.id, taskScores.variantTaskId))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .innerJoin(examWorks, eq(examWorks.id, taskScores.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .where(and(eq(taskScores.examWorkId, examWorkId), eq(taskScores.status, 'expert')));
  const out = new Map<number, FinalGrading>();
  if (!finals.length) return out;

  const rounds = await db
    .select({
      id: expertAssignments.id,
      variantTaskId: expertAssignments.variantTaskId,
      round: expertAssignments.round,
      comment: expertAssignments.comment,
    })
    .from(expertAssignments)
    .where(
      and(
        eq(expertAssignments.examWorkId, examWorkId),
        eq(expertAssignments.status, 'graded'),
        inArray(
          expertAssignments.variantTaskId,
          finals.map((f) => f.variantTaskId),
        ),
      ),
    )
    .orderBy(asc(expertAssignments.round));
  const marks = rounds.length
    ? await db
        .select()
        .from(expertMarks)
        .where(
          inArray(
            expertMarks.assignmentId,
            rounds.map((r) => r.id),
          ),
        )
    : [];

  for (const f of finals) {
    const graded = rounds.filter((r) => r.variantTaskId === f.variantTaskId);
    const counted = finalRounds(
      graded.map((r) => r.round),
      f.rule,
    );
    const used = graded.filter((r) => counted.includes(r.round));
    if (!used.length) continue;
    const criteria = rubricOf(f.criteria, Number(f.maxScore)).flatMap((c) => {
      const scores = used.flatMap((r) =>
        marks.filter((m) => m.assignmentId === r.id && m.criterionCode === c.code).map((m) => m.score),
      );
      return scores.length
        ? [{ code: c.code, text: c.text, maxScore: c.maxScore, score: meanOf(scores) }]
        : [];
    });
    const comments = used.flatMap((r) => {
      const text = r.comment?.trim();
      return text ? [text] : [];
    });
    out.set(f.variantTaskId, { criteria, comments });
  }
  return out;
}
