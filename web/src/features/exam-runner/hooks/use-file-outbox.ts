/**
 * Attachments chosen while the server is out of reach: they wait in the file outbox and are sent
 * when the connection returns (the `online` event, the answer outbox reaching the server again, or
 * a periodic try), one task at a time, in the order chosen. A refusal other than a lost connection
 * (a finished work, a wrong type) drops the files and is reported; nothing else drops them.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import type { FileOutboxStore } from '../lib/file-outbox';

/** How often waiting files are tried again while some wait. */
export const FILE_RETRY_MS = 15_000;

export interface WaitingFile {
  name: string;
  size: number;
}

interface Options {
  examWorkId: number;
  store: FileOutboxStore;
  /** Sends the files of one task with its answer; throws ApiError as the API client does. */
  send: (variantTaskId: number, files: File[]) => Promise<unknown>;
  /** True while the browser believes it is online. */
  online: boolean;
  /** Changes whenever the answer outbox got through to the server: a hint the network is back. */
  reachedAt: string | null;
  onRefused: (variantTaskId: number, error: unknown) => void;
}

export const isConnectionLost = (error: unknown) =>
  error instanceof ApiError && (error.isNetworkError || error.status === 0 || error.status >= 502);

export function useFileOutbox({ examWorkId, store, send, online, reachedAt, onRefused }: Options) {
  const [waiting, setWaiting] = useState<Record<number, File[]>>({});
  const waitingRef = useRef(waiting);
  const sending = useRef<Promise<boolean> | null>(null);
  const latest = useRef({ send, onRefused });
  useEffect(() => {
    latest.current = { send, onRefused };
  });

  const set = useCallback((next: Record<number, File[]>) => {
    waitingRef.current = next;
    setWaiting(next);
  }, []);

  useEffect(() => {
    let alive = true;
    void store.list(examWorkId).then((entries) => {
      if (!alive || !entries.length) return;
      set({
        ...Object.fromEntries(entries.map((e) => [e.variantTaskId, e.files])),
        ...waitingRef.current,
      });
    });
    return () => {
      alive = false;
    };
  }, [examWorkId, store, set]);

  /** Keeps files for later; they join what already waits for the task. */
  const queue = useCallback(
    async (variantTaskId: number, files: File[]) => {
      const all = [...(waitingRef.current[variantTaskId] ?? []), ...files];
      set({ ...waitingRef.current, [variantTaskId]: all });
      await store.put({ examWorkId, variantTaskId, files: all, queuedAt: Date.now() });
    },
    [examWorkId, store, set],
  );

  const drop = useCallback(
    async (variantTaskId: number) => {
      const { [variantTaskId]: _gone, ...rest } = waitingRef.current;
      set(rest);
      await store.remove(examWorkId, variantTaskId);
    },
    [examWorkId, store, set],
  );

  /** Sends what waits; true when nothing waits any more. */
  const flushFiles = useCallback((): Promise<boolean> => {
    if (sending.current) return sending.current;
    const run = async () => {
      for (const [id, files] of Object.entries(waitingRef.current)) {
        const variantTaskId = Number(id);
        try {
          await latest.current.send(variantTaskId, files);
        } catch (error) {
          if (isConnectionLost(error)) return false;
          latest.current.onRefused(variantTaskId, error);
        }
        await drop(variantTaskId);
      }
      return Object.keys(waitingRef.current).length === 0;
    };
    sending.current = run().finally(() => {
      sending.current = null;
    });
    return sending.current;
  }, [drop]);

  const count = Object.keys(waiting).length;
  useEffect(() => {
    if (!count || !online) return;
    void flushFiles();
    const id = setInterval(() => void flushFiles(), FILE_RETRY_MS);
    return () => clearInterval(id);
  }, [count, online, reachedAt, flushFiles]);

  const waitingFiles = useCallback(
    (variantTaskId: number): WaitingFile[] =>
      (waiting[variantTaskId] ?? []).map((f) => ({ name: f.name, size: f.size })),
    [waiting],
  );

  return { waitingTaskIds: Object.keys(waiting).map(Number), waitingFiles, queue, flushFiles };
}
