import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import type { AuthContext } from '../../auth/types.js';
import { bufferFile } from '../../lib/multipart.js';
import { EXE, multipartBody, PNG } from '../files/test-support.js';
import { sendFeedback } from './feedback.service.js';

let t: TestApp;
let user: { id: number; session: Session };
let admin: Session;

const sendJson = (
  id: number | string,
  payload: unknown,
  headers: Record<string, string> = user.session.headers,
) => t.app.inject({ method: 'POST', url: `/api/feedback/${id}`, headers, payload: payload as object });
const count = async (table: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  const u = await signedIn(t.app, ['participant']);
  user = { id: u.user.id, session: u.session };
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t.close());

describe('POST /api/feedback/{id}', () => {
  it('stores a JSON message about a subject', async () => {
    const res = await sendJson(42, { text: '  В задании 3 опечатка  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      fileId: null,
      createdAt: expect.stringMatching(/Z$/),
    });
    const [row] = await t.database.query<{ user_id: number; subject_id: number; text: string }>(
      'select user_id, subject_id, text from feedback where id = $1',
      [res.json().id],
    );
    expect(row).toEqual({ user_id: user.id, subject_id: 42, text: 'В задании 3 опечатка' });
  });

  it('stores a multipart message with a file owned by the feedback', async () => {
    const body = multipartBody([
      { name: 'text', value: 'Скриншот ошибки' },
      { name: 'file', filename: 'screen.png', type: 'image/png', data: PNG },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback/7',
      headers: { ...user.session.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    const { id, fileId } = res.json();
    expect(fileId).toEqual(expect.any(Number));
    const [file] = await t.database.query<{ owner_type: string; owner_id: number; mime: string }>(
      'select owner_type, owner_id, mime from files where id = $1',
      [fileId],
    );
    expect(file).toEqual({ owner_type: 'feedback', owner_id: id, mime: 'image/png' });
    // The author and admins may download it; nobody else.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: user.session.headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: admin.headers })).statusCode,
    ).toBe(200);
    const other = (await signedIn(t.app, ['coordinator'])).session;
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: other.headers })).statusCode,
    ).toBe(403);
  });

  it('bad input changes nothing: empty text 400, unknown fields 400, a disguised file 415', async () => {
    const before = [await count('feedback'), await count('files')];
    const empty = await sendJson(1, { text: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'validation_failed' });
    expect((await sendJson(1, { text: 'ok', extra: 1 })).statusCode).toBe(400);
    expect((await sendJson(1, { text: 'x'.repeat(4001) })).statusCode).toBe(400);
    expect((await sendJson('abc', { text: 'ok' })).statusCode).toBe(400);
    const body = multipartBody([
      { name: 'text', value: 'вот' },
      { name: 'file', filename: 'a.png', type: 'image/png', data: EXE },
    ]);
    const exe = await t.app.inject({
      method: 'POST',
      url: '/api/feedback/1',
      headers: { ...user.session.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(exe.statusCode).toBe(415);
    expect([await count('feedback'), await count('files')]).toEqual(before);
  });

  it('401 without a session, 403 csrf without the header', async () => {
    expect((await sendJson(1, { text: 'ok' }, {})).statusCode).toBe(401);
    const csrf = await sendJson(1, { text: 'ok' }, { cookie: user.session.cookie });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json()).toMatchObject({ code: 'csrf' });
  });

  it('at most 20 messages an hour per user (429 with Retry-After), others unaffected', async () => {
    const spammer = (await signedIn(t.app, ['guest'])).session;
    for (let i = 0; i < 20; i++)
      expect((await sendJson(1, { text: `#${i}` }, spammer.headers)).statusCode).toBe(200);
    const before = await count('feedback');
    const limited = await sendJson(1, { text: 'ещё' }, spammer.headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'too_many_requests' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await count('feedback')).toBe(before);
    expect((await sendJson(1, { text: 'ok' }, admin.headers)).statusCode).toBe(200);
  });
});

describe('feedback attachments and the storage quota', () => {
  it('concurrent messages with files store at most what fits in the sender’s quota', async () => {
    const sender = await createUser(t.app, { roles: ['participant'] });
    const auth = { userId: sender.id, roles: ['participant'] } as unknown as AuthContext;
    const size = 10_000;
    const quota = Math.floor(2.5 * size);
    // The quota of this test only: room for two and a half files.
    const ctx = { ...t.app.ctx, config: { ...t.app.ctx.config, uploadQuotaBytes: quota } };
    const file = (i: number) =>
      bufferFile(`screen-${i}.png`, Buffer.concat([PNG, Buffer.alloc(size - PNG.length, i)]));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        sendFeedback(ctx, { auth, ip: null }, 100 + i, {
          fields: { text: `Сообщение ${i}` },
          files: [file(i)],
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const o of outcomes.filter((x) => x.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({
        status: 413,
        code: 'storage_quota_exceeded',
      });
    const [used] = await t.database.query<{ n: number }>(
      "select coalesce(sum(size), 0)::int as n from files where created_by = $1 and owner_type = 'feedback'",
      [sender.id],
    );
    expect(used!.n).toBe(2 * size);
    const [messages] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from feedback where user_id = $1',
      [sender.id],
    );
    // A refused message leaves nothing behind.
    expect(messages!.n).toBe(2);
  });
});
