/**
 * What staff (or the server) do to the participant's work, pushed as it happens by
 * GET /api/monitoring/participant/stream: pause, resume, time change, finish, delete, restore, a
 * session moved to another device or logged out. EventSource reconnects by itself; `live` says
 * whether the stream is up, and while it is not the runner polls instead.
 */
import { useEffect, useRef, useState } from 'react';

export const WORK_EVENTS_URL = '/api/monitoring/participant/stream';
const RETRY_MS = 5000;

export type WorkEventKind =
  | 'paused'
  | 'resumed'
  | 'time_changed'
  | 'finished'
  | 'deleted'
  | 'restored'
  | 'session_cleared'
  | 'logged_out';

export function useWorkEvents(enabled: boolean, onEvent: (kind: WorkEventKind) => void): { live: boolean } {
  const [live, setLive] = useState(false);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let alive = true;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    const open = () => {
      if (!alive) return;
      source = new EventSource(WORK_EVENTS_URL, { withCredentials: true });
      source.addEventListener('hello', () => alive && setLive(true));
      source.addEventListener('work', (e) => {
        if (!alive) return;
        const { kind } = JSON.parse((e as MessageEvent<string>).data) as { kind: WorkEventKind };
        handler.current(kind);
      });
      source.onerror = () => {
        if (!alive) return;
        setLive(false);
        // Closed for good (the server ended it, or refused it): try again later, never in a loop.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          retry = setTimeout(open, RETRY_MS);
        }
      };
    };
    open();
    return () => {
      alive = false;
      setLive(false);
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [enabled]);

  return { live };
}
