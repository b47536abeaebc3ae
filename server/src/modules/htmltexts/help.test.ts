import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createTestApp,
  guardResults,
  signedIn,
  type GuardedCall,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { explainsPage } from './help.service.js';

let t: TestApp;
let admin: Session;
let coordinator: Session;
let expert: Session;

const send = (session: Session | null, method: GuardedCall['method'], url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: session?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const section = async (body: Record<string, unknown>) => {
  const res = await send(admin, 'POST', '/api/admin/help', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; title: string; html: string; roles: string[]; pages: string[] };
};
const titles = (res: { json(): unknown }) =>
  (res.json() as { items: { title: string; forPage: boolean }[] }).items.map((i) =>
    i.forPage ? `${i.title} *` : i.title,
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  coordinator = (await signedIn(t.app, ['coordinator'])).session;
  expert = (await signedIn(t.app, ['expert'])).session;
});
afterAll(async () => t.close());

describe('access', () => {
  const admins: GuardedCall[] = [
    { method: 'GET', url: '/api/admin/help' },
    { method: 'POST', url: '/api/admin/help', payload: { title: 'Раздел', html: '<p>x</p>' } },
    { method: 'PUT', url: '/api/admin/help/1', payload: { title: 'Раздел', html: '<p>x</p>' } },
    { method: 'DELETE', url: '/api/admin/help/1' },
    { method: 'GET', url: '/api/admin/htmltexts' },
    { method: 'POST', url: '/api/admin/htmltexts', payload: { title: 'Страница', html: '<p>x</p>' } },
    { method: 'PUT', url: '/api/admin/htmltexts/1', payload: { title: 'Страница', html: '<p>x</p>' } },
  ];

  it('the editing calls: 401 without a session, 403 for other roles, the CSRF header on writes', async () => {
    const before = [await countRows(t.database, 'help_sections'), await countRows(t.database, 'html_texts')];
    for (const c of admins) {
      const r = await guardResults(t.app, c, { allowed: admin, wrongRole: coordinator });
      expect([c.method, c.url, r.anonymous, r.wrongRole]).toEqual([c.method, c.url, 401, 403]);
      if (c.method !== 'GET') expect([c.url, r.noCsrf]).toEqual([c.url, 'csrf']);
    }
    expect([await countRows(t.database, 'help_sections'), await countRows(t.database, 'html_texts')]).toEqual(
      before,
    );
  });

  it('bad input is 400 and writes nothing', async () => {
    const before = await countRows(t.database, 'help_sections');
    for (const body of [
      { title: ' ', html: '' },
      { title: 'Раздел', html: '', roles: ['teacher'] },
      { title: 'Раздел', html: '', pages: ['coordinator'] },
      { title: 'Раздел', html: '', pages: ['/Coordinator/<x>'] },
      { title: 'Раздел', html: '', extra: 1 },
    ]) {
      const res = await send(admin, 'POST', '/api/admin/help', body);
      expect([JSON.stringify(body), res.statusCode, res.json().code]).toEqual([
        JSON.stringify(body),
        400,
        'validation_failed',
      ]);
    }
    expect(
      (await send(admin, 'POST', '/api/admin/htmltexts', { code: 'Bad Code', title: 'x', html: '' }))
        .statusCode,
    ).toBe(400);
    expect((await send(null, 'GET', '/api/help?page=nopath')).statusCode).toBe(400);
    expect((await send(null, 'GET', '/api/help/abc')).statusCode).toBe(400);
    expect(await countRows(t.database, 'help_sections')).toBe(before);
  });
});

