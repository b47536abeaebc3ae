import { assignExperts } from '../expert/index.js';
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import {
  diagnostics,
  examWorks,
  participantTests,
  results,
  specificationElements,
  subjectTests,
  taskElements,
  taskScores,
  tasks,
  variantTasks,
} from '../../db/schema/index.js';
import { enqueue } from '../../jobs/queue.js';
import { PermanentJobError, registerJobHandler, type JobContext } from '../../jobs/runner.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { InvalidTaskError, markFor, percent, scoreAnswer, type ScoreResult } from '../scoring/index.js';
import { answersOf, lockWorkForUpdate } from '../exam-test/index.js';
import { publish, subscribe, type DomainEvents } from '../../events/domain-events.js';

/*
 * Results of finished works (docs/design.md §2–§4). `scoreWork` is the one place that turns answers into
 * task_scores and a results row; everything else (the finish call, the sweeper, the 'result' and
 * 'regrade' jobs, the experts' final marks) goes through it, so a re-run always lands on the same
 * numbers. The scoring rules themselves are the pure engine in ../scoring.
 */

export const RESULT_JOB = 'result';
export const REGRADE_JOB = 'regrade';

type TaskScoreStatus = 'auto' | 'awaiting_experts' | 'expert';

export interface ScoredWork {
  examWorkId: number;
  resultId: number;
  status: 'awaiting_experts' | 'scored';
  primaryScore: number;
  maxScore: number;
  percent: number;
  mark: string | null;
  level: string | null;
  verificationCode: string;
}

// ------------------------------------------------------------------ verification codes

/** No 0/O, 1/I/L: the code is typed in from paper. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const codeGroup = () =>
  Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
export const newVerificationCode = () => `R-${codeGroup()}-${codeGroup()}`;

async function freeVerificationCode(tx: Tx): Promise<string> {
  // 31^8 ≈ 8.5e11 codes: a clash is practically impossible, but a check costs one index probe.
  for (;;) {
    const code = newVerificationCode();
    const [taken] = await tx
      .select({ id: results.id })
      .from(results)
      .where(eq(results.verificationCode, code))
      .limit(1);
    if (!taken) return code;
  }
}

// ------------------------------------------------------------------ scoring one work

const round2 = (n: number) => Math.round(n * 100) / 100;

/** An answer with nothing in it but files attached is the file list (file-answer tasks). */
function answerValueOf(answerType: string, value: unknown, fileIds: number[]): unknown {
  if (answerType === 'file' && fileIds.length && (value === null || value === undefined)) return { fileIds };
  return value;
}

/**
 * Scores a finished work: every task of its variant through scoreAnswer (no answer = empty = 0;
 * a non-empty extended/file answer awaits experts), then the result row. Runs inside `tx` with the
 * work locked. Idempotent: experts' final marks are kept, the verification code never changes.
 */
