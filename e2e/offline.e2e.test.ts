import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { baseURL, demoCodes, launchBrowser, newPage, watchConsole } from './support.js';

/*
 * Issue 23, item 2: the offline reload in the usual path — code login → start → the network drops
 * → reload — on the first visit of a browser (a fresh context: no service worker before this
 * visit, no reload online in between). The runner opens from the local copy with «Нет связи», the
 * answers typed before are there, and the timer never shows more than the server's deadline
 * allows. Also: the login page, opened while the session is valid, goes straight to the work; on a
 * phone the offline status is one short line.
 */

const XRW = { 'x-requested-with': 'XMLHttpRequest' };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/**
 * A demo math code no other browser test takes: the runner test takes the last four, the
 * monitoring test none of the last eight, the accommodations test the middle one.
 */
function code(): string {
  const math = demoCodes().filter((c) => /математике/i.test(c.subjectTest));
  const picked = math.at(-6);
  if (!picked) throw new Error('not enough demo math codes');
  return picked.code;
}

/** "12:34" or "1:02:03" → seconds. */
const seconds = (text: string) =>
  text
    .trim()
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0);

const saveStatus = async (page: Page) => (await page.getByTestId('save-status').textContent()) ?? '';

interface Task {
  variantTaskId: number;
  position: number;
  answerType: string;
}

async function typeAnswer(page: Page, task: Task, text: string) {
  await page.getByTestId(`task-nav-${task.position}`).click();
  const testId = task.answerType === 'short_text' ? 'short-text' : 'extended-text';
  await page.getByTestId(`task-${task.position}`).getByTestId(testId).fill(text);
  await page.keyboard.press('Tab');
}

async function answerOnPage(page: Page, task: Task): Promise<string> {
  await page.getByTestId(`task-nav-${task.position}`).click();
  const testId = task.answerType === 'short_text' ? 'short-text' : 'extended-text';
  return page.getByTestId(`task-${task.position}`).getByTestId(testId).inputValue();
}

/** A reload of a running work: the browser asks first (beforeunload) and the participant agrees. */
async function reloadAgreeing(page: Page) {
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
}

async function coordinator(): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseURL(), locale: 'ru-RU' });
  const res = await context.request.post('/api/Account/login', {
    headers: XRW,
    data: { login: 'coordinator', password: process.env.DEMO_PASSWORD ?? 'demo' },
  });
  expect(res.status()).toBe(200);
  return context;
}

