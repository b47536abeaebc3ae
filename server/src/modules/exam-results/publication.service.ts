import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, Tx } from '../../db/client.js';
import { diagnostics, examWorks, participantTests } from '../../db/schema/index.js';
import { publish as publishEvent } from '../../events/domain-events.js';
import { enqueue } from '../../jobs/queue.js';
import { audit } from '../../lib/audit.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { coordinatorReaches, liveDiagnostic, type DiagnosticRow } from '../create-diagnostic/index.js';
import { presentQueueItem } from '../participant-test/index.js';
import { findPt, staffReaches } from './results.access.js';
import { assertPublishable, publicationState, toEnableChangePublish } from './publication-state.js';
import { RESULT_JOB } from './results.service.js';

/*
 * Publication of a diagnostic's results (docs/design.md §3). Who may publish: an admin any diagnostic; a
 * coordinator only a diagnostic they created themselves — publishing opens the results of every
 * school of the diagnostic, so including one's school is not enough (such a coordinator reads the
 * state, for their school, and is told the admin publishes). The ugnik does not publish.
 *
 * Publication ends the sitting (publication-state.ts): refused while works are not finished or the
 * window is open (an admin may override the window, audited); the registrations not started are
 * marked absent, and from the first publication on no work of the diagnostic starts (exam-test).
 */

interface PublicationAccess {
  d: DiagnosticRow;
  mayPublish: boolean;
  mayOverride: boolean;
  scope: 'diagnostic' | 'school';
}

/** The caller's part in a diagnostic's publication (404 when there is no live one, 403 outside). */
async function publicationAccess(
  db: Db,
  auth: AuthContext,
  diagnosticId: number,
): Promise<PublicationAccess> {
  const d = await liveDiagnostic(db, { id: diagnosticId });
  if (hasRole(auth, 'admin')) return { d, mayPublish: true, mayOverride: true, scope: 'diagnostic' };
  if (hasRole(auth, 'coordinator') && d.createdBy === auth.userId)
    return { d, mayPublish: true, mayOverride: false, scope: 'diagnostic' };
  if (await coordinatorReaches(db, auth, d))
    return { d, mayPublish: false, mayOverride: false, scope: 'school' };
  throw forbidden('Only the admin or the coordinator who created the diagnostic publishes its results');
}

export async function enableChangePublish(db: Db, auth: AuthContext, diagnosticId: number) {
  const who = await publicationAccess(db, auth, diagnosticId);
  const state = await publicationState(db, who.d, new Date(), who.scope === 'school' ? auth.schoolId : null);
  return toEnableChangePublish(state, who.d, who);
}

export async function changePublish(
  db: Db,
  actor: { auth: AuthContext; ip: string | null },
  diagnosticId: number,
  publish: boolean,
  override = false,
) {
  const who = await publicationAccess(db, actor.auth, diagnosticId);
  if (!who.mayPublish)
    throw forbidden('Only the admin or the coordinator who created the diagnostic publishes its results');
  if (override && !who.mayOverride)
    throw forbidden('Only an admin may publish results before the diagnostic window ends');
  return db.transaction(async (tx) => {
    // Serialises publishing with itself and with starts (they lock the row for key share and read
    // firstPublishedAt); scoring reads the flag under the work lock.
    const [d] = await tx.select().from(diagnostics).where(eq(diagnostics.id, diagnosticId)).for('update');
    const changed = d!.resultsPublished !== publish;
    const now = new Date();
    const publishedAt = publish ? (changed ? now : d!.publishedAt) : null;
    if (changed) {
      const state = publish ? await publicationState(tx, d!, now) : null;
      if (state) assertPublishable(state, override);
      await tx
        .update(diagnostics)
        .set({
          resultsPublished: publish,
          publishedAt,
          ...(publish && !d!.firstPublishedAt ? { firstPublishedAt: now } : {}),
        })
        .where(eq(diagnostics.id, diagnosticId));
      await tx
        .update(participantTests)
        .set({ status: publish ? 'published' : 'scored', updatedAt: now })
        .where(
          and(
            eq(participantTests.diagnosticId, diagnosticId),
            eq(participantTests.status, publish ? 'scored' : 'published'),
          ),
        );
      // Whoever has not started by now never will: the keys are out.
      const markedAbsent = publish ? await markNotStartedAbsent(tx, diagnosticId, now) : 0;
      if (publish)
        await publishEvent('resultsPublished', { tx, diagnosticId, publishedBy: actor.auth.userId });
      await audit(tx, {
        userId: actor.auth.userId,
        action: publish ? 'results.publish' : 'results.unpublish',
        entity: 'diagnostic',
        entityId: diagnosticId,
        ip: actor.ip,
        ...(state
          ? {
              details: {
                // An override is recorded only where it lifted something: the open window.
                override: state.window.open,
                windowEndsAt: state.window.endsAt.toISOString(),
                ...state.participants,
                markedAbsent,
              },
            }
          : {}),
      });
    }
    return { diagnosticId, resultsPublished: publish, publishedAt: publishedAt?.toISOString() ?? null };
  });
}

/** Registrations of the diagnostic with no work that are still planned or active become absent. */
async function markNotStartedAbsent(tx: Tx, diagnosticId: number, now: Date): Promise<number> {
  const marked = await tx
    .update(participantTests)
    .set({ status: 'absent', updatedAt: now })
    .where(
      and(
        eq(participantTests.diagnosticId, diagnosticId),
        isNull(participantTests.deletedAt),
        inArray(participantTests.status, ['planned', 'active']),
        sql`not exists (select 1 from ${examWorks} w where w.participant_test_id = ${participantTests.id}
          and w.deleted_at is null)`,
      ),
    )
    .returning({ id: participantTests.id });
  return marked.length;
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
