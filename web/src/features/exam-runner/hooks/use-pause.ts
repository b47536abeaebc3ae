/**
 * The pause of a running work (docs/design.md §5): who paused it and the pauses left, the own
 * pause and resume, nothing sent while paused. Staff pause and resume by push; without the push
 * the pause state is polled, and an own pause ends by itself when its allowance runs out.
 */
import type { RefObject } from 'react';
import { notifications } from '../../../components/lite/notify';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import type { ExamApi, PauseState } from '../api/exam-api';
import type { Outbox } from '../lib/outbox';

/** Without the server's push (stream down), the pause state is polled this often. */
export const PAUSE_POLL_MS = 10_000;

/** The countdown, as far as the pause needs it: its clock is re-synced when the pause ends. */
export interface Resyncable {
  resync: () => Promise<void>;
}

interface PauseOptions {
  api: ExamApi;
  outbox: Pick<Outbox, 'hold' | 'release'>;
  /** Whether the outbox holds its sends now (its snapshot). */
  held: boolean;
  commit: () => Promise<unknown>;
  /** The countdown comes after the pause (it stands still while paused): reached through a ref. */
  countdown: RefObject<Resyncable | null>;
}

export function usePause({ api, outbox, held, commit, countdown }: PauseOptions) {
  const { t } = useTranslation();
  const [pause, setPause] = useState<PauseState | null>(null);
  const [allowance, setAllowance] = useState<PauseState['allowance']>(null);
  // Rest break time of the accommodations profile left (null: the profile gives none).
  const [restBreakLeft, setRestBreakLeft] = useState<number | null>(null);
  const take = useCallback((state: PauseState) => {
    setPause(state.paused ? state : null);
    setAllowance(state.allowance);
    setRestBreakLeft(state.restBreakSecondsLeft ?? null);
  }, []);
  const [busy, setBusy] = useState(false);

  const refreshPause = useCallback(async () => {
    try {
      const state = await api.pauseState();
      take(state);
      return state;
    } catch {
      return null;
    }
  }, [api, take]);

  // While paused nothing is sent (the server would refuse it), and the tasks are hidden.
  const paused = pause !== null;
  useEffect(() => {
    if (paused) outbox.hold();
    else if (held) outbox.release();
  }, [paused, outbox, held]);

  // The pause state once at the start: who paused it (a reload during a pause) and the pauses left.
  useEffect(() => {
    let alive = true;
    api
      .pauseState()
      .then((state) => {
        if (alive) take(state);
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [api, take]);

  /**
   * The participant's own pause (`true`) or resume (`false`); what is typed is saved first. With
   * `restBreak` it is a rest break of the accommodations profile instead of a pause of the test's.
   */
  const pauseWork = async (next: boolean, restBreak = false) => {
    setBusy(true);
    try {
      if (next) await commit();
      const state = restBreak ? await api.restBreak(next) : await api.setPause(next);
      take(state);
      if (!state.paused) void countdown.current?.resync();
    } catch (error) {
      notifications.show({ color: 'red', message: describeApiError(error, t) });
      if (error instanceof ApiError && error.code === 'pause_limit') void refreshPause();
    } finally {
      setBusy(false);
    }
  };

  return { pause, paused, allowance, restBreakLeft, busy, refreshPause, pauseWork };
}

interface PauseTimerOptions {
  pause: PauseState | null;
  /** Whether the server's push is live (then staff resumes arrive by it). */
  live: boolean;
  refreshPause: () => Promise<PauseState | null>;
  countdown: Resyncable;
}

/** The fallbacks that end a pause without the push: the poll, and the own pause's end. */
export function usePauseTimers({ pause, live, refreshPause, countdown }: PauseTimerOptions) {
  const paused = pause !== null;
  // The countdown object is new on every render; its resync is stable. Depending on the object
  // would restart these timers on every render and push an own pause's end further away.
  const { resync } = countdown;
  // While paused and without the push, poll: staff resume it from their console.
  useEffect(() => {
    if (!paused || live) return;
    const id = setInterval(() => {
      void refreshPause().then((state) => {
        if (state && !state.paused) void resync();
      });
    }, PAUSE_POLL_MS);
    return () => clearInterval(id);
  }, [paused, live, refreshPause, resync]);

  // An own pause ends by itself when its allowance runs out: the clock runs again then.
  const pausedUntil = pause?.pausedUntil ?? null;
  useEffect(() => {
    if (!pausedUntil) return;
    const wait = Math.max(0, Date.parse(pausedUntil) - Date.parse(pause!.serverTime)) + 500;
    const id = setTimeout(() => {
      void refreshPause().then(() => resync());
    }, wait);
    return () => clearTimeout(id);
  }, [pausedUntil, pause, refreshPause, resync]);
}
