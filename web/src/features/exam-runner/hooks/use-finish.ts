/**
 * How a running work ends (docs/design.md §5): finished by the participant (the finish dialog), by
 * the deadline, or by the server (a refused save, the push, a clock sync); ended for this runner
 * by staff. Only the server's answer makes the work finished on screen.
 */
import type { RefObject } from 'react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import type { ExamApi } from '../api/exam-api';

/** How long finishing waits for the outbox at the deadline before it gives up on the rest. */
export const TIMEOUT_FLUSH_MS = 15_000;

export interface Finished {
  finishedAt: string | null;
  reason: string | null;
}

/** Why this runner can no longer work on the work: staff moved it, logged the participant out, deleted it. */
export type Ended = 'session_cleared' | 'logged_out' | 'deleted';

const withTimeout = <T>(promise: Promise<T>, ms: number, fallback: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);

interface FinishOptions {
  api: ExamApi;
  workId: number;
  /** Everything this browser holds goes to the server; true when it has all of it. */
  flush: () => Promise<boolean>;
  /** Saves what is typed (the finish dialog opens on a saved state). */
  commit: () => Promise<unknown>;
  online: boolean;
}

export function useFinish({ api, workId, flush, commit, online }: FinishOptions) {
  const [finished, setFinished] = useState<Finished | null>(null);
  const [ended, setEnded] = useState<Ended | null>(null);
  const [timeUp, setTimeUp] = useState(false);
  const finishingRef = useRef(false);

  /** The server said the work is finished (a refused save, the push, a clock sync): show it. */
  const goFinished = useCallback(
    async (fallbackReason: string | null) => {
      try {
        const state = await api.work(workId);
        setFinished({ finishedAt: state.finishedAt, reason: state.finishReason ?? fallbackReason });
      } catch {
        setFinished({ finishedAt: new Date().toISOString(), reason: fallbackReason });
      }
    },
    [api, workId],
  );

  /** Whether the server has the work finished; if so the finished screen shows (the truth). */
  const finishedOnServer = useCallback(async () => {
    try {
      const state = await api.work(workId);
      if (state.status !== 'finished' && state.status !== 'scored') return false;
      setFinished({ finishedAt: state.finishedAt, reason: state.finishReason });
      return true;
    } catch {
      return false;
    }
  }, [api, workId]);

  /**
   * Time is up: send what waits (bounded), then finish. Only the server's answer makes the work
   * finished on screen; without it (offline) the participant is told so, and the answers that
   * could not be sent stay in this browser.
   */
  const finishByTimeout = useCallback(async () => {
    if (finishingRef.current) return;
    finishingRef.current = true;
    try {
      await withTimeout(flush(), TIMEOUT_FLUSH_MS, false);
      try {
        const state = await api.finish(workId, 'timeout');
        setFinished({ finishedAt: state.finishedAt, reason: state.finishReason });
        setTimeUp(false);
      } catch {
        // Already finished by the server's sweeper (409), or offline.
        if (!(await finishedOnServer())) setTimeUp(true);
      }
    } finally {
      finishingRef.current = false;
    }
  }, [api, flush, finishedOnServer, workId]);

  // Time is up but the server was out of reach: try again as soon as the connection returns.
  useEffect(() => {
    if (timeUp && online) void finishByTimeout();
  }, [timeUp, online, finishByTimeout]);

  const dialog = useFinishDialog({ api, workId, flush, commit, finishingRef, finishedOnServer, setFinished });

  return { finished, ended, setEnded, timeUp, goFinished, finishByTimeout, dialog };
}

interface FinishDialogOptions extends Omit<FinishOptions, 'online'> {
  /** Set while a finish is under way: the deadline's finish does not start a second one. */
  finishingRef: RefObject<boolean>;
  finishedOnServer: () => Promise<boolean>;
  setFinished: (finished: Finished) => void;
}

/** The finish dialog: opened on a saved state, confirmed only once the server has everything. */
function useFinishDialog({
  api,
  workId,
  flush,
  commit,
  finishingRef,
  finishedOnServer,
  setFinished,
}: FinishDialogOptions) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const open = () => {
    void commit();
    setProblem(null);
    setOpened(true);
  };
  const close = () => setOpened(false);

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    finishingRef.current = true;
    try {
      const allSent = await flush();
      if (!allSent) {
        setProblem(t('runner.finish.notSent'));
        return;
      }
      const state = await api.finish(workId, 'manual');
      setOpened(false);
      setFinished({ finishedAt: state.finishedAt, reason: state.finishReason });
    } catch (error) {
      // Refused or unreachable: the work is not finished unless the server says it is; the
      // answers stay in the outbox either way.
      if (error instanceof ApiError && error.isNetworkError) setProblem(t('runner.finish.offline'));
      else if (error instanceof ApiError && error.status === 409 && (await finishedOnServer()))
        setOpened(false);
      else setProblem(t('runner.finish.failed', { message: describeApiError(error, t) }));
    } finally {
      finishingRef.current = false;
      setBusy(false);
    }
  };

  return { opened, busy, problem, open, close, confirm };
}
