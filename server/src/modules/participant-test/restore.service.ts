import { eq } from 'drizzle-orm';
import type { RestoreExamWorkBody, RestoreExamWorkResult } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { examWorks } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/participant-tests.js';
import type { Actor } from './info.service.js';
import { lockLiveWork, lockParticipantTest } from './info.repo.js';

const liveWorkExists = () =>
  conflict('live_work_exists', 'The participant test already has a live exam work; delete it first');

/** The participant test an exam work belongs to (deleted or not), for the scope check. */
export async function participantTestOfWork(db: DbOrTx, examWorkId: number): Promise<number | null> {
  const [row] = await db
    .select({ participantTestId: examWorks.participantTestId })
    .from(examWorks)
    .where(eq(examWorks.id, examWorkId));
  return row?.participantTestId ?? null;
}

/**
 * Undoes the soft delete of an exam work. At most one live work per participant test
 * (exam_works_live_idx): with another live work this is 409 `live_work_exists`, also when a
 * concurrent call wins the race. The deletion being undone is kept in the audit.
 */
export async function restoreExamWork(
  ctx: AppContext,
  actor: Actor,
  body: RestoreExamWorkBody,
): Promise<RestoreExamWorkResult> {
  try {
    const restored = await ctx.db.transaction(async (tx) => {
      const [work] = await tx.select().from(examWorks).where(eq(examWorks.id, body.examWorkId)).for('update');
      if (!work) throw notFound('No such exam work');
      const pt = await lockParticipantTest(tx, work.participantTestId);
      if (!pt) throw notFound('No such participant test');
      if (work.deletedAt === null) throw conflict('not_deleted', 'This exam work is not deleted');
      // A work that could be written again must not come back once the keys are out (docs/design.md §3).
      if (!work.finishedAt && pt.firstPublishedAt)
        throw conflict(
          'results_published',
          'The results of this diagnostic have been published; an unfinished work cannot come back',
        );
      if (await lockLiveWork(tx, work.participantTestId)) throw liveWorkExists();
      await tx
        .update(examWorks)
        .set({ deletedAt: null, deletedBy: null, deletedReason: null, updatedAt: new Date() })
        .where(eq(examWorks.id, work.id));
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'exam_work.restore',
        entity: 'exam_work',
        entityId: work.id,
        reason: body.reason ?? null,
        ip: actor.ip,
        details: {
          participantTestId: work.participantTestId,
          deletedAt: work.deletedAt.toISOString(),
          deletedBy: work.deletedBy,
          deletedReason: work.deletedReason,
        },
      });
      return { examWorkId: work.id, participantTestId: work.participantTestId, status: work.status };
    });
    publishWorkEvent(ctx, restored.participantTestId, restored.examWorkId, 'restored', {
      reason: body.reason ?? null,
    });
    return restored;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isUniqueViolation(err, 'exam_works_live_idx')) throw liveWorkExists();
    throw err;
  }
}
