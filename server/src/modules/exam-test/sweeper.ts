import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { metrics } from '../../lib/metrics.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { publish } from '../../events/domain-events.js';
import { finishExpired, resumeOverduePauses } from './exam-work.repo.js';

/**
 * Resumes every participant's own pause that reached its end (the pause allowance): the clock runs
 * again from that end. Runs before the finish sweep, which then catches a work already out of time.
 */
export const sweepOverduePauses = (db: Db, now: Date = new Date()) => resumeOverduePauses(db, now);

/**
 * Finishes every work whose time is up (docs/design.md §3): running works at their deadline, paused
 * works whose window closed at the window's end, with the answers saved so far. One UPDATE does
 * it, so any number of server instances may sweep at once and each work is finished exactly once.
 */
export async function sweepExpired(db: Db, now: Date = new Date()) {
  const done = await finishExpired(db, now);
  // After the commit of the finish: a lost enqueue shows as `unscored` in enableChangePublish.
  await publish('worksFinished', { db, examWorkIds: done.map((d) => d.id) });
  metrics.worksFinished('swept', done.length);
  if (done.length) {
    await audit(db, {
      userId: null,
      action: 'exam_work.timeout',
      entity: 'exam_work',
      reason: 'timeout',
      details: { examWorkIds: done.map((d) => d.id) },
    });
  }
  return done;
}

/**
 * Runs the sweep every few seconds while the server is up (config.sweepIntervalMs,
 * EXAM_SWEEP_INTERVAL_MS; 0 = off, the default in tests, which call sweepExpired themselves).
 */
export function registerSweeper(app: FastifyInstance): void {
  const intervalMs = app.ctx.config.sweepIntervalMs;
  if (intervalMs <= 0) return;

  let timer: NodeJS.Timeout | null = null;
  let running = false;
  const tick = async () => {
    // A slow sweep must not pile up behind itself.
    if (running) return;
    running = true;
    try {
      const resumed = await sweepOverduePauses(app.ctx.db);
      for (const r of resumed)
        publishWorkEvent(app.ctx, r.participantTestId, r.id, 'resumed', { reason: 'pause_allowance' });
      const done = await sweepExpired(app.ctx.db);
      if (done.length) app.log.info({ count: done.length }, 'finished expired exam works');
      for (const d of done)
        publishWorkEvent(app.ctx, d.participantTestId, d.id, 'finished', { reason: 'timeout' });
    } catch (err) {
      app.log.warn({ err }, 'exam work sweep failed');
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void tick(), intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
