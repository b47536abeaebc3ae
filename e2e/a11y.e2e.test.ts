import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { checkA11y } from './axe.js';
import { dialogRoundTrip, tabTo, tabWalk } from './keyboard.js';
import { baseURL, demoCodes, launchBrowser, newPage, unstyledMantineClasses } from './support.js';

// Issue 14, item 3 (WCAG 2.2 AA): axe-core finds no serious or critical violation on any main
// screen of any role; the main screens of every role work from the keyboard alone (e2e/keyboard.ts);
// the login page, the runner, every role's home and the staff screens with data tables fit a
// 320 px wide screen.
// docs/accessibility.md says what is checked and how.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const RUSSIAN = 'Диагностическая работа по русскому языку, 7 класс';

/**
 * Russian-language codes of 7 «А», from the end of the list but one: the reports test takes the
 * last one, the other browser tests take math, informatics, the first code and the 9th grade.
 */
function russianCodes(): string[] {
  return demoCodes()
    .filter((c) => c.subjectTest === RUSSIAN)
    .slice(-3, -1)
    .map((c) => c.code);
}

/** Waits until the page has drawn its title and no loader spins any more. */
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

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await settled(page);
}

/** Signs a demo staff user in; `expert2` lands on the expert's home. */
async function signIn(page: Page, login: string): Promise<void> {
  await page.goto('/login?tab=password');
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(process.env.DEMO_PASSWORD ?? 'demo');
  await page.getByTestId('login-submit').click();
  await page.getByTestId(`role-home-${login.replace(/\d+$/, '')}`).waitFor();
  await settled(page);
}

async function signInWithCode(page: Page, code: string): Promise<void> {
  await page.goto('/login?tab=code');
  await page.locator('input[name="activationCode"]').fill(code);
  await page.getByTestId('login-code-submit').click();
  await page.getByTestId('role-home-participant').waitFor();
  await settled(page);
}

/** No horizontal scroll at `width`; a failure names the outermost elements that stick out. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const { scrollWidth, wide } = await page.evaluate((w) => {
    // Content inside a box that scrolls sideways within the screen (a wide table's panel) is fine.
    const insideScroller = (el: HTMLElement) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const overflow = getComputedStyle(p).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && p.getBoundingClientRect().right <= w + 1)
          return true;
      }
      return false;
    };
    const out = [...document.querySelectorAll<HTMLElement>('body *')].filter(
      (el) =>
        el.getBoundingClientRect().right > w + 1 &&
        !el.parentElement?.closest('[data-a11y-wide]') &&
        !insideScroller(el),
    );
    // The outermost ones: an element whose parent also sticks out is not the cause.
    const roots = out.filter((el) => !out.includes(el.parentElement as HTMLElement)).slice(0, 5);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      wide: roots.map(
        (el) => `${el.tagName.toLowerCase()}.${el.className} ${el.getAttribute('data-testid') ?? ''}`,
      ),
    };
  }, width);
  if (scrollWidth <= width) return;
  // A scroll area measures itself a frame after the page draws: give the layout a moment.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: `no horizontal scroll; too wide: ${wide.join(', ')}`,
      timeout: 3_000,
    })
    .toBeLessThanOrEqual(width);
}

/**
 * A staff screen at 320 × 640 (what 200 % zoom of 640 px gives), then back to the usual window:
 * the page does not scroll sideways, a wide table scrolls in its own box that takes keyboard
 * focus and is named, and every control outside such a box is on the screen.
 */
async function fitsNarrow(page: Page, screen: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 640 });
  try {
    await fitsWidth(page, 320);
    const { body, boxes, offscreen } = await page.evaluate(() => {
      const root = document.scrollingElement!;
      const scrollers = [...document.querySelectorAll<HTMLElement>('main *')].filter(
        (el) => /auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1,
      );
      const inScroller = (el: Element) => scrollers.some((s) => s.contains(el));
      return {
        body: root.scrollWidth - root.clientWidth,
        // A table's box that scrolls sideways: focusable and named, so arrow keys can scroll it.
        boxes: scrollers
          .filter((el) => el.querySelector('table'))
          .filter(
            (el) =>
              el.tabIndex !== 0 || !(el.getAttribute('aria-label') ?? el.getAttribute('aria-labelledby')),
          )
          .map((el) => el.className),
        offscreen: [...document.querySelectorAll<HTMLElement>('main a[href], main button, main input')]
          .filter((el) => !inScroller(el) && el.getClientRects().length > 0)
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.left < -1 || r.right > innerWidth + 1;
          })
          .map((el) => el.getAttribute('data-testid') ?? el.textContent),
      };
    });
    expect(body, `${screen} at 320 px: the page does not scroll sideways`).toBeLessThanOrEqual(1);
    expect(boxes, `${screen} at 320 px: a wide table's box takes focus and is named`).toEqual([]);
    expect(offscreen, `${screen} at 320 px: the controls are on the screen`).toEqual([]);
  } finally {
    await page.setViewportSize(size ?? { width: 1280, height: 720 });
  }
}

