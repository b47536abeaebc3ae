import { and, desc, eq, isNull } from 'drizzle-orm';
import type { ProctoringEndBody, ProctoringStartBody, ProctoringWebhookResult } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { examWorkEvents, examWorks, proctoringSessions } from '../../db/schema/index.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { verifyProctoringToken } from '../exam-test/index.js';

/*
 * The proctoring service's webhooks (docs/integrations.md, "Proctoring webhooks"), after the
 * signature check: start_session ties the service's session to the exam work named by the token
 * we issued; endsessiondata leaves the verdict on the work as an `exam_work_events` row of kind
 * `proctoring_verdict` (what the control report and the protocol read) and tells the live room.
 */

/**
 * What the room hears when a session starts (a live event only: the session is a row of
 * proctoring_sessions, not a work event, since the protocol lists every `proctoring*` work event
 * as an incident).
 */
export const SESSION_STARTED_KIND = 'proctoring_session_started';
/** The work event of a verdict: the control report, the protocol and the room view read it. */
export const VERDICT_KIND = 'proctoring_verdict';
/** How long after its expiry a proctoring token still names its work in a webhook. */
const TOKEN_LATE_MS = 24 * 3600_000;

export function proctoringConfigOf(ctx: AppContext) {
  if (!ctx.config.proctoring)
    throw new AppError(
      404,
      'not_configured',
      'Online proctoring is not set up on this server (PROCTORING_URL and PROCTORING_SECRET)',
    );
  return ctx.config.proctoring;
}

interface WorkRef {
  id: number;
  participantTestId: number;
}

/** The live work a proctoring token names: its `ewid`, or the participant test's work. 404 when none. */
async function workOfToken(ctx: AppContext, token: string): Promise<WorkRef> {
  // A verdict may arrive after the token's expiry (the service uploads its review late): the
  // webhook's signature authenticates the call, the token only names the sitting, so a token
  // expired less than a day ago still does.
  const claims = await verifyProctoringToken(proctoringConfigOf(ctx), token, {
    now: new Date(Date.now() - TOKEN_LATE_MS),
  });
  const participantTestId = Number(claims.sub);
  const [work] = await ctx.db
    .select({ id: examWorks.id, participantTestId: examWorks.participantTestId })
    .from(examWorks)
    .where(
      and(
        claims.ewid !== undefined
          ? eq(examWorks.id, Number(claims.ewid))
          : eq(examWorks.participantTestId, participantTestId),
        eq(examWorks.participantTestId, participantTestId),
        isNull(examWorks.deletedAt),
      ),
    )
    .orderBy(desc(examWorks.id))
    .limit(1);
  if (!work) throw notFound('No exam work of this proctoring token');
  return work;
}

/** Ties a session to its work (once); a session already tied to another work is 409. */
async function tieSession(tx: Tx, sessionId: string, work: WorkRef): Promise<boolean> {
  const inserted = await tx
    .insert(proctoringSessions)
    .values({ sessionId, examWorkId: work.id })
    .onConflictDoNothing()
    .returning({ sessionId: proctoringSessions.sessionId });
  if (inserted.length) return true;
  const [existing] = await tx
    .select({ examWorkId: proctoringSessions.examWorkId })
    .from(proctoringSessions)
    .where(eq(proctoringSessions.sessionId, sessionId));
  if (existing && existing.examWorkId !== work.id)
    throw conflict('conflict', 'This proctoring session belongs to another exam work');
  return false;
}

/** POST start_session: the session recorded against the token's work; a repeat changes nothing. */
export async function startSession(
  ctx: AppContext,
  body: ProctoringStartBody,
): Promise<ProctoringWebhookResult> {
  const work = await workOfToken(ctx, body.token);
  const changed = await ctx.db.transaction((tx) => tieSession(tx, body.sessionId, work));
  if (changed)
    publishWorkEvent(ctx, work.participantTestId, work.id, 'integrity', { integrity: SESSION_STARTED_KIND });
  const [session] = await ctx.db
    .select({ verdict: proctoringSessions.verdict })
    .from(proctoringSessions)
    .where(eq(proctoringSessions.sessionId, body.sessionId));
  return { examWorkId: work.id, sessionId: body.sessionId, verdict: session?.verdict ?? null, changed };
}

/**
 * POST endsessiondata: the verdict (score, comment) stored on the session and left on the work,
 * once. The same end again answers the same and changes nothing; another end of an ended session
 * is 409. A session never started needs the token to find its work.
 */
export async function endSession(ctx: AppContext, body: ProctoringEndBody): Promise<ProctoringWebhookResult> {
  const [known] = await ctx.db
    .select({ examWorkId: proctoringSessions.examWorkId })
    .from(proctoringSessions)
    .where(eq(proctoringSessions.sessionId, body.sessionId));
  let work: WorkRef | null = null;
  if (!known) {
    if (!body.token) throw notFound('Unknown proctoring session: send its token');
    work = await workOfToken(ctx, body.token);
  }
  const score = body.score ?? null;
  const comment = body.comment ?? null;
  const outcome = await ctx.db.transaction(async (tx) => {
    if (work) await tieSession(tx, body.sessionId, work);
    const [session] = await tx
      .select()
      .from(proctoringSessions)
      .where(eq(proctoringSessions.sessionId, body.sessionId))
      .for('update');
    if (!session) throw notFound('Unknown proctoring session');
    if (session.endedAt) {
      const same = session.verdict === body.verdict && session.score === score && session.comment === comment;
      if (!same) throw conflict('conflict', 'This proctoring session has ended with another verdict');
      return { examWorkId: session.examWorkId, changed: false };
    }
    await tx
      .update(proctoringSessions)
      .set({ endedAt: new Date(), verdict: body.verdict, score, comment })
      .where(eq(proctoringSessions.sessionId, body.sessionId));
    await tx.insert(examWorkEvents).values({
      examWorkId: session.examWorkId,
      kind: VERDICT_KIND,
      details: {
        source: 'proctoring',
        sessionId: body.sessionId,
        verdict: body.verdict,
        ...(score !== null ? { score } : {}),
        ...(comment !== null ? { comment } : {}),
      },
    });
    return { examWorkId: session.examWorkId, changed: true };
  });
  if (outcome.changed) {
    const [w] = await ctx.db
      .select({ participantTestId: examWorks.participantTestId })
      .from(examWorks)
      .where(eq(examWorks.id, outcome.examWorkId));
    publishWorkEvent(ctx, w?.participantTestId, outcome.examWorkId, 'integrity', {
      integrity: VERDICT_KIND,
      verdict: body.verdict,
    });
  }
  return {
    examWorkId: outcome.examWorkId,
    sessionId: body.sessionId,
    verdict: body.verdict,
    changed: outcome.changed,
  };
}
