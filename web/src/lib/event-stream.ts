/**
 * A Server-Sent Events stream that stays open: EventSource reconnects by itself after a dropped
 * connection; when it gives up (the server ended or refused the stream) a new one opens after
 * `retryMs`, never in a loop. Listeners get each event's JSON data; `onUp`/`onDown` say whether the
 * stream is connected. Returns the function that closes it for good.
 *
 * Subscribers of the same URL share one connection (the runner's clock, its pause screen and its
 * staff messages listen to one participant stream, not three). A subscriber that joins an open
 * stream is told it is up and handed its greeting (`hello`) again, as if it had opened it.
 */
export interface EventStreamOptions {
  /** Event name → handler of its parsed JSON data. */
  on: Record<string, (data: unknown) => void>;
  onUp?: () => void;
  onDown?: () => void;
  retryMs: number;
}

/** Events a late subscriber of an open stream is handed again (the stream's greeting). */
const REPLAYED = ['hello'];

interface Shared {
  source: EventSource | null;
  retry: ReturnType<typeof setTimeout> | null;
  subscribers: Set<EventStreamOptions>;
  /** Names already listened to on the current source. */
  names: Set<string>;
  up: boolean;
  greeting: Map<string, unknown>;
  retryMs: number;
}

const streams = new Map<string, Shared>();

function listen(shared: Shared, name: string) {
  if (!shared.source || shared.names.has(name)) return;
  shared.names.add(name);
  shared.source.addEventListener(name, (e) => {
    const data: unknown = JSON.parse((e as MessageEvent<string>).data);
    if (REPLAYED.includes(name)) shared.greeting.set(name, data);
    for (const sub of [...shared.subscribers]) sub.on[name]?.(data);
  });
}

function open(url: string, shared: Shared) {
  if (shared.subscribers.size === 0) return;
  const source = new EventSource(url, { withCredentials: true });
  shared.source = source;
  shared.names = new Set();
  shared.greeting = new Map();
  source.onopen = () => {
    shared.up = true;
    for (const sub of [...shared.subscribers]) sub.onUp?.();
  };
  for (const sub of shared.subscribers) for (const name of Object.keys(sub.on)) listen(shared, name);
  source.onerror = () => {
    if (shared.source !== source) return;
    shared.up = false;
    shared.greeting = new Map();
    for (const sub of [...shared.subscribers]) sub.onDown?.();
    if (source.readyState === EventSource.CLOSED) {
      source.close();
      shared.source = null;
      shared.retry = setTimeout(() => {
        shared.retry = null;
        open(url, shared);
      }, shared.retryMs);
    }
  };
}

export function openEventStream(url: string, options: EventStreamOptions): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  // Each call is its own subscriber, even when the same options object is passed twice.
  const sub: EventStreamOptions = { ...options };
  let shared = streams.get(url);
  if (!shared) {
    shared = {
      source: null,
      retry: null,
      subscribers: new Set([sub]),
      names: new Set(),
      up: false,
      greeting: new Map(),
      retryMs: options.retryMs,
    };
    streams.set(url, shared);
    open(url, shared);
  } else {
    const joined = shared;
    joined.subscribers.add(sub);
    for (const name of Object.keys(sub.on)) listen(joined, name);
    if (joined.up || joined.greeting.size > 0) {
      // Told after the caller's own setup has run, as an event of a fresh stream would be.
      queueMicrotask(() => {
        if (!joined.subscribers.has(sub)) return;
        if (joined.up) sub.onUp?.();
        for (const [name, data] of joined.greeting) sub.on[name]?.(data);
      });
    }
  }
  const mine = shared;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    mine.subscribers.delete(sub);
    if (mine.subscribers.size > 0) return;
    if (mine.retry) clearTimeout(mine.retry);
    mine.source?.close();
    if (streams.get(url) === mine) streams.delete(url);
  };
}
