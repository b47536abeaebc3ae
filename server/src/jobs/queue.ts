import type { ErrorCode } from '@attesta/contract';
import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/client.js';
import { queueItems } from '../db/schema/index.js';

/*
 * The queue of asynchronous jobs (docs/design.md §2, §7). Items live in PostgreSQL: any server
 * instance claims the next due item with FOR UPDATE SKIP LOCKED, so each attempt runs on exactly
 * one instance. Every state change after the claim names the worker holding the lock, so a worker
 * whose lock was taken away (stale-lock recovery) cannot overwrite what the next one did.
 */

export type QueueItemRow = typeof queueItems.$inferSelect;

/** Statuses in which an item still holds its dedupe key (the partial unique index). */
export const ACTIVE_STATUSES = ['queued', 'running'] as const;

/** First retry after 30 s × 2^attempts (attempts counted after the failed one: 60 s, 120 s, ...). */
export const BACKOFF_BASE_MS = 30_000;
/** A running item whose lock is older than this is taken to be orphaned by a dead worker. */
export const STALE_LOCK_MS = 10 * 60_000;

/** Why an attempt failed: a code users see a text for, and an English text for developers. */
export interface JobFailure {
  code: ErrorCode;
  message: string;
}

export const backoffMs = (attempts: number) => BACKOFF_BASE_MS * 2 ** attempts;

export interface EnqueueInput {
  type: string;
  diagnosticId?: number | null;
  payload?: Record<string, unknown>;
  /** While an item with this key is queued or running, enqueueing again returns that item. */
  dedupeKey?: string | null;
  createdBy?: number | null;
  maxAttempts?: number;
  /** Earliest start (default now). */
  runAfter?: Date;
}

/** What a claim writes on the items it takes: running, one more attempt, locked by the worker. */
const runningFor = (workerId: string) => ({
  status: 'running' as const,
  attempts: sql`${queueItems.attempts} + 1`,
  lockedBy: workerId,
  lockedAt: sql`now()`,
  startedAt: sql`now()`,
  error: null,
  errorCode: null,
});

/** The row of a new item. */
const rowOf = (input: EnqueueInput) => ({
  type: input.type,
  diagnosticId: input.diagnosticId ?? null,
  payload: input.payload ?? {},
  dedupeKey: input.dedupeKey ?? null,
  createdBy: input.createdBy ?? null,
  maxAttempts: input.maxAttempts ?? 3,
  ...(input.runAfter ? { runAfter: input.runAfter } : {}),
});

/** A dedupe key is held while its item is queued or running (the partial unique index). */
const DEDUPE = { target: queueItems.dedupeKey, where: sql`status in ('queued', 'running')` };

/**
 * Adds a job, idempotently: with a dedupeKey already held by a queued or running item, that item
 * comes back (`created: false`) and nothing is added.
 */
export async function enqueue(
  db: DbOrTx,
  input: EnqueueInput,
): Promise<{ item: QueueItemRow; created: boolean }> {
  // The existing item may finish between the refused insert and the look-up; then insert again.
  for (let round = 0; round < 5; round++) {
    const [inserted] = await db
      .insert(queueItems)
      .values(rowOf(input))
      .onConflictDoNothing(DEDUPE)
      .returning();
    if (inserted) return { item: inserted, created: true };
    const [existing] = await db
      .select()
      .from(queueItems)
      .where(and(eq(queueItems.dedupeKey, input.dedupeKey!), inArray(queueItems.status, ACTIVE_STATUSES)))
      .limit(1);
    if (existing) return { item: existing, created: false };
  }
  throw new Error(`could not enqueue ${input.type} (${input.dedupeKey})`);
}

/** The queued or running item holding a dedupe key, if any. */
export async function activeItemOf(db: DbOrTx, dedupeKey: string): Promise<QueueItemRow | null> {
  const [item] = await db
    .select()
    .from(queueItems)
    .where(and(eq(queueItems.dedupeKey, dedupeKey), inArray(queueItems.status, ACTIVE_STATUSES)))
    .limit(1);
  return item ?? null;
}

