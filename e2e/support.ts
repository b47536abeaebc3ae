import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

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
