import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Issue 12: the report screens. A participant of demo school 1 finishes a Russian-language work, so
// that the reports have a scored result; the demo coordinator signs in, opens «Отчёты» and every
// tab (figures, the marks chart drawn, the consolidated table, control, the detailed row of that
// participant, the specification and item analysis in words, the protocol), downloads the summary
// as xlsx with the filters, and the organizator downloads the sitting protocol of their room.

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo';
const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const DIAGNOSTIC = 'Независимая диагностика (демонстрационная)';
const RUSSIAN = 'Диагностическая работа по русскому языку, 7 класс';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function signIn(page: Page, login: string) {
  await page.goto('/login?tab=password');
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId(`role-home-${login}`).waitFor();
}

/** Opens a searchable picker by its label and chooses the option. */
async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * A participant of 7 «А» (school 1) starts the Russian-language work and finishes it at once: the
 * last such code, which no other browser test takes (they take math, the first code, 9th grade).
 */
async function finishOneWork(): Promise<string> {
  const code = demoCodes()
    .filter((c) => c.subjectTest === RUSSIAN)
    .at(-1)!;
  const { context, page } = await newPage(browser);
  try {
    await page.goto('/login?tab=code');
    await page.locator('input[name="activationCode"]').fill(code.code);
    await page.getByTestId('login-code-submit').click();
    await page.getByTestId('role-home-participant').waitFor();
    await page.getByTestId('start-work').click();
    await page.waitForURL(/\/participant\/work/);
    const current = await (await page.request.get('/api/exam/test/currentParticipantTest')).json();
    const res = await page.request.put(`/api/exam/test/examwork/finish/${current.examWork.id}/manual`, {
      headers: XRW,
    });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await context.close();
  }
  return code.participant.split(' ')[0]!;
}

describe('report screens', () => {
  it('the coordinator reads every report tab and downloads the summary; the organizator the protocol', async () => {
    const surname = await finishOneWork();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, 'coordinator');
      // The result is scored by a queued job: wait for it through the report call itself.
      await expect
        .poll(
          async () => {
            const res = await page.request.get('/api/reports/common');
            const body = (await res.json()) as {
              items: { subjectTestName: string; stats: { scored: number } }[];
            };
            return body.items.find((i) => i.subjectTestName === RUSSIAN)?.stats.scored ?? 0;
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toBeGreaterThan(0);

      await page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Отчёты' }).click();
      await page.waitForURL(/\/coordinator\/reports/);
      await pick(page, 'Диагностика', new RegExp(DIAGNOSTIC.replace(/[()]/g, '\\$&')));
      await page.waitForURL(/diagnosticId=\d+/);
      const diagnosticId = new URL(page.url()).searchParams.get('diagnosticId')!;

      // Общий: a row per subject test of the school, and the marks of the scored one drawn.
      const table = page.getByTestId('common-table');
      await table.getByRole('rowheader', { name: RUSSIAN }).waitFor();
      await expect.poll(() => table.getByRole('row').count()).toBeGreaterThanOrEqual(3);
      const marks = page.locator('[data-testid^="marks-chart-"]').first();
      await marks.locator('svg.recharts-surface').first().waitFor();
      expect(await marks.getByRole('img').getAttribute('aria-label')).toMatch(/Отметка «2»/);

      // The xlsx of the summary, with the filters.
      const xlsx = page.getByTestId('common-xlsx');
      // The link follows the filters a render after the address does: wait for it.
      await expect
        .poll(() => xlsx.getAttribute('href'))
        .toBe(`/api/reports/common?diagnosticId=${diagnosticId}&format=xlsx`);
      await checkA11y(page, 'reports-common');
      const [download] = await Promise.all([page.waitForEvent('download'), xlsx.click()]);
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);

      // Сводный: the school's total and its classes.
      await page.getByTestId('report-tab-cons').click();
      await page.getByTestId('cons-total').first().waitFor();
      expect(await page.getByTestId('cons-class').filter({ hasText: '7 «А»' }).count()).toBeGreaterThan(0);
      await checkA11y(page, 'reports-consolidated');

      // Контроль: attendance lines of the day.
      await page.getByTestId('report-tab-control').click();
      await page.getByTestId('control-attendance').waitFor();
      await page.getByTestId('control-anomalies').waitFor();
      await checkA11y(page, 'reports-control');

      // Подробный: the participant who finished, by surname.
      await page.getByTestId('report-tab-detailed').click();
      await page.getByTestId('detailed-table').getByText(surname).first().waitFor();
      await checkA11y(page, 'reports-detailed');

      // Спецификация: the demo tests have none, which the tab says in words (or its heat map).
      await page.getByTestId('report-tab-specification').click();
      await page.getByTestId('specification-none').or(page.getByTestId('specification-heatmap')).waitFor();

      // Анализ заданий: for the Russian-language test of the running diagnostic.
      await page.getByTestId('report-tab-items').click();
      await page.getByTestId('items-choose').waitFor();
      await pick(page, 'Тест по предмету', RUSSIAN);
      await page.getByTestId('items-withheld').or(page.getByTestId('items-view')).waitFor();
      await checkA11y(page, 'reports-items');

      // Протокол: the room 7 «А».
      await page.getByTestId('report-tab-protocol').click();
      await pick(page, 'Класс', '7 «А»');
      await page.getByTestId('protocol-preview').waitFor();
      expect(await page.getByTestId('protocol-participants').first().textContent()).toContain(surname);
      await checkA11y(page, 'reports-protocol');
    } finally {
      await context.close();
    }

    // The organizator: «Протокол», their diagnostic and room, the PDF.
    const organizator = await newPage(browser);
    try {
      const org = organizator.page;
      await signIn(org, 'organizator');
      await org.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Протокол' }).click();
      await org.getByTestId('protocol-choose').waitFor();
      await pick(org, 'Диагностика', new RegExp(DIAGNOSTIC.replace(/[()]/g, '\\$&')));
      await pick(org, 'Класс', '7 «А»');
      await org.getByTestId('protocol-preview').waitFor();
      const pdf = org.getByTestId('protocol-pdf');
      expect(await pdf.getAttribute('href')).toMatch(
        /^\/api\/reports\/diagnostic\/protocol\?diagnosticId=\d+&classId=\d+&format=pdf$/,
      );
      const [download] = await Promise.all([org.waitForEvent('download'), pdf.click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    } finally {
      await organizator.context.close();
    }
  });
});
