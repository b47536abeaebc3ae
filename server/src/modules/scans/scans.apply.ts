import type { AppContext } from '../../context.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { enqueueMany } from '../../jobs/queue.js';
import { jobAuthOf } from '../../auth/job-auth.js';
import { PermanentJobError, type JobContext } from '../../jobs/runner.js';
import * as review from './scans.review.repo.js';
import { applyWork, formLoader } from './scans.save.js';

/*
 * Pages of a work still written online wait (scans.save.ts applyWork): a keyed form is taken only
 * once the work has ended. When it ends — finished by the participant, by staff, by the deadline
 * sweeper — its waiting pages are applied by a job, as their uploader would have keyed them.
 */

export const SCAN_APPLY_JOB = 'scan-apply';

/**
 * worksFinished (in the finishing transaction): a job per finished work that has scanned pages
 * waiting. One indexed look-up; the pages themselves are applied after the commit, by the job.
 */
export async function onWorksFinished({ db, examWorkIds }: DomainEvents['worksFinished']): Promise<void> {
  const waiting = await review.worksWithWaitingPages(db, examWorkIds);
  await enqueueMany(
    db,
    waiting.map((examWorkId) => ({
      type: SCAN_APPLY_JOB,
      payload: { examWorkId },
      dedupeKey: `${SCAN_APPLY_JOB}:${examWorkId}`,
    })),
  );
}

/**
 * The job: the waiting pages of a work applied as their uploader (of the oldest page) keys a form
 * now — their reach now, the keyed path's checks. An uploader blocked or out of reach applies
 * nothing: the pages keep waiting (a later page read, or a person, settles them).
 */
export function scanApplyJob(ctx: AppContext) {
  return async (job: JobContext) => {
    const examWorkId = job.item.payload?.examWorkId;
    if (typeof examWorkId !== 'number') throw new PermanentJobError('A scan-apply job names an examWorkId');
    const userId = await review.waitingUploaderOf(ctx.db, examWorkId);
    if (userId === null) return { result: { applied: false } };
    const auth = await jobAuthOf(ctx.db, userId, `queue-item:${job.item.id}`);
    const form = auth && (await formLoader(ctx, auth)(examWorkId));
    if (!auth || !form) return { result: { applied: false } };
    await applyWork(ctx, { auth, ip: null, deviceId: null }, form);
    return { result: { applied: true } };
  };
}
