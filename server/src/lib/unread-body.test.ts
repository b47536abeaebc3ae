import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerBeforeUnreadBodies } from './unread-body.js';

// The bound of lib/unread-body.ts: a refused body is drained up to the limit and the connection
// then serves the next request; a body past the limit has its connection cut after the answer.

const LIMIT = 1024 * 1024;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify();
  answerBeforeUnreadBodies(app, LIMIT);
  app.addHook('onRequest', async (req, reply) => {
    if (req.url === '/refuse') await reply.code(403).send({ code: 'forbidden' });
  });
  app.post('/refuse', async () => ({ never: true }));
  app.get('/next', async (req) => ({ port: req.socket.remotePort }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => app.close());

/** Streams `bytes` to /refuse on `agent`; the answer, the client port and any network error. */
function refused(agent: Agent, bytes: number) {
  return new Promise<{ status: number; localPort: number; error: string | null; sent: boolean }>(
    (resolve) => {
      let status = 0;
      let localPort = 0;
      let sent = false;
      let error: string | null = null;
      let answered = false;
      const done = () => {
        if ((answered && sent) || error) resolve({ status, localPort, error, sent });
      };
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/refuse',
          agent,
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
        },
        (res) => {
          status = res.statusCode ?? 0;
          localPort = res.socket.localPort ?? 0;
          res.resume();
          res.on('end', () => {
            answered = true;
            done();
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        error ??= err.code ?? err.message;
        done();
      });
      req.on('close', () => {
        if (!sent) error ??= 'closed before the body was sent';
        done();
      });
      void (async () => {
        const chunk = Buffer.alloc(64 * 1024, 1);
        for (let left = bytes; left > 0; left -= chunk.length) {
          const ok = await new Promise<boolean>((r) => req.write(chunk, (err) => r(!err)));
          if (!ok) return;
        }
        req.end(() => {
          sent = true;
          done();
        });
      })();
    },
  );
}

describe('answerBeforeUnreadBodies', () => {
  it('drains a refused body within the bound; the connection then serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await refused(agent, LIMIT / 2);
    expect(first).toMatchObject({ status: 403, error: null, sent: true });
    const next = await new Promise<number>((resolve, reject) =>
      httpRequest({ host: '127.0.0.1', port, path: '/next', agent }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve((JSON.parse(text) as { port: number }).port));
      })
        .on('error', reject)
        .end(),
    );
    expect(next).toBe(first.localPort);
    agent.destroy();
  });

  it('cuts the connection of a body past the bound: a hostile client cannot make it read on', async () => {
    const agent = new Agent({ keepAlive: true });
    const res = await refused(agent, 16 * LIMIT);
    expect(res.sent).toBe(false);
    expect(res.error).not.toBeNull();
    agent.destroy();
  });
});
