/** Server-Sent Events in tests: open a stream over real HTTP and wait for the events it sends. */
import type { Session } from './helpers.js';

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Opens an SSE stream with a session cookie and collects its events. */
export async function openStream(baseUrl: string, path: string, session: Session) {
  const controller = new AbortController();
  const res = await fetch(baseUrl + path, { headers: { cookie: session.cookie }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  const done = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted
    }
    waiters.splice(0).forEach((w) => w());
  })();
  return {
    res,
    events,
    /** Resolves with the first event (from index `from`) matching; rejects after `ms`. */
    async next(match: (e: SseEvent) => boolean, ms = 5000, from = 0): Promise<SseEvent> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = events.slice(from).find(match);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.event))}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    /** Whether the server ended the stream within `ms`. */
    async endedWithin(ms: number): Promise<boolean> {
      return Promise.race([
        done.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
      ]);
    },
    async close() {
      controller.abort();
      // An abort racing the end of the body can leave undici's read pending: do not wait forever.
      await Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}
