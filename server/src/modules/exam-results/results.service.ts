import { assignExpertsMany } from '../expert/index.js';
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
import { enqueue, enqueueMany } from '../../jobs/queue.js';
import type { QueueItemRow } from '../../jobs/queue.js';
import {
  PermanentJobError,
  registerJobHandler,
  type JobContext,
  type BatchItemOutcome,
} from '../../jobs/runner.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { InvalidTaskError, markFor, percent, scoreAnswer, type ScoreResult } from '../scoring/index.js';
import { answersOfWorks, lockWorksForUpdate } from '../exam-test/index.js';
import { publish, subscribe, type DomainEvents } from '../../events/domain-events.js';
import { groupBy } from '../../lib/group-by.js';

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

/** `n` unused codes, distinct from each other: one look-up for all (31^8 ≈ 8.5e11 codes, a clash is practically impossible). */
async function freeVerificationCodes(tx: Tx, n: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < n) {
    const fresh = new Set<string>();
    while (codes.size + fresh.size < n) {
      const code = newVerificationCode();
      if (!codes.has(code)) fresh.add(code);
    }
    const taken = await tx
      .select({ code: results.verificationCode })
      .from(results)
      .where(inArray(results.verificationCode, [...fresh]));
    for (const t of taken) fresh.delete(t.code);
    for (const code of fresh) codes.add(code);
  }
  return [...codes];
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
  const { scored, failed } = await scoreWorks(tx, [examWorkId]);
  if (failed[0]) throw failed[0].error;
  return scored[0]!;
}

/** Rows written at once at most (a statement's parameters are limited). */
const WRITE_CHUNK = 2000;

type ScoreRowInsert = typeof taskScores.$inferInsert;

/**
 * scoreWork for many works in one transaction, with a fixed number of statements whatever their
 * number (a finish storm scores thousands of works a minute): each read covers every work, every
 * write is one statement (in chunks), the experts' load is counted once. Gives each work exactly
 * what scoreWork gives it alone. A work that cannot be scored (gone, deleted, not finished, a task
 * the engine refuses) is answered in `failed` with the error scoreWork would throw, and nothing
 * of it is written; the others are scored.
 */
