/**
 * The countdown of a running work on the server's clock: ticks locally every second, re-syncs
 * with GET examwork/left every `resyncMs` (10 s by default: without the server's push that is how
 * staff pauses and time changes show) and when the tab regains focus or the connection returns.
 * Reports each warning threshold once and the zero once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimeLeft } from '../api/exam-api';
import { crossedWarnings, secondsLeftAt, syncClock, type ServerClock } from '../lib/countdown';

export const RESYNC_MS = 10_000;

export interface CountdownOptions {
  deadlineAt: string;
  serverTime: string;
  /** While paused the clock stands still at this many seconds. */
  paused: boolean;
  pausedSecondsLeft?: number;
  fetchLeft: () => Promise<TimeLeft>;
  /** How often to re-sync with the server (longer while the server pushes changes). */
  resyncMs?: number;
  onSync?: (left: TimeLeft) => void;
  /** A warning threshold (10, 5, 1 min) was passed: `secondsLeft` is the true time left then. */
  onWarning: (secondsLeft: number) => void;
  onExpire: () => void;
}

export function useCountdown(options: CountdownOptions) {
  const [clock, setClock] = useState<ServerClock>(() =>
    syncClock(options.deadlineAt, options.serverTime, Date.now()),
  );
  const [secondsLeft, setSecondsLeft] = useState(() => secondsLeftAt(clock, Date.now()));
  const previous = useRef(secondsLeft);
  const expired = useRef(false);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  const resync = useCallback(async () => {
    try {
      const left = await latest.current.fetchLeft();
      setClock(syncClock(left.deadlineAt, left.serverTime, Date.now()));
      latest.current.onSync?.(left);
    } catch {
      // Offline: the local clock keeps counting from the last sync; the server decides anyway.
    }
  }, []);

  useEffect(() => {
    if (options.paused) return;
    const tick = () => {
      const next = secondsLeftAt(clock, Date.now());
      // Once per tick however many thresholds were passed (a resync may jump past several), with
      // the true time left: «5 minutes» is never said with 1:44 left.
      if (crossedWarnings(previous.current, next).length) latest.current.onWarning(next);
      previous.current = next;
      setSecondsLeft(next);
      if (next === 0 && !expired.current) {
        expired.current = true;
        latest.current.onExpire();
      }
    };
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [clock, options.paused, options.pausedSecondsLeft]);

  const resyncMs = options.resyncMs ?? RESYNC_MS;
  useEffect(() => {
    const id = setInterval(() => void resync(), resyncMs);
    const onFocus = () => void resync();
    window.addEventListener('focus', onFocus);
    window.addEventListener('online', onFocus);
    return () => {
      clearInterval(id);
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('online', onFocus);
    };
  }, [resync, resyncMs]);

  /** More time was given (staff extended it): the zero may come again. */
  const rearm = useCallback((left: TimeLeft) => {
    expired.current = false;
    previous.current = left.secondsLeft;
    setClock(syncClock(left.deadlineAt, left.serverTime, Date.now()));
  }, []);

  const shown =
    options.paused && options.pausedSecondsLeft !== undefined ? options.pausedSecondsLeft : secondsLeft;
  return { secondsLeft: shown, resync, rearm };
}
