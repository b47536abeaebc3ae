/**
 * What staff (or the server) do to the participant's work, pushed as it happens by
 * GET /api/monitoring/participant/stream: pause, resume, time change, finish, delete, restore, a
 * session moved to another device or logged out. The stream reconnects by itself; `live` says
 * whether it is up, and while it is not the runner polls instead.
 */
import { runnerWorkEventSchema, type RunnerEventKind } from '@attesta/contract';
import { useEffect, useRef, useState } from 'react';
import { callPath } from '../../../lib/call';
import { openEventStream } from '../../../lib/event-stream';

export const WORK_EVENTS_URL = callPath('GET /api/monitoring/participant/stream');
const RETRY_MS = 5000;

export type WorkEventKind = RunnerEventKind;

export function useWorkEvents(enabled: boolean, onEvent: (kind: WorkEventKind) => void): { live: boolean } {
  const [live, setLive] = useState(false);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });

  useEffect(() => {
    if (!enabled) return;
    const close = openEventStream(WORK_EVENTS_URL, {
      retryMs: RETRY_MS,
      on: {
        hello: () => setLive(true),
        work: (data) => {
          // An event this runner does not know (a newer server) is ignored, not guessed at.
          const event = runnerWorkEventSchema.safeParse(data);
          if (event.success) handler.current(event.data.kind);
        },
      },
      onDown: () => setLive(false),
    });
    return () => {
      close();
      setLive(false);
    };
  }, [enabled]);

  return { live };
}
