import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTestApp, type Session, type TestApp } from '../../../test/helpers.js';
import { files } from '../../db/schema/index.js';
import { createRoom, startWork, T, type Room } from './test-support.js';
import { orderedMultipart, PNG, type FilePart } from './multipart-support.js';

// Uploads cannot exhaust the server: the caller, the work, the task and the limits are checked
// from the `answers` field before a file byte is read, files stream to disk within their limit,
// a participant has a storage quota, and stored names carry the extension of the real type.

let t: TestApp;
let port: number;
beforeAll(async () => {
  // A 1 MB quota makes the quota reachable with files the tasks accept (1 MB each at most).
  t = await createTestApp({ UPLOAD_QUOTA_MB: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

const BOUNDARY = 'zzhostileboundary';
const MB = 1024 * 1024;

/**
 * Sends a multipart request whose `answers` names `examWorkId`, followed by one file of `fileBytes`
 * produced lazily, over a real connection. Answers with the status and how many bytes of the body
 * had been handed to the socket when the answer arrived.
 */
function hostileUpload(session: Session, examWorkId: number, variantTaskId: number, fileBytes: number) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="answers"\r\n\r\n` +
      JSON.stringify({ examWorkId, answers: [{ variantTaskId, value: { fileIds: [] }, seq: 1 }] }) +
      `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file:${variantTaskId}"; filename="big.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  let produced = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const body = Readable.from(
    (function* () {
      yield head;
      produced += head.length;
      yield PNG;
      while (produced < fileBytes) {
        produced += chunk.length;
        yield chunk;
      }
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    })(),
  );
  return new Promise<{ status: number; code: string; sentWhenAnswered: number }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/exam/test/saveanswers_with_files',
        headers: {
          ...session.headers,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        const sentWhenAnswered = produced;
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          body.destroy();
          resolve({ status: res.statusCode!, code: JSON.parse(text).code, sentWhenAnswered });
        });
      },
    );
    // The rest of a refused body is drained up to a bound (lib/unread-body.ts), then cut off.
    req.on('error', (err) => (produced < fileBytes ? undefined : reject(err)));
    body.pipe(req);
  });
}

const answerFileCount = async () => countRows(t.database, 'files', `owner_type = 'answer'`);

function send(room: Room, parts: Parameters<typeof orderedMultipart>[0]) {
  const body = orderedMultipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/exam/test/saveanswers_with_files',
    headers: { ...room.session.headers, ...body.headers },
    payload: body.payload,
  });
}
const answers = (room: Room, workId: number, value: unknown = { fileIds: [] }, seq = 1) => ({
  field: 'answers',
  value: JSON.stringify({
    examWorkId: workId,
    answers: [{ variantTaskId: room.variantTaskIds[T.file], value, seq }],
  }),
});
const filePart = (room: Room, data: Buffer, filename = 'photo.png', type = 'image/png'): FilePart => ({
  field: `file:${room.variantTaskIds[T.file]}`,
  filename,
  type,
  data,
});

describe('a hostile upload is refused before its body is read', () => {
  it('to a work that does not exist: 404 after a small fraction of a 300 MB body', async () => {
    const room = await createRoom(t.app);
    await startWork(room);
    const res = await hostileUpload(room.session, 2_000_000_000, room.variantTaskIds[T.file]!, 300 * MB);
    expect(res.status).toBe(404);
    expect(res.sentWhenAnswered).toBeLessThan(16 * MB);
  });

  it('to another participant’s work: 403 without reading the body', async () => {
    const owner = await createRoom(t.app);
    const ownersWork = await startWork(owner);
    const intruder = await createRoom(t.app, owner.org, 1);
    const res = await hostileUpload(intruder.session, ownersWork, owner.variantTaskIds[T.file]!, 300 * MB);
    expect(res.status).toBe(403);
    expect(res.sentWhenAnswered).toBeLessThan(16 * MB);
  });

  it('a file over its task’s size: 413 as soon as the limit is crossed, nothing stored', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const before = await answerFileCount();
    const res = await hostileUpload(room.session, workId, room.variantTaskIds[T.file]!, 300 * MB);
    expect(res.status).toBe(413);
    expect(res.sentWhenAnswered).toBeLessThan(16 * MB);
    expect(await answerFileCount()).toBe(before);
  });
});

