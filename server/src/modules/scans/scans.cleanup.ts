import { and, eq, inArray, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { answerFiles, files, scanBatches, scanPages, scanReviewItems } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { enqueue } from '../../jobs/queue.js';
import type { JobContext } from '../../jobs/runner.js';

/*
 * Page images are kept only as long as they are needed (issue 25): a page's grey PNG (review crops
 * are cut from it, answer areas attached from it) and the file kept for a page that could not be
 * decoded (`scan_file`). Once a batch is settled — read to its end, no review item of its pages open,
 * no page waiting to be applied to a work still written online — and older than the retention
 * (SCAN_IMAGE_RETENTION_DAYS), its images are deleted, and the deletion is audited. What answers
 * hold is never touched: an essay's or file task's crop is a file of its own (answer_files), and a
 * file an answer refers to is never deleted here.
 */

export const SCAN_CLEANUP_JOB = 'scan-cleanup';
/** How often a server instance queues the clean-up (one job at a time over all instances). */
export const SCAN_CLEANUP_EVERY_MS = 60 * 60_000;
/** File owner types the clean-up deletes: a page image, and the file of a page not decoded. */
export const SCAN_IMAGE_OWNERS = ['scan_page', 'scan_file'] as const;
/** Batches settled in one transaction, at most (the job goes on until none is left). */
const BATCHES_AT_ONCE = 50;

const DAY_MS = 24 * 60 * 60_000;

/** A page of the batch still needs its image: an open review item, or waiting to be applied. */
const pageNeedsImage = (batchId: typeof scanBatches.id) =>
  sql`exists (
    select 1 from ${scanPages} p
    where p.batch_id = ${batchId}
      and (
        exists (select 1 from ${scanReviewItems} r where r.page_id = p.id and r.status = 'open')
        or (p.applied = false and p.exam_work_id is not null
            and (p.status = 'recognized' or p.problem = 'doubtful_marks'))
      )
  )`;

/** Batches finished before `before` whose pages need their images no more, and still have some. */
async function settledBatches(db: Db, before: Date): Promise<number[]> {
  const rows = await db
    .select({ id: scanBatches.id })
    .from(scanBatches)
    .where(
      and(
        inArray(scanBatches.status, ['done', 'failed']),
        lt(scanBatches.finishedAt, before),
        sql`not ${pageNeedsImage(scanBatches.id)}`,
        or(
          sql`exists (select 1 from ${scanPages} p where p.batch_id = ${scanBatches.id} and p.image_file_id is not null)`,
          sql`exists (select 1 from ${scanPages} p join ${files} f on f.owner_id = p.id
                where p.batch_id = ${scanBatches.id} and f.owner_type = 'scan_file')`,
        ),
      ),
    )
    .orderBy(scanBatches.id)
    .limit(BATCHES_AT_ONCE);
  return rows.map((r) => r.id);
}

export interface CleanupOutcome {
  batches: number;
  files: number;
  bytes: number;
}

/**
 * Deletes the page images of the batches settled more than `retentionDays` before `now`. Each
 * batch in its own transaction, checked again under a lock (a person may reopen nothing, but a
 * page identified meanwhile is read again), with an audit row `scan_batch.images_deleted`.
 */
export async function cleanUpScanImages(
  ctx: Pick<AppContext, 'db' | 'files'>,
  retentionDays: number,
  now: Date = new Date(),
): Promise<CleanupOutcome> {
  const outcome: CleanupOutcome = { batches: 0, files: 0, bytes: 0 };
  if (retentionDays <= 0) return outcome;
  const before = new Date(now.getTime() - retentionDays * DAY_MS);
  for (;;) {
    const ids = await settledBatches(ctx.db, before);
    if (!ids.length) return outcome;
    for (const batchId of ids) {
      const done = await ctx.db.transaction(async (tx) => {
        const [batch] = await tx
          .select({ id: scanBatches.id })
          .from(scanBatches)
          .where(and(eq(scanBatches.id, batchId), sql`not ${pageNeedsImage(scanBatches.id)}`))
          .for('update');
        if (!batch) return null;
        const pageIds = (
          await tx.select({ id: scanPages.id }).from(scanPages).where(eq(scanPages.batchId, batchId))
        ).map((p) => p.id);
        const images = (
          await tx
            .select({ id: scanPages.imageFileId })
            .from(scanPages)
            .where(and(eq(scanPages.batchId, batchId), isNotNull(scanPages.imageFileId)))
        ).map((p) => p.id!);
        const doomed = await tx
          .select({ id: files.id, size: files.size, storageKey: files.storageKey })
          .from(files)
          .where(
            and(
              inArray(files.ownerType, [...SCAN_IMAGE_OWNERS]),
              or(
                images.length ? inArray(files.id, images) : sql`false`,
                and(
                  eq(files.ownerType, 'scan_file'),
                  pageIds.length ? inArray(files.ownerId, pageIds) : sql`false`,
                ),
              ),
              // Never a file an answer holds.
              notExists(
                tx
                  .select({ one: sql`1` })
                  .from(answerFiles)
                  .where(eq(answerFiles.fileId, files.id)),
              ),
            ),
          );
        await tx.update(scanPages).set({ imageFileId: null }).where(eq(scanPages.batchId, batchId));
        if (doomed.length)
          await tx.delete(files).where(
            inArray(
              files.id,
              doomed.map((f) => f.id),
            ),
          );
        const bytes = doomed.reduce((sum, f) => sum + Number(f.size), 0);
        await audit(tx, {
          userId: null,
          action: 'scan_batch.images_deleted',
          entity: 'scan_batch',
          entityId: batchId,
          reason: 'retention',
          details: { retentionDays, pages: pageIds.length, files: doomed.length, bytes },
        });
        return { files: doomed.length, bytes, keys: doomed.map((f) => f.storageKey) };
      });
      if (!done) continue;
      // The blobs go after the commit (a rolled-back delete keeps its bytes).
      await ctx.files.release(ctx.db, done.keys);
      outcome.batches++;
      outcome.files += done.files;
      outcome.bytes += done.bytes;
    }
  }
}

/** The job: one clean-up pass with the configured retention. */
export function scanCleanupJob(ctx: AppContext) {
  return async (_job: JobContext) => {
    const outcome = await cleanUpScanImages(ctx, ctx.config.scanImageRetentionDays);
    return { result: { ...outcome } };
  };
}

/**
 * Queues the clean-up every hour while the server runs (off with EXAM_SWEEP_INTERVAL_MS=0, as in
 * tests, or SCAN_IMAGE_RETENTION_DAYS=0). The queue's dedupe key keeps one pass at a time over all
 * instances, and the job queue runs it on one of them, retried on failure.
 */
export function registerScanCleanup(app: FastifyInstance): void {
  const { config } = app.ctx;
  if (config.sweepIntervalMs <= 0 || config.scanImageRetentionDays <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  const tick = () =>
    enqueue(app.ctx.db, { type: SCAN_CLEANUP_JOB, dedupeKey: SCAN_CLEANUP_JOB, maxAttempts: 3 }).catch(
      (err: unknown) => app.log.warn({ err }, 'scan image clean-up not queued'),
    );
  app.addHook('onReady', async () => {
    void tick();
    timer = setInterval(() => void tick(), SCAN_CLEANUP_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