export async function scoreWork(tx: Tx, examWorkId: number): Promise<ScoredWork> {
  const work = await lockWorkForUpdate(tx, examWorkId);
  if (!work) throw notFound('No such exam work');
  if (work.deletedAt) throw conflict('work_deleted', 'A deleted work has no result');
  if (!work.finishedAt) throw conflict('work_not_finished', 'Only a finished work can be scored');

  const [pt] = await tx
    .select({
      id: participantTests.id,
      diagnosticId: participantTests.diagnosticId,
      subjectTestId: participantTests.subjectTestId,
      markScale: subjectTests.markScale,
      published: diagnostics.resultsPublished,
    })
    .from(participantTests)
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .where(eq(participantTests.id, work.participantTestId));
  if (!pt) throw notFound('The participant test of this work no longer exists');

  const taskRows = await tx
    .select({
      variantTaskId: variantTasks.id,
      taskId: tasks.id,
      maxScore: variantTasks.maxScore,
      answerType: tasks.answerType,
      content: tasks.content,
      reference: tasks.reference,
      scoring: tasks.scoring,
    })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(variantTasks.variantId, work.variantId))
    .orderBy(asc(variantTasks.position));

  const { rows: answerRows, attached } = await answersOf(tx, work.id);
  const valueOf = new Map(answerRows.map((a) => [a.variantTaskId, a.value]));
  const existing = new Map(
    (await tx.select().from(taskScores).where(eq(taskScores.examWorkId, work.id))).map((s) => [
      s.variantTaskId,
      s,
    ]),
  );

  const finals = new Map<number, number | null>();
  const rows: (typeof taskScores.$inferInsert)[] = [];
  for (const t of taskRows) {
    const maxScore = Number(t.maxScore);
    const fileIds = attached.filter((f) => f.variantTaskId === t.variantTaskId).map((f) => f.fileId);
    let scored: ScoreResult;
    try {
      scored = scoreAnswer(
        {
          answerType: t.answerType,
          content: t.content,
          reference: t.reference,
          scoring: t.scoring,
          maxScore,
        },
        answerValueOf(t.answerType, valueOf.get(t.variantTaskId) ?? null, fileIds),
      );
    } catch (err) {
      if (err instanceof InvalidTaskError)
        throw new AppError(422, 'invalid_task', `Task ${t.taskId} cannot be scored: ${err.message}`);
      throw err;
    }
    const before = existing.get(t.variantTaskId);
    let status: TaskScoreStatus;
    let autoScore: number | null;
    let finalScore: number | null;
    if (scored.status === 'manual') {
      autoScore = null;
      // The experts' final mark stays through re-scoring; it is only ever replaced by applyExpertFinal.
      const kept = before?.status === 'expert' && before.finalScore !== null;
      status = kept ? 'expert' : 'awaiting_experts';
      finalScore = kept ? before.finalScore : null;
    } else {
      autoScore = scored.score;
      finalScore = scored.score;
      status = 'auto';
    }
    finals.set(t.variantTaskId, finalScore);
    const details =
      scored.status === 'scored'
        ? { correct: scored.correct, mistakes: scored.mistakes ?? null, details: scored.details ?? null }
        : scored.status === 'invalid'
          ? { reason: scored.reason }
          : null;
    rows.push({
      examWorkId: work.id,
      variantTaskId: t.variantTaskId,
      autoStatus: scored.status,
      autoScore,
      finalScore,
      maxScore,
      status,
      details: details as Record<string, unknown> | null,
    });
  }
  // Every task's score in one statement (a finish storm scores thousands of works a minute).
  if (rows.length)
    await tx
      .insert(taskScores)
      .values(rows)
      .onConflictDoUpdate({
        target: [taskScores.examWorkId, taskScores.variantTaskId],
        set: {
          autoStatus: sql`excluded.auto_status`,
          autoScore: sql`excluded.auto_score`,
          finalScore: sql`excluded.final_score`,
          maxScore: sql`excluded.max_score`,
          status: sql`excluded.status`,
          details: sql`excluded.details`,
          updatedAt: sql`now()`,
        },
      });
  // Tasks no longer in the variant (never expected) must not count.
  const stale = [...existing.keys()].filter((id) => !finals.has(id));
  if (stale.length)
    await tx
      .delete(taskScores)
      .where(and(eq(taskScores.examWorkId, work.id), inArray(taskScores.variantTaskId, stale)));

  const awaiting = [...finals.values()].some((v) => v === null);
  const primaryScore = round2([...finals.values()].reduce<number>((sum, v) => sum + (v ?? 0), 0));
  const maxScore = round2(taskRows.reduce((sum, t) => sum + Number(t.maxScore), 0));
  const pct = percent(primaryScore, maxScore);
  // A mark is given on the complete score only: a provisional mark would mislead.
  const mark = awaiting ? null : markFor(primaryScore, pt.markScale);
  const perElement = await perElementOf(tx, taskRows, finals);
  const status = awaiting ? 'awaiting_experts' : 'scored';
  // Answers for experts go to two matching experts at once (blind double marking); safe to repeat.
  if (awaiting) await assignExperts(tx, work.id);

  const [current] = await tx
    .select({ id: results.id, verificationCode: results.verificationCode })
    .from(results)
    .where(eq(results.examWorkId, work.id));
  const values = {
    participantTestId: pt.id,
    diagnosticId: pt.diagnosticId,
    subjectTestId: pt.subjectTestId,
    status,
    primaryScore,
    maxScore,
    percent: pct,
    mark: mark?.mark ?? null,
    level: mark?.level ?? null,
    perElement,
    computedAt: new Date(),
  };
  let row: { id: number; verificationCode: string };
  if (current) {
    await tx.update(results).set(values).where(eq(results.id, current.id));
    row = current;
  } else {
    const [inserted] = await tx
      .insert(results)
      .values({ examWorkId: work.id, verificationCode: await freeVerificationCode(tx), ...values })
      .returning({ id: results.id, verificationCode: results.verificationCode });
    row = inserted!;
  }

  if (!awaiting) {
    await tx
      .update(examWorks)
      .set({ status: 'scored', updatedAt: new Date() })
      .where(and(eq(examWorks.id, work.id), eq(examWorks.status, 'finished')));
    const moved = await tx
      .update(participantTests)
      .set({ status: pt.published ? 'published' : 'scored', updatedAt: new Date() })
      .where(
        and(
          eq(participantTests.id, pt.id),
          inArray(participantTests.status, ['active', 'in_progress', 'finished', 'scored']),
        ),
      )
      .returning({ id: participantTests.id });
    // Scored after its diagnostic's publication: this participant's result is published now.
    if (pt.published && moved.length)
      await publish('resultsPublished', {
        tx,
        diagnosticId: pt.diagnosticId,
        publishedBy: null,
        participantTestIds: [pt.id],
      });
  }
  return {
    examWorkId: work.id,
    resultId: row.id,
    status,
    primaryScore,
    maxScore,
    percent: pct,
    mark: values.mark,
    level: values.level,
    verificationCode: row.verificationCode,
  };
}

