import { conflict } from './errors.js';

/**
 * Pure time math of an exam work (docs/design.md §3). The server owns the clock: every function takes
 * `now` from the caller (the server's clock), never from the client.
 *
 * deadline = min(startedAt + timeLimit + extra + closed pauses, windowEndsAt); while a pause is in
 * force the clock stands still, so the running pause counts as well until it ends. A participant's
 * own pause ends by itself at `pausedUntil` (its share of the pause allowance): from then on the
 * clock runs again, whether or not the row has been settled yet (settleOverduePause, the sweeper).
 */

export interface WorkClock {
  startedAt: Date;
  timeLimitSeconds: number;
  extraSeconds: number;
  pausedSeconds: number;
  pausedAt: Date | null;
  /** The end of an own pause in force (null: a staff pause, unlimited). */
  pausedUntil?: Date | null;
  windowEndsAt: Date;
}

const SECOND = 1000;

/** Whole seconds between two instants, never negative (a pause cannot shorten the time). */
export function elapsedSeconds(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / SECOND));
}

/** The stored deadline: closed pauses only (what `deadlineAt` holds and the sweeper compares). */
export function computeDeadline(w: Omit<WorkClock, 'pausedAt' | 'pausedUntil'>): Date {
  const budget = w.timeLimitSeconds + w.extraSeconds + w.pausedSeconds;
  const end = w.startedAt.getTime() + budget * SECOND;
  return new Date(Math.min(end, w.windowEndsAt.getTime()));
}

/** Extra time of an accommodations profile: limit × percent / 100, whole seconds (none without one). */
export function accommodatedExtraSeconds(
  timeLimitSeconds: number,
  percent: number | null | undefined,
): number {
  return percent && percent > 0 ? Math.round((timeLimitSeconds * percent) / 100) : 0;
}

/** 409 `work_paused` for a participant reading tasks of a paused work. */
export const tasksPaused = () =>
  conflict('work_paused', 'The work is paused: its tasks are shown again when it resumes');

/** Whether the work stands paused at `now` (an own pause past its end no longer does). */
export function isPaused(w: Pick<WorkClock, 'pausedAt' | 'pausedUntil'>, now: Date): boolean {
  return w.pausedAt !== null && !(w.pausedUntil && w.pausedUntil.getTime() <= now.getTime());
}

/** The instant the pause in force ends as of `now`: `now`, or its own end when that has passed. */
function pauseEnd(w: WorkClock, now: Date): Date {
  return w.pausedUntil && w.pausedUntil.getTime() < now.getTime() ? w.pausedUntil : now;
}

/** Seconds the pause in force has stopped the clock so far. */
export function runningPauseSeconds(w: WorkClock, now: Date): number {
  return w.pausedAt ? elapsedSeconds(w.pausedAt, pauseEnd(w, now)) : 0;
}

/** The deadline as of `now`: a pause in force pushes it on by its length so far (still capped). */
export function effectiveDeadline(w: WorkClock, now: Date): Date {
  return computeDeadline({ ...w, pausedSeconds: w.pausedSeconds + runningPauseSeconds(w, now) });
}

/** Seconds left on the server clock; 0 once the deadline has passed. */
export function secondsLeft(w: WorkClock, now: Date): number {
  return Math.max(0, Math.floor((effectiveDeadline(w, now).getTime() - now.getTime()) / SECOND));
}

export function isPastDeadline(w: WorkClock, now: Date): boolean {
  return now.getTime() >= effectiveDeadline(w, now).getTime();
}

/** A resume: the pause's length joins the closed pauses and the deadline moves on by it. */
export function resumeClock(w: WorkClock, now: Date): { pausedSeconds: number; deadlineAt: Date } {
  const pausedSeconds = w.pausedSeconds + runningPauseSeconds(w, now);
  return { pausedSeconds, deadlineAt: computeDeadline({ ...w, pausedSeconds }) };
}

/**
 * Extra time after ChangeTimeTill. A cut never takes more than the whole limit (the work would
 * otherwise end before it started); the window cap is applied by computeDeadline.
 */
export function changeTime(w: WorkClock, deltaSeconds: number): { extraSeconds: number; deadlineAt: Date } {
  const extraSeconds = Math.max(-w.timeLimitSeconds, w.extraSeconds + deltaSeconds);
  return { extraSeconds, deadlineAt: computeDeadline({ ...w, extraSeconds }) };
}

/** Seconds until the start window opens; 0 when it is open (or over). */
export function secondsUntil(startsAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((startsAt.getTime() - now.getTime()) / SECOND));
}

const MAX_SPAN_SECONDS = 7 * 24 * 3600;

/**
 * A .NET-style TimeSpan as the organizer's screen sends it: `hh:mm:ss`, optional sign and days
 * (`-00:05:00`, `1.02:00:00`). Returns signed seconds, or null when it is not a span.
 */
export function parseTimeSpan(input: string): number | null {
  const m = /^([+-])?(?:(\d{1,2})\.)?(\d{1,2}):(\d{2}):(\d{2})$/.exec(input.trim());
  if (!m) return null;
  const [, sign, days, hours, minutes, seconds] = m;
  const h = Number(hours);
  const min = Number(minutes);
  const s = Number(seconds);
  if (min > 59 || s > 59 || (days !== undefined && h > 23)) return null;
  const total = Number(days ?? 0) * 86_400 + h * 3600 + min * 60 + s;
  if (total > MAX_SPAN_SECONDS) return null;
  return sign === '-' && total > 0 ? -total : total;
}
