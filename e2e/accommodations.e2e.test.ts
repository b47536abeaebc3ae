import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Issue 14, item 2: the coordinator gives a student accommodations; the student's work then has
// the extra time on the server's clock and the runner opens with large text and high contrast.

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/** A demo math code from the middle of the list: the other browser tests take its ends. */
function middleMathCode() {
  const math = demoCodes().filter((c) => /математике/i.test(c.subjectTest));
  const code = math[Math.floor(math.length / 2)];
  if (!code) throw new Error('no demo math code');
  return code;
}

async function signIn(page: Page, login: string) {
  await page.goto('/login?tab=password');
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId(`role-home-${login}`).waitFor();
}

describe('accommodations', () => {
  it('the coordinator sets 50 % extra time and large text; the work and the runner follow', async () => {
    const { code, participant } = middleMathCode();

    const staff = await newPage(browser);
    try {
      const { page } = staff;
      await signIn(page, 'coordinator');
      await page.goto('/coordinator/students');
      await page.getByRole('textbox', { name: 'Поиск' }).fill(participant);
      const row = page.getByRole('row').filter({ hasText: participant }).first();
      await row.getByRole('button', { name: 'Особые условия' }).click();
      const form = page.getByTestId('accommodations-form');
      await form.getByLabel(/Дополнительное время/).fill('50');
      await form.getByLabel('Крупный шрифт и увеличенные интервалы').check({ force: true });
      await form.getByLabel('Высокий контраст').check({ force: true });
      await checkA11y(page, 'accommodations-dialog');
      await form.getByTestId('accommodations-save').click();
      await form.waitFor({ state: 'detached' });
      await row.getByText('Есть').waitFor();
    } finally {
      await staff.context.close();
    }

    const sitting = await newPage(browser);
    try {
      const { page, context } = sitting;
      await page.goto('/login?tab=code');
      await page.locator('input[name="activationCode"]').fill(code);
      await page.getByTestId('login-code-submit').click();
      await page.getByTestId('role-home-participant').waitFor();
      await page.getByTestId('start-work').click();
      await page.waitForURL(/\/participant\/work/);
      await page.getByTestId('task-1').waitFor();

      const runner = page.getByTestId('runner');
      expect(await runner.getAttribute('class')).toMatch(/runner--large-text.*runner--high-contrast/);
      expect(await page.evaluate(() => document.documentElement.style.fontSize)).toBe('125%');
      await checkA11y(page, 'accommodations-runner-large-contrast');

      const current = await (await context.request.get('/api/exam/test/currentParticipantTest')).json();
      const work = current.examWork as { timeLimitSeconds: number; extraSeconds: number };
      expect(work.extraSeconds).toBe(work.timeLimitSeconds / 2);
    } finally {
      await sitting.context.close();
    }
  });
});