async function perElementOf(
  tx: Tx,
  taskRows: { variantTaskId: number; taskId: number; maxScore: number }[],
  finals: Map<number, number | null>,
) {
  const out: Record<string, { name: string; score: number; max: number }> = {};
  if (!taskRows.length) return out;
  const links = await tx
    .select({
      taskId: taskElements.taskId,
      code: specificationElements.code,
      name: specificationElements.name,
    })
    .from(taskElements)
    .innerJoin(specificationElements, eq(specificationElements.id, taskElements.elementId))
    .where(
      inArray(
        taskElements.taskId,
        taskRows.map((t) => t.taskId),
      ),
    )
    .orderBy(asc(specificationElements.code));
  for (const link of links) {
    for (const t of taskRows.filter((r) => r.taskId === link.taskId)) {
      const entry = (out[link.code] ??= { name: link.name, score: 0, max: 0 });
      entry.score = round2(entry.score + (finals.get(t.variantTaskId) ?? 0));
      entry.max = round2(entry.max + Number(t.maxScore));
    }
  }
  return out;
}

/**
 * The experts' final mark of one answer (called by expert grading): the task counts `finalScore`
 * from now on, and the result is recomputed in the same transaction.
 */
export async function applyExpertFinal(
  tx: Tx,
  examWorkId: number,
  variantTaskId: number,
  finalScore: number,
): Promise<ScoredWork> {
  const scoreRow = () =>
    tx
      .select({ maxScore: taskScores.maxScore })
      .from(taskScores)
      .where(and(eq(taskScores.examWorkId, examWorkId), eq(taskScores.variantTaskId, variantTaskId)))
      .then((rows) => rows[0]);
  let row = await scoreRow();
  // Not scored yet (the result job has not run): score first, so the row exists.
  if (!row) {
    await scoreWork(tx, examWorkId);
    row = await scoreRow();
  }
  if (!row) throw notFound('This task is not part of the variant of the work');
  const max = Number(row.maxScore);
  if (!Number.isFinite(finalScore) || finalScore < 0 || finalScore > max)
    throw badRequest('invalid_score', `The final mark must be between 0 and ${max}`);
  await tx
    .update(taskScores)
    .set({ finalScore, status: 'expert', updatedAt: new Date() })
    .where(and(eq(taskScores.examWorkId, examWorkId), eq(taskScores.variantTaskId, variantTaskId)));
  return scoreWork(tx, examWorkId);
}

// ------------------------------------------------------------------ queueing

