import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { sweepOrphanBlobs } from '../../lib/file-storage/sweep.js';
import { enqueue } from '../../jobs/queue.js';
import type { JobContext } from '../../jobs/runner.js';

/*
 * The orphan sweep as a queued job (lib/file-storage/sweep.ts says what an orphan is): every
 * FILES_ORPHAN_SWEEP_HOURS (at least daily) each instance queues it, the queue's dedupe key keeps one pass at a time
 * over all instances, and blobs older than that many hours that no files row names are deleted.
 */

export const FILES_SWEEP_JOB = 'files-sweep';

const HOUR_MS = 60 * 60_000;

/** The job: one pass over every configured blob store. */
export function filesSweepJob(ctx: Pick<AppContext, 'db' | 'files' | 'config'>) {
  return async (_job: JobContext) => {
    const hours = ctx.config.filesOrphanSweepHours;
    if (hours <= 0) return { result: { checked: 0, deleted: 0, staging: 0 } };
    const outcome = await sweepOrphanBlobs(ctx.db, ctx.files, new Date(Date.now() - hours * HOUR_MS));
    return { result: { ...outcome } };
  };
}

/**
 * Queues the sweep at start and then every FILES_ORPHAN_SWEEP_HOURS, daily at the least (off with 0, with
 * EXAM_SWEEP_INTERVAL_MS=0 as in tests, or when no blob store is configured: every file in its row).
 */
export function registerFilesSweep(app: FastifyInstance): void {
  const { config, files } = app.ctx;
  const hours = config.filesOrphanSweepHours;
  if (config.sweepIntervalMs <= 0 || hours <= 0) return;
  if (!files.blobs && !files.readers.length) return;
  let timer: NodeJS.Timeout | null = null;
  const tick = () =>
    enqueue(app.ctx.db, { type: FILES_SWEEP_JOB, dedupeKey: FILES_SWEEP_JOB, maxAttempts: 3 }).catch(
      (err: unknown) => app.log.warn({ err }, 'file orphan sweep not queued'),
    );
  app.addHook('onReady', async () => {
    void tick();
    timer = setInterval(() => void tick(), Math.min(hours, 24) * HOUR_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
