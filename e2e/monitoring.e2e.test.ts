import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { demoCodes, launchBrowser, newPage } from './support.js';

// Live monitoring: an organizator watches a participant answer live, pauses the room, resumes,
// extends time, and the participant's timer reflects both; and keys in the paper form of a
// participant who never opened the work online.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

interface Row {
  participantTestId: number;
  status: string;
  answered: number;
  activationCode: string;
}

/** "12:34" or "1:02:03" → seconds. */
const seconds = (text: string) =>
  text
    .trim()
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0);

async function timerSeconds(page: Page): Promise<number> {
  return seconds((await page.getByTestId('timer').textContent()) ?? '');
}

/**
 * A room of the organizator (7 «А» or 7 «Б» of school 1) with a participant who has not started,
 * whose demo code is neither the first (the login test) nor among the last math codes (runner test)
 * — or one of `only`.
 */
async function pickRoom(request: APIRequestContext, only?: Set<string>) {
  const all = demoCodes();
  const math = all.filter((c) => /математике/i.test(c.subjectTest)).map((c) => c.code);
  const avoid = new Set([all[0]?.code, ...math.slice(-8)]);
  const usable = only ?? new Set(all.map((c) => c.code).filter((c) => !avoid.has(c)));
  const list = { page: 1, pageSize: 100 };
  const diagnostics = (await (
    await request.post('/api/organizator/diagnostic/list', { data: list, headers: XHR })
  ).json()) as { items: { id: number }[] };
  const classes = (await (
    await request.post('/api/organizator/class/list', { data: list, headers: XHR })
  ).json()) as { items: { id: number; name: string }[] };
  for (const d of diagnostics.items) {
    for (const c of classes.items) {
      const res = await request.get(`/api/monitoring/room?diagnosticId=${d.id}&classId=${c.id}`);
      if (res.status() !== 200) continue;
      const rows = ((await res.json()) as { participants: Row[] }).participants;
      const row = rows.find((r) => r.status === 'not_started' && usable.has(r.activationCode));
      if (row) return { diagnosticId: d.id, classId: c.id, row };
    }
  }
  throw new Error('no room with a participant who has not started');
}

