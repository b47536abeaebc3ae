/* Server-Sent Events responses of the monitoring streams (rooms and runners). */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from '../../auth/access.js';
import { metrics, type SseStream } from '../../lib/metrics.js';

function writeEvent(res: ServerResponse, event: string, data: unknown) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Who ended a stream: the client went away (closed, lost the connection), or the server ended it. */
export type SseEndedBy = 'client' | 'server';

export interface Sse {
  readonly ended: boolean;
  write(event: string, data: unknown): void;
  onEnd(fn: (by: SseEndedBy) => void): void;
  end(): void;
}

/**
 * Starts a Server-Sent Events response: never cached, a ping every `pingMs` that also ends the
 * stream once its session has ended, and an end on disconnect or server close. Counted open, by
 * `stream`, in `attesta_sse_connections` while it lasts.
 */
export function startSse(
  req: FastifyRequest,
  reply: FastifyReply,
  streams: Set<() => void>,
  pingMs: number,
  stream: SseStream,
): Sse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 3000\n\n');
  const closed = metrics.streamOpened(stream);
  const enders: ((by: SseEndedBy) => void)[] = [];
  let ended = false;
  const auth = authOf(req);
  const token = req.sessionToken;
  const ctx = req.server.ctx;
  const ping = setInterval(() => {
    sse.write('ping', { serverTime: new Date().toISOString() });
    // A stream lives no longer than its session.
    if (token && auth.via !== 'api_key')
      void ctx.sessions
        .resolve(token, auth.via, true)
        .then((alive) => {
          if (!alive) sse.end();
        })
        .catch(() => undefined);
  }, pingMs);
  ping.unref();
  const sse: Sse = {
    get ended() {
      return ended;
    },
    write(event, data) {
      if (!ended) writeEvent(res, event, data);
    },
    onEnd(fn) {
      enders.push(fn);
    },
    end() {
      finish('server');
    },
  };
  function finish(by: SseEndedBy) {
    if (ended) return;
    ended = true;
    streams.delete(sse.end);
    clearInterval(ping);
    closed();
    for (const fn of enders) fn(by);
    if (!res.writableEnded) res.end();
  }
  const clientGone = () => finish('client');
  streams.add(sse.end);
  req.raw.on('close', clientGone);
  res.on('close', clientGone);
  res.on('error', clientGone);
  return sse;
}