/** Staff screens with a data table, checked at 320 px in the same visit. */
const NARROW = new Set([
  '/organizator/protocol',
  '/organizator/students',
  '/organizator/classes',
  '/organizator/diagnostics',
  '/coordinator/students',
  '/coordinator/workers',
  '/admin/workers',
  '/coordinator/classes',
  '/coordinator/diagnostics',
  '/coordinator/reports',
  '/expert/grading',
  '/ugnik/diagnostics',
  '/ugnik/reports',
  '/admin/users',
  '/admin/schools',
  '/admin/content/tests',
  '/admin/content/tasks',
  '/admin/diagnostics',
  '/admin/queue',
  '/admin/audit',
  '/admin/reports',
]);

/** Screens walked with the keyboard (every role's home is walked too). */
const WALK = new Set([
  '/coordinator/students',
  '/coordinator/reports',
  '/expert/grading',
  '/expert/profile',
  '/ugnik/diagnostics',
  '/admin/users',
  '/admin/audit',
]);

/** Keyboard steps of a screen beyond the walk: a primary button, a row action, a searchable picker. */
const KEYS: Record<string, (page: Page) => Promise<void>> = {
  '/admin/users': async (page) => {
    // The primary button and a row's first action each open their dialog; focus comes back.
    await tabTo(page, (s) => s.testId === 'user-create', 'the create button');
    await dialogRoundTrip(page, 'admin-users-create', 'Space');
    await tabTo(page, (s) => s.inRow, "a row's action");
    await dialogRoundTrip(page, 'admin-users-row-action');
  },
  '/admin/audit': async (page) => {
    // A searchable picker: type, arrow to the first match, Enter takes it; Escape closes the list.
    const picker = page.getByTestId('audit-action');
    await tabTo(page, (s) => s.testId === 'audit-action', 'the action picker');
    await page.keyboard.press('ArrowDown');
    const first = (await page.locator('[role="option"]').first().textContent()) ?? '';
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[role="listbox"]:visible').count()).toBe(0);
    const typed = first.slice(0, 3);
    await page.keyboard.type(typed);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await picker.inputValue()).toLowerCase()).toContain(typed.toLowerCase());
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[role="listbox"]:visible').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'audit-action',
    );
  },
};

/** Calls a page may make while its answers are held: the route guards' (who is signed in). */
const GUARD_CALLS = new Set(['/api/user', '/api/user/sessionTime']);

/**
 * Runs `navigate` with the API's answers held back, and checks the page as it is drawn while it
 * waits for them (loaders, empty panels), then lets them through. The page is taken as drawn once
 * it shows a title or a loader and has asked nothing new for a moment. Serious and critical
 * violations only: a page that is loading has no title yet.
 */
async function whileLoading(page: Page, screen: string, navigate: () => Promise<unknown>): Promise<void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const hold = async (route: Route) => {
    if (GUARD_CALLS.has(new URL(route.request().url()).pathname)) return route.continue();
    held++;
    await gate;
    await route.continue().catch(() => undefined);
  };
  await page.route('**/api/**', hold);
  try {
    await navigate();
    const drawn = page.locator(
      'h1:not([data-seen]), .mantine-Loader-root:visible, .lite-loader:visible, [aria-busy="true"]',
    );
    await drawn.first().waitFor({ timeout: 15_000 });
    for (let seen = -1; seen !== held;) {
      seen = held;
      await page.waitForTimeout(250);
    }
    if (held > 0) await checkA11y(page, `${screen}-loading`, { structure: false, screenshot: false });
  } finally {
    release();
    await page.unroute('**/api/**', hold);
  }
}

