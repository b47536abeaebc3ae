/*
 * The measures of the control report (docs/reports.md, "control"): pure functions over a work's
 * events and answers, with their thresholds. None of them proves anything; each lists a work an
 * inspector should look at.
 */

/** A work finished (not by the clock) within this share of its time is listed. */
export const FAST_FINISH_SHARE = 0.1;
/** An offline gap this long or longer is listed. */
export const OFFLINE_GAP_SECONDS = 300;
/** Leaving the test page (blur, fullscreen exit, hidden tab) this many times or more is listed. */
export const INTEGRITY_LEAVES = 3;
/** A pair of works of one room sharing at least this many identical wrong answers… */
export const SIMILAR_MIN_SHARED_WRONG = 3;
/** …which are at least this share of the tasks both got wrong, is listed. */
export const SIMILAR_MIN_SHARE = 0.75;

export const LEAVE_KINDS = ['blur', 'fullscreen_exit', 'visibility_hidden'];

export interface WorkTiming {
  startedAt: Date;
  finishedAt: Date | null;
  finishReason: string | null;
  timeLimitSeconds: number;
  extraSeconds: number;
  pausedSeconds: number;
}

/** Working time and time allowed of a work finished early, or null when it is not listed. */
export function fastFinish(w: WorkTiming): { usedSeconds: number; limitSeconds: number } | null {
  if (!w.finishedAt || w.finishReason === 'timeout') return null;
  const limitSeconds = w.timeLimitSeconds + w.extraSeconds;
  const usedSeconds = Math.max(
    0,
    Math.round((w.finishedAt.getTime() - w.startedAt.getTime()) / 1000) - w.pausedSeconds,
  );
  return limitSeconds > 0 && usedSeconds < FAST_FINISH_SHARE * limitSeconds
    ? { usedSeconds, limitSeconds }
    : null;
}

export interface WorkEvent {
  at: Date;
  kind: string;
  details: Record<string, unknown> | null;
}

/** The client's time of an event when it sent a valid one, else the server's. */
function clientTime(e: WorkEvent): number | null {
  const raw = e.details?.clientAt;
  if (typeof raw !== 'string') return null;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? null : t;
}

/**
 * Offline gaps: from an `offline` event to the next `online` event — measured on the client's clock
 * when both carry it (the browser reports going offline only once it is back, so the server's
 * receipt times of the two are close together), else on the server's. Without an `online` event
 * the gap ends at the next sign of life after it: another event or a save (server time), else the
 * finish. A gap still open in a running work is not measured.
 */
export function offlineGaps(
  events: readonly WorkEvent[],
  saves: readonly Date[],
  finishedAt: Date | null,
): { gaps: number; longestSeconds: number; totalSeconds: number } {
  const long: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind !== 'offline') continue;
    const online = events.slice(i + 1).find((x) => x.kind === 'online');
    let seconds: number | null = null;
    if (online) {
      const a = clientTime(e);
      const b = clientTime(online);
      seconds = a !== null && b !== null ? (b - a) / 1000 : (online.at.getTime() - e.at.getTime()) / 1000;
    } else {
      const start = e.at.getTime();
      const later = [
        ...events.slice(i + 1).map((x) => x.at.getTime()),
        ...saves.map((s) => s.getTime()).filter((t) => t > start),
        ...(finishedAt ? [finishedAt.getTime()] : []),
      ];
      if (later.length) seconds = (Math.min(...later) - start) / 1000;
    }
    if (seconds !== null && seconds >= OFFLINE_GAP_SECONDS) long.push(Math.round(seconds));
  }
  return {
    gaps: long.length,
    longestSeconds: long.length ? Math.max(...long) : 0,
    totalSeconds: long.reduce((a, b) => a + b, 0),
  };
}

/** Integrity events counted by kind, and how many of them left the test page. */
export function integrityCounts(events: readonly WorkEvent[]): {
  leaves: number;
  events: Record<string, number>;
} {
  const counts: Record<string, number> = {};
  for (const e of events) if (!e.kind.startsWith('proctoring')) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return { leaves: LEAVE_KINDS.reduce((n, k) => n + (counts[k] ?? 0), 0), events: counts };
}

/** Verdicts a proctoring service left on the work (events `proctoring*` with a `verdict` detail). */
export function proctoringVerdicts(events: readonly WorkEvent[]): { verdict: string; at: Date }[] {
  return events.flatMap((e) =>
    e.kind.startsWith('proctoring') && typeof e.details?.verdict === 'string'
      ? [{ verdict: e.details.verdict, at: e.at }]
      : [],
  );
}

// ------------------------------------------------------------------ similar answers

/** One task of a work: what was answered (normalised) and whether it lost points. */
export interface TaskAnswer {
  /** Canonical text of the answer; null when nothing was answered. */
  key: string | null;
  wrong: boolean;
}

function normalise(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().toLowerCase().replaceAll('ё', 'е');
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, normalise((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/** The answer as comparable text (keys sorted, text trimmed, lower case, ё as е); null when empty. */
export function answerKey(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const n = normalise(value);
  if (n === '' || (Array.isArray(n) && !n.length) || (n && typeof n === 'object' && !Object.keys(n).length))
    return null;
  return JSON.stringify(n);
}

export interface PairSimilarity {
  sharedWrong: number;
  bothWrong: number;
  compared: number;
}

/**
 * Identical wrong answers of two works (the "identical incorrect responses" measure): over the
 * tasks both works have, those both answered and both lost points on (`bothWrong`) and among them
 * those answered the very same way (`sharedWrong`).
 */
export function similarity(
  a: ReadonlyMap<number, TaskAnswer>,
  b: ReadonlyMap<number, TaskAnswer>,
): PairSimilarity {
  let compared = 0;
  let bothWrong = 0;
  let sharedWrong = 0;
  for (const [taskId, x] of a) {
    const y = b.get(taskId);
    if (!y) continue;
    compared++;
    if (x.key === null || y.key === null || !x.wrong || !y.wrong) continue;
    bothWrong++;
    if (x.key === y.key) sharedWrong++;
  }
  return { sharedWrong, bothWrong, compared };
}

export const isSimilar = (s: PairSimilarity) =>
  s.sharedWrong >= SIMILAR_MIN_SHARED_WRONG && s.sharedWrong >= SIMILAR_MIN_SHARE * s.bothWrong;
