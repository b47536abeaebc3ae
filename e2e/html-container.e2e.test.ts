import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Issue 3: an interactive task (html container) in the participant's runner. The demo informatics
// test ends with "binary lamps": a sandboxed container whose script, stylesheet and pictures load
// through a signed link, and whose answer goes through the runner's autosave and survives a reload.

interface Task {
  variantTaskId: number;
  position: number;
  htmlContainerId: number | null;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/** A demo informatics code from the end of the list (the grading test takes the first 9th-grade code). */
const informaticsCode = () =>
  demoCodes()
    .filter((c) => /информатике/i.test(c.subjectTest))
    .at(-1)!.code;

async function openContainerTask(page: Page, task: Task): Promise<FrameLocator> {
  await page.getByTestId(`task-nav-${task.position}`).click();
  const box = page.getByTestId(`task-${task.position}`);
  await box.getByTestId('html-container-frame').waitFor();
  const frame = box.frameLocator('[data-testid="html-container-frame"]');
  await frame.locator('[data-bit]').first().waitFor({ timeout: 20_000 });
  return frame;
}

const pressed = (frame: FrameLocator) =>
  frame
    .locator('[data-bit]')
    .evaluateAll((buttons) =>
      buttons.map((b) => (b.getAttribute('aria-pressed') === 'true' ? '1' : '0')).join(''),
    );

describe('an interactive task', () => {
  it('runs sandboxed, loads its files by a signed link, saves the answer and restores it after a reload', async () => {
    const { context, page } = await newPage(browser);
    const containerResponses: { url: string; status: number }[] = [];
    page.on('response', (res) => {
      if (/\/api\/kim\/htmlContainer\//i.test(res.url()))
        containerResponses.push({ url: res.url(), status: res.status() });
    });
    try {
      await page.goto('/login?tab=code');
      await page.locator('input[name="activationCode"]').fill(informaticsCode());
      await page.getByTestId('login-code-submit').click();
      await page.getByTestId('role-home-participant').waitFor();
      await page.getByTestId('start-work').click();
      await page.waitForURL(/\/participant\/work/);
      await page.getByTestId('task-1').waitFor();

      const variant = await (await page.request.get('/api/exam/test/variant/current')).json();
      const task = (variant.tasks as Task[]).find((t) => t.htmlContainerId !== null)!;
      expect(task, 'the demo informatics test has an interactive task').toBeTruthy();

      const frame = await openContainerTask(page, task);
      const element = page.getByTestId('html-container-frame');
      expect(await element.getAttribute('sandbox')).toBe('allow-scripts');
      expect(await element.getAttribute('title')).toBe(`Интерактивное задание ${task.position}`);
      expect(await element.getAttribute('src')).toMatch(/\/index\?sig=/);

      // The script ran (it built the lamps), the stylesheet applied, the picture loaded.
      expect(await frame.locator('[data-bit]').count()).toBe(8);
      expect(
        await frame
          .locator('.bit')
          .first()
          .evaluate((b) => getComputedStyle(b).borderRadius),
      ).toBe('8px');
      await expect
        .poll(() => frame.locator('.lead img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      // Every file of the container came by the signed link: page, script, stylesheet, pictures
      // (the lamp picture is asked for by the stylesheet itself).
      await expect
        .poll(() => containerResponses.filter((r) => /bulb\.svg/.test(r.url)).length)
        .toBeGreaterThan(0);
      for (const path of ['/index?', '/bundles/app.js?', '/style.css?', '/bulb.svg?'])
        expect(
          containerResponses.some((r) => r.url.includes(path) && r.url.includes('sig=')),
          path,
        ).toBe(true);
      expect(containerResponses.filter((r) => r.status !== 200)).toEqual([]);
      // It told the runner its height.
      await expect
        .poll(async () => element.evaluate((f) => (f as HTMLElement).style.height))
        .not.toBe('360px');

      // The sandbox: the container can reach neither the app's page nor its cookies.
      expect(
        await frame.locator('body').evaluate(() => {
          const reach = (probe: () => unknown) => {
            try {
              probe();
              return 'open';
            } catch {
              return 'blocked';
            }
          };
          return [reach(() => window.parent.document.body), reach(() => document.cookie)];
        }),
      ).toEqual(['blocked', 'blocked']);

      // Answer 42 = 00101010: two lamps by mouse, one by keyboard.
      await frame.locator('[data-bit="2"]').click();
      await frame.locator('[data-bit="4"]').click();
      await frame.locator('[data-bit="6"]').focus();
      await page.keyboard.press('Space');
      expect(await pressed(frame)).toBe('00101010');
      await expect
        .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
        .toMatch(/Сохранено/);
      expect(
        await page.getByTestId(`task-nav-${task.position}`).getAttribute('data-answered'),
      ).not.toBeNull();

      const current = await (await page.request.get('/api/exam/test/currentParticipantTest')).json();
      const state = await (await page.request.get(`/api/exam/test/examwork/${current.examWork.id}`)).json();
      const saved = (state.answers as { variantTaskId: number; value: unknown }[]).find(
        (a) => a.variantTaskId === task.variantTaskId,
      );
      expect(saved?.value).toBe('00101010');

      // Reload (the running work asks first, and the participant agrees): the runner sends the
      // saved answer to the container, which shows it again.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.reload();
      await page.getByTestId('task-nav-1').waitFor();
      const again = await openContainerTask(page, task);
      await expect.poll(() => pressed(again)).toBe('00101010');
      expect(await again.locator('#code').textContent()).toBe('00101010');
    } finally {
      await context.close();
    }
  });
});