/**
 * Every page a role's navigation reaches, from its home: the links of every `<nav>` on a page (the
 * layout's side menu, a section's own menu such as the KIM section's, the home's shortcuts) are
 * followed, breadth first, and the pages they open are searched for more. A link is clicked where
 * the page shows it, as a user would; a link found on an earlier page only is opened by address.
 * Each page is checked while it loads (`whileLoading`; the home by reloading it), then `onPage`
 * runs once it has settled. The paths visited (after any redirect) come back in order. Nothing is
 * listed by hand, so a new page in a menu is checked without editing this file.
 */
async function crawl(
  page: Page,
  onPage: (path: string) => Promise<void>,
  { prefix = '', limit = 80 } = {},
): Promise<string[]> {
  const here = () => {
    const url = new URL(page.url());
    return `${url.pathname}${url.search}`;
  };
  const visited: string[] = [];
  const seen = new Set<string>([here()]);
  const queue: string[] = [here()];
  while (queue.length > 0) {
    const path = queue.shift()!;
    // The page's title takes focus on every navigation; a title not marked here is the new page's.
    await page.evaluate(() =>
      document.querySelectorAll('h1').forEach((h) => h.setAttribute('data-seen', '')),
    );
    await whileLoading(page, `${prefix}${screenName(path)}`, async () => {
      if (path === here()) return page.reload();
      const link = page.locator(`nav a[href="${path}"]:visible`).first();
      if ((await link.count()) > 0) await link.click();
      else await page.goto(path);
    });
    await page
      .locator('h1:not([data-seen])')
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(() => {
        throw new Error(`${path}: no page title (h1) appeared after the navigation`);
      });
    await settled(page);
    const at = here();
    seen.add(at);
    if (visited.includes(at)) continue;
    visited.push(at);
    expect(visited.length, `the crawl stops at ${limit} pages`).toBeLessThanOrEqual(limit);
    await onPage(at);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>('nav a[href]')]
        .filter((a) => !a.hasAttribute('download') && a.target !== '_blank')
        .map((a) => new URL(a.href, location.href))
        .filter((u) => u.origin === location.origin && !u.pathname.startsWith('/api/'))
        .map((u) => `${u.pathname}${u.search}`),
    );
    for (const link of links) {
      if (seen.has(link)) continue;
      seen.add(link);
      queue.push(link);
    }
  }
  return visited;
}

/** Staff roles whose pages are all reached from their home's navigation. */
const STAFF = ['guest', 'coordinator', 'expert', 'ugnik', 'admin'];

const screenName = (path: string) => path.slice(1).replace(/[/?=&]/g, '-');

/** The checks of one page the crawl reaches: axe, and the keyboard and 320 px where listed above. */
async function checkScreen(page: Page, path: string): Promise<void> {
  // Mantine's sheets come in parts (the participant's shell has its own components' only): nothing drawn unstyled.
  expect(await unstyledMantineClasses(page), `${path}: Mantine classes without their stylesheet`).toEqual([]);
  await checkA11y(page, screenName(path));
  if (WALK.has(path)) await tabWalk(page, screenName(path), 60);
  await KEYS[path]?.(page);
  if (NARROW.has(path)) await fitsNarrow(page, screenName(path));
}

/**
 * A role's crawl reached its home and every screen this file walks, narrows or drives by keyboard,
 * so it cannot pass by visiting nothing.
 */
function expectReached(visited: string[], role: string): void {
  const listed = [...WALK, ...NARROW, ...Object.keys(KEYS)].filter((p) => p.startsWith(`/${role}/`));
  expect(visited).toEqual(expect.arrayContaining([`/${role}`, ...listed]));
}

describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  it('the check itself fails on an unlabelled button', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.setContent('<html lang="en"><body><main><button></button></main></body></html>');
      await expect(checkA11y(page, 'axe-self-check', { survey: false })).rejects.toThrow(
        /button-name \[critical\]/,
      );
    } finally {
      await context.close();
    }
  });

  it('the keyboard walk itself fails on a button without a focus indicator and on a trap', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.setContent(
        '<html lang="en"><body><main><a href="#a">A</a><button style="outline:none">B</button>' +
          '<input id="t"><button>C</button></main></body></html>',
      );
      await expect(tabWalk(page, 'keyboard-self-check')).rejects.toThrow(/no visible focus indicator/);
      // A field that sends Tab back to the link before it: focus never leaves the two.
      await page.evaluate(() =>
        document.getElementById('t')!.addEventListener('keydown', (e) => {
          if (e.key !== 'Tab') return;
          e.preventDefault();
          document.querySelector('a')!.focus();
        }),
      );
      await page.evaluate(() => document.querySelector('button')!.removeAttribute('style'));
      await expect(tabWalk(page, 'keyboard-self-check')).rejects.toThrow(/keyboard trap/);
    } finally {
      await context.close();
    }
  });

  it('the login page, both tabs', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto('/login');
      await page.getByTestId('login-tab-code').waitFor();
      await checkA11y(page, 'login-code');
      await page.getByTestId('login-tab-password').click();
      await page.locator('input[name="password"]').waitFor();
      await checkA11y(page, 'login-password');
    } finally {
      await context.close();
    }
  });

  it('a participant: every page the navigation reaches before and after the work, the runner and its finish dialog', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signInWithCode(page, russianCodes()[1]!);
      const before = await crawl(page, (path) => checkA11y(page, `before-${screenName(path)}`), {
        prefix: 'before-',
      });
      expect(before).toEqual(expect.arrayContaining(['/participant', '/participant/result']));
      await visit(page, '/participant');
      // Keyboard: the start page's controls, then Tab to the start button and Enter.
      await tabWalk(page, 'participant-start');
      await tabTo(page, (s) => s.testId === 'start-work', 'the start button');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/participant\/work/);
      await page.getByTestId('task-1').waitFor();
      await checkA11y(page, 'participant-runner');
      await page.getByTestId('finish-work').click();
      await page.getByTestId('finish-confirm').waitFor();
      await checkA11y(page, 'participant-finish-dialog');
      await page.getByTestId('finish-confirm').click();
      await page.getByTestId('work-finished').waitFor();
      await checkA11y(page, 'participant-finished');
      await visit(page, '/participant');
      const after = await crawl(page, (path) => checkA11y(page, `after-${screenName(path)}`), {
        prefix: 'after-',
      });
      expect(after).toEqual(expect.arrayContaining(['/participant', '/participant/result']));
      await page.getByTestId('result-page').waitFor();
    } finally {
      await context.close();
    }
  });

  it('an organizator: every page the navigation reaches, and the room', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, 'organizator');
      await tabWalk(page, 'organizator-home');
      const visited = await crawl(page, (path) => checkScreen(page, path));
      expectReached(visited, 'organizator');
      await visit(page, '/organizator');
      // Into the room with the keyboard: Tab to its link, Enter.
      await tabTo(page, (s) => s.testId === 'room-link', 'the room link');
      await page.keyboard.press('Enter');
      await page.getByTestId('room-table').waitFor();
      await page.locator('[data-testid^="room-row-"]').first().waitFor();
      await checkA11y(page, 'organizator-room');
      await tabWalk(page, 'organizator-room', 60);
      await fitsNarrow(page, 'organizator-room');
    } finally {
      await context.close();
    }
  });

  it.each(STAFF)(
    "%s: every page the role's navigation reaches passes",
    async (login) => {
      const { context, page } = await newPage(browser);
      try {
        const started = Date.now();
        await signIn(page, login);
        // Keyboard: the home's links and buttons, and the header's feedback dialog there and back.
        await tabWalk(page, `${login}-home`);
        await tabTo(page, (s) => s.testId === 'feedback-open', 'the feedback button');
        await dialogRoundTrip(page, `${login}-home`);
        const visited = await crawl(page, (path) => checkScreen(page, path));
        console.log(
          `${login}: ${visited.length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s: ${visited.join(' ')}`,
        );
        expectReached(visited, login);
      } finally {
        await context.close();
      }
      // The admin's navigation reaches some thirty pages, each now a route chunk of its own: on a busy
      // 2-core machine the crawl took just over the suite's 90 s.
    },
    240_000,
  );

  it('an expert: the grading workspace with an answer', async () => {
    // School 2, 9th grade, the last code: the grading test takes the first one.
    const code = demoCodes()
      .filter((c) => /9 класс/.test(c.subjectTest))
      .at(-1)!.code;
    const pupil = await newPage(browser);
    const experts: BrowserContext[] = [];
    try {
      const { page } = pupil;
      await signInWithCode(page, code);
      await page.getByTestId('start-work').click();
      await page.waitForURL(/\/participant\/work/);
      const variant = await (await page.request.get('/api/exam/test/variant/current')).json();
      const essay = (variant.tasks as { position: number; answerType: string }[]).find(
        (t) => t.answerType === 'extended_text',
      )!;
      await page.getByTestId(`task-nav-${essay.position}`).click();
      await page
        .getByTestId(`task-${essay.position}`)
        .getByTestId('extended-text')
        .fill('Ответ для проверки.');
      await page.keyboard.press('Tab');
      await expect
        .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
        .toMatch(/Сохранено/);
      await page.getByTestId('finish-work').click();
      await page.getByTestId('finish-confirm').click();
      await page.getByTestId('work-finished').waitFor();

      // Scoring is a queued job; then the essay goes to two of the three demo experts.
      for (const login of ['expert', 'expert2', 'expert3']) {
        const { context, page: ui } = await newPage(browser);
        experts.push(context);
        await signIn(ui, login);
      }
      let assigned: BrowserContext | undefined;
      for (let i = 0; i < 40 && !assigned; i++) {
        for (const e of experts) {
          const next = await (await e.request.get('/api/expert/next')).json();
          if (next.assignment) assigned = e;
        }
        if (!assigned) await new Promise((r) => setTimeout(r, 500));
      }
      expect(assigned, 'an expert has the answer').toBeDefined();
      const ui = assigned!.pages()[0]!;
      await visit(ui, '/expert/grading');
      await ui.getByTestId('grading-answer').waitFor();
      await checkA11y(ui, 'expert-grading-answer');
      await tabWalk(ui, 'expert-grading-answer');
    } finally {
      for (const e of experts) await e.close();
      await pupil.context.close();
    }
  });

  it('an admin: the task preview dialog', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, 'admin');
      await visit(page, '/admin/content/overview');
      await page.getByRole('button', { name: 'Задание 1', exact: true }).first().click();
      await page.getByTestId('task-view').waitFor();
      await checkA11y(page, 'admin-task-preview');
    } finally {
      await context.close();
    }
  });

  it('keyboard only: a coordinator signs in and the skip link leads into the page', async () => {
    const { context, page } = await newPage(browser);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return `${el?.tagName.toLowerCase()}|${el?.getAttribute('name') ?? ''}|${el?.className ?? ''}`;
      });
    try {
      await page.goto('/login?tab=password');
      await page.locator('input[name="password"]').waitFor();
      for (let i = 0; i < 20 && !(await focused()).startsWith('input|login'); i++)
        await page.keyboard.press('Tab');
      expect(await focused()).toMatch(/^input\|login/);
      await page.keyboard.type('coordinator');
      await page.keyboard.press('Tab');
      expect(await focused()).toMatch(/^input\|password/);
      await page.keyboard.type(process.env.DEMO_PASSWORD ?? 'demo');
      await page.keyboard.press('Enter');
      await page.getByTestId('role-home-coordinator').waitFor();

      // From the top of the page, the first Tab reaches the skip link, and it leads to <main>.
      // (The page's title has taken focus; focusing the body moves the Tab starting point to the top.)
      await page.evaluate(() => {
        document.body.tabIndex = -1;
        document.body.focus();
        document.body.removeAttribute('tabindex');
      });
      await page.keyboard.press('Tab');
      expect(await focused()).toMatch(/skip-link/);
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).hash).toBe('#main');
      expect(await page.locator('main').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("every role's home fits a 320 px wide screen (tables scroll inside their panels)", async () => {
    for (const login of ['coordinator', 'organizator', 'expert', 'ugnik', 'admin', 'guest']) {
      const context = await browser.newContext({
        baseURL: baseURL(),
        locale: 'ru-RU',
        viewport: { width: 320, height: 640 },
      });
      const page = await context.newPage();
      try {
        await signIn(page, login);
        // The dashboards' panels load after the title.
        await page.waitForLoadState('networkidle');
        await fitsWidth(page, 320);
      } finally {
        await context.close();
      }
    }
  });

  it('the login page and the runner fit a 320 px wide screen', async () => {
    const context = await browser.newContext({
      baseURL: baseURL(),
      locale: 'ru-RU',
      viewport: { width: 320, height: 640 },
    });
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByTestId('login-tab-code').waitFor();
      await fitsWidth(page, 320);
      await checkA11y(page, 'narrow-login');
      // The start page's technical check refuses a screen this small, so the work is started on a
      // usual one and the window then narrows to 320 px (also what 200 % zoom of 640 px gives).
      await page.setViewportSize({ width: 1024, height: 768 });
      await signInWithCode(page, russianCodes()[0]!);
      await page.getByTestId('start-work').click();
      await page.getByTestId('task-1').waitFor();
      await page.setViewportSize({ width: 320, height: 640 });
      await fitsWidth(page, 320);
      await checkA11y(page, 'narrow-runner');
    } finally {
      await context.close();
    }
  });
});