describe('live room monitoring', () => {
  it('an organizator watches a participant answer, pauses the room, resumes and extends time', async () => {
    const staff = await newPage(browser);
    const pupil = await newPage(browser);
    try {
      // The organizator signs in and opens the room.
      const org = staff.page;
      await org.goto('/login?tab=password');
      await org.locator('input[name="login"]').fill('organizator');
      await org.locator('input[name="password"]').fill(process.env.DEMO_PASSWORD ?? 'demo');
      await org.getByTestId('login-submit').click();
      await org.getByTestId('role-home-organizator').waitFor();
      await org.getByTestId('room-link').waitFor();
      const room = await pickRoom(org.request);
      const id = room.row.participantTestId;
      await org.goto(`/organizator/room?diagnosticId=${room.diagnosticId}&classId=${room.classId}`);
      await org.getByTestId('room-table').waitFor();
      await org.getByTestId(`room-row-${id}`).waitFor();
      await expect
        .poll(() => org.getByTestId(`room-status-${id}`).getAttribute('data-status'))
        .toBe('not_started');

      // The participant signs in with the code and starts.
      const p = pupil.page;
      await p.goto('/login?tab=code');
      await p.locator('input[name="activationCode"]').fill(room.row.activationCode);
      await p.getByTestId('login-code-submit').click();
      await p.getByTestId('role-home-participant').waitFor();
      await p.getByTestId('start-work').click();
      await p.waitForURL(/\/participant\/work/);
      await p.getByTestId('task-1').waitFor();
      await expect
        .poll(() => org.getByTestId(`room-status-${id}`).getAttribute('data-status'), { timeout: 10_000 })
        .toBe('in_progress');

      // An answer appears in the room without a reload.
      const tasks = (
        (await (await p.request.get('/api/exam/test/variant/current')).json()) as {
          tasks: { position: number; answerType: string }[];
        }
      ).tasks;
      const short = tasks.find((t) => t.answerType === 'short_text');
      expect(short, 'the demo test has a short-text task').toBeTruthy();
      const before = Number(await org.getByTestId(`room-answered-${id}`).getAttribute('data-answered'));
      await p.getByTestId(`task-nav-${short!.position}`).click();
      await p.getByTestId(`task-${short!.position}`).getByTestId('short-text').fill('42');
      await p.getByTestId(`task-${short!.position}`).getByTestId('short-text').blur();
      await expect
        .poll(
          async () => Number(await org.getByTestId(`room-answered-${id}`).getAttribute('data-answered')),
          {
            timeout: 15_000,
          },
        )
        .toBe(before + 1);

      // Pause the whole room with a reason: the participant sees the pause.
      await org.getByTestId('room-select-all').check();
      await org.getByTestId('room-pause').click();
      await org.getByTestId('confirm-action').click();
      await org.getByRole('alert').waitFor(); // a reason is required
      await checkA11y(org, 'monitoring-pause-dialog-reason-required');
      await org.getByTestId('reason-input').fill('Проверка связи');
      // The push brings the pause to the open runner within a second or two (polling took ~10 s).
      const pauseSent = Date.now();
      await org.getByTestId('confirm-action').click();
      await p.getByTestId('pause-overlay').waitFor({ timeout: 20_000 });
      expect(Date.now() - pauseSent, 'the pause reached the runner by push').toBeLessThan(2500);
      await expect
        .poll(() => org.getByTestId(`room-status-${id}`).getAttribute('data-status'), { timeout: 10_000 })
        .toBe('paused');
      const pausedAt = await timerSeconds(p);
      await checkA11y(p, 'monitoring-runner-paused');
      await checkA11y(org, 'monitoring-room-paused');

      // Resume: the overlay goes, the paused time is given back.
      await org.getByTestId('room-resume').click();
      await org.getByTestId('reason-input').fill('Связь восстановлена');
      const resumeSent = Date.now();
      await org.getByTestId('confirm-action').click();
      await p.getByTestId('pause-overlay').waitFor({ state: 'detached', timeout: 20_000 });
      expect(Date.now() - resumeSent, 'the resume reached the runner by push').toBeLessThan(2500);
      await expect
        .poll(() => org.getByTestId(`room-status-${id}`).getAttribute('data-status'), { timeout: 10_000 })
        .toBe('in_progress');
      const resumedAt = await timerSeconds(p);
      expect(Math.abs(resumedAt - pausedAt)).toBeLessThanOrEqual(15);

      // Extend by 10 minutes: the room and the participant's timer both show it.
      const roomBefore = Number(await org.getByTestId(`room-time-${id}`).getAttribute('data-seconds'));
      const timerBefore = await timerSeconds(p);
      await org.getByTestId('room-extend').click();
      await org.getByTestId('minutes-input').fill('10');
      await org.getByTestId('reason-input').fill('Дополнительное время');
      await checkA11y(org, 'monitoring-extend-dialog');
      await org.getByTestId('confirm-action').click();
      await expect
        .poll(async () => Number(await org.getByTestId(`room-time-${id}`).getAttribute('data-seconds')), {
          timeout: 10_000,
        })
        .toBeGreaterThan(roomBefore + 500);
      await expect.poll(() => timerSeconds(p), { timeout: 20_000 }).toBeGreaterThan(timerBefore + 500);
    } finally {
      await staff.context.close();
      await pupil.context.close();
    }
  });

  it('an organizator keys the paper form of a participant who never opened the work online', async () => {
    const staff = await newPage(browser);
    try {
      const org = staff.page;
      await org.goto('/login?tab=password');
      await org.locator('input[name="login"]').fill('organizator');
      await org.locator('input[name="password"]').fill(process.env.DEMO_PASSWORD ?? 'demo');
      await org.getByTestId('login-submit').click();
      await org.getByTestId('role-home-organizator').waitFor();
      // A Russian-language sitting of the room whose code no other browser test signs in with (they
      // take the last ones): its paper form creates its work.
      const russian = demoCodes()
        .filter((c) => c.subjectTest === 'Диагностическая работа по русскому языку, 7 класс')
        .map((c) => c.code);
      const room = await pickRoom(org.request, new Set(russian.slice(0, -3)));
      const id = room.row.participantTestId;
      await org.goto(`/organizator/room?diagnosticId=${room.diagnosticId}&classId=${room.classId}`);
      await org.getByTestId(`room-paper-${id}`).click();
      await org.waitForURL(new RegExp(`/organizator/room/paper/sitting/${id}`));
      await org.getByTestId('paper-only-intro').waitFor();
      if (!(await org.getByTestId('paper-sitting').isVisible())) {
        await org.getByTestId('paper-variant').click();
        await org.getByRole('option').first().click();
      }
      await org.getByTestId('paper-sitting').waitFor();
      await org.locator('[data-testid^="paper-task-"]').getByRole('radio').first().check();
      await checkA11y(org, 'organizator-paper-only-form');
      await org.getByTestId('paper-save').click();
      await org.getByTestId('paper-create-confirm').click();
      // The save created the work, finished from the form; its own form takes over.
      await org.waitForURL(/\/organizator\/room\/paper\/\d+\?/);
      await expect.poll(() => org.locator('[data-source="blank"]').count(), { timeout: 15_000 }).toBe(1);
      await org.getByTestId('paper-back').click();
      await expect
        .poll(() => org.getByTestId(`room-status-${id}`).getAttribute('data-status'), { timeout: 15_000 })
        .toBe('finished');
    } finally {
      await staff.context.close();
    }
  });
});