describe('help by role and page', () => {
  it('matches a page by its path prefix at a segment boundary', () => {
    expect(explainsPage(['/coordinator/reports'], '/coordinator/reports')).toBe(true);
    expect(explainsPage(['/coordinator/reports'], '/coordinator/reports/cons')).toBe(true);
    expect(explainsPage(['/coordinator/reports'], '/coordinator/reportsx')).toBe(false);
    expect(explainsPage(['/coordinator'], '/organizator')).toBe(false);
    expect(explainsPage(['/'], '/')).toBe(true);
    expect(explainsPage([], '/')).toBe(false);
  });

  it('shows each caller the sections of their roles, those of the page first; drafts to nobody', async () => {
    const general = await section({ title: 'Как войти', html: '<p>Введите код</p>', sortOrder: 1 });
    const reports = await section({
      title: 'Отчёты школы',
      html: '<p>Фильтры</p><script>alert(1)</script><img src=x onerror="alert(2)">',
      roles: ['coordinator', 'coordinator'],
      pages: ['/coordinator/reports/'],
    });
    const grading = await section({ title: 'Проверка работ', html: '<p>Критерии</p>', roles: ['expert'] });
    const draft = await section({ title: 'Черновик', html: '<p>…</p>', published: false });
    // Stored sanitised, roles and pages without repeats or trailing slashes.
    expect(reports.html).not.toMatch(/script|onerror/);
    expect(reports).toMatchObject({ roles: ['coordinator'], pages: ['/coordinator/reports'] });

    expect(titles(await send(null, 'GET', '/api/help'))).toEqual(['Как войти']);
    // In the admins' order (sortOrder, then title).
    expect(titles(await send(coordinator, 'GET', '/api/help'))).toEqual(['Отчёты школы', 'Как войти']);
    expect(titles(await send(coordinator, 'GET', '/api/help?page=/coordinator/reports/cons'))).toEqual([
      'Отчёты школы *',
      'Как войти',
    ]);
    // A page of another part of the app: only the general help.
    expect(titles(await send(coordinator, 'GET', '/api/help?page=/coordinator/students'))).toEqual([
      'Как войти',
    ]);
    expect(titles(await send(expert, 'GET', '/api/help'))).toEqual(['Проверка работ', 'Как войти']);

    const one = await send(coordinator, 'GET', `/api/help/${reports.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: reports.id, title: 'Отчёты школы' });
    expect(one.json().html).toContain('<p>Фильтры</p>');
    expect(one.json().html).not.toMatch(/script|onerror/);
    expect((await send(null, 'GET', `/api/help/${general.id}`)).statusCode).toBe(200);
    // Another role's section, a draft and a missing one: 404 alike.
    for (const [session, id] of [
      [expert, reports.id],
      [null, grading.id],
      [admin, draft.id],
      [coordinator, 999_999],
    ] as const) {
      const res = await send(session, 'GET', `/api/help/${id}`);
      expect([id, res.statusCode, res.json().code]).toEqual([id, 404, 'not_found']);
    }
  });

  it('admins list, change and delete sections, each change audited', async () => {
    const created = await section({ title: 'Пауза', html: '<p>Старый текст</p>', roles: ['participant'] });
    const changed = await send(admin, 'PUT', `/api/admin/help/${created.id}`, {
      title: 'Пауза в работе',
      html: '<p>Новый текст</p>',
      roles: ['participant'],
      pages: ['/participant/work'],
      published: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      title: 'Пауза в работе',
      published: false,
      pages: ['/participant/work'],
    });
    const list = await send(admin, 'GET', '/api/admin/help');
    expect((list.json() as { items: { id: number; published: boolean }[] }).items).toContainEqual(
      expect.objectContaining({ id: created.id, published: false }),
    );
    expect((await send(admin, 'DELETE', `/api/admin/help/${created.id}`)).json()).toEqual({ ok: true });
    expect((await send(admin, 'DELETE', `/api/admin/help/${created.id}`)).statusCode).toBe(404);
    expect(
      (await send(admin, 'PUT', `/api/admin/help/${created.id}`, { title: 'x', html: '' })).statusCode,
    ).toBe(404);
    const audited = await t.database.query<{ action: string }>(
      `select action from audit_events where entity = 'help_section' and entity_id = $1 order by id`,
      [String(created.id)],
    );
    expect(audited.map((a) => a.action)).toEqual(['help.create', 'help.update', 'help.delete']);
  });
});

describe('html texts', () => {
  it('admins write pages that the public call then serves sanitised; a taken code is 409', async () => {
    const res = await send(admin, 'POST', '/api/admin/htmltexts', {
      code: 'exam-rules',
      title: 'Правила',
      html: '<h2>Правила</h2><p onclick="x()">Не списывать</p><iframe src="https://evil"></iframe>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = res.json() as { id: number; html: string };
    expect(text.html).not.toMatch(/onclick|iframe/);

    const shown = await send(null, 'GET', '/api/htmltexts/exam-rules');
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ title: 'Правила' });
    expect(shown.json().html).toContain('Не списывать');

    const before = await countRows(t.database, 'html_texts');
    const clash = await send(admin, 'POST', '/api/admin/htmltexts', {
      code: 'exam-rules',
      title: 'Другие',
      html: '',
    });
    expect([clash.statusCode, clash.json().code]).toEqual([409, 'code_taken']);
    expect(await countRows(t.database, 'html_texts')).toBe(before);

    const hidden = await send(admin, 'PUT', `/api/admin/htmltexts/${text.id}`, {
      code: 'exam-rules',
      title: 'Правила (черновик)',
      html: '<p>…</p>',
      published: false,
    });
    expect(hidden.statusCode).toBe(200);
    expect((await send(null, 'GET', '/api/htmltexts/exam-rules')).statusCode).toBe(404);
    const all = await send(admin, 'GET', '/api/admin/htmltexts');
    expect((all.json() as { items: { code: string | null; published: boolean }[] }).items).toContainEqual(
      expect.objectContaining({ code: 'exam-rules', published: false }),
    );
    expect(
      (await send(admin, 'PUT', '/api/admin/htmltexts/999999', { title: 'x', html: '' })).statusCode,
    ).toBe(404);
  });
});
