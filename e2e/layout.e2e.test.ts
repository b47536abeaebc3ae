import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Issue 23, item 6 ("nothing raw, nothing cut"), measured in Chromium where layout decides:
// badges wrap between words and never inside one, at 1366 px and on a 390 px phone; the runner's
// task strip shows that it scrolls on the phone; matching and cloze fields fit their answers.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await expect
    .poll(
      () =>
        page
          .locator('.mantine-Loader-root:visible, .lite-loader:visible, [aria-busy="true"]:visible')
          .count(),
      {
        timeout: 15_000,
      },
    )
    .toBe(0);
}

async function signIn(page: Page, login: string): Promise<void> {
  await page.goto('/login?tab=password');
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(process.env.DEMO_PASSWORD ?? 'demo');
  await page.getByTestId('login-submit').click();
  await page.getByTestId(`role-home-${login}`).waitFor();
  await settled(page);
}

/**
 * Every badge on the page whose label breaks onto a new line between two letters: for each
 * character its line box (a Range's rect); a new line that starts after a letter, not after a
 * space or a hyphen, is a word cut in two.
 */
function cutBadges(page: Page): Promise<{ count: number; cut: string[] }> {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll<HTMLElement>('.mantine-Badge-label')].filter(
      (el) => el.getClientRects().length > 0,
    );
    const cut: string[] = [];
    for (const label of labels) {
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      let lastTop: number | null = null;
      let lastChar = ' ';
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let i = 0; i < node.data.length; i++) {
          const ch = node.data[i]!;
          if (/\s/.test(ch)) {
            lastChar = ch;
            continue;
          }
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          if (lastTop !== null && rect.top > lastTop + rect.height / 2 && !/[\s\-‐–—/]/.test(lastChar))
            cut.push(label.textContent ?? '');
          lastTop = rect.top;
          lastChar = ch;
        }
      }
    }
    return { count: labels.length, cut: [...new Set(cut)] };
  });
}

/** Pages of each role where badges hold long Russian words (statuses, roles, answer types). */
const PAGES: Record<string, string[]> = {
  admin: ['/admin', '/admin/diagnostics', '/admin/users', '/admin/tasks', '/admin/queue'],
  coordinator: ['/coordinator', '/coordinator/diagnostics', '/coordinator/organizators'],
  organizator: ['/organizator/room'],
};

describe('badges', () => {
  it('never break inside a word, at 1366 px and on a 390 px phone', async () => {
    let seen = 0;
    const cut: string[] = [];
    for (const [login, paths] of Object.entries(PAGES)) {
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, login);
        for (const size of [DESKTOP, PHONE]) {
          await page.setViewportSize(size);
          for (const path of paths) {
            await page.goto(path);
            await settled(page);
            const found = await cutBadges(page);
            seen += found.count;
            cut.push(...found.cut.map((text) => `${size.width} px ${path}: «${text}»`));
          }
        }
      } finally {
        await context.close();
      }
    }
    expect(cut).toEqual([]);
    // The check saw badges (a page without any would prove nothing).
    expect(seen).toBeGreaterThan(20);
  });
});

interface Task {
  variantTaskId: number;
  position: number;
  answerType: string;
  content: Record<string, unknown>;
}

/** A math code (many tasks, a cloze and a matching task) the other browser tests leave alone. */
function mathCode(): string {
  const math = demoCodes().filter((c) => /математике/i.test(c.subjectTest));
  const code = math[Math.floor(math.length / 2) - 1];
  if (!code) throw new Error('no demo math code');
  return code.code;
}

describe('the runner on a phone', () => {
  it('shows that the task strip scrolls, and fits cloze and matching answers', async () => {
    const { context, page } = await newPage(browser);
    try {
      // Started at a desk (the device check refuses a phone's screen for a start), continued on a phone.
      await page.goto('/login?tab=code');
      await page.locator('input[name="activationCode"]').fill(mathCode());
      await page.getByTestId('login-code-submit').click();
      await page.getByTestId('role-home-participant').waitFor();
      const start = page.getByTestId('start-work');
      const resume = page.getByTestId('continue-work');
      await start.or(resume).first().waitFor();
      if (await start.isVisible()) {
        await expect.poll(() => start.isEnabled(), { timeout: 20_000 }).toBe(true);
        await start.click();
      } else await resume.click();
      await page.waitForURL(/\/participant\/work/);
      await page.getByTestId('task-1').waitFor();
      const tasks = (
        (await (await page.request.get('/api/exam/test/variant/current')).json()) as {
          tasks: Task[];
        }
      ).tasks;
      await page.setViewportSize(PHONE);
      // The task's own badges (its answer type) keep their words whole on the phone too.
      expect((await cutBadges(page)).cut).toEqual([]);

      // The strip: more numbers than fit, and it says so — a faded edge and a button.
      const strip = page.getByTestId('task-nav-strip');
      const list = strip.locator('ol');
      const sizes = () =>
        list.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, left: el.scrollLeft }));
      expect((await sizes()).scroll).toBeGreaterThan((await sizes()).client);
      await expect.poll(() => strip.getAttribute('data-hidden-after')).toBe('true');
      const mask = await list.evaluate((el) => {
        const style = getComputedStyle(el);
        return style.getPropertyValue('mask-image') || style.getPropertyValue('-webkit-mask-image');
      });
      expect(mask).toContain('gradient');
      const on = page.getByTestId('task-nav-scroll-on');
      const box = (await on.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await on.click();
      await expect.poll(async () => (await sizes()).left).toBeGreaterThan(0);
      await expect.poll(() => strip.getAttribute('data-hidden-before')).toBe('true');
      await expect(page.getByTestId('task-nav-scroll-back').isVisible()).resolves.toBe(true);

      // A cloze gap takes a long answer whole.
      const cloze = tasks.find(
        (t) =>
          t.answerType === 'cloze' && (t.content.blanks as { kind: string }[]).some((b) => b.kind === 'text'),
      );
      expect(cloze).toBeTruthy();
      await page.getByTestId(`task-nav-${cloze!.position}`).click();
      const blank = (cloze!.content.blanks as { id: string; kind: string }[]).find((b) => b.kind === 'text')!;
      const field = page.getByTestId(`task-${cloze!.position}`).getByTestId(`blank-${blank.id}`);
      await field.fill('электрификация');
      const fits = await field.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      expect(fits).toBe(true);

      // A matching select shows its longest choice whole, or is as wide as the screen allows.
      const matching = tasks.find((t) => t.answerType === 'matching');
      expect(matching).toBeTruthy();
      await page.getByTestId(`task-nav-${matching!.position}`).click();
      const left = (matching!.content.left as { id: string }[])[0]!;
      const select = page.getByTestId(`task-${matching!.position}`).getByTestId(`match-${left.id}`);
      const room = await select.evaluate((el) => {
        const s = el as HTMLSelectElement;
        const style = getComputedStyle(s);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const longest = Math.max(...[...s.options].map((o) => ctx.measureText(o.text).width));
        const inner = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const row = s.closest('.matching-row')!.clientWidth;
        return { longest, inner, capped: s.getBoundingClientRect().width >= row - 1 };
      });
      expect(room.capped || room.longest <= room.inner + 1).toBe(true);
    } finally {
      await context.close();
    }
  });
});
