/**
 * A Server-Sent Events stream that stays open: EventSource reconnects by itself after a dropped
 * connection; when it gives up (the server ended or refused the stream) a new one opens after
 * `retryMs`, never in a loop. Listeners get each event's JSON data; `onUp`/`onDown` say whether the
 * stream is connected. Returns the function that closes it for good.
 */
export interface EventStreamOptions {
  /** Event name → handler of its parsed JSON data. */
  on: Record<string, (data: unknown) => void>;
  onUp?: () => void;
  onDown?: () => void;
  retryMs: number;
}

export function openEventStream(url: string, { on, onUp, onDown, retryMs }: EventStreamOptions): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  let alive = true;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const open = () => {
    if (!alive) return;
    source = new EventSource(url, { withCredentials: true });
    source.onopen = () => alive && onUp?.();
    for (const [name, handler] of Object.entries(on))
      source.addEventListener(name, (e) => {
        if (alive) handler(JSON.parse((e as MessageEvent<string>).data));
      });
    source.onerror = () => {
      if (!alive) return;
      onDown?.();
      if (source?.readyState === EventSource.CLOSED) {
        source.close();
        retry = setTimeout(open, retryMs);
      }
    };
  };
  open();
  return () => {
    alive = false;
    if (retry) clearTimeout(retry);
    source?.close();
  };
}