/** Queues scoring of finished works (one 'result' job per work, deduplicated by `result:<id>`). */
export async function queueScoring(db: DbOrTx, workIds: readonly number[]): Promise<void> {
  if (!workIds.length) return;
  const rows = await db
    .select({ id: examWorks.id, diagnosticId: participantTests.diagnosticId })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(inArray(examWorks.id, [...workIds]));
  for (const r of rows)
    await enqueue(db, {
      type: RESULT_JOB,
      diagnosticId: r.diagnosticId,
      payload: { examWorkId: r.id },
      dedupeKey: `result:${r.id}`,
    });
}

/** Live finished works named by a 'result' job's payload. */
async function worksOfPayload(db: Db, payload: Record<string, unknown>): Promise<number[]> {
  const num = (k: string) => (typeof payload[k] === 'number' ? (payload[k] as number) : undefined);
  const workId = num('examWorkId');
  const ptId = num('participantTestId');
  const diagnosticId = num('diagnosticId');
  const subjectTestId = num('subjectTestId');
  if (workId === undefined && ptId === undefined && diagnosticId === undefined && subjectTestId === undefined)
    throw new PermanentJobError(
      'A result job names an examWorkId, participantTestId, diagnosticId or subjectTestId',
    );
  const rows = await db
    .select({ id: examWorks.id })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        isNotNull(examWorks.finishedAt),
        isNull(examWorks.deletedAt),
        isNull(participantTests.deletedAt),
        workId !== undefined ? eq(examWorks.id, workId) : undefined,
        ptId !== undefined ? eq(participantTests.id, ptId) : undefined,
        diagnosticId !== undefined ? eq(participantTests.diagnosticId, diagnosticId) : undefined,
        subjectTestId !== undefined ? eq(participantTests.subjectTestId, subjectTestId) : undefined,
      ),
    )
    .orderBy(asc(examWorks.id));
  return rows.map((r) => r.id);
}

async function runScoringJob(ctx: JobContext) {
  const ids = await worksOfPayload(ctx.db, ctx.item.payload ?? {});
  if (ctx.item.payload?.examWorkId !== undefined && !ids.length)
    throw new PermanentJobError(
      `Exam work ${String(ctx.item.payload.examWorkId)} is not a live finished work`,
    );
  let scored = 0;
  let awaitingExperts = 0;
  const failed: { examWorkId: number; error: string }[] = [];
  for (const [i, id] of ids.entries()) {
    try {
      const r = await ctx.db.transaction((tx) => scoreWork(tx, id));
      if (r.status === 'scored') scored++;
      else awaitingExperts++;
    } catch (err) {
      // A content bug (invalid task) or a work deleted meanwhile: retrying cannot help.
      if (!(err instanceof AppError)) throw err;
      if (ids.length === 1) throw new PermanentJobError(err.message, err.code);
      failed.push({ examWorkId: id, error: err.message });
    }
    if (ids.length > 1 && i % 20 === 19)
      await ctx.progress(((i + 1) * 100) / ids.length, `${i + 1} / ${ids.length}`);
  }
  return { result: { works: ids.length, scored, awaitingExperts, failed } };
}

// ------------------------------------------------------------------ regrade

export interface RegradeInput {
  subjectTestId?: number;
  variantTaskId?: number;
}

export interface RegradeChange {
  examWorkId: number;
  participantTestId: number;
  before: number | null;
  after: number;
  markBefore: string | null;
  markAfter: string | null;
}

/**
 * Re-scores after a key correction: every live finished work of the subject test, or of the
 * variants holding the variant task. Audited; answers the works whose score or mark changed.
 */
