import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { multipartBody, PNG } from '../files/test-support.js';

let t: TestApp;
let author: { id: number; session: Session };
let other: { id: number; login: string; session: Session };
let admin: { id: number; session: Session };

const inject = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const send = (who: { session: Session }, text: string, page?: string) =>
  inject('POST', '/api/feedback/5', who.session.headers, page ? { text, page } : { text });
const notificationsOf = (userId: number) =>
  t.database.query<{ kind: string; params: { feedbackId: number }; link: string }>(
    "select kind, params, link from notifications where user_id = $1 and kind = 'feedback_answered'",
    [userId],
  );
const rowOf = async (id: number) =>
  (
    await t.database.query<{ status: string; answer: string | null; answered_by: number | null }>(
      'select status, answer, answered_by from feedback where id = $1',
      [id],
    )
  )[0]!;

beforeAll(async () => {
  t = await createTestApp();
  const a = await signedIn(t.app, ['participant']);
  author = { id: a.user.id, session: a.session };
  const o = await signedIn(t.app, ['coordinator']);
  other = { id: o.user.id, login: o.user.login, session: o.session };
  const ad = await signedIn(t.app, ['admin']);
  admin = { id: ad.user.id, session: ad.session };
});
afterAll(async () => t.close());

describe('sending with the page', () => {
  it('keeps the page it was sent from; the body {text} alone still works; a page not a path is 400', async () => {
    const withPage = await send(author, 'Кнопка не работает', '/participant/result?x=1');
    expect(withPage.statusCode).toBe(200);
    const [row] = await t.database.query<{ page: string | null; status: string }>(
      'select page, status from feedback where id = $1',
      [withPage.json().id],
    );
    expect(row).toEqual({ page: '/participant/result?x=1', status: 'new' });
    expect((await send(author, 'Без страницы')).statusCode).toBe(200);
    const bad = await send(author, 'x', 'https://evil.example');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });
});

describe('GET /api/feedback/mine', () => {
  it('401 without a session; each user sees only their own messages, newest first', async () => {
    expect((await inject('GET', '/api/feedback/mine', {})).statusCode).toBe(401);
    await send(other, 'Сообщение координатора');
    const mine = await inject('GET', '/api/feedback/mine', author.session.headers);
    expect(mine.statusCode).toBe(200);
    const texts = mine.json().items.map((i: { text: string }) => i.text);
    expect(texts[0]).toBe('Без страницы');
    expect(texts).not.toContain('Сообщение координатора');
    expect(mine.json().items[0]).toMatchObject({ status: 'new', answer: null, page: null, fileId: null });
    const theirs = await inject('GET', '/api/feedback/mine', other.session.headers);
    expect(theirs.json().items.map((i: { text: string }) => i.text)).toEqual(['Сообщение координатора']);
  });
});

describe('the admins’ inbox', () => {
  it('401 without a session, 403 for a non-admin on every call', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/admin/feedback/list', {}],
      ['GET', '/api/admin/feedback/1', undefined],
      ['PUT', '/api/admin/feedback/1', { status: 'in_progress' }],
    ] as const) {
      expect((await inject(method, url, {}, body)).statusCode).toBe(401);
      expect((await inject(method, url, other.session.headers, body)).statusCode).toBe(403);
    }
  });

  it('lists newest first, filters by status and searches the text and the sender', async () => {
    const res = await inject('POST', '/api/admin/feedback/list', admin.session.headers, { pageSize: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBeGreaterThanOrEqual(3);
    expect(res.json().items).toHaveLength(2);
    expect(res.json().items[0]).toMatchObject({
      text: 'Сообщение координатора',
      status: 'new',
      hasFile: false,
    });
    const search = await inject('POST', '/api/admin/feedback/list', admin.session.headers, {
      filter: { search: 'кнопка' },
    });
    expect(search.json().items.map((i: { text: string }) => i.text)).toEqual(['Кнопка не работает']);
    expect(search.json().items[0].sender).toMatchObject({ id: author.id });
    const byLogin = await inject('POST', '/api/admin/feedback/list', admin.session.headers, {
      filter: { search: other.login },
    });
    expect(byLogin.json().items.map((i: { text: string }) => i.text)).toEqual(['Сообщение координатора']);
    const answered = await inject('POST', '/api/admin/feedback/list', admin.session.headers, {
      filter: { status: 'answered' },
    });
    expect(answered.json()).toEqual({ items: [], total: 0 });
    const bad = await inject('POST', '/api/admin/feedback/list', admin.session.headers, {
      filter: { status: 'closed' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('one message: its sender with roles, page and file for download; 404 for none', async () => {
    const body = multipartBody([
      { name: 'text', value: 'Скриншот' },
      { name: 'page', value: '/admin/content' },
      { name: 'file', filename: 'screen.png', type: 'image/png', data: PNG },
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/feedback/9',
      headers: { ...author.session.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(sent.statusCode).toBe(200);
    const res = await inject('GET', `/api/admin/feedback/${sent.json().id}`, admin.session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      subjectId: 9,
      text: 'Скриншот',
      page: '/admin/content',
      status: 'new',
      sender: { id: author.id, roles: ['participant'] },
      fileId: sent.json().fileId,
      fileName: 'screen.png',
      answer: null,
      answeredBy: null,
    });
    const file = await inject('GET', `/api/files/${res.json().fileId}`, admin.session.headers);
    expect(file.statusCode).toBe(200);
    expect((await inject('GET', '/api/admin/feedback/999999', admin.session.headers)).statusCode).toBe(404);
  });

  it('bad updates are 400 and change nothing; in progress, then answered, tells the sender only', async () => {
    const id = (await send(author, 'Вопрос про оценку', '/participant/result')).json().id as number;
    const put = (payload: object, headers = admin.session.headers) =>
      inject('PUT', `/api/admin/feedback/${id}`, headers, payload);
    for (const payload of [
      {},
      { status: 'answered' },
      { status: 'closed' },
      { answer: '   ' },
      { answer: 'Ответ', status: 'in_progress' },
      { status: 'new', extra: 1 },
    ]) {
      const res = await put(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect(await rowOf(id)).toEqual({ status: 'new', answer: null, answered_by: null });
    expect(await notificationsOf(author.id)).toEqual([]);
    expect(
      (await inject('PUT', '/api/admin/feedback/999999', admin.session.headers, { status: 'new' }))
        .statusCode,
    ).toBe(404);

    const progress = await put({ status: 'in_progress' });
    expect(progress.statusCode).toBe(200);
    expect(progress.json()).toMatchObject({ status: 'in_progress', answer: null });
    expect(await notificationsOf(author.id)).toEqual([]);

    const answered = await put({ answer: '  Оценка пересчитана  ' });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({
      status: 'answered',
      answer: 'Оценка пересчитана',
      answeredAt: expect.stringMatching(/Z$/),
      answeredBy: { id: admin.id },
    });
    expect(await notificationsOf(author.id)).toEqual([
      { kind: 'feedback_answered', params: { feedbackId: id }, link: '/account/feedback' },
    ]);
    expect(await notificationsOf(other.id)).toEqual([]);
    expect(await notificationsOf(admin.id)).toEqual([]);

    const audits = await t.database.query<{ action: string }>(
      "select action from audit_events where entity = 'feedback' and entity_id = $1 order by id",
      [String(id)],
    );
    expect(audits.map((a) => a.action)).toEqual(['feedback.send', 'feedback.update', 'feedback.answer']);

    const mine = await inject('GET', '/api/feedback/mine', author.session.headers);
    expect(mine.json().items[0]).toMatchObject({ id, status: 'answered', answer: 'Оценка пересчитана' });
  });
});