describe('the form', () => {
  it('a file before `answers` is refused and nothing is stored', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const before = await answerFileCount();
    const res = await send(room, [filePart(room, PNG), answers(room, workId)]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'answers' }] });
    expect(await answerFileCount()).toBe(before);
    expect(await countRows(t.database, 'answers', `exam_work_id = ${workId}`)).toBe(0);
  });

  it('`answers` with __proto__ or constructor.prototype keys is refused like a JSON body', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const vt = room.variantTaskIds[T.file];
    for (const json of [
      `{"examWorkId":${workId},"answers":[{"variantTaskId":${vt},"value":{"fileIds":[],"__proto__":{"x":1}},"seq":1}]}`,
      `{"examWorkId":${workId},"__proto__":{"polluted":true},"answers":[]}`,
      `{"examWorkId":${workId},"answers":[{"variantTaskId":${vt},"value":{"constructor":{"prototype":{"x":1}}},"seq":1}]}`,
    ]) {
      const res = await send(room, [{ field: 'answers', value: json }, filePart(room, PNG)]);
      expect(res.statusCode, json).toBe(400);
      expect(res.json().code).toBe('malformed_json');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await countRows(t.database, 'answers', `exam_work_id = ${workId}`)).toBe(0);
  });

  it('NUL or a lone surrogate in a field or a file name is 400 invalid_text', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const bad = [
      [{ field: 'answers', value: answers(room, workId).value.replace('fileIds', 'file\u0000Ids') }],
      [answers(room, workId), filePart(room, PNG, 'ph\u0000oto.png')],
      // A lone surrogate cannot travel in a header's UTF-8, only escaped in the JSON of `answers`.
      [{ field: 'answers', value: answers(room, workId).value.replace('"seq"', '"x\\ud800":1,"seq"') }],
    ];
    for (const parts of bad) {
      const res = await send(room, parts);
      expect(res.statusCode, JSON.stringify(parts.map((p) => ('filename' in p ? p.filename : p.value)))).toBe(
        400,
      );
      expect(res.json().code).toBe('invalid_text');
    }
    expect(await countRows(t.database, 'answers', `exam_work_id = ${workId}`)).toBe(0);
  });
});

describe('stored names', () => {
  const storedOf = async (id: number) =>
    (
      await t.app.ctx.db.select({ name: files.name, mime: files.mime }).from(files).where(eq(files.id, id))
    )[0]!;

  it('take the extension of the sniffed type and lose bidi controls', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const polyglot = Buffer.concat([PNG, Buffer.from('<html><script>alert(1)</script></html>')]);
    const res = await send(room, [
      answers(room, workId),
      filePart(room, PNG, 'x.exe'),
      filePart(room, polyglot, 'a\u202Egnp.html'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [exe, html] = res.json().files as { id: number; name: string }[];
    expect(await storedOf(exe!.id)).toEqual({ name: 'x.png', mime: 'image/png' });
    expect(await storedOf(html!.id)).toEqual({ name: 'agnp.png', mime: 'image/png' });
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/files/${html!.id}`,
      headers: room.session.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('image/png');
    expect(String(download.headers['content-disposition'])).toContain('filename="agnp.png"');
    expect(String(download.headers['content-disposition'])).not.toMatch(/\.html/);
  });

  it('general uploads too: a PNG named report.html is stored as report.png', async () => {
    const room = await createRoom(t.app);
    const body = orderedMultipart([
      { field: 'ownerType', value: 'general' },
      { field: 'file', filename: 'report.html', type: 'text/html', data: PNG },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/files/upload/${room.userId}`,
      headers: { ...room.session.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({ name: 'report.png', mime: 'image/png' });
  });
});

describe('the storage quota of a participant', () => {
  const nearlyMb = (fill: number) => Buffer.concat([PNG, Buffer.alloc(fill)]);

  it('answer files beyond the quota: 413 storage_quota_exceeded, nothing stored', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const first = await send(room, [answers(room, workId), filePart(room, nearlyMb(700 * 1024))]);
    expect(first.statusCode, first.body).toBe(200);
    const kept = first.json().files[0].id;
    const before = await answerFileCount();
    const second = await send(room, [
      answers(room, workId, { fileIds: [kept] }, 2),
      filePart(room, nearlyMb(400 * 1024)),
    ]);
    expect(second.statusCode).toBe(413);
    expect(second.json().code).toBe('storage_quota_exceeded');
    expect(await answerFileCount()).toBe(before);
  });

  it('general uploads count against the same quota; a form field after a file is refused', async () => {
    const room = await createRoom(t.app);
    const upload = (parts: Parameters<typeof orderedMultipart>[0]) => {
      const body = orderedMultipart(parts);
      return t.app.inject({
        method: 'POST',
        url: `/api/files/upload/${room.userId}?ownerType=general`,
        headers: { ...room.session.headers, ...body.headers },
        payload: body.payload,
      });
    };
    const png = (n: number): FilePart => ({
      field: 'file',
      filename: 'p.png',
      type: 'image/png',
      data: nearlyMb(n),
    });
    expect((await upload([png(600 * 1024)])).statusCode).toBe(200);
    const over = await upload([png(300 * 1024), png(300 * 1024)]);
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('storage_quota_exceeded');
    const late = await upload([png(10), { field: 'splitPdf', value: 'true' }]);
    expect(late.statusCode).toBe(400);
  });
});
