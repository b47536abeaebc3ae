/**
 * A work opened while paused (a reload during a pause): the server does not give its tasks out
 * (409 `work_paused`), so only the pause screen is shown until the work resumes — by the
 * participant's own button, by staff (pushed, or polled without the push) or when an own pause
 * runs out — and then the runner loads.
 */
import { notifications } from '../../../components/lite/notify';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/form-errors';
import type { ExamApi } from '../api/exam-api';
import { useWorkEvents } from '../hooks/use-work-events';
import { PAUSE_POLL_MS } from './runner';
import { PauseOverlay } from './pause-overlay';

export function PausedGate({ api, onResumed }: { api: ExamApi; onResumed: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [pushed, setPushed] = useState(0);
  const { live } = useWorkEvents(true, () => setPushed((n) => n + 1));
  const state = useQuery({
    queryKey: ['exam', 'pause-gate'],
    queryFn: () => api.pauseState(),
    refetchInterval: live ? false : PAUSE_POLL_MS,
    gcTime: 0,
  });
  const pause = state.data;
  const { refetch } = state;
  // Something happened to the work (pushed): read the pause state again.
  useEffect(() => {
    if (pushed) void refetch();
  }, [pushed, refetch]);

  useEffect(() => {
    if (pause && !pause.paused) onResumed();
  }, [pause, onResumed]);

  // An own pause runs out by itself.
  const until = pause?.pausedUntil;
  useEffect(() => {
    if (!until || !pause) return;
    const id = setTimeout(
      () => void state.refetch(),
      Math.max(0, Date.parse(until) - Date.parse(pause.serverTime)) + 500,
    );
    return () => clearTimeout(id);
  }, [until, pause, state]);

  if (!pause?.paused) return null;
  return (
    <PauseOverlay
      pause={pause}
      busy={busy}
      onResume={() => {
        setBusy(true);
        api
          .setPause(false)
          .then(() => onResumed())
          .catch((error: unknown) =>
            notifications.show({ color: 'red', message: describeApiError(error, t) }),
          )
          .finally(() => setBusy(false));
      }}
    />
  );
}
