/* Pauses: a participant's own (within the subject test's policy) and staff's (unlimited, audited). */
import type { PauseAllowance } from '@attesta/contract';
import { type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { conflict, forbidden } from '../../lib/errors.js';
import { isPastDeadline, isPaused, resumeClock } from '../../lib/work-clock.js';
import * as repo from './exam-work.repo.js';
import type { WorkRow } from './exam-work.repo.js';
import { toPauseState } from './presenter.js';

import {
  noExamWork,
  workFinished,
  deadlinePassed,
  boundTestId,
  assertSameDevice,
  settleOverduePause,
  liveWorkOf,
  assertAllReachable,
  type Actor,
} from './work-guards.js';

// ------------------------------------------------------------------ pause

const pauseLimit = (message: string) => conflict('pause_limit', message);

/** What is left of a work's own pause allowance under its subject test's policy. */
async function allowanceOf(db: Db | Tx, w: WorkRow, now: Date): Promise<PauseAllowance> {
  const policy = await repo.pausePolicyOf(db, w.participantTestId);
  const used = await repo.ownPauseUsage(db, w.id, now);
  if (!policy?.allowed) return { allowed: false, pausesLeft: 0, secondsLeft: 0 };
  return {
    allowed: true,
    pausesLeft: Math.max(0, policy.maxCount - used.count),
    secondsLeft: Math.max(0, policy.maxMinutes * 60 - used.seconds),
  };
}

/**
 * Rest break time left of the participant's accommodations profile (`restBreakMinutes`, the break
 * in force counted); null when the profile gives none (docs/accommodations.md).
 */
async function restBreakLeftOf(db: Db | Tx, w: WorkRow, now: Date): Promise<number | null> {
  const minutes = await repo.restBreakMinutesOf(db, w.participantTestId);
  if (minutes <= 0) return null;
  const used = await repo.ownPauseUsage(db, w.id, now, true);
  return Math.max(0, minutes * 60 - used.seconds);
}

async function pauseStateOf(db: Db | Tx, w: WorkRow, now: Date) {
  const open = isPaused(w, now) ? await repo.openPauseOf(db, w.id) : null;
  return toPauseState(
    w,
    now,
    open && { reason: open.reason, byStaff: open.byStaff, restBreak: open.restBreak },
    await allowanceOf(db, w, now),
    await restBreakLeftOf(db, w, now),
  );
}

export async function ownPauseState(ctx: AppContext, auth: AuthContext) {
  const w = await liveWorkOf(ctx.db, auth);
  return pauseStateOf(ctx.db, w, new Date());
}

/**
 * Pauses or resumes the session's own work. A participant's pause follows the subject test's
 * policy (allowed at all, at most N pauses and M minutes in all: 409 `pause_limit` beyond it, and
 * the clock runs on) and ends by itself when the allowance runs out. A pause made by staff is
 * lifted by staff only.
 */
export async function pauseOwn(ctx: AppContext, actor: Actor, pause: boolean, reason: string | null) {
  const ptId = boundTestId(actor.auth);
  const result = await ctx.db.transaction(async (tx) => {
    const live = await repo.findLiveWork(tx, ptId);
    if (!live) throw noExamWork();
    const now = new Date();
    const w = await settleOverduePause(tx, (await repo.lockWorkForUpdate(tx, live.id))!, now);
    if (w.finishedAt) throw workFinished();
    assertSameDevice(w, actor.deviceId);
    const open = w.pausedAt ? await repo.openPauseOf(tx, w.id) : null;
    if (!pause && open && open.byStaff)
      throw forbidden('The organizer paused this work; only the organizer can resume it', 'paused_by_staff');
    if (!pause && open?.restBreak) throw onBreak();
    let until: Date | null = null;
    if (pause && !w.pausedAt) {
      const allowance = await allowanceOf(tx, w, now);
      if (!allowance.allowed) throw pauseLimit('Pausing is not allowed in this test');
      if (allowance.pausesLeft <= 0) throw pauseLimit('All the pauses this test allows have been used');
      if (allowance.secondsLeft <= 0) throw pauseLimit('All the pause time this test allows has been used');
      until = new Date(now.getTime() + allowance.secondsLeft * 1000);
    }
    const after = await applyPause(tx, actor, w, pause, reason, false, until, now);
    return { works: [await pauseStateOf(tx, after, new Date())] };
  });
  for (const w of result.works) publishWorkEvent(ctx, ptId, w.examWorkId, w.paused ? 'paused' : 'resumed');
  return result;
}

const onBreak = () =>
  conflict('work_paused', 'A rest break is in force: it ends with POST /api/exam/test/examwork/break/end');

/**
 * Starts (`start`) or ends a rest break of the session's own work (docs/accommodations.md): a pause
 * of the participant's own that takes its time from the accommodations profile's `restBreakMinutes`
 * instead of the test's pause allowance. The clock stands still while it lasts; it ends by itself
 * when the minutes run out (`pausedUntil`, settled like an own pause, and by the sweeper). 409
 * `pause_limit` without rest break minutes or with none left; 409 `work_paused` to start one while
 * another pause is in force or to end a pause that is not a rest break. Ending one that already
 * ended answers the state as it is.
 */
export async function restBreak(ctx: AppContext, actor: Actor, start: boolean) {
  const ptId = boundTestId(actor.auth);
  const { state, changed } = await ctx.db.transaction(async (tx) => {
    const live = await repo.findLiveWork(tx, ptId);
    if (!live) throw noExamWork();
    const now = new Date();
    const w = await settleOverduePause(tx, (await repo.lockWorkForUpdate(tx, live.id))!, now);
    if (w.finishedAt) throw workFinished();
    assertSameDevice(w, actor.deviceId);
    const open = w.pausedAt ? await repo.openPauseOf(tx, w.id) : null;
    let after = w;
    if (start && !open?.restBreak) {
      if (open) throw conflict('work_paused', 'The work is paused already');
      const left = await restBreakLeftOf(tx, w, now);
      if (left === null) throw pauseLimit('The accommodations profile gives no rest breaks');
      if (left <= 0) throw pauseLimit('All the rest break time has been used');
      const until = new Date(now.getTime() + left * 1000);
      after = await applyPause(tx, actor, w, true, null, false, until, now, true);
    } else if (!start && open) {
      if (!open.restBreak) throw conflict('work_paused', 'The pause in force is not a rest break');
      after = await applyPause(tx, actor, w, false, null, false, null, now, true);
    }
    return { state: await pauseStateOf(tx, after, new Date()), changed: after !== w };
  });
  if (changed) publishWorkEvent(ctx, ptId, state.examWorkId, start ? 'paused' : 'resumed');
  return state;
}

/** An organizer pauses or resumes works of their rooms; one out of scope and nothing changes. */
export async function pauseByStaff(
  ctx: AppContext,
  actor: Actor,
  ids: number[],
  pause: boolean,
  reason: string | null,
) {
  const touched: { ptId: number; id: number }[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const rows = await repo.lockWorksForUpdate(tx, [...new Set(ids)]);
    await assertAllReachable(tx, actor.auth, ids, rows);
    const works = [];
    for (const { work } of rows) {
      const now = new Date();
      const current = await settleOverduePause(tx, work, now);
      const after = current.finishedAt
        ? current
        : await applyPause(tx, actor, current, pause, reason, true, null, now);
      const open = after.pausedAt ? await repo.openPauseOf(tx, after.id) : null;
      works.push(toPauseState(after, now, open && { reason: open.reason, byStaff: open.byStaff }));
      if (after !== current) touched.push({ ptId: work.participantTestId, id: work.id });
    }
    return { works };
  });
  for (const t of touched) publishWorkEvent(ctx, t.ptId, t.id, pause ? 'paused' : 'resumed', { reason });
  return result;
}

