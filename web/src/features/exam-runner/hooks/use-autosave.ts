/**
 * Answers of a running work: the values shown (server answers, overlaid by what waits in the
 * outbox), a per-task debounce in front of the outbox, and the outbox's status for the status line.
 */
import type { ExamWorkState } from '@attesta/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Outbox, type OutboxEvent, type OutboxSnapshot, type OutboxTransport } from '../lib/outbox';
import type { OutboxStore } from '../lib/outbox-store';

export const SAVE_DEBOUNCE_MS = 600;

export interface AutosaveOptions {
  work: ExamWorkState;
  store: OutboxStore;
  transport: OutboxTransport;
  onEvent: (event: OutboxEvent) => void;
  /** The server's current answer of a task, after a stale save (another tab or device won). */
  refetchAnswer: (variantTaskId: number) => Promise<{ value: unknown; seq: number } | null>;
}

const EMPTY: OutboxSnapshot = {
  pending: 0,
  pendingTaskIds: [],
  sending: false,
  offline: false,
  held: false,
  stopped: null,
  lastSavedAt: null,
  storageFailed: false,
};

export function useAutosave({ work, store, transport, onEvent, refetchAnswer }: AutosaveOptions) {
  const [values, setValues] = useState<Record<number, unknown>>(() =>
    Object.fromEntries((work.answers ?? []).map((a) => [a.variantTaskId, a.value])),
  );
  const [snapshot, setSnapshot] = useState<OutboxSnapshot>(EMPTY);
  const [ready, setReady] = useState(false);
  const [debouncing, setDebouncing] = useState<number[]>([]);
  const timers = useRef(new Map<number, { timer: ReturnType<typeof setTimeout>; value: unknown }>());
  // One outbox per work (the runner is keyed by the work): store and transport are fixed for it.
  const [outbox] = useState(
    () => new Outbox({ examWorkId: work.id, store, transport, onChange: setSnapshot }),
  );

  useEffect(() => {
    let alive = true;
    const serverAnswers = (work.answers ?? []).map((a) => ({ variantTaskId: a.variantTaskId, seq: a.seq }));
    void outbox.load(serverAnswers).then((waiting) => {
      if (!alive) return;
      // What waited locally is newer than the server's copy: show it.
      if (waiting.length)
        setValues((prev) => ({
          ...prev,
          ...Object.fromEntries(waiting.map((e) => [e.variantTaskId, e.value])),
        }));
      setReady(true);
    });
    return () => {
      alive = false;
      outbox.dispose();
    };
    // Loaded once per outbox: later server states must not overwrite local edits.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [outbox]);

  const commit = useCallback(
    (variantTaskId?: number) => {
      const ids = variantTaskId === undefined ? [...timers.current.keys()] : [variantTaskId];
      const writes: Promise<unknown>[] = [];
      for (const id of ids) {
        const pending = timers.current.get(id);
        if (!pending) continue;
        clearTimeout(pending.timer);
        timers.current.delete(id);
        writes.push(outbox.enqueue(id, pending.value));
      }
      if (writes.length) setDebouncing([...timers.current.keys()]);
      return Promise.all(writes);
    },
    [outbox],
  );

  const change = useCallback(
    (variantTaskId: number, value: unknown) => {
      setValues((prev) => ({ ...prev, [variantTaskId]: value }));
      const previous = timers.current.get(variantTaskId);
      if (previous) clearTimeout(previous.timer);
      const timer = setTimeout(() => void commit(variantTaskId), SAVE_DEBOUNCE_MS);
      timers.current.set(variantTaskId, { timer, value });
      setDebouncing([...timers.current.keys()]);
    },
    [commit],
  );

  /** A value the server decided (another device saved it, or a file upload stored it). */
  const setServerValue = useCallback(
    (variantTaskId: number, value: unknown, seq: number) => {
      const pending = timers.current.get(variantTaskId);
      if (pending) clearTimeout(pending.timer);
      timers.current.delete(variantTaskId);
      setDebouncing([...timers.current.keys()]);
      outbox.raiseSeq(variantTaskId, seq);
      setValues((prev) => ({ ...prev, [variantTaskId]: value }));
    },
    [outbox],
  );

  useEffect(() => {
    outbox.listen((event) => {
      if (event.type === 'stale') {
        void refetchAnswer(event.variantTaskId)
          .then((answer) => {
            if (answer) setServerValue(event.variantTaskId, answer.value, answer.seq);
          })
          .catch(() => {});
      }
      onEvent(event);
    });
  }, [outbox, onEvent, refetchAnswer, setServerValue]);

  /** Everything typed goes to the outbox and is sent; true when the server has all of it. */
  const flush = useCallback(async () => {
    await commit();
    return outbox.flush();
  }, [commit, outbox]);

  // A closing or hidden tab writes what it has to the outbox at once.
  useEffect(() => {
    const save = () => void commit();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') save();
    };
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [commit]);

  useEffect(
    () => () => {
      for (const { timer } of timers.current.values()) clearTimeout(timer);
    },
    [],
  );

  const unsavedTaskIds = useMemo(
    () => new Set([...snapshot.pendingTaskIds, ...debouncing]),
    [snapshot.pendingTaskIds, debouncing],
  );

  return { outbox, values, ready, snapshot, unsavedTaskIds, change, commit, flush, setServerValue };
}