export async function scoreWorks(
  tx: Tx,
  examWorkIds: readonly number[],
): Promise<{ scored: ScoredWork[]; failed: { examWorkId: number; error: AppError }[] }> {
  const ids = [...new Set(examWorkIds)].sort((a, b) => a - b);
  const failed: { examWorkId: number; error: AppError }[] = [];
  if (!ids.length) return { scored: [], failed };
  const locked = new Map((await lockWorksForUpdate(tx, ids)).map(({ work }) => [work.id, work]));
  const works = ids.flatMap((id) => {
    const work = locked.get(id);
    const error = !work
      ? notFound('No such exam work')
      : work.deletedAt
        ? conflict('work_deleted', 'A deleted work has no result')
        : !work.finishedAt
          ? conflict('work_not_finished', 'Only a finished work can be scored')
          : null;
    if (error) failed.push({ examWorkId: id, error });
    return error ? [] : [work!];
  });
  if (!works.length) return { scored: [], failed };
  const workIds = works.map((w) => w.id);

  const pts = new Map(
    (
      await tx
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
        .where(inArray(participantTests.id, [...new Set(works.map((w) => w.participantTestId))]))
    ).map((pt) => [pt.id, pt]),
  );
  const allTasks = await tx
    .select({
      variantId: variantTasks.variantId,
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
    .where(inArray(variantTasks.variantId, [...new Set(works.map((w) => w.variantId))]))
    .orderBy(asc(variantTasks.variantId), asc(variantTasks.position));
  const tasksOf = groupBy(allTasks, (t) => t.variantId);
  const answersByWork = await answersOfWorks(tx, workIds);
  const existingByWork = groupBy(
    await tx.select().from(taskScores).where(inArray(taskScores.examWorkId, workIds)),
    (s) => s.examWorkId,
  );
  const links = allTasks.length
    ? await tx
        .select({
          taskId: taskElements.taskId,
          code: specificationElements.code,
          name: specificationElements.name,
        })
        .from(taskElements)
        .innerJoin(specificationElements, eq(specificationElements.id, taskElements.elementId))
        .where(inArray(taskElements.taskId, [...new Set(allTasks.map((t) => t.taskId))]))
        .orderBy(asc(specificationElements.code))
    : [];

  interface Planned {
    work: (typeof works)[number];
    pt: NonNullable<ReturnType<typeof pts.get>>;
    rows: ScoreRowInsert[];
    stale: number[];
    awaiting: boolean;
    primaryScore: number;
    maxScore: number;
    perElement: Record<string, { name: string; score: number; max: number }>;
  }
  const planned: Planned[] = [];
  for (const work of works) {
    const pt = pts.get(work.participantTestId);
    if (!pt) {
      failed.push({
        examWorkId: work.id,
        error: notFound('The participant test of this work no longer exists'),
      });
      continue;
    }
    const taskRows = tasksOf.get(work.variantId) ?? [];
    const { rows: answerRows, attached } = answersByWork.get(work.id) ?? { rows: [], attached: [] };
    const existing = new Map((existingByWork.get(work.id) ?? []).map((s) => [s.variantTaskId, s]));
    try {
      const { rows, finals } = scoreTasks(work.id, taskRows, answerRows, attached, existing);
      const awaiting = [...finals.values()].some((v) => v === null);
      planned.push({
        work,
        pt,
        rows,
        // Tasks no longer in the variant (never expected) must not count.
        stale: [...existing.keys()].filter((id) => !finals.has(id)),
        awaiting,
        primaryScore: round2([...finals.values()].reduce<number>((sum, v) => sum + (v ?? 0), 0)),
        maxScore: round2(taskRows.reduce((sum, t) => sum + Number(t.maxScore), 0)),
        perElement: perElementOf(taskRows, finals, links),
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed.push({ examWorkId: work.id, error: err });
    }
  }
  if (!planned.length) return { scored: [], failed };

  // Every task's score in one statement (in chunks).
  const scoreRows = planned.flatMap((p) => p.rows);
  for (let i = 0; i < scoreRows.length; i += WRITE_CHUNK)
    await tx
      .insert(taskScores)
      .values(scoreRows.slice(i, i + WRITE_CHUNK))
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
  for (const p of planned.filter((p) => p.stale.length))
    await tx
      .delete(taskScores)
      .where(and(eq(taskScores.examWorkId, p.work.id), inArray(taskScores.variantTaskId, p.stale)));

  // Answers for experts go to two matching experts at once (blind double marking); safe to repeat.
  const awaitingIds = planned.filter((p) => p.awaiting).map((p) => p.work.id);
  if (awaitingIds.length) await assignExpertsMany(tx, awaitingIds);

  // The result rows in one statement: a new row gets a fresh code, an existing one keeps its own.
  const codes = await freeVerificationCodes(tx, planned.length);
  const computedAt = new Date();
  const values = planned.map((p, i) => {
    // A mark is given on the complete score only: a provisional mark would mislead.
    const mark = p.awaiting ? null : markFor(p.primaryScore, p.pt.markScale);
    return {
      examWorkId: p.work.id,
      verificationCode: codes[i]!,
      participantTestId: p.pt.id,
      diagnosticId: p.pt.diagnosticId,
      subjectTestId: p.pt.subjectTestId,
      status: p.awaiting ? ('awaiting_experts' as const) : ('scored' as const),
      primaryScore: p.primaryScore,
      maxScore: p.maxScore,
      percent: percent(p.primaryScore, p.maxScore),
      mark: mark?.mark ?? null,
      level: mark?.level ?? null,
      perElement: p.perElement,
      computedAt,
    };
  });
  const written = new Map<number, { id: number; verificationCode: string }>();
  for (let i = 0; i < values.length; i += WRITE_CHUNK)
    for (const r of await tx
      .insert(results)
      .values(values.slice(i, i + WRITE_CHUNK))
      .onConflictDoUpdate({
        target: results.examWorkId,
        set: {
          participantTestId: sql`excluded.participant_test_id`,
          diagnosticId: sql`excluded.diagnostic_id`,
          subjectTestId: sql`excluded.subject_test_id`,
          status: sql`excluded.status`,
          primaryScore: sql`excluded.primary_score`,
          maxScore: sql`excluded.max_score`,
          percent: sql`excluded.percent`,
          mark: sql`excluded.mark`,
          level: sql`excluded.level`,
          perElement: sql`excluded.per_element`,
          computedAt: sql`excluded.computed_at`,
        },
      })
      .returning({
        id: results.id,
        examWorkId: results.examWorkId,
        verificationCode: results.verificationCode,
      }))
      written.set(r.examWorkId, r);

  const complete = planned.filter((p) => !p.awaiting);
  if (complete.length) {
    await tx
      .update(examWorks)
      .set({ status: 'scored', updatedAt: new Date() })
      .where(
        and(
          inArray(
            examWorks.id,
            complete.map((p) => p.work.id),
          ),
          eq(examWorks.status, 'finished'),
        ),
      );
    for (const published of [false, true]) {
      const ptIds = [...new Set(complete.filter((p) => p.pt.published === published).map((p) => p.pt.id))];
      if (!ptIds.length) continue;
      const moved = await tx
        .update(participantTests)
        .set({ status: published ? 'published' : 'scored', updatedAt: new Date() })
        .where(
          and(
            inArray(participantTests.id, ptIds),
            inArray(participantTests.status, ['active', 'in_progress', 'finished', 'scored']),
          ),
        )
        .returning({ id: participantTests.id, diagnosticId: participantTests.diagnosticId });
      // Scored after its diagnostic's publication: these participants' results are published now.
      if (published)
        for (const [diagnosticId, rows] of groupBy(moved, (m) => m.diagnosticId))
          await publish('resultsPublished', {
            tx,
            diagnosticId,
            publishedBy: null,
            participantTestIds: rows.map((m) => m.id),
          });
    }
  }
  const scored = planned.map((p, i) => {
    const row = written.get(p.work.id)!;
    const v = values[i]!;
    return {
      examWorkId: p.work.id,
      resultId: row.id,
      status: v.status,
      primaryScore: v.primaryScore,
      maxScore: v.maxScore,
      percent: v.percent,
      mark: v.mark,
      level: v.level,
      verificationCode: row.verificationCode,
    };
  });
  return { scored, failed };
}

interface VariantTaskRow {
  variantTaskId: number;
  taskId: number;
  maxScore: number;
  answerType: string;
  content: unknown;
  reference: unknown;
  scoring: unknown;
}

/** One work's task scores through the engine; the experts' final marks kept. Throws 422 on a task it refuses. */
function scoreTasks(
  examWorkId: number,
  taskRows: readonly VariantTaskRow[],
  answerRows: readonly { variantTaskId: number; value: unknown }[],
  attached: readonly { variantTaskId: number; fileId: number }[],
  existing: ReadonlyMap<number, typeof taskScores.$inferSelect>,
) {
  const valueOf = new Map(answerRows.map((a) => [a.variantTaskId, a.value]));
  const finals = new Map<number, number | null>();
  const rows: ScoreRowInsert[] = [];
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
        } as Parameters<typeof scoreAnswer>[0],
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
      examWorkId,
      variantTaskId: t.variantTaskId,
      autoStatus: scored.status,
      autoScore,
      finalScore,
      maxScore,
      status,
      details: details as Record<string, unknown> | null,
    });
  }
  return { rows, finals };
}