/** What the audit keeps of a pause or resume; a rest break is a pause in the work's log, marked as one. */
function pauseDetails(pause: boolean, until: Date | null, after: WorkRow, restBreak: boolean) {
  const details: Record<string, unknown> = pause
    ? until
      ? { until: until.toISOString() }
      : {}
    : { pausedSeconds: after.pausedSeconds, deadlineAt: after.deadlineAt.toISOString() };
  if (restBreak) details.restBreak = true;
  return Object.keys(details).length ? details : undefined;
}

/**
 * One pause or resume of a locked, unfinished work (an overdue own pause already settled);
 * already in the asked state → unchanged, except that staff freezing a work in the participant's
 * own pause turn it into a staff pause: it no longer ends by itself, and only staff lift it.
 */
async function applyPause(
  tx: Tx,
  actor: Actor,
  w: WorkRow,
  pause: boolean,
  reason: string | null,
  byStaff: boolean,
  until: Date | null,
  now: Date,
  restBreak = false,
): Promise<WorkRow> {
  const paused = w.pausedAt !== null;
  if (pause && paused && byStaff && w.pausedUntil) {
    await repo.closePauses(tx, w.id, now, actor.auth.userId);
    await repo.insertPause(tx, {
      examWorkId: w.id,
      startedAt: now,
      pausedBy: actor.auth.userId,
      byStaff,
      reason,
    });
    const after = await repo.updateWork(tx, w.id, { pausedUntil: null });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'exam_work.pause',
      entity: 'exam_work',
      entityId: w.id,
      reason,
      details: { over: 'own_pause' },
      ip: actor.ip,
    });
    return after;
  }
  if (pause === paused) return w;
  if (pause && isPastDeadline(w, now)) throw deadlinePassed();
  const after = pause
    ? await repo.updateWork(tx, w.id, { status: 'paused', pausedAt: now, pausedUntil: until })
    : await repo.updateWork(tx, w.id, {
        status: 'in_progress',
        pausedAt: null,
        pausedUntil: null,
        ...resumeClock(w, now),
      });
  if (pause)
    await repo.insertPause(tx, {
      examWorkId: w.id,
      startedAt: now,
      pausedBy: actor.auth.userId,
      byStaff,
      reason,
      restBreak,
    });
  else await repo.closePauses(tx, w.id, now, actor.auth.userId);
  await audit(tx, {
    userId: actor.auth.userId,
    action: pause ? 'exam_work.pause' : 'exam_work.resume',
    entity: 'exam_work',
    entityId: w.id,
    reason,
    details: pauseDetails(pause, until, after, restBreak),
    ip: actor.ip,
  });
  return after;
}
