import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian's Chromium, never a downloaded browser; flags keep it off the (closed) network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const baseURL = () => inject('baseURL');

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), locale: 'ru-RU' });
  const page = await context.newPage();
  return { context, page };
}

/** Today's demo activation codes, through `npm run demo:codes` while the server runs. */
export function demoCodes(): { code: string; participant: string; subjectTest: string }[] {
  const out = execFileSync('npm', ['run', '--silent', 'demo:codes'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: inject('dataDir'), DEMO_DATA: 'true' },
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [code = '', participant = '', subjectTest = ''] = line.split('\t');
      return { code, participant, subjectTest };
    });
}

/**
 * The console errors and uncaught exceptions of a page (and of every page it opens later, when
 * given its context), for a journey that must end without one. A browser logs a failed request as
 * a console error too («Failed to load resource …»): a 404 for a missing icon counts like a thrown
 * error. Only between `goOffline` and `goOnline` are the errors of the missing network tolerated.
 */
export function watchConsole(target: Page | BrowserContext) {
  const errors: string[] = [];
  let offline = false;
  /** What the browser and the app say when there is no network at all, and nothing else. */
  const NETWORK_DOWN = /ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_NETWORK_CHANGED/;
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (offline && NETWORK_DOWN.test(text)) return;
      const where = message.location().url;
      errors.push(`${page.url()}: ${text}${where ? ` (${where})` : ''}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
  };
  if ('goto' in target) watch(target);
  else {
    target.pages().forEach(watch);
    target.on('page', watch);
  }
  return {
    errors,
    /** The context loses its network: the network's own errors are tolerated until it is back. */
    async goOffline(context: BrowserContext) {
      offline = true;
      await context.setOffline(true);
    },
    async goOnline(context: BrowserContext) {
      await context.setOffline(false);
      offline = false;
    },
    expectNone(label = 'console errors') {
      expect(errors, label).toEqual([]);
    },
  };
}

/** A journey's end: the address (path and query) and the page's main heading the user expects there. */
export async function expectEndPage(page: Page, path: RegExp, heading: RegExp): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toMatch(path);
  await expect
    .poll(async () => (await page.locator('h1').allTextContents()).join(' | '), { timeout: 10_000 })
    .toMatch(heading);
}

/**
 * A participant signs in by activation code, starts the work from the start page and sees task 1;
 * `atEachPage` runs on the login form, the start page and the runner as each is shown.
 */
export async function startWork(page: Page, code: string, atEachPage?: () => Promise<void>): Promise<void> {
  await page.goto('/login?tab=code');
  await page.locator('input[name="activationCode"]').fill(code);
  await atEachPage?.();
  await page.getByTestId('login-code-submit').click();
  await page.getByTestId('role-home-participant').waitFor();
  await atEachPage?.();
  await page.getByTestId('start-work').click();
  await page.waitForURL(/\/participant\/work/);
  await page.getByTestId('task-1').waitFor();
  await atEachPage?.();
}

/**
 * Mantine's class names (`m_` and eight hex digits) that its full stylesheet styles. The shell links
 * only the sheets of its own components (web/vite.config.ts): a class of these on the page with no
 * rule in the page's sheets is a component drawn without its styles.
 */
const fromWeb = createRequire(join(root, 'web/package.json'));
const MANTINE_CLASSES = new Set(
  [...readFileSync(fromWeb.resolve('@mantine/core/styles.css'), 'utf8').matchAll(/\.(m_[0-9a-f]{8})\b/g)].map(
    (m) => m[1]!,
  ),
);

/** Mantine classes on the page that none of its stylesheets has a rule for. */
export async function unstyledMantineClasses(page: Page): Promise<string[]> {
  const { used, styled } = await page.evaluate(() => {
    const used = new Set<string>();
    for (const el of document.querySelectorAll('[class*="m_"]'))
      for (const c of el.classList) if (/^m_[0-9a-f]{8}$/.test(c)) used.add(c);
    const styled = new Set<string>();
    const visit = (rules: CSSRuleList) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule)
          for (const m of rule.selectorText.matchAll(/\.(m_[0-9a-f]{8})/g)) styled.add(m[1]!);
        if ('cssRules' in rule) visit((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of document.styleSheets) visit(sheet.cssRules);
    return { used: [...used], styled: [...styled] };
  });
  return used.filter((c) => MANTINE_CLASSES.has(c) && !styled.includes(c));
}
