import { eq } from 'drizzle-orm';
import type { ClearSessionResult } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import { examWorks } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { notFound } from '../../lib/errors.js';
import type { Actor } from './info.service.js';
import { lockLiveWork, lockParticipantTest } from './info.repo.js';

/**
 * Lets a participant continue on another device: drops the device binding of the live exam work
 * and ends the participant sessions bound to the participant test (they sign in again with the
 * same code on the new device). Answers already saved stay; the clock is not touched.
 */
export async function clearSession(
  ctx: AppContext,
  actor: Actor,
  participantTestId: number,
  reason: string | undefined,
): Promise<ClearSessionResult> {
  const examWorkId = await ctx.db.transaction(async (tx) => {
    const row = await lockParticipantTest(tx, participantTestId);
    if (!row) throw notFound('No such participant test');
    const work = await lockLiveWork(tx, participantTestId);
    if (work)
      await tx
        .update(examWorks)
        .set({ deviceId: null, updatedAt: new Date() })
        .where(eq(examWorks.id, work.id));
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.clear_session',
      entity: 'participant_test',
      entityId: participantTestId,
      reason: reason ?? null,
      ip: actor.ip,
      details: { examWorkId: work?.id ?? null, deviceId: work?.deviceId ?? null },
    });
    return work?.id ?? null;
  });
  // After the commit: a session ended before the binding is dropped could sign in and bind again.
  const sessionsEnded = await ctx.sessions.revokeWhere({ participantTestId }, 'clear_session');
  publishWorkEvent(ctx, participantTestId, examWorkId, 'session_cleared', { reason: reason ?? null });
  return { participantTestId, examWorkId, sessionsEnded };
}