/** How many items of these types a user asked for are queued or running now. */
export async function activeCountOf(
  db: DbOrTx,
  createdBy: number,
  types: readonly string[],
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(queueItems)
    .where(
      and(
        eq(queueItems.createdBy, createdBy),
        inArray(queueItems.type, [...types]),
        inArray(queueItems.status, ACTIVE_STATUSES),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Adds many jobs in one statement per 1,000, with enqueue's dedupe: an input whose dedupeKey is
 * held by a queued or running item adds nothing. Answers how many were added.
 */
export async function enqueueMany(db: DbOrTx, inputs: readonly EnqueueInput[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < inputs.length; i += 1000) {
    const rows = await db
      .insert(queueItems)
      .values(inputs.slice(i, i + 1000).map(rowOf))
      .onConflictDoNothing(DEDUPE)
      .returning({ id: queueItems.id });
    added += rows.length;
  }
  return added;
}

/**
 * Takes the next due queued item (of `types`, if given) for `workerId` and marks it running, or
 * returns null. Rows locked by another instance's claim are skipped, never waited for.
 */
export async function claim(
  db: DbOrTx,
  workerId: string,
  types?: readonly string[],
): Promise<QueueItemRow | null> {
  if (types && types.length === 0) return null;
  return db.transaction(async (tx) => {
    const [picked] = await tx
      .select({ id: queueItems.id })
      .from(queueItems)
      .where(
        and(
          eq(queueItems.status, 'queued'),
          lte(queueItems.runAfter, sql`now()`),
          types ? inArray(queueItems.type, [...types]) : undefined,
        ),
      )
      .orderBy(asc(queueItems.runAfter), asc(queueItems.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const id = picked?.id;
    if (id === undefined) return null;
    const [item] = await tx
      .update(queueItems)
      .set(runningFor(workerId))
      .where(eq(queueItems.id, id))
      .returning();
    return item ?? null;
  });
}

/**
 * Takes up to `limit` more due queued items of one type for `workerId` at once (a batch handler
 * runs them together), skipping rows other claims hold. Returns them marked running.
 */
export async function claimMany(
  db: DbOrTx,
  workerId: string,
  type: string,
  limit: number,
): Promise<QueueItemRow[]> {
  if (limit <= 0) return [];
  // Two statements, as claim(): an UPDATE … WHERE id IN (a LIMIT … SKIP LOCKED subquery) may run
  // the subquery more than once and take more than `limit`.
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: queueItems.id })
      .from(queueItems)
      .where(
        and(eq(queueItems.status, 'queued'), lte(queueItems.runAfter, sql`now()`), eq(queueItems.type, type)),
      )
      .orderBy(asc(queueItems.runAfter), asc(queueItems.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(queueItems)
      .set(runningFor(workerId))
      .where(
        inArray(
          queueItems.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

const heldBy = (id: number, workerId: string) =>
  and(eq(queueItems.id, id), eq(queueItems.status, 'running'), eq(queueItems.lockedBy, workerId));

/** Reports progress (0–100) of a running item; also renews its lock. False if the lock was lost. */
export async function progress(
  db: DbOrTx,
  id: number,
  workerId: string,
  percent: number,
  text?: string | null,
): Promise<boolean> {
  const rows = await db
    .update(queueItems)
    .set({
      progress: Math.max(0, Math.min(100, Math.round(percent))),
      ...(text !== undefined ? { progressText: text } : {}),
      lockedAt: sql`now()`,
    })
    .where(heldBy(id, workerId))
    .returning({ id: queueItems.id });
  return rows.length > 0;
}

/** Marks a running item done with its result (and result file). False if the lock was lost. */
export async function complete(
  db: DbOrTx,
  id: number,
  workerId: string,
  result: Record<string, unknown> | null,
  resultFileId?: number | null,
): Promise<boolean> {
  const rows = await db
    .update(queueItems)
    .set({
      status: 'done',
      result,
      resultFileId: resultFileId ?? null,
      progress: 100,
      error: null,
      errorCode: null,
      lockedBy: null,
      lockedAt: null,
      finishedAt: sql`now()`,
    })
    .where(heldBy(id, workerId))
    .returning({ id: queueItems.id });
  return rows.length > 0;
}

/**
 * complete() for many running items of `workerId` in one statement, each with its own result.
 * Returns the ids marked done (an item whose lock was lost is left alone).
 */
export async function completeMany(
  db: DbOrTx,
  workerId: string,
  items: readonly { id: number; result: Record<string, unknown> | null }[],
): Promise<number[]> {
  if (!items.length) return [];
  const done = await db.execute(sql`
    update ${queueItems} q set status = 'done', result = v.result, result_file_id = null, progress = 100,
      error = null, error_code = null, locked_by = null, locked_at = null, finished_at = now()
    from jsonb_to_recordset(${JSON.stringify(items)}::jsonb) as v(id int, result jsonb)
    where q.id = v.id and q.status = 'running' and q.locked_by = ${workerId}
    returning q.id`);
  return rowsOf<{ id: number }>(done).map((r) => Number(r.id));
}

/**
 * Records a failed attempt: back to queued after a backoff while attempts remain (and `retry`
 * is not false), else failed. Returns the new status, or null if the lock was lost.
 */
export async function fail(
  db: DbOrTx,
  id: number,
  workerId: string,
  failure: JobFailure,
  options: { retry?: boolean } = {},
): Promise<'queued' | 'failed' | null> {
  const retry =
    options.retry === false ? sql`false` : sql`${queueItems.attempts} < ${queueItems.maxAttempts}`;
  const rows = await db
    .update(queueItems)
    .set({
      status: sql`case when ${retry} then 'queued' else 'failed' end`,
      runAfter: sql`case when ${retry}
        then now() + (${BACKOFF_BASE_MS}::bigint * power(2, ${queueItems.attempts})::bigint) * interval '1 millisecond'
        else ${queueItems.runAfter} end`,
      finishedAt: sql`case when ${retry} then null else now() end`,
      error: failure.message.slice(0, 2000),
      errorCode: failure.code,
      lockedBy: null,
      lockedAt: null,
    })
    .where(heldBy(id, workerId))
    .returning({ status: queueItems.status });
  return (rows[0]?.status as 'queued' | 'failed' | undefined) ?? null;
}

/**
 * Releases items whose worker died: running with a lock older than `olderThanMs` go back to
 * queued (due now), or to failed when they used up their attempts. Returns the ids touched.
 */
export async function recoverStale(db: DbOrTx, olderThanMs = STALE_LOCK_MS): Promise<number[]> {
  return (await recoverStaleItems(db, olderThanMs)).map((r) => r.id);
}

/** recoverStale, answering what the runner tells of each item touched (its new status among it). */
export async function recoverStaleItems(db: DbOrTx, olderThanMs = STALE_LOCK_MS) {
  return db
    .update(queueItems)
    .set({
      status: sql`case when ${queueItems.attempts} < ${queueItems.maxAttempts} then 'queued' else 'failed' end`,
      finishedAt: sql`case when ${queueItems.attempts} < ${queueItems.maxAttempts} then null else now() end`,
      error: 'The worker running this job stopped responding',
      errorCode: 'job_interrupted',
      runAfter: sql`now()`,
      lockedBy: null,
      lockedAt: null,
    })
    .where(
      and(
        eq(queueItems.status, 'running'),
        lt(queueItems.lockedAt, sql`now() - ${olderThanMs}::bigint * interval '1 millisecond'`),
      ),
    )
    .returning({
      id: queueItems.id,
      type: queueItems.type,
      status: queueItems.status,
      createdBy: queueItems.createdBy,
      errorCode: queueItems.errorCode,
    });
}

export async function findQueueItem(db: DbOrTx, id: number): Promise<QueueItemRow | null> {
  const [row] = await db.select().from(queueItems).where(eq(queueItems.id, id)).limit(1);
  return row ?? null;
}