function perElementOf(
  taskRows: readonly { variantTaskId: number; taskId: number; maxScore: number }[],
  finals: Map<number, number | null>,
  links: readonly { taskId: number; code: string; name: string }[],
) {
  const out: Record<string, { name: string; score: number; max: number }> = {};
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

/**
 * Queues scoring of finished works (one 'result' job per work, deduplicated by `result:<id>`, as
 * `enqueue` does); the runner claims many at once and scores them together (runScoringBatch).
 * Answers keyed in after the finish use `result-keyed:<id>`, so a scoring job already running
 * (which may have read the answers before) does not swallow them.
 */
export async function queueScoring(
  db: DbOrTx,
  workIds: readonly number[],
  keyPrefix: 'result' | 'result-keyed' = 'result',
): Promise<void> {
  if (!workIds.length) return;
  const rows = await db
    .select({ id: examWorks.id, diagnosticId: participantTests.diagnosticId })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(inArray(examWorks.id, [...workIds]));
  await enqueueMany(
    db,
    rows.map((r) => ({
      type: RESULT_JOB,
      diagnosticId: r.diagnosticId,
      payload: { examWorkId: r.id },
      dedupeKey: `${keyPrefix}:${r.id}`,
    })),
  );
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

/** Result jobs of single works claimed and scored together, at most (one transaction each batch). */
export const SCORING_BATCH = 200;

/**
 * Scores the works of many 'result' jobs in one transaction (a finish storm queues one job per
 * work): each job naming one work gets the answer runScoringJob would give it; jobs naming more
 * (a participant test, a diagnostic) are left to runScoringJob.
 */
async function runScoringBatch({ db, items }: { db: Db; items: readonly QueueItemRow[] }) {
  const out = new Map<number, BatchItemOutcome | Error>();
  const single = new Map<number, number>();
  for (const item of items) {
    const p = item.payload ?? {};
    if (typeof p.examWorkId === 'number' && Object.keys(p).length === 1) single.set(item.id, p.examWorkId);
  }
  if (!single.size) return out;
  const live = new Set(
    (
      await db
        .select({ id: examWorks.id })
        .from(examWorks)
        .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
        .where(
          and(
            inArray(examWorks.id, [...new Set(single.values())]),
            isNotNull(examWorks.finishedAt),
            isNull(examWorks.deletedAt),
            isNull(participantTests.deletedAt),
          ),
        )
    ).map((r) => r.id),
  );
  for (const [itemId, workId] of single)
    if (!live.has(workId))
      out.set(itemId, new PermanentJobError(`Exam work ${workId} is not a live finished work`));
  const { scored, failed } = await db.transaction((tx) => scoreWorks(tx, [...live]));
  const scoredOf = new Map(scored.map((r) => [r.examWorkId, r]));
  const failedOf = new Map(failed.map((f) => [f.examWorkId, f.error]));
  for (const [itemId, workId] of single) {
    if (!live.has(workId)) continue;
    const error = failedOf.get(workId);
    const r = scoredOf.get(workId);
    if (error) out.set(itemId, new PermanentJobError(error.message, error.code));
    else if (r)
      out.set(itemId, {
        result: {
          works: 1,
          scored: r.status === 'scored' ? 1 : 0,
          awaitingExperts: r.status === 'scored' ? 0 : 1,
          failed: [],
        },
      });
  }
  return out;
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
/** Answers keyed in from a paper form after the work finished: its result is computed again. */
const onAnswersKeyedIn = ({ db, examWorkIds }: DomainEvents['answersKeyedIn']) =>
  queueScoring(db, examWorkIds, 'result-keyed');
const onExpertFinal = (e: DomainEvents['expertFinal']) =>
  applyExpertFinal(e.tx, e.examWorkId, e.variantTaskId, e.finalScore);

/**
 * Registers the 'result' and 'regrade' job handlers and what this module does on other modules'
 * events: finished works get their scoring queued, an expert final mark recomputes the result
 * (idempotent).
 */
export function registerResultJobs(): void {
  registerJobHandler(RESULT_JOB, runScoringJob, {
    quick: true,
    batch: { size: SCORING_BATCH, run: runScoringBatch },
  });
  registerJobHandler(REGRADE_JOB, runRegradeJob);
  subscribe('worksFinished', onWorksFinished);
  subscribe('answersKeyedIn', onAnswersKeyedIn);
  subscribe('expertFinal', onExpertFinal);
}
