import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { examWorks } from '../../db/schema/index.js';
import { caller, createRoom, startWork, T, type Room } from './test-support.js';
import { PNG } from './multipart-support.js';

// Issue 23 item 7: a refusal sent while the body still arrives reaches the client as an answer
// (status and code), never as a reset. The client here is what a browser is: it sends no
// `Expect: 100-continue`, keeps its connection alive, and streams its body in chunks over a real
// socket whatever the server answers meanwhile; any EPIPE/ECONNRESET fails the test.

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

const MB = 1024 * 1024;
const BOUNDARY = 'zzrefusalboundary';

interface Outcome {
  status: number | null;
  code: string | null;
  /** The client's network error (EPIPE, ECONNRESET…), if any. */
  error: string | null;
}

/**
 * POSTs `head`, then `fillBytes` of filler, then `tail`, with a Content-Length, in 64 KB chunks,
 * pausing between them: the server's answer arrives while most of the body is still unsent.
 */
function streamed(
  path: string,
  headers: Record<string, string>,
  head: Buffer,
  fillBytes: number,
  tail = Buffer.alloc(0),
): Promise<Outcome> {
  const agent = new Agent({ keepAlive: true });
  const outcome: Outcome = { status: null, code: null, error: null };
  return new Promise<Outcome>((resolve) => {
    let answered = false;
    let sent = false;
    const settle = () => {
      if ((answered && sent) || outcome.error) {
        agent.destroy();
        resolve(outcome);
      }
    };
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: { ...headers, 'content-length': String(head.length + fillBytes + tail.length) },
      },
      (res) => {
        outcome.status = res.statusCode ?? null;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            outcome.code = (JSON.parse(text) as { code?: string }).code ?? null;
          } catch {
            outcome.code = null;
          }
          answered = true;
          settle();
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      outcome.error ??= err.code ?? err.message;
      settle();
    });
    // A connection closed under a body still being sent is a network error to the client too.
    req.on('close', () => {
      if (!sent) outcome.error ??= 'closed before the body was sent';
      settle();
    });
    void (async () => {
      const write = (chunk: Buffer) =>
        new Promise<void>((done, fail) => req.write(chunk, (err) => (err ? fail(err) : done())));
      try {
        await write(head);
        const chunk = Buffer.alloc(64 * 1024, 0x41);
        for (let left = fillBytes; left > 0; left -= chunk.length) {
          await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
          await new Promise((r) => setTimeout(r, 1));
        }
        req.end(tail, () => {
          sent = true;
          settle();
        });
      } catch {
        // the request's 'error' event reports it
      }
    })();
  });
}

/** A form whose `answers` field names the work, then the head of one file of the file task. */
function uploadHead(room: Room, workId: number) {
  const variantTaskId = room.variantTaskIds[T.file]!;
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="answers"\r\n\r\n` +
        JSON.stringify({
          examWorkId: workId,
          answers: [{ variantTaskId, value: { fileIds: [] }, seq: 1 }],
        }) +
        `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file:${variantTaskId}"; ` +
        'filename="photo.png"\r\nContent-Type: image/png\r\n\r\n',
    ),
    PNG,
  ]);
}
const uploadTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
const multipartType = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

const upload = (room: Room, workId: number, headers: Record<string, string>, bytes = 4 * MB) =>
  streamed(
    '/api/exam/test/saveanswers_with_files',
    { ...multipartType, ...headers },
    uploadHead(room, workId),
    bytes,
    uploadTail,
  );

describe('a refused upload is answered, not reset', () => {
  it('a file answer to a finished work: 409 work_finished', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    expect((await room.api.put(`examwork/finish/${workId}/manual`)).statusCode).toBe(200);
    const res = await upload(room, workId, room.session.headers);
    expect(res).toEqual({ status: 409, code: 'work_finished', error: null });
  });

  it('a file answer to a paused work: 409 work_paused', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await t.app.ctx.db.update(examWorks).set({ pausedAt: new Date() }).where(eq(examWorks.id, workId));
    const res = await upload(room, workId, room.session.headers);
    expect(res).toEqual({ status: 409, code: 'work_paused', error: null });
  });

  it('a file answer from another device: 409 device_mismatch', async () => {
    const room = await createRoom(t.app);
    const started = await caller(t.app, room.session, 'device-a').post('examwork/new', {});
    expect(started.statusCode).toBe(200);
    const workId = (started.json() as { id: number }).id;
    const res = await upload(room, workId, { ...room.session.headers, 'x-device-id': 'device-b' });
    expect(res).toEqual({ status: 409, code: 'device_mismatch', error: null });
  });

  it('no session: 401 unauthorized', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const res = await upload(room, workId, { 'x-requested-with': 'XMLHttpRequest' });
    expect(res.error).toBeNull();
    expect(res.status).toBe(401);
    expect(res.code).toEqual(expect.any(String));
  });

  it('no anti-CSRF header: 403 csrf', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const res = await upload(room, workId, { cookie: room.session.cookie });
    expect(res).toEqual({ status: 403, code: 'csrf', error: null });
  });

  it('a file over its task’s size: 413, and the connection serves the next request', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const res = await upload(room, workId, room.session.headers, 24 * MB);
    expect(res.error).toBeNull();
    expect([res.status, res.code]).toEqual([413, 'payload_too_large']);
  });
});

describe('a body over its limit is answered, not reset', () => {
  let room: Room;
  let coordinator: Session;
  beforeAll(async () => {
    room = await createRoom(t.app);
    coordinator = (await signedIn(t.app, ['admin'])).session;
  });

  const jsonHead = () => Buffer.from('{"examWorkId":1,"answers":[{"value":"');

  it('a JSON body over the body limit: 413 payload_too_large', async () => {
    const res = await streamed(
      '/api/exam/test/saveanswers',
      { ...room.session.headers, 'content-type': 'application/json' },
      jsonHead(),
      3 * MB,
      Buffer.from('"}]}'),
    );
    expect(res).toEqual({ status: 413, code: 'payload_too_large', error: null });
  });

  it('the same when the client asks to close the connection after the answer', async () => {
    const res = await streamed(
      '/api/exam/test/saveanswers',
      { ...room.session.headers, 'content-type': 'application/json', connection: 'close' },
      jsonHead(),
      3 * MB,
      Buffer.from('"}]}'),
    );
    expect(res).toEqual({ status: 413, code: 'payload_too_large', error: null });
  });

  it('an XML import over its limit: 413 payload_too_large', async () => {
    const res = await streamed(
      '/api/ParticipantTest/participantTestImportFromXml',
      { ...coordinator.headers, 'content-type': 'application/xml' },
      Buffer.from('<?xml version="1.0" encoding="UTF-8"?><participantTests><!--'),
      7 * MB,
      Buffer.from('--></participantTests>'),
    );
    expect(res).toEqual({ status: 413, code: 'payload_too_large', error: null });
  });
});
