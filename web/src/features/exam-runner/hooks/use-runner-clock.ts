/**
 * The runner's clock (docs/design.md §5): the countdown on the server's time, and the server's
 * push of staff actions (pause, resume, time changed, finished, session ended). Staff actions
 * arrive by push; the countdown's re-sync (more often without the push) is the fallback.
 */
import type { ExamWorkState } from '@attesta/contract';
import type { RefObject } from 'react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatDuration, type Language } from '../../../lib/format';
import { noteRunnerDeadline } from '../../../lib/runner-snapshot';
import type { ExamApi, PauseState, TimeLeft } from '../api/exam-api';
import { RESYNC_MS, useCountdown } from './use-countdown';
import type { Ended } from './use-finish';
import type { Resyncable } from './use-pause';
import { useWorkEvents, type WorkEventKind } from './use-work-events';

/** With the push live, the clock is still re-synced now and then against drift. */
export const LIVE_RESYNC_MS = 60_000;

interface RunnerClockOptions {
  api: ExamApi;
  work: Pick<ExamWorkState, 'id' | 'deadlineAt' | 'serverTime'>;
  pause: PauseState | null;
  /** Whether the push is wanted: not once the work is finished or ended here. */
  listen: boolean;
  refreshPause: () => Promise<unknown>;
  goFinished: (fallbackReason: string | null) => Promise<void>;
  finishByTimeout: () => Promise<void>;
  onEnded: (why: Ended) => void;
  /** Set to the countdown after each render (the pause, defined before it, re-syncs through it). */
  countdownRef: RefObject<Resyncable | null>;
}

/**
 * What the live region says when a warning threshold is passed: whole minutes when the time left is
 * within two seconds of them («осталось 5 минут»), otherwise minutes and seconds («1 мин 44 с»).
 */
export function timeLeftWords(t: TFunction, secondsLeft: number, lang: Language): string {
  const minutes = Math.floor(secondsLeft / 60);
  const seconds = secondsLeft % 60;
  if (seconds <= 2 && minutes > 0) return t('runner.timer.warning', { count: minutes });
  if (seconds >= 58) return t('runner.timer.warning', { count: minutes + 1 });
  return t('runner.timer.warningExact', { time: formatDuration(secondsLeft, lang) });
}

export function useRunnerClock({
  api,
  work,
  pause,
  listen,
  refreshPause,
  goFinished,
  finishByTimeout,
  onEnded,
  countdownRef,
}: RunnerClockOptions) {
  const { t, i18n } = useTranslation();
  const [announcement, setAnnouncement] = useState('');
  const paused = pause !== null;

  const onWorkEvent = useCallback(
    (kind: WorkEventKind) => {
      if (kind === 'paused' || kind === 'resumed')
        void refreshPause().then(() => countdownRef.current?.resync());
      else if (kind === 'time_changed' || kind === 'restored') void countdownRef.current?.resync();
      else if (kind === 'finished') void goFinished(null);
      else onEnded(kind);
    },
    [countdownRef, goFinished, onEnded, refreshPause],
  );
  const { live } = useWorkEvents(listen, onWorkEvent);

  const countdown = useCountdown({
    deadlineAt: work.deadlineAt,
    serverTime: work.serverTime,
    paused,
    pausedSecondsLeft: pause?.secondsLeft,
    resyncMs: live ? LIVE_RESYNC_MS : RESYNC_MS,
    fetchLeft: () => api.timeLeft(work.id),
    onSync: (left: TimeLeft) => {
      // The local copy follows the server's deadline: an offline reload never shows more time.
      void noteRunnerDeadline(left);
      if (left.status === 'finished' || left.status === 'scored') void goFinished(null);
      // Staff pause or resume it from their room view: the 10 s sync notices either way.
      else if (left.paused !== paused) void refreshPause();
    },
    onWarning: (secondsLeft) =>
      setAnnouncement(timeLeftWords(t, secondsLeft, i18n.language === 'en' ? 'en' : 'ru')),
    onExpire: () => {
      // The server's clock rules: ask it before finishing (staff may have added time).
      void api
        .timeLeft(work.id)
        .then((left) => {
          if (left.secondsLeft > 0 && left.status !== 'finished' && left.status !== 'scored') {
            void noteRunnerDeadline(left);
            countdown.rearm(left);
          } else void finishByTimeout();
        })
        .catch(() => void finishByTimeout());
    },
  });

  useEffect(() => {
    countdownRef.current = countdown;
  });

  return { countdown, live, announcement };
}