async function timeLeft(request: APIRequestContext, id: number) {
  const res = await request.get(`/api/exam/test/examwork/left/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { secondsLeft: number; deadlineAt: string; serverTime: string };
}

describe('the offline reload in the usual path', () => {
  it('code login → start → offline → reload on a first visit: the runner from the local copy, «Нет связи», the answers, the timer within the deadline', async () => {
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(context);
    let staff: BrowserContext | undefined;
    try {
      await page.goto('/login?tab=code');
      // A first visit: no service worker controls this page.
      expect(await page.evaluate(() => navigator.serviceWorker.controller === null)).toBe(true);
      await page.locator('input[name="activationCode"]').fill(code());
      await page.getByTestId('login-code-submit').click();
      await page.getByTestId('role-home-participant').waitFor();
      await page.getByTestId('start-work').click();
      await page.waitForURL(/\/participant\/work$/);
      await page.getByTestId('task-1').waitFor();

      const tasks = (
        (await (await page.request.get('/api/exam/test/variant/current')).json()) as { tasks: Task[] }
      ).tasks;
      const short = tasks.find((t) => t.answerType === 'short_text')!;
      const essay = tasks.find((t) => t.answerType === 'extended_text')!;
      const current = await (await page.request.get('/api/exam/test/currentParticipantTest')).json();
      const workId = current.examWork.id as number;

      // Online: an answer reaches the server.
      await typeAnswer(page, short, 'до обрыва');
      await expect.poll(() => saveStatus(page), { timeout: 20_000 }).toMatch(/Сохранено/);

      // Staff cut the time by ten minutes after the runner opened: the copy must follow the server.
      const before = await timeLeft(page.request, workId);
      staff = await coordinator();
      const cut = await staff.request.get(
        `/api/exam/test/examwork/ChangeTimeTill?ids=${workId}&timeSpan=-00:10:00&reason=e2e`,
        { headers: XRW },
      );
      expect(cut.status()).toBe(200);
      await expect
        .poll(async () => seconds((await page.getByTestId('timer').textContent()) ?? ''), {
          timeout: 20_000,
        })
        .toBeLessThanOrEqual(before.secondsLeft - 590);

      // The server's word on the deadline, read at a known local instant.
      const server = await timeLeft(page.request, workId);
      const readAt = Date.now();
      const allowedAt = (localMs: number) =>
        (Date.parse(server.deadlineAt) - Date.parse(server.serverTime) - (localMs - readAt)) / 1000;

      // The service worker has installed by now (it precaches the shell on the first visit).
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));

      // The network drops; an answer typed now waits on the device.
      await watcher.goOffline(context);
      await typeAnswer(page, essay, 'без связи');
      await expect.poll(() => saveStatus(page), { timeout: 20_000 }).toMatch(/Нет связи/);

      // Reload without a network: the runner, not the login page.
      await reloadAgreeing(page);
      await page.getByTestId('task-nav-1').waitFor({ timeout: 20_000 });
      expect(new URL(page.url()).pathname).toBe('/participant/work');
      await expect.poll(() => saveStatus(page), { timeout: 10_000 }).toMatch(/^Нет связи/);
      const shown = seconds((await page.getByTestId('timer').textContent()) ?? '');
      // Never more than the server allows now (a second for the rounding up of the display).
      expect(shown).toBeLessThanOrEqual(Math.ceil(allowedAt(Date.now())) + 1);
      expect(shown).toBeGreaterThan(allowedAt(Date.now()) - 30);
      expect(await answerOnPage(page, short)).toBe('до обрыва');
      expect(await answerOnPage(page, essay)).toBe('без связи');

      // On a phone the offline status is one short line, not a sentence broken inside a word.
      for (const width of [320, 390]) {
        await page.setViewportSize({ width, height: 800 });
        const shortStatus = page.getByTestId('save-status-short');
        await shortStatus.waitFor();
        expect(((await shortStatus.textContent()) ?? '').trim()).toBe('Нет связи');
        const line = await shortStatus.evaluate((el) => ({
          height: el.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(el).lineHeight) || 20,
        }));
        expect(line.height, `one line at ${width} px`).toBeLessThanOrEqual(line.lineHeight * 1.5);
        const bar = (await page.getByTestId('runner-bar').boundingBox())!;
        expect(bar.height, `one bar at ${width} px`).toBeLessThanOrEqual(56);
        expect(await page.getByTestId('timer').isVisible()).toBe(true);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `overflow at ${width} px`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 1280, height: 720 });

      // The network returns: the waiting answer reaches the server by itself.
      await watcher.goOnline(context);
      await expect.poll(() => saveStatus(page), { timeout: 30_000 }).toMatch(/Сохранено/);
      const state = await (await page.request.get(`/api/exam/test/examwork/${workId}`)).json();
      const value = (id: number) =>
        (state.answers as { variantTaskId: number; value: unknown }[]).find((a) => a.variantTaskId === id)
          ?.value;
      expect(value(short.variantTaskId)).toBe('до обрыва');
      expect(value(essay.variantTaskId)).toBe('без связи');

      // The login page while the session is valid: straight back to the work.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.goto('/login');
      await page.waitForURL(/\/participant\/work$/);
      await page.getByTestId('task-nav-1').waitFor();
      watcher.expectNone();
    } finally {
      await staff?.close();
      await context.close();
    }
  });

  it('the login page opened with a valid staff session goes to the role home', async () => {
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(page);
    try {
      await page.goto('/login?tab=password');
      await page.locator('input[name="login"]').fill('coordinator');
      await page.locator('input[name="password"]').fill(process.env.DEMO_PASSWORD ?? 'demo');
      await page.getByTestId('login-submit').click();
      await page.getByTestId('role-home-coordinator').waitFor();
      await page.goto('/login');
      await page.getByTestId('role-home-coordinator').waitFor();
      expect(new URL(page.url()).pathname).toBe('/coordinator');
      expect(await page.getByTestId('login-title').count()).toBe(0);
      watcher.expectNone();
    } finally {
      await context.close();
    }
  });
});
