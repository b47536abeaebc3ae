import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { tabTo, tabWalk } from './keyboard.js';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Issue 14, item 2: the coordinator gives a student accommodations; the student's work then has
// the extra time on the server's clock and the runner opens with large text and high contrast.
// Issue 14's "done when": that candidate then takes the test end to end with the keyboard alone
// (no click, no fill) and a screen reader gets the time left, the tasks and the save status.

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

interface Task {
  variantTaskId: number;
  position: number;
  answerType: string;
  content: { options?: { id: string }[] };
}

/** Presses Tab from where focus is until the focused element matches `selector`. */
async function tabUntil(page: Page, selector: string, what: string, max = 30) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => Boolean(document.activeElement?.matches(s)), selector)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

const focused = (page: Page, selector: string) =>
  page.evaluate((s) => Boolean(document.activeElement?.matches(s)), selector);

/** Seconds in «1:29:05» / «29:05» and in «… 1 ч 29 мин 5 с». */
const clockSeconds = (clock: string) => clock.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
function wordSeconds(words: string) {
  const unit = { ч: 3600, мин: 60, с: 1 } as Record<string, number>;
  let sum = 0;
  for (const [, n, u] of words.matchAll(/(\d+)\s(ч|мин|с)(?![а-я])/g)) sum += Number(n) * unit[u!]!;
  return sum;
}

async function signIn(page: Page, login: string) {
  await page.goto('/login?tab=password');
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId(`role-home-${login}`).waitFor();
}

