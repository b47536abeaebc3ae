import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Dialog, Locator, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { baseURL, demoCodes, launchBrowser, newPage, startWork } from './support.js';

// Issue 3, item 6: a participant takes a demo test in the browser — every answer type, a file,
// offline and back, a reload — and nothing is lost; the timer reaching zero finishes the work.
// Issue 14, item 1: the runner is a locked shell — a reload asks first, the back button meets the
// runner's own question, and on a phone the header is one compact bar.

interface Task {
  variantTaskId: number;
  position: number;
  answerType: string;
  content: Record<string, unknown>;
}
type Item = { id: string };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/** Distinct demo math codes (school 1), one per test, taken from the end of the list so other browser tests taking the first codes never meet them. */
const codes = (() => {
  let all: ReturnType<typeof demoCodes> | undefined;
  let next = 0;
  return () => {
    all ??= demoCodes()
      .filter((c) => /математике/i.test(c.subjectTest))
      .reverse();
    const code = all[next++];
    if (!code) throw new Error('no demo math code left');
    return code.code;
  };
})();

/**
 * Reloads a running work: the browser asks first (beforeunload) and the participant agrees.
 * Fails if the question never came.
 */
async function reloadAgreeing(page: Page): Promise<void> {
  let asked = '';
  const answer = (dialog: Dialog) => {
    asked = dialog.type();
    void dialog.accept();
  };
  page.once('dialog', answer);
  await page.reload();
  page.off('dialog', answer);
  expect(asked).toBe('beforeunload');
}

async function variant(request: APIRequestContext): Promise<Task[]> {
  const res = await request.get('/api/exam/test/variant/current');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { tasks: Task[] }).tasks;
}

