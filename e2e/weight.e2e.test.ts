import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseURL, demoCodes, launchBrowser } from './support.js';

// Issue 24, item 1: the participant's path weighs little. A first visit — login by code, the start
// page, the runner through every answer type — loads at most PARTICIPANT_BUDGET bytes of JavaScript
// and CSS as the browser transferred them (compressed, headers included), fonts and images aside;
// the staff screens, the rich-text editor, charts, the PDF viewer and the reports never come.
// The figure is printed for docs/BENCHMARKS.md.

/**
 * Bytes of JS and CSS a participant's first visit may transfer: today's figure (docs/BENCHMARKS.md)
 * and a little room, so the path cannot grow unseen. The aim is 200 kB; what stands between
 * (React with its router, Mantine's core and stylesheet, the contract's schemas with zod) is
 * listed there, and this ceiling comes down as each goes.
 */
export const PARTICIPANT_BUDGET = 430_000;

/**
 * Chunks a participant must never load: route pages (each lazily loaded page is a `<name>-page-`
 * chunk; the participant's start page and runner are in the first chunks), the staff homes and
 * navigation, the rich-text editor, reports and their charts, the PDF viewer.
 */
const STAFF_ONLY =
  /\/assets\/[^/]*(-page-|role-home|work-place-nav|rich-text|task-editor|reports|protocol|charts|pdf)[^/]*$/;

interface Task {
  position: number;
  answerType: string;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/** A demo math code no other browser test takes (they take the first, the middle and the last six). */
function freshCode(): string {
  const math = demoCodes().filter((c) => /математике/i.test(c.subjectTest));
  const picked = math.at(-7);
  if (!picked) throw new Error('not enough demo math codes');
  return picked.code;
}

/** Every response of the page with what the network carried for it (Chromium's DevTools protocol). */
async function recordTransfers(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  const transfers: { url: string; bytes: number; encoding: string }[] = [];
  const encodings = new Map<string, string>();
  cdp.on('Network.responseReceived', (e) => {
    urls.set(e.requestId, e.response.url);
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    encodings.set(e.requestId, headers['content-encoding'] ?? 'identity');
  });
  cdp.on('Network.loadingFinished', (e) => {
    const url = urls.get(e.requestId);
    if (url) transfers.push({ url, bytes: e.encodedDataLength, encoding: encodings.get(e.requestId) ?? '' });
  });
  return transfers;
}

describe('the participant path', () => {
  it(`loads at most ${PARTICIPANT_BUDGET / 1000} kB of compressed JS and CSS on a first visit, no staff chunk`, async () => {
    // No service worker: its precache is the concern of the exam-morning total, not of the page.
    const context = await browser.newContext({
      baseURL: baseURL(),
      locale: 'ru-RU',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    try {
      const transfers = await recordTransfers(page);
      await page.goto('/login?tab=code');
      await page.locator('input[name="activationCode"]').fill(freshCode());
      await page.getByTestId('login-code-submit').click();
      await page.getByTestId('role-home-participant').waitFor();
      await page.getByTestId('start-work').click();
      await page.waitForURL(/\/participant\/work/);
      await page.getByTestId('task-1').waitFor();
      const res = await page.request.get('/api/exam/test/variant/current');
      const tasks = ((await res.json()) as { tasks: Task[] }).tasks;
      expect(new Set(tasks.map((t) => t.answerType)).size).toBe(10);
      for (const task of tasks) {
        await page.getByTestId(`task-nav-${task.position}`).click();
        await page.getByTestId(`task-${task.position}`).waitFor();
      }
      await page.waitForLoadState('networkidle');

      const assets = transfers.filter((t) => /\.(m?js|css)(\?|$)/.test(new URL(t.url).pathname));
      const total = assets.reduce((sum, t) => sum + t.bytes, 0);
      const lines = assets
        .map((t) => `${String(t.bytes).padStart(8)} ${t.encoding.padEnd(8)} ${new URL(t.url).pathname}`)
        .join('\n');
      console.log(`participant path: ${total} bytes of JS and CSS in ${assets.length} files\n${lines}`);
      expect(
        assets.filter((t) => STAFF_ONLY.test(t.url)).map((t) => t.url),
        'staff chunks',
      ).toEqual([]);
      expect(total, lines).toBeLessThanOrEqual(PARTICIPANT_BUDGET);
    } finally {
      await context.close();
    }
  });
});