describe('accommodations', () => {
  it('the coordinator sets 50 % extra time and large text; the work and the runner follow, and the candidate takes the test with the keyboard alone', async () => {
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
      // Signs in with the activation code and starts the work with the keyboard alone.
      await page.goto('/login?tab=code');
      await tabUntil(page, 'input[name="activationCode"]', 'the activation code field');
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      await page.getByTestId('role-home-participant').waitFor();
      await expect.poll(() => page.getByTestId('start-work').isEnabled(), { timeout: 15_000 }).toBe(true);
      await tabTo(page, (s) => s.testId === 'start-work', 'the start button');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/participant\/work/);
      await page.getByTestId('task-1').waitFor();

      const runner = page.getByTestId('runner');
      expect(await runner.getAttribute('class')).toMatch(/runner--large-text.*runner--high-contrast/);
      expect(await page.evaluate(() => document.documentElement.style.fontSize)).toBe('125%');
      await checkA11y(page, 'accommodations-runner-large-contrast');

      const current = await (await context.request.get('/api/exam/test/currentParticipantTest')).json();
      const work = current.examWork as { id: number; timeLimitSeconds: number; extraSeconds: number };
      expect(work.extraSeconds).toBe(work.timeLimitSeconds / 2);

      // A screen reader gets the time left in words, the same as the clock shows, extra time included.
      const timer = page.getByRole('timer');
      expect(await timer.getAttribute('aria-live')).toBeNull();
      const { clock, words } = await page.evaluate(() => ({
        clock: document.querySelector('[data-testid="timer"]')!.textContent!,
        words: document.querySelector('[data-testid="timer-words"]')!.textContent!,
      }));
      expect(words).toMatch(/^До конца работы осталось /);
      expect(Math.abs(wordSeconds(words) - clockSeconds(clock)), `${words} / ${clock}`).toBeLessThanOrEqual(
        1,
      );
      const total = work.timeLimitSeconds + work.extraSeconds;
      expect(wordSeconds(words)).toBeGreaterThan(total - 300);
      expect(wordSeconds(words)).toBeLessThanOrEqual(total);
      const status = page.getByTestId('save-status');
      expect(await status.getAttribute('role')).toBe('status');
      expect(await status.getAttribute('aria-live')).toBe('polite');

      const tasks = (
        (await (await context.request.get('/api/exam/test/variant/current')).json()) as {
          tasks: Task[];
        }
      ).tasks.sort((a, b) => a.position - b.position);
      const n = tasks.length;
      const choice = tasks.find((t) => t.answerType === 'single_choice')!;
      const text = tasks.find((t) => t.answerType === 'short_text')!;
      expect(choice && text, 'the demo math test has a single-choice and a short text task').toBeTruthy();
      const taskName = (t: Task) => `Задание ${t.position} из ${n}`;

      // To the single-choice task through the task list: one Tab stop, arrows, Enter.
      await tabTo(page, (s) => s.testId === 'task-nav-1', 'the task list');
      for (let i = 1; i < choice.position; i++) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      // Focus goes to the new task's heading; the task is a region, its options a group, both named by it.
      const choiceBox = page.getByRole('region', { name: taskName(choice) });
      await choiceBox.waitFor();
      await expect.poll(() => focused(page, `#task-heading-${choice.variantTaskId}`)).toBe(true);
      expect(await choiceBox.getByRole('heading', { level: 2, name: taskName(choice) }).count()).toBe(1);
      await choiceBox.getByRole('group', { name: taskName(choice) }).waitFor();
      await tabUntil(page, `[data-testid="task-${choice.position}"] input[type="radio"]`, 'the options');
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      const picked = choice.content.options![1]!.id;
      expect(await choiceBox.getByTestId(`option-${picked}`).isChecked()).toBe(true);
      // The whole runner by Tab, large text and high contrast on: every stop visible, focus drawn,
      // no trap. (With an option chosen: Shift+Tab into a radio group with none checked lands on
      // its last option, as browsers do, which the walk's way back would take for a wrong order.)
      await tabWalk(page, 'accommodations-runner-large-contrast');

      // To the short text task with the runner's shortcuts (Alt+→ / Alt+←), then typing.
      const key = text.position > choice.position ? 'Alt+ArrowRight' : 'Alt+ArrowLeft';
      for (let i = 0; i < Math.abs(text.position - choice.position); i++) await page.keyboard.press(key);
      const textBox = page.getByRole('region', { name: taskName(text) });
      await textBox.waitFor();
      await expect.poll(() => focused(page, `#task-heading-${text.variantTaskId}`)).toBe(true);
      await tabUntil(
        page,
        `[data-testid="task-${text.position}"] [data-testid="short-text"]`,
        'the text field',
      );
      await page.keyboard.type('ответ с клавиатуры');
      await page.keyboard.press('Tab');

      // Saved: the status (announced, polite) says so and the server has both answers.
      await expect
        .poll(() => status.textContent(), { timeout: 10_000 })
        .toMatch(/^Сохранено в \d\d:\d\d:\d\d$/);
      const answers = async () => {
        const state = (await (await context.request.get(`/api/exam/test/examwork/${work.id}`)).json()) as {
          answers: { variantTaskId: number; value: unknown }[];
        };
        return [choice, text].map(
          (t) => state.answers.find((a) => a.variantTaskId === t.variantTaskId)?.value,
        );
      };
      await expect.poll(answers).toEqual([picked, 'ответ с клавиатуры']);

      // The finish: opened and confirmed from the keyboard; focus on the finished screen's heading.
      await tabTo(page, (s) => s.testId === 'finish-work', 'the finish button');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Завершить работу?' }).waitFor();
      await expect
        .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))))
        .toBe(true);
      await tabUntil(page, '[data-testid="finish-confirm"]', 'the confirm button');
      await page.keyboard.press('Enter');
      await page.getByTestId('work-finished').waitFor();
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.tagName + ' ' + document.activeElement?.textContent),
        )
        .toBe('H1 Работа завершена');
      const done = (await (await context.request.get(`/api/exam/test/examwork/${work.id}`)).json()) as {
        status: string;
      };
      // Finished — and, as the scoring queue may already have reached it, perhaps scored too.
      expect(['finished', 'scored']).toContain(done.status);
    } finally {
      await sitting.context.close();
    }
  });
});
