import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { baseURL, launchBrowser, newPage } from './support.js';

// Issue 11: the admin imports a small GIFT file into a subject's task pool and reads the report,
// makes a subject test of the imported tasks, previews its variant as a participant sees it,
// answers each task and sees its score, and publishes the test. Then a participant takes it: the
// coordinator of demo school 1 adds a 7th-grader, makes a diagnostic of the published test and
// registers them (the calls the coordinator's screens make), the participant signs in with the
// activation code, answers the imported tasks and finishes, and the admin sees the result scored.
// An interactive container is uploaded as a zip and previewed in the runner's sandboxed frame.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo';
const XRW = { 'x-requested-with': 'XMLHttpRequest' };

/** A signed-in staff member's own browser context (its requests carry the session cookie). */
async function staff(login: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseURL(), locale: 'ru-RU' });
  const res = await context.request.post('/api/Account/login', {
    headers: XRW,
    data: { login, password: PASSWORD },
  });
  expect(res.status(), login).toBe(200);
  return context;
}

async function postJson<T>(request: APIRequestContext, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { headers: XRW, data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** Today in the school calendar (Moscow), yyyy-mm-dd. */
const moscowToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());

/**
 * The coordinator of demo school 1 adds a new 7th-grader (no other browser test knows them), makes
 * a diagnostic of the subject test for the school and registers the student for today: the
 * student's activation code and the diagnostic.
 */
async function registerNewStudent(subjectTestId: number) {
  const coordinator = await staff('coordinator');
  try {
    const request = coordinator.request;
    const classes = await postJson<{ items: { id: number; name: string }[] }>(
      request,
      '/api/coordinator/class/list',
      { page: 1, pageSize: 100 },
    );
    const seventh = classes.items.find((c) => c.name === '7 «А»');
    expect(seventh, 'demo school 1 has 7 «А»').toBeTruthy();
    const student = await postJson<{ id: number }>(request, '/api/coordinator/student', {
      surname: 'Браузеров',
      name: 'Тимофей',
      birthDate: '2012-05-14',
      classId: seventh!.id,
    });
    const now = Date.now();
    const diagnostic = await postJson<{ id: number }>(request, '/api/createDiagnostic/create', {
      name: 'E2E: диагностика по заданиям из GIFT',
      startsAt: new Date(now - 3_600_000).toISOString(),
      endsAt: new Date(now + 2 * 86_400_000).toISOString(),
      parallels: [7],
      subjectTestIds: [subjectTestId],
    });
    const registered = await postJson<{ created: number; items: { activationCode: string }[] }>(
      request,
      '/api/coordinator/participantTest/save',
      {
        diagnosticId: diagnostic.id,
        subjectTestId,
        testDate: moscowToday(),
        studentIds: [student.id],
      },
    );
    expect(registered.created).toBe(1);
    return { diagnosticId: diagnostic.id, code: registered.items[0]!.activationCode };
  } finally {
    await coordinator.close();
  }
}

interface ResultRow {
  participantTestId: number;
  participantName: string;
  status: string;
  primaryScore: number;
  maxScore: number;
  mark: string | null;
}

/** Two questions the GIFT parser turns into tasks and a description it refuses. */
const GIFT = [
  '// A small quiz for the browser test',
  '$CATEGORY: e2e/Арифметика',
  '',
  '::e2e-sum:: Сколько будет 2 + 2? {=4 ~3 ~5}',
  '',
  '::e2e-capital:: Как называется столица России? {=Москва}',
  '',
  '::e2e-note:: Прочитайте задания внимательно.',
  '',
].join('\n');

/** Picks an option of a Mantine select found by its label (its list opens in a portal). */
async function pick(
  page: Page,
  scope: Locator | Page,
  label: string | RegExp,
  option: string | RegExp,
  type?: string,
) {
  const input = scope.getByRole('combobox', { name: label });
  await input.click();
  if (type) await input.fill(type);
  await page.getByRole('option', { name: option }).first().click();
}

describe('content authoring', () => {
  it('imports GIFT, builds, previews and publishes a subject test, which a participant takes and gets scored', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login?tab=password');
      await page.locator('input[name="login"]').fill('admin');
      await page.locator('input[name="password"]').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('role-home-admin').waitFor();

      // The КИМ section, then its import.
      await page.getByTestId('nav-admin-content').click();
      await page.waitForURL(/\/admin\/content\/tests$/);
      await page.getByTestId('content-nav-import').click();
      await page.locator('input[type="file"]').setInputFiles({
        name: 'e2e-quiz.gift',
        mimeType: 'text/plain',
        buffer: Buffer.from(GIFT, 'utf8'),
      });
      await pick(page, page, 'Предмет', 'Математика (demo-math)');
      await page.getByTestId('import-start').click();
      await page.waitForURL(/\/admin\/content\/import\/\d+$/);

      // The report: each item's outcome and answer type in words, links to the tasks.
      const report = page.getByTestId('import-done');
      await report.waitFor({ timeout: 60_000 });
      await expect.poll(() => report.getByTestId('import-outcome-e2e-sum').textContent()).toBe('Загружено');
      expect(await report.getByTestId('import-outcome-e2e-capital').textContent()).toBe('Загружено');
      expect(await report.getByTestId('import-outcome-e2e-note').textContent()).toBe('Не загружено');
      expect(await report.getByText('Выбор одного ответа').count()).toBe(1);
      expect(await report.getByText('Краткий ответ').count()).toBe(1);
      expect(await report.getByText('Тестов в файле нет: задания добавлены в банк предмета.').count()).toBe(
        1,
      );
      await checkA11y(page, 'content-import-report');

      // A subject test of the imported tasks.
      await page.getByTestId('content-nav-tests').click();
      await page.getByTestId('test-create').click();
      const form = page.getByTestId('test-form');
      await pick(page, form, 'Предмет', 'Математика (demo-math)');
      await pick(page, form, 'Экзамен', /Диагностика/);
      await form.getByTestId('test-name').fill('E2E: задания из GIFT');
      await pick(page, form, 'Параллели', '7 класс');
      await form.getByTestId('mark-add').click();
      await form.getByTestId('mark-0').fill('2');
      await form.getByTestId('mark-min-0').fill('0');
      await form.getByTestId('mark-add').click();
      await form.getByTestId('mark-1').fill('5');
      await form.getByTestId('mark-min-1').fill('2');
      await form.getByTestId('test-save').click();
      await page.waitForURL(/\/admin\/content\/tests\/\d+$/);
      await expect.poll(() => page.getByTestId('test-title').textContent()).toBe('E2E: задания из GIFT');
      expect(await page.getByTestId('test-status').textContent()).toBe('Черновик');

      // A variant by hand: the two imported tasks, found by their titles.
      await page.getByTestId('variant-build').click();
      const builder = page.getByTestId('variant-builder');
      await pick(page, builder, 'Задание из банка предмета', /e2e-sum/, 'e2e-sum');
      await pick(page, builder, 'Задание из банка предмета', /e2e-capital/, 'e2e-capital');
      expect(await builder.getByTestId('variant-task-row').count()).toBe(2);
      await checkA11y(page, 'content-variant-builder');
      await builder.getByTestId('variant-builder-submit').click();
      await page.getByText('Вариант 1 создан').waitFor();

      // The preview: the tasks as the runner shows them, each answer scored by the engine.
      await page.getByTestId('variant-preview-1').click();
      const first = page.getByTestId('preview-task-1');
      await first.getByText('Сколько будет 2 + 2?').waitFor();
      await first.getByLabel('3', { exact: true }).check();
      await first.getByTestId('score-check').click();
      await expect.poll(() => first.getByTestId('score-result').textContent()).toContain('Баллов: 0 из 1');
      await first.getByLabel('4', { exact: true }).check();
      await first.getByTestId('score-check').click();
      await expect.poll(() => first.getByTestId('score-result').textContent()).toContain('Баллов: 1 из 1');
      await page.getByTestId('preview-next').click();
      const second = page.getByTestId('preview-task-2');
      await second.getByText('Как называется столица России?').waitFor();
      await second.getByTestId('short-text').fill('Москва');
      await second.getByTestId('score-check').click();
      await expect.poll(() => second.getByTestId('score-result').textContent()).toContain('Баллов: 1 из 1');
      expect(await page.getByTestId('preview-total').textContent()).toBe(
        'Проверено заданий: 2 из 2, баллов: 2',
      );
      await checkA11y(page, 'content-variant-preview');

      // Back to the test: it passes the check and is published after confirmation.
      await page.getByRole('link', { name: 'К тесту' }).click();
      await page.getByTestId('tab-validation').click();
      await page.getByTestId('validation-ok').waitFor();
      await page.getByTestId('publish').click();
      await checkA11y(page, 'content-publish-confirm');
      await page.getByTestId('publish-confirm').click();
      await page.getByText('Тест опубликован').waitFor();
      expect(await page.getByTestId('test-status').textContent()).toBe('Опубликован');
      const subjectTestId = Number(/\/admin\/content\/tests\/(\d+)/.exec(page.url())![1]);

      // A participant takes the published test.
      const { diagnosticId, code } = await registerNewStudent(subjectTestId);
      const pupil = await newPage(browser);
      try {
        const p = pupil.page;
        await p.goto('/login?tab=code');
        await p.locator('input[name="activationCode"]').fill(code);
        await p.getByTestId('login-code-submit').click();
        await p.getByTestId('role-home-participant').waitFor();
        await p.getByTestId('start-work').click();
        await p.waitForURL(/\/participant\/work/);

        // The imported tasks, answered as a person would; each answer is saved by the runner.
        const sum = p.getByTestId('task-1');
        await sum.getByText('Сколько будет 2 + 2?').waitFor();
        await sum.getByRole('radio', { name: '4', exact: true }).check();
        await p.getByTestId('task-nav-2').click();
        const capital = p.getByTestId('task-2');
        await capital.getByText('Как называется столица России?').waitFor();
        await capital.getByTestId('short-text').fill('Москва');
        await p.keyboard.press('Tab');
        await expect
          .poll(async () => (await p.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
          .toMatch(/Сохранено/);

        await p.getByTestId('finish-work').click();
        await p.getByTestId('finish-confirm').click();
        await p.getByTestId('work-finished').waitFor();
        expect(await p.getByTestId('finished-answered').textContent()).toContain('2 из 2');
        await checkA11y(p, 'content-participant-finished');
      } finally {
        await pupil.context.close();
      }

      // The work is scored by the queue; the admin sees the result: both points, the top mark.
      const rowOf = async () => {
        const list = await postJson<{ items: ResultRow[] }>(
          page.request,
          '/api/examresults/participantTest/list',
          { page: 1, pageSize: 20, filter: { diagnosticId } },
        );
        return list.items.find((r) => r.participantName.includes('Браузеров'));
      };
      await expect.poll(async () => (await rowOf())?.status, { timeout: 60_000 }).toBe('scored');
      expect(await rowOf()).toMatchObject({ primaryScore: 2, maxScore: 2, mark: '5' });
      await page.goto(`/admin/results?diagnosticId=${diagnosticId}`);
      const results = page.getByTestId('results-list');
      const row = results.getByRole('row').filter({ hasText: 'Браузеров' });
      await row.waitFor();
      expect(await row.textContent()).toContain('2 / 2');
      expect(await row.getByText('рассчитан').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});

/** A zip of stored (uncompressed) files: enough for the container upload. */
function zip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, text] of Object.entries(files)) {
    const name = Buffer.from(path, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A container speaking the runner's protocol: a button answers «привет». */
const CONTAINER = {
  'scales/index.html':
    '<!doctype html><html lang="ru"><head><meta charset="utf-8"><link rel="stylesheet" href="style.css">' +
    '<script src="bundles/app.js" defer></script></head><body><img src="dot.svg" alt="" width="8" height="8">' +
    '<button id="answer" type="button">Ответить</button><p id="state">ждём</p></body></html>',
  'scales/style.css': 'button { border-radius: 7px; }',
  'scales/dot.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle cx="4" cy="4" r="4" fill="#228be6"/></svg>',
  'scales/bundles/app.js':
    "document.getElementById('state').textContent = 'готов';\n" +
    "document.getElementById('answer').addEventListener('click', () =>\n" +
    "  parent.postMessage({ type: 'attesta:answer', value: 'привет' }, '*'));\n" +
    "parent.postMessage({ type: 'attesta:ready' }, '*');\n",
};

describe('interactive containers', () => {
  it('uploads a container as a zip, previews it sandboxed through a signed link, and adds a version', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login?tab=password');
      await page.locator('input[name="login"]').fill('admin');
      await page.locator('input[name="password"]').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('role-home-admin').waitFor();
      await page.goto('/admin/content/tests');
      await page.getByTestId('content-nav-containers').click();
      await page.waitForURL(/\/admin\/content\/containers$/);

      const form = page.getByTestId('container-upload');
      await form.getByTestId('container-upload-name').fill('E2E: весы');
      await form.locator('input[type="file"]').setInputFiles({
        name: 'scales.zip',
        mimeType: 'application/zip',
        buffer: zip(CONTAINER),
      });
      await form.getByTestId('container-upload-submit').click();
      await page.getByText('Контейнер «E2E: весы» загружен.').waitFor();
      const row = page.getByTestId('containers-table').getByRole('row').filter({ hasText: 'E2E: весы' });
      await row.waitFor();

      // The preview: the runner's sandboxed frame; the script, stylesheet and picture load by the
      // signed link (the frame sends no cookie), and the container's answer reaches the page.
      await row.getByRole('button', { name: 'Предпросмотр' }).click();
      const preview = page.getByTestId('container-preview');
      const element = preview.getByTestId('html-container-frame');
      await element.waitFor();
      expect(await element.getAttribute('sandbox')).toBe('allow-scripts');
      expect(await element.getAttribute('src')).toMatch(/\/1\/index\?sig=/);
      const frame = preview.frameLocator('[data-testid="html-container-frame"]');
      await expect.poll(() => frame.locator('#state').textContent(), { timeout: 20_000 }).toBe('готов');
      expect(await frame.locator('#answer').evaluate((b) => getComputedStyle(b).borderTopLeftRadius)).toBe(
        '7px',
      );
      await expect
        .poll(() => frame.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await frame.locator('#answer').click();
      await expect.poll(() => preview.getByTestId('container-preview-answer').textContent()).toBe('"привет"');

      // A new version: the next number, its own entry page.
      await row.getByRole('button', { name: 'Новая версия' }).click();
      const dialog = page.getByTestId('container-version');
      await dialog.getByTestId('container-version-entry').fill('start.html');
      await dialog.locator('input[type="file"]').setInputFiles({
        name: 'scales-2.zip',
        mimeType: 'application/zip',
        buffer: zip({ 'start.html': '<!doctype html><p id="state">вторая версия</p>' }),
      });
      await dialog.getByTestId('container-version-submit').click();
      await page.getByText('Загружена версия 2 контейнера «E2E: весы».').waitFor();
      await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('2');
      await expect
        .poll(() => frame.locator('#state').textContent(), { timeout: 20_000 })
        .toBe('вторая версия');
    } finally {
      await context.close();
    }
  });
});
