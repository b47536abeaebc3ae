import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import { diagnostics, examWorks, participantTests } from '../../db/schema/index.js';
import { publish as publishEvent } from '../../events/domain-events.js';
import { enqueue } from '../../jobs/queue.js';
import { audit } from '../../lib/audit.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { liveDiagnostic, type DiagnosticRow } from '../create-diagnostic/index.js';
import { presentQueueItem } from '../participant-test/index.js';
import { findPt, staffReaches } from './results.access.js';
import { gradingState } from './results.read.js';
import { RESULT_JOB } from './results.service.js';

/*
 * Publication of a diagnostic's results (docs/design.md §3). Who may publish: an admin any diagnostic; a
 * coordinator only a diagnostic they created themselves — publishing opens the results of every
 * school of the diagnostic, so including one's school is not enough. The ugnik does not publish.
 */

/** Whether the caller may publish a diagnostic (404 when there is no live one). */
async function publishable(db: Db, auth: AuthContext, diagnosticId: number): Promise<DiagnosticRow> {
  const d = await liveDiagnostic(db, { id: diagnosticId });
  if (hasRole(auth, 'admin')) return d;
  if (hasRole(auth, 'coordinator') && d.createdBy === auth.userId) return d;
  throw forbidden('Only the admin or the coordinator who created the diagnostic publishes its results');
}

export async function enableChangePublish(db: Db, auth: AuthContext, diagnosticId: number) {
  await publishable(db, auth, diagnosticId);
  return gradingState(db, diagnosticId);
}

export async function changePublish(
  db: Db,
  actor: { auth: AuthContext; ip: string | null },
  diagnosticId: number,
  publish: boolean,
) {
  await publishable(db, actor.auth, diagnosticId);
  return db.transaction(async (tx) => {
    // Serialises publishing with itself; scoring reads the flag under the work lock.
    const [d] = await tx.select().from(diagnostics).where(eq(diagnostics.id, diagnosticId)).for('update');
    if (publish) {
      const state = await gradingState(tx, diagnosticId);
      if (!state.enabled)
        throw conflict(
          'grading_incomplete',
          `Results cannot be published yet: ${state.awaitingGrading} awaiting experts, ${state.unscored} not scored`,
        );
    }
    const changed = d!.resultsPublished !== publish;
    const publishedAt = publish ? (changed ? new Date() : d!.publishedAt) : null;
    if (changed) {
      await tx
        .update(diagnostics)
        .set({ resultsPublished: publish, publishedAt })
        .where(eq(diagnostics.id, diagnosticId));
      await tx
        .update(participantTests)
        .set({ status: publish ? 'published' : 'scored', updatedAt: new Date() })
        .where(
          and(
            eq(participantTests.diagnosticId, diagnosticId),
            eq(participantTests.status, publish ? 'scored' : 'published'),
          ),
        );
      if (publish)
        await publishEvent('resultsPublished', { tx, diagnosticId, publishedBy: actor.auth.userId });
      await audit(tx, {
        userId: actor.auth.userId,
        action: publish ? 'results.publish' : 'results.unpublish',
        entity: 'diagnostic',
        entityId: diagnosticId,
        ip: actor.ip,
      });
    }
    return { diagnosticId, resultsPublished: publish, publishedAt: publishedAt?.toISOString() ?? null };
  });
}

/** POST createresultqueue: (re-)score the live finished work of a participant test as a job. */
export async function createResultQueue(
  db: Db,
  actor: { auth: AuthContext; ip: string | null },
  participantTestId: number,
) {
  const pt = await findPt(db, participantTestId);
  if (!pt) throw notFound('No such participant test');
  if (!(await staffReaches(db, actor.auth, pt)))
    throw forbidden('This participant test is outside your scope');
  const [work] = await db
    .select({ id: examWorks.id })
    .from(examWorks)
    .where(
      and(
        eq(examWorks.participantTestId, pt.id),
        isNull(examWorks.deletedAt),
        isNotNull(examWorks.finishedAt),
      ),
    )
    .limit(1);
  if (!work) throw conflict('no_finished_work', 'The participant test has no finished work to score');
  const { item } = await enqueue(db, {
    type: RESULT_JOB,
    diagnosticId: pt.diagnosticId,
    payload: { participantTestId: pt.id },
    dedupeKey: `result:pt:${pt.id}`,
    createdBy: actor.auth.userId,
  });
  await audit(db, {
    userId: actor.auth.userId,
    action: 'results.queue',
    entity: 'participant_test',
    entityId: pt.id,
    details: { queueItemId: item.id },
    ip: actor.ip,
  });
  return presentQueueItem(item, { code: pt.diagnosticCode, name: pt.diagnosticName });
}
