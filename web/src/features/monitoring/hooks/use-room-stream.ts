/**
 * The room's rows, live: the snapshot first (GET), then Server-Sent Events that replace one row at a
 * time. The stream reconnects by itself (lib/event-stream), and every (re)connection starts with a
 * fresh snapshot event, so nothing missed stays missing.
 */
import type { RoomRow, RoomSnapshot, RoomWorkEvent } from '@attesta/contract';
import { useEffect, useState } from 'react';
import { openEventStream } from '../../../lib/event-stream';
import { monitoringApi, type RoomRef } from '../api/monitoring-api';

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

    const close = openEventStream(monitoringApi.streamUrl(ref), {
      retryMs: RETRY_MS,
      onUp: () => setState((prev) => ({ ...prev, connected: true })),
      onDown: () => setState((prev) => ({ ...prev, connected: false })),
      on: {
        snapshot: (data) => applySnapshot(data as RoomSnapshot),
        work: (data) => {
          const { row } = data as RoomWorkEvent;
          setState((prev) => {
            const known = prev.rows.some((r) => r.participantTestId === row.participantTestId);
            return {
              ...prev,
              rows: known
                ? prev.rows.map((r) => (r.participantTestId === row.participantTestId ? row : r))
                : [...prev.rows, row],
            };
          });
        },
        ping: (data) => {
          const { serverTime } = data as { serverTime: string };
          setState((prev) => ({ ...prev, connected: true, offsetMs: Date.parse(serverTime) - Date.now() }));
        },
      },
    });
    return () => {
      alive = false;
      close();
    };
    // The room is named by its ids; a new object for the same room must not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref?.diagnosticId, ref?.classId, ref?.buildingId]);

  return state;
}