async function workState(request: APIRequestContext) {
  const current = await (await request.get('/api/exam/test/currentParticipantTest')).json();
  const id = current.examWork.id as number;
  const res = await request.get(`/api/exam/test/examwork/${id}`);
  return (await res.json()) as {
    id: number;
    status: string;
    finishReason: string | null;
    answers: { variantTaskId: number; value: unknown; fileIds?: number[] }[];
  };
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Answers one task through its input, as a person would; returns a description for the report. */
async function answer(page: Page, task: Task, text: string): Promise<void> {
  await page.getByTestId(`task-nav-${task.position}`).click();
  const box: Locator = page.getByTestId(`task-${task.position}`);
  await box.waitFor();
  const c = task.content;
  switch (task.answerType) {
    case 'single_choice':
      await box.getByTestId(`option-${(c.options as Item[])[1]!.id}`).click();
      break;
    case 'multiple_choice':
      await box.getByTestId(`option-${(c.options as Item[])[0]!.id}`).click();
      await box.getByTestId(`option-${(c.options as Item[])[1]!.id}`).click();
      break;
    case 'short_text':
      await box.getByTestId('short-text').fill(text);
      break;
    case 'number':
      await box.getByTestId('number-input').fill('2,5');
      break;
    case 'digit_sequence':
      if (typeof c.length === 'number') {
        await box.getByTestId('digit-0').click();
        await page.keyboard.type('1'.repeat(Math.min(3, c.length)));
      } else await box.getByTestId('digit-input').fill('123');
      break;
    case 'ordering':
      await box.getByTestId(`order-down-${(c.items as Item[])[0]!.id}`).click();
      break;
    case 'matching': {
      const right = c.right as Item[];
      for (const [i, left] of (c.left as Item[]).entries()) {
        await box.getByTestId(`match-${left.id}`).selectOption(right[i % right.length]!.id);
      }
      break;
    }
    case 'cloze':
      for (const blank of c.blanks as { id: string; kind: string; options?: Item[] }[]) {
        const input = box.getByTestId(`blank-${blank.id}`);
        if (blank.kind === 'choice') await input.selectOption(blank.options![0]!.id);
        else await input.fill('слово');
      }
      break;
    case 'extended_text':
      await box.getByTestId('extended-text').fill(`Развёрнутый ответ: ${text}`);
      break;
    case 'file':
      await box
        .getByTestId('file-input')
        .setInputFiles({ name: 'работа.png', mimeType: 'image/png', buffer: PNG });
      await box.locator('[data-testid^="attached-"]').first().waitFor({ timeout: 20_000 });
      break;
    default:
      throw new Error(`unexpected answer type ${task.answerType}`);
  }
  // Leaving the field commits the change at once (the autosave also fires after a short pause).
  await page.keyboard.press('Tab');
}

async function waitSaved(page: Page) {
  await expect
    .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
    .toMatch(/Сохранено/);
}

describe('the participant runner', () => {
  it('keeps every answer through offline, reconnect and reload, then finishes', async () => {
    const { context, page } = await newPage(browser);
    try {
      await startWork(page, codes());
      const tasks = await variant(page.request);
      const types = new Set(tasks.map((t) => t.answerType));
      expect(types.size).toBe(10);

      // Online: every answer type, one file.
      for (const task of tasks) await answer(page, task, 'первый');
      await waitSaved(page);

      // Offline: keep answering; the status says what waits.
      const textTasks = tasks.filter(
        (t) => t.answerType === 'short_text' || t.answerType === 'extended_text',
      );
      await context.setOffline(true);
      for (const task of textTasks) await answer(page, task, 'офлайн');
      await expect
        .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
        .toMatch(/Нет связи/);
      await checkA11y(page, 'runner-offline');

      // Back online: the queue drains by itself.
      await context.setOffline(false);
      await waitSaved(page);

      // Reload: the browser asks first; every answer is there, on the server and on the page.
      await reloadAgreeing(page);
      await page.getByTestId('task-nav-1').waitFor();
      const state = await workState(page.request);
      const answered = new Set(state.answers.filter((a) => a.value !== null).map((a) => a.variantTaskId));
      for (const task of tasks) expect(answered.has(task.variantTaskId), `task ${task.position}`).toBe(true);
      const short = tasks.find((t) => t.answerType === 'short_text')!;
      expect(state.answers.find((a) => a.variantTaskId === short.variantTaskId)!.value).toBe('офлайн');
      const file = tasks.find((t) => t.answerType === 'file')!;
      expect(state.answers.find((a) => a.variantTaskId === file.variantTaskId)!.fileIds?.length).toBe(1);
      await page.getByTestId(`task-nav-${short.position}`).click();
      expect(await page.getByTestId(`task-${short.position}`).getByTestId('short-text').inputValue()).toBe(
        'офлайн',
      );

      // Finish: the summary, then the finished screen; the server agrees.
      await page.getByTestId('finish-work').click();
      await page.getByTestId('finish-confirm').click();
      await page.getByTestId('work-finished').waitFor();
      const finished = await workState(page.request);
      expect(finished.status).toMatch(/^(finished|scored)$/);
      expect(finished.finishReason).toBe('manual');
    } finally {
      await context.close();
    }
  });

  it('a reload while offline opens the runner; a file attached offline survives it and is sent when the network returns', async () => {
    const { context, page } = await newPage(browser);
    try {
      await startWork(page, codes());
      const tasks = await variant(page.request);
      const short = tasks.find((t) => t.answerType === 'short_text')!;
      const file = tasks.find((t) => t.answerType === 'file')!;
      await answer(page, short, 'до обрыва');
      await waitSaved(page);
      // The service worker has precached the shell; the runner keeps its own copy of the variant
      // (no reload online is needed first).
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));

      await context.setOffline(true);
      await page.getByTestId(`task-nav-${file.position}`).click();
      await page
        .getByTestId(`task-${file.position}`)
        .getByTestId('file-input')
        .setInputFiles({ name: 'офлайн.png', mimeType: 'image/png', buffer: PNG });
      await page.getByTestId('waiting-files').waitFor();
      await answer(page, short, 'без связи');
      await expect
        .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
        .toMatch(/Нет связи/);

      // Reload without a network: the runner opens from what the browser has.
      await reloadAgreeing(page);
      await page.getByTestId('task-nav-1').waitFor({ timeout: 20_000 });
      // The waiting file is read back from IndexedDB a moment after the runner opens.
      await expect
        .poll(() => page.getByTestId(`task-nav-${file.position}`).getAttribute('data-unsaved'), {
          timeout: 10_000,
        })
        .not.toBeNull();
      await page.getByTestId(`task-nav-${short.position}`).click();
      expect(await page.getByTestId(`task-${short.position}`).getByTestId('short-text').inputValue()).toBe(
        'без связи',
      );
      await page.getByTestId(`task-nav-${file.position}`).click();
      await expect
        .poll(async () => (await page.getByTestId('waiting-files').textContent()) ?? '', { timeout: 10_000 })
        .toContain('офлайн.png');

      // The network returns: the answer and the file reach the server by themselves.
      await context.setOffline(false);
      await page
        .getByTestId(`task-${file.position}`)
        .locator('[data-testid^="attached-"]')
        .first()
        .waitFor({ timeout: 30_000 });
      await waitSaved(page);
      const state = await workState(page.request);
      expect(state.answers.find((a) => a.variantTaskId === short.variantTaskId)!.value).toBe('без связи');
      expect(state.answers.find((a) => a.variantTaskId === file.variantTaskId)!.fileIds?.length).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('finishes the work on the server when the timer reaches zero', async () => {
    const { context, page } = await newPage(browser);
    let staff: BrowserContext | undefined;
    try {
      await startWork(page, codes());
      const tasks = await variant(page.request);
      await answer(
        page,
        tasks.find((t) => t.answerType === 'short_text')!,
        'успел',
      );
      await waitSaved(page);
      const { id } = await workState(page.request);

      // The coordinator of the school cuts the time to a few seconds.
      staff = await browser.newContext({ baseURL: baseURL() });
      const login = await staff.request.post('/api/Account/login', {
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        data: { login: 'coordinator', password: process.env.DEMO_PASSWORD ?? 'demo' },
      });
      expect(login.status()).toBe(200);
      const before = await (await page.request.get(`/api/exam/test/examwork/left/${id}`)).json();
      const cut = before.secondsLeft - 8;
      const hh = String(Math.floor(cut / 3600)).padStart(2, '0');
      const mm = String(Math.floor((cut % 3600) / 60)).padStart(2, '0');
      const ss = String(cut % 60).padStart(2, '0');
      const change = await staff.request.get(
        `/api/exam/test/examwork/ChangeTimeTill?ids=${id}&timeSpan=-${hh}:${mm}:${ss}&reason=e2e`,
        { headers: { 'x-requested-with': 'XMLHttpRequest' } },
      );
      expect(change.status()).toBe(200);

      // The page learns the new deadline and, at zero, the work is finished on the server.
      await reloadAgreeing(page);
      await page.getByTestId('work-finished').waitFor({ timeout: 45_000 });
      // Finished, and then scored by the result job as soon as it runs.
      await expect
        .poll(async () => (await workState(page.request)).status, { timeout: 20_000 })
        .toMatch(/^(finished|scored)$/);
      const state = await workState(page.request);
      expect(state.finishReason).toBe('timeout');
      const short = tasks.find((t) => t.answerType === 'short_text')!;
      expect(state.answers.find((a) => a.variantTaskId === short.variantTaskId)!.value).toBe('успел');
    } finally {
      await staff?.close();
      await context.close();
    }
  });

  it('is a shell of its own: the back button asks first; on a phone the header is one compact bar', async () => {
    const { context, page } = await newPage(browser);
    try {
      await startWork(page, codes());
      // No portal around the sitting: no sidebar, no language switch, no session countdown; one timer.
      expect(await page.getByTestId('language-switch').count()).toBe(0);
      expect(await page.getByTestId('session-time').count()).toBe(0);
      expect(await page.getByTestId('timer').count()).toBe(1);
      expect(await page.locator('main').count()).toBe(1);

      // The back button (to the start page) meets the runner's question; staying keeps the work.
      await page.evaluate(() => history.back());
      await page.getByTestId('leave-stay').waitFor();
      await checkA11y(page, 'runner-leave-question');
      await page.getByTestId('leave-stay').click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/participant/work');
      await page.getByTestId('task-1').waitFor();

      for (const width of [320, 360, 390]) {
        await page.setViewportSize({ width, height: 740 });
        const bar = page.getByTestId('runner-bar');
        await expect.poll(() => bar.getAttribute('data-compact')).not.toBeNull();
        const box = (await bar.boundingBox())!;
        // One bar, not a third of the screen: the task starts right under it.
        expect(box.height, `header at ${width} px`).toBeLessThanOrEqual(56);
        expect(await bar.getByTestId('timer').isVisible()).toBe(true);
        expect(await page.getByTestId('finish-work').count()).toBe(0);
        const task = (await page.getByTestId('task-1').boundingBox())!;
        expect(task.y, `task at ${width} px`).toBeLessThan(200);
        // Nothing wider than the phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `overflow at ${width} px`).toBeLessThanOrEqual(0);
      }

      // The menu holds the rest: finish among it.
      await page.getByTestId('runner-menu').click();
      await page.getByTestId('finish-work').waitFor();
      await checkA11y(page, 'runner-phone-menu');
      expect(await page.getByTestId('runner-logout').isVisible()).toBe(true);

      // Back to a wide screen: the full header again.
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 720 });
      await expect.poll(() => page.getByTestId('runner-bar').getAttribute('data-compact')).toBeNull();
      expect(await page.getByTestId('finish-work').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
