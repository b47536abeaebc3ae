import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support.js';

// Issue 11: the admin imports a small GIFT file into a subject's task pool and reads the report,
// makes a subject test of the imported tasks, previews its variant as a participant sees it,
// answers each task and sees its score, and publishes the test.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo';

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
  it('imports GIFT, builds and previews a subject test, scores answers and publishes it', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login');
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

      // Back to the test: it passes the check and is published after confirmation.
      await page.getByRole('link', { name: 'К тесту' }).click();
      await page.getByTestId('tab-validation').click();
      await page.getByTestId('validation-ok').waitFor();
      await page.getByTestId('publish').click();
      await page.getByTestId('publish-confirm').click();
      await page.getByText('Тест опубликован').waitFor();
      expect(await page.getByTestId('test-status').textContent()).toBe('Опубликован');
    } finally {
      await context.close();
    }
  });
});
