/**
 * The work's flags: the server's list (ExamWorkState.flags), changed through PUT …/flag. A change
 * shows at once; one the server could not take yet (offline) waits in this browser and is sent
 * when the connection returns. A refusal other than a lost connection (a finished work) drops it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import type { ExamApi } from '../api/exam-api';
import { flagsWith, loadPendingFlags, savePendingFlags, type PendingFlags } from '../lib/flags';

export function useFlags(examWorkId: number, initial: readonly number[], api: ExamApi, online: boolean) {
  const [confirmed, setConfirmed] = useState<readonly number[]>(initial);
  const [pending, setPending] = useState<PendingFlags>(() => loadPendingFlags(examWorkId));
  const pendingRef = useRef(pending);

  const update = useCallback(
    (change: (p: PendingFlags) => PendingFlags) => {
      const next = change(pendingRef.current);
      pendingRef.current = next;
      savePendingFlags(examWorkId, next);
      setPending(next);
    },
    [examWorkId],
  );

  const send = useCallback(
    async (variantTaskId: number, flagged: boolean) => {
      try {
        const result = await api.setFlag(examWorkId, variantTaskId, flagged);
        setConfirmed(result.flags);
      } catch (error) {
        if (error instanceof ApiError && error.isNetworkError) return;
      }
      // Confirmed (or refused for good): drop it unless a newer change came meanwhile.
      update((p) => {
        if (p[variantTaskId] !== flagged) return p;
        const { [variantTaskId]: _sent, ...rest } = p;
        return rest;
      });
    },
    [api, examWorkId, update],
  );

  const flags = useMemo(() => flagsWith(confirmed, pending), [confirmed, pending]);

  const toggle = useCallback(
    (variantTaskId: number) => {
      const flagged = !flagsWith(confirmed, pendingRef.current).has(variantTaskId);
      update((p) => ({ ...p, [variantTaskId]: flagged }));
      void send(variantTaskId, flagged);
    },
    [confirmed, send, update],
  );

  // Back online (or opened with changes left over): send what waits.
  useEffect(() => {
    if (!online) return;
    for (const [id, flagged] of Object.entries(pendingRef.current)) void send(Number(id), flagged);
  }, [online, send]);

  return { flags, toggle };
}
