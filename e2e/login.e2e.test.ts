import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Issue 2: every demo role logs in with the password, lands on its home, and logs off;
// a participant logs in with a demo activation code.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const ROLES = ['admin', 'coordinator', 'organizator', 'expert', 'ugnik', 'guest'] as const;

describe('signing in', () => {
  it.each(ROLES)('%s logs in, lands on the role home and logs off', async (role) => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/');
      await page.waitForURL(/\/login/);
      await page.getByTestId('login-tab-password').click();
      await page.locator('input[name="login"]').fill(role);
      await page.locator('input[name="password"]').fill(process.env.DEMO_PASSWORD ?? 'demo');
      await page.getByTestId('login-submit').click();
      await page.getByTestId(`role-home-${role}`).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/${role}`);
      // The session is a real httpOnly cookie.
      const cookie = (await context.cookies()).find((c) => c.name === 'attesta_sid');
      expect(cookie?.httpOnly).toBe(true);
      await page.getByTestId('logoff').click();
      await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/login');
      await page.getByTestId('login-title').waitFor();
      const after = await page.request.get('/api/user/hasSession');
      expect(await after.json()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('switches the login page to English, which loads then, and opens in English after a reload', async () => {
    const { context, page } = await newPage(browser);
    try {
      const scripts: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
      });
      await page.goto('/login');
      await expect(page.getByTestId('login-title').textContent()).resolves.toMatch(/Вход/);
      // English is a chunk of its own (web/src/lib/i18n.ts): not loaded for a Russian page.
      const english = (path: string) => /\/assets\/en-[^/]*\.js$/.test(path);
      expect(scripts.filter(english)).toEqual([]);
      await page.getByTestId('language-switch').getByText('EN').click();
      await expect
        .poll(() => page.getByTestId('login-title').textContent(), { timeout: 10_000 })
        .toMatch(/Sign in/);
      expect(scripts.filter(english)).toHaveLength(1);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      // The choice is remembered: the next visit loads English before its first paint.
      await page.reload();
      await expect(page.getByTestId('login-title').textContent()).resolves.toMatch(/Sign in/);
    } finally {
      await context.close();
    }
  });

  it('refuses a wrong password with a message and stays on the login page', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login');
      // The page leads with the activation code; staff take the second tab.
      await page.getByTestId('login-tab-password').click();
      await page.locator('input[name="login"]').fill('coordinator');
      await page.locator('input[name="password"]').fill('wrong-password');
      await page.getByTestId('login-submit').click();
      await expect(page.getByTestId('login-error').textContent()).resolves.toMatch(
        /Неверный логин или пароль/,
      );
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      await context.close();
    }
  });

  it('a participant logs in with a demo activation code', async () => {
    const codes = demoCodes();
    expect(codes.length).toBeGreaterThan(0);
    expect(codes[0]!.code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login');
      await page.getByTestId('login-tab-code').click();
      await page.locator('input[name="activationCode"]').fill(codes[0]!.code.toLowerCase());
      await page.getByTestId('login-code-submit').click();
      await page.getByTestId('role-home-participant').waitFor();
      expect(new URL(page.url()).pathname).toBe('/participant');
    } finally {
      await context.close();
    }
  });

  it('sends a visitor without a session to the login page', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/coordinator');
      await page.waitForURL(/\/login/);
      expect(new URL(page.url()).searchParams.get('returnUrl')).toBe('/coordinator');
    } finally {
      await context.close();
    }
  });
});
