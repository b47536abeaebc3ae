/**
 * The room's rows, live: the snapshot first (GET), then Server-Sent Events that replace one row at a
 * time. EventSource reconnects by itself; when it gives up (closed), a new one opens after a pause,
 * and every (re)connection starts with a fresh snapshot event, so nothing missed stays missing.
 */
import type { RoomRow, RoomSnapshot, RoomWorkEvent } from '@attesta/contract';
import { useEffect, useState } from 'react';
import { monitoringApi, type RoomRef } from './monitoring-api';

const RETRY_MS = 3000;

export interface RoomState {
  rows: RoomRow[];
  /** Server time minus client time (ms): clocks tick locally on the server's time. */
  offsetMs: number;
  connected: boolean;
  loaded: boolean;
}

export function useRoomStream(ref: RoomRef | null): RoomState {
  const [state, setState] = useState<RoomState>({ rows: [], offsetMs: 0, connected: false, loaded: false });

  useEffect(() => {
    if (!ref) return;
    let alive = true;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    const applySnapshot = (s: RoomSnapshot) =>
      setState((prev) => ({
        ...prev,
        rows: s.participants,
        offsetMs: Date.parse(s.serverTime) - Date.now(),
        loaded: true,
      }));
    monitoringApi
      .room(ref)
      .then((s) => alive && applySnapshot(s))
      .catch(() => undefined);

    const open = () => {
      if (!alive) return;
      source = new EventSource(monitoringApi.streamUrl(ref), { withCredentials: true });
      source.onopen = () => alive && setState((prev) => ({ ...prev, connected: true }));
      source.addEventListener('snapshot', (e) => {
        if (alive) applySnapshot(JSON.parse((e as MessageEvent<string>).data) as RoomSnapshot);
      });
      source.addEventListener('work', (e) => {
        if (!alive) return;
        const { row } = JSON.parse((e as MessageEvent<string>).data) as RoomWorkEvent;
        setState((prev) => {
          const known = prev.rows.some((r) => r.participantTestId === row.participantTestId);
          return {
            ...prev,
            rows: known
              ? prev.rows.map((r) => (r.participantTestId === row.participantTestId ? row : r))
              : [...prev.rows, row],
          };
        });
      });
      source.addEventListener('ping', (e) => {
        if (!alive) return;
        const { serverTime } = JSON.parse((e as MessageEvent<string>).data) as { serverTime: string };
        setState((prev) => ({ ...prev, connected: true, offsetMs: Date.parse(serverTime) - Date.now() }));
      });
      source.onerror = () => {
        if (!alive) return;
        setState((prev) => ({ ...prev, connected: false }));
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          retry = setTimeout(open, RETRY_MS);
        }
      };
    };
    open();
    return () => {
      alive = false;
      if (retry) clearTimeout(retry);
      source?.close();
    };
    // The room is named by its two ids; a new object for the same room must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref?.diagnosticId, ref?.classId]);

  return state;
}