export async function regrade(
  ctx: Pick<AppContext, 'db'>,
  input: RegradeInput,
  actor: { userId: number | null; ip?: string | null },
): Promise<{ works: number; changed: RegradeChange[] }> {
  if (input.subjectTestId === undefined && input.variantTaskId === undefined)
    throw badRequest('validation_failed', 'Name a subjectTestId or a variantTaskId to regrade');
  const db = ctx.db;
  const rows = await db
    .select({ id: examWorks.id, participantTestId: examWorks.participantTestId })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        isNotNull(examWorks.finishedAt),
        isNull(examWorks.deletedAt),
        isNull(participantTests.deletedAt),
        input.subjectTestId !== undefined
          ? eq(participantTests.subjectTestId, input.subjectTestId)
          : undefined,
        input.variantTaskId !== undefined
          ? sql`${examWorks.variantId} in (select vt.variant_id from variant_tasks vt where vt.id = ${input.variantTaskId})`
          : undefined,
      ),
    )
    .orderBy(asc(examWorks.id));
  const changed: RegradeChange[] = [];
  for (const w of rows) {
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ primaryScore: results.primaryScore, mark: results.mark })
        .from(results)
        .where(eq(results.examWorkId, w.id));
      const after = await scoreWork(tx, w.id);
      if (!before || before.primaryScore !== after.primaryScore || before.mark !== after.mark)
        changed.push({
          examWorkId: w.id,
          participantTestId: w.participantTestId,
          before: before ? before.primaryScore : null,
          after: after.primaryScore,
          markBefore: before?.mark ?? null,
          markAfter: after.mark,
        });
    });
  }
  await audit(db, {
    userId: actor.userId,
    action: 'results.regrade',
    entity: input.variantTaskId !== undefined ? 'variant_task' : 'subject_test',
    entityId: input.variantTaskId ?? input.subjectTestId,
    details: { ...input, works: rows.length, changed: changed.length },
    ip: actor.ip ?? null,
  });
  return { works: rows.length, changed };
}

/** Queues a regrade as a job (type 'regrade'); its result is what `regrade` answers. */
export async function queueRegrade(db: DbOrTx, input: RegradeInput, auth: AuthContext | null) {
  if (input.subjectTestId === undefined && input.variantTaskId === undefined)
    throw badRequest('validation_failed', 'Name a subjectTestId or a variantTaskId to regrade');
  const key = input.variantTaskId !== undefined ? `vt:${input.variantTaskId}` : `st:${input.subjectTestId}`;
  return enqueue(db, {
    type: REGRADE_JOB,
    payload: { ...input },
    dedupeKey: `regrade:${key}`,
    createdBy: auth?.userId ?? null,
  });
}

async function runRegradeJob(ctx: JobContext) {
  const p = ctx.item.payload ?? {};
  const input: RegradeInput = {
    ...(typeof p.subjectTestId === 'number' ? { subjectTestId: p.subjectTestId } : {}),
    ...(typeof p.variantTaskId === 'number' ? { variantTaskId: p.variantTaskId } : {}),
  };
  if (input.subjectTestId === undefined && input.variantTaskId === undefined)
    throw new PermanentJobError('A regrade job names a subjectTestId or a variantTaskId');
  const out = await regrade({ db: ctx.db }, input, { userId: ctx.item.createdBy });
  return { result: { works: out.works, changed: out.changed } as unknown as Record<string, unknown> };
}

const onWorksFinished = ({ db, examWorkIds }: DomainEvents['worksFinished']) => queueScoring(db, examWorkIds);
/**
 * Answers keyed in from a paper form after the work finished: its result is computed again. A key
 * of its own, so a scoring job already running (which may have read the answers before) does not
 * swallow it.
 */
const onAnswersKeyedIn = async ({ db, examWorkIds }: DomainEvents['answersKeyedIn']) => {
  const rows = await db
    .select({ id: examWorks.id, diagnosticId: participantTests.diagnosticId })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(inArray(examWorks.id, [...examWorkIds]));
  for (const r of rows)
    await enqueue(db, {
      type: RESULT_JOB,
      diagnosticId: r.diagnosticId,
      payload: { examWorkId: r.id },
      dedupeKey: `result-keyed:${r.id}`,
    });
};
const onExpertFinal = (e: DomainEvents['expertFinal']) =>
  applyExpertFinal(e.tx, e.examWorkId, e.variantTaskId, e.finalScore);

/**
 * Registers the 'result' and 'regrade' job handlers and what this module does on other modules'
 * events: finished works get their scoring queued, an expert final mark recomputes the result
 * (idempotent).
 */
export function registerResultJobs(): void {
  registerJobHandler(RESULT_JOB, runScoringJob, { quick: true });
  registerJobHandler(REGRADE_JOB, runRegradeJob);
  subscribe('worksFinished', onWorksFinished);
  subscribe('answersKeyedIn', onAnswersKeyedIn);
  subscribe('expertFinal', onExpertFinal);
}
