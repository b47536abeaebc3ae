import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/*
 * Every refusal reaches the client as an answer, not a reset (issue 23 item 7).
 *
 * The server often answers before it has read a request's body: a JSON or XML body over its limit
 * (413), an upload refused from its first field (a finished or paused work: 409, another device,
 * another's work: 403), a request refused by a hook before its body is parsed (no session: 401,
 * no anti-CSRF header: 403). Closing the connection then, while the client is still sending, makes
 * the client's kernel receive a reset: the client sees EPIPE/ECONNRESET instead of the answer (and
 * a reset may even discard the answer it had received but not yet read). Browsers never send
 * `Expect: 100-continue`, so they cannot learn of a refusal any other way.
 *
 * So whenever an answer is sent while the request's body is still arriving: the answer is sent
 * first, keeping the connection open (Fastify asks to close it after a body error: that is undone),
 * and the rest of the body is read and discarded — up to DRAIN_LIMIT_BYTES more. A body longer than
 * that is cut off by destroying the connection: by then the client has long had the answer, and a
 * hostile client cannot make the server read without end. Where the connection must close after
 * the answer anyway (the client asked for it, or HTTP/1.0), the body is discarded (within the same
 * bound) BEFORE the answer is sent, so the close that follows is a clean one.
 */

/** Most bytes of a refused body read and thrown away after the answer. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const draining = new WeakSet<IncomingMessage>();

/**
 * Reads and discards the rest of a request's body; destroys the connection once more than
 * `limit` bytes were discarded. Resolves when the body has ended or the connection is gone.
 */
export function discardBody(raw: IncomingMessage, limit = DRAIN_LIMIT_BYTES): Promise<void> {
  return new Promise((resolve) => {
    if (raw.complete || raw.readableEnded || raw.destroyed) return resolve();
    const done = () => {
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('close', done);
      resolve();
    };
    let discarded = 0;
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit) {
        raw.socket?.destroy();
        done();
      }
    };
    if (!draining.has(raw)) {
      draining.add(raw);
      // A parser the body was piped into (multipart) no longer reads it: the body flows here.
      raw.unpipe();
      raw.on('data', onData);
    }
    raw.on('end', done);
    raw.on('close', done);
    raw.resume();
  });
}

/** Whether the connection closes after this answer whatever the server says (HTTP/1.0, or asked). */
const clientCloses = (raw: IncomingMessage) =>
  raw.httpVersionMajor === 1 && raw.httpVersionMinor === 0
    ? !/keep-alive/i.test(String(raw.headers.connection ?? ''))
    : /\bclose\b/i.test(String(raw.headers.connection ?? ''));

/**
 * Registers the behaviour above for every route of the app (call it on the root instance). A body
 * still draining when the server shuts down has its connection closed: it holds no shutdown up.
 */
export function answerBeforeUnreadBodies(app: FastifyInstance, limit = DRAIN_LIMIT_BYTES) {
  const active = new Set<IncomingMessage>();
  const drain = (raw: IncomingMessage) => {
    active.add(raw);
    return discardBody(raw, limit).finally(() => active.delete(raw));
  };
  app.addHook('onSend', async (req, reply) => {
    const raw = req.raw;
    // Only a real connection has a body still arriving (app.inject's requests have none).
    if (!(raw.socket instanceof Socket)) return;
    if (raw.complete || raw.readableEnded || raw.destroyed) return;
    if (clientCloses(raw)) {
      await drain(raw);
      return;
    }
    // Fastify marks an answer to a body it could not read `Connection: close`: drained instead.
    reply.removeHeader('connection');
    void drain(raw);
  });
  app.addHook('preClose', async () => {
    for (const raw of active) raw.socket?.destroy();
  });
}
