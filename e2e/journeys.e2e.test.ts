import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { checkA11y } from './axe.js';
import { tabWalk } from './keyboard.js';
import { baseURL, expectEndPage, launchBrowser, newPage, watchConsole } from './support.js';

/*
 * Issue 14, item 7: a browser journey for every role, axe on the screens each passes
 * (screenshots in `test-results/<journey>-<step>.png`, kept by CI as artifacts).
 *
 * What the other browser files already walk through (not repeated here):
 *   participant  runner.e2e        code → runner → every answer type → offline → reload → finish; timeout
 *                accommodations    the coordinator's extra time + large text reach the work and the runner
 *                grading.e2e       essay → finish → graded → published result page
 *                a11y.e2e          start page, runner, finish dialog, finished and result screens (axe)
 *   organizator  monitoring.e2e    room view: live answers, pause (reason required), resume, extend
 *                reports.e2e       the sitting protocol PDF
 *   coordinator  accommodations    the accommodations dialog on the students list
 *                reports.e2e       every report tab, the xlsx summary
 *                content.e2e       a student, a diagnostic and a registration (through the API)
 *   expert       grading.e2e       blind grading of one answer in the workspace (round 1)
 *                a11y.e2e          the workspace with an answer (axe)
 *   ugnik        a11y.e2e          diagnostics, new diagnostic, reports (static screens, axe)
 *   admin        content.e2e       GIFT import → subject test → variant → preview → publish; containers
 *
 * What this file adds, one chain of data (a new student of demo school 1 in a new diagnostic):
 *   coordinator  adds the student and their accommodations in the UI, registers them in the
 *                diagnostic's registration dialog, prints the codes (the PDF response), opens the report
 *   participant  the device check, the runner with the extra time in the timer and large text,
 *                an answer while offline saved when back online
 *   organizator  the room's «Сообщение» button: the message appears in the runner as an alert;
 *                the participant then finishes; the organizator then keys in the candidate's paper
 *                form, found by its registration code: one choice task left empty online, saved as an
 *                answer from the form
 *   expert       blind grading in the workspace (no name), a second expert disagrees, the third
 *                check in the workspace with the disagreement shown
 *   coordinator  sees on «Публикация результатов» that the open window holds publication back
 *   admin        picks the diagnostic by name and publishes early after the confirmation naming
 *                it; the participant sees the result
 *   ugnik        the area's diagnostics across schools (/ugnik/area), the search, «Наблюдать»: the
 *                school's room read-only (the student there, no actions), a diagnostic of their own
 *                for two schools of the area (made through the API) on its page
 *   admin        a QTI item file imported, a task authored in the task editor
 *   guest        (issue 23) an open practice test started from the guest home, finished, and its
 *                result shown at once on /guest/attempts/:id
 *
 * Issue 23, item 3: every journey ends on the page its user expects (the address and its h1), and
 * no page of it logs a console error or throws (a failed request logs one too); only while a
 * participant is deliberately offline are the network's own errors tolerated.
 */

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo';
const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const SURNAME = 'Маршрутов';
const ESSAY = 'Путь из пункта А в пункт Б: скорость равна расстоянию, делённому на время.';
const DIAGNOSTIC = 'E2E: маршруты ролей';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await pupil?.context.close();
  await browser?.close();
});

type Watcher = ReturnType<typeof watchConsole>;

/** What the journeys hand on to each other. */
const chain: {
  diagnosticId?: number;
  code?: string;
  participantTestId?: number;
  mathTestId?: number;
} = {};
let pupil: { context: BrowserContext; page: Page; watcher: Watcher } | undefined;

async function signIn(page: Page, login: string): Promise<void> {
  await page.goto('/login?tab=password');
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId(`role-home-${login.replace(/\d+$/, '')}`).waitFor();
}

/** A staff member's context signed in through the API (for setup and for the other experts). */
async function staff(login: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseURL(), locale: 'ru-RU' });
  const res = await context.request.post('/api/Account/login', {
    headers: XRW,
    data: { login, password: PASSWORD },
  });
  expect(res.status(), login).toBe(200);
  return context;
}

async function postJson<T>(request: APIRequestContext, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { headers: XRW, data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** "12:34" or "1:02:03" → seconds. */
const seconds = (text: string) =>
  text
    .trim()
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0);

async function waitSaved(page: Page) {
  await expect
    .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
    .toMatch(/Сохранено/);
}

describe('coordinator', () => {
  it('adds a student with accommodations, registers them, prints the codes and opens the report', async () => {
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(context);
    try {
      await signIn(page, 'coordinator');
      // Setup: a diagnostic of the demo math test for the 7th grade (the diagnostics screen makes one too).
      const list = await postJson<{
        items: { name: string; subjectTests: { id: number; name: string }[] }[];
      }>(page.request, '/api/coordinator/diagnostic/list', { page: 1, pageSize: 100 });
      const math = list.items.flatMap((d) => d.subjectTests).find((s) => /математике/i.test(s.name));
      expect(math, 'the demo has a math test').toBeTruthy();
      const now = Date.now();
      const diagnostic = await postJson<{ id: number }>(page.request, '/api/createDiagnostic/create', {
        name: DIAGNOSTIC,
        startsAt: new Date(now - 3_600_000).toISOString(),
        endsAt: new Date(now + 2 * 86_400_000).toISOString(),
        parallels: [7],
        subjectTestIds: [math!.id],
      });
      chain.diagnosticId = diagnostic.id;
      chain.mathTestId = math!.id;

      // A new student of 7 «А».
      await page.goto('/coordinator/students');
      await page.getByTestId('student-add').click();
      const form = page.getByTestId('student-form');
      await form.getByRole('textbox', { name: /^Фамилия/ }).fill(SURNAME);
      await form.getByRole('textbox', { name: /^Имя/ }).fill('Пётр');
      await form.getByLabel(/^Дата рождения/).fill('2012-09-01');
      await form.getByRole('combobox', { name: /^Класс/ }).selectOption({ label: '7 «А»' });
      await checkA11y(page, 'coordinator-student-form');
      await form.getByTestId('student-save').click();
      await form.waitFor({ state: 'detached' });

      // Their accommodations: half as much time again, large text.
      await page.getByRole('textbox', { name: 'Поиск' }).fill(SURNAME);
      const row = page.getByRole('row').filter({ hasText: SURNAME }).first();
      await row.getByRole('button', { name: 'Особые условия' }).click();
      const accommodations = page.getByTestId('accommodations-form');
      await accommodations.getByLabel(/Дополнительное время/).fill('50');
      await accommodations.getByLabel('Крупный шрифт и увеличенные интервалы').check({ force: true });
      await accommodations.getByTestId('accommodations-save').click();
      await accommodations.waitFor({ state: 'detached' });
      await row.getByText('Есть').waitFor();

      // Registration in the diagnostic's dialog: the selected student, today.
      await page.goto(`/coordinator/diagnostics/${diagnostic.id}`);
      await page.getByTestId('register-open').click();
      const register = page.getByTestId('register-form');
      await register.getByText('Выбранных учеников').click();
      await register.getByLabel('Класс', { exact: true }).selectOption({ label: '7 «А»' });
      await register.getByRole('checkbox', { name: new RegExp(SURNAME) }).check();
      await checkA11y(page, 'coordinator-register-dialog');
      await register.getByTestId('register-submit').click();
      await register.waitFor({ state: 'detached' });
      const registered = page.getByTestId('participant-tests').getByRole('row').filter({ hasText: SURNAME });
      await registered.waitFor();
      chain.code = ((await registered.locator('code').first().textContent()) ?? '').trim();
      expect(chain.code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
      await checkA11y(page, 'coordinator-registered');

      // The code slips: the PDF is what the server answers.
      const [codes] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/participantCodes')),
        page.getByTestId('print-codes').click(),
      ]);
      expect(codes.status()).toBe(200);
      expect(codes.headers()['content-type']).toMatch(/application\/pdf/);
      // The page reads the body itself (a blob download): the same address once more for the bytes.
      const pdf = await page.request.get(codes.url());
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

      // The report of the new diagnostic: its math test, no one finished yet.
      await page.goto(`/coordinator/reports?diagnosticId=${diagnostic.id}`);
      await page.getByTestId('common-table').getByRole('rowheader', { name: math!.name }).waitFor();
      await checkA11y(page, 'coordinator-report');
      await expectEndPage(
        page,
        new RegExp(`^/coordinator/reports\\?diagnosticId=${diagnostic.id}$`),
        /Отчёт/,
      );
      watcher.expectNone();
    } finally {
      await context.close();
    }
  });
});

describe('participant: the sitting', () => {
  it('passes the device check, sits with the accommodations and keeps an answer given offline', async () => {
    expect(chain.code, 'the coordinator journey registered the student').toBeTruthy();
    const opened = await newPage(browser);
    pupil = { ...opened, watcher: watchConsole(opened.context) };
    const { context, page, watcher } = pupil;
    await page.goto('/login?tab=code');
    await page.locator('input[name="activationCode"]').fill(chain.code!);
    await page.getByTestId('login-code-submit').click();
    await page.getByTestId('role-home-participant').waitFor();

    // The device check runs on the start page before the work.
    const check = page.getByTestId('tech-check');
    await check.waitFor();
    await expect.poll(() => check.locator('[data-testid^="tech-"]').count()).toBeGreaterThan(0);
    await checkA11y(page, 'participant-device-check');

    await page.getByTestId('start-work').click();
    await page.waitForURL(/\/participant\/work/);
    await page.getByTestId('task-1').waitFor();

    // Large text, and the timer counts from the time limit plus half of it.
    expect(await page.getByTestId('runner').getAttribute('class')).toMatch(/runner--large-text/);
    const current = await (await page.request.get('/api/exam/test/currentParticipantTest')).json();
    chain.participantTestId = current.id as number;
    const work = current.examWork as { timeLimitSeconds: number; extraSeconds: number };
    expect(work.extraSeconds).toBe(work.timeLimitSeconds / 2);
    const timer = seconds((await page.getByTestId('timer').textContent()) ?? '');
    expect(timer).toBeGreaterThan(work.timeLimitSeconds);
    await checkA11y(page, 'participant-runner-accommodations');

    const tasks = (
      (await (await page.request.get('/api/exam/test/variant/current')).json()) as {
        tasks: { variantTaskId: number; position: number; answerType: string }[];
      }
    ).tasks;
    const essay = tasks.find((t) => t.answerType === 'extended_text')!;
    const short = tasks.find((t) => t.answerType === 'short_text')!;

    // Offline: the answer waits on the device and the status says so.
    await watcher.goOffline(context);
    await page.getByTestId(`task-nav-${essay.position}`).click();
    await page.getByTestId(`task-${essay.position}`).getByTestId('extended-text').fill(ESSAY);
    await page.keyboard.press('Tab');
    await page.getByTestId(`task-nav-${short.position}`).click();
    await page.getByTestId(`task-${short.position}`).getByTestId('short-text').fill('без сети');
    await page.keyboard.press('Tab');
    await expect
      .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
      .toMatch(/Нет связи/);
    await checkA11y(page, 'participant-offline');

    // Back online: both answers reach the server by themselves.
    await watcher.goOnline(context);
    await waitSaved(page);
    const state = await (await page.request.get(`/api/exam/test/examwork/${current.examWork.id}`)).json();
    const value = (id: number) =>
      (state.answers as { variantTaskId: number; value: unknown }[]).find((a) => a.variantTaskId === id)
        ?.value;
    expect(value(essay.variantTaskId)).toBe(ESSAY);
    expect(value(short.variantTaskId)).toBe('без сети');
    await expectEndPage(page, /^\/participant\/work$/, /математике/);
    watcher.expectNone();
  });
});

describe('organizator', () => {
  it('sends the candidate a message from the room; it appears in the runner, and the candidate finishes', async () => {
    expect(pupil, 'the participant is sitting').toBeTruthy();
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(context);
    try {
      await signIn(page, 'organizator');
      const classes = await postJson<{ items: { id: number; name: string }[] }>(
        page.request,
        '/api/organizator/class/list',
        { page: 1, pageSize: 100 },
      );
      const classId = classes.items.find((c) => c.name === '7 «А»')!.id;
      const id = chain.participantTestId!;
      await page.goto(`/organizator/room?diagnosticId=${chain.diagnosticId}&classId=${classId}`);
      await page.getByTestId(`room-row-${id}`).waitFor();
      await expect
        .poll(() => page.getByTestId(`room-status-${id}`).getAttribute('data-status'), { timeout: 10_000 })
        .toBe('in_progress');

      await page.getByTestId(`room-message-${id}`).click();
      await page.getByTestId('message-input').fill('Проверьте, что ответили на все задания.');
      await checkA11y(page, 'organizator-message-dialog');
      await page.getByTestId('message-send').click();
      await page
        .getByText('Сообщение отправлено')
        .or(page.getByRole('alert').filter({ hasText: /отправ/i }))
        .first()
        .waitFor();

      const runner = pupil!.page;
      const message = runner.getByTestId('staff-messages').getByRole('alert');
      await message
        .filter({ hasText: 'Проверьте, что ответили на все задания.' })
        .waitFor({ timeout: 20_000 });
      await checkA11y(runner, 'participant-staff-message');

      // The candidate closes the message and finishes; the room shows it.
      await message.getByRole('button').first().click();
      await runner.getByTestId('finish-work').click();
      await runner.getByTestId('finish-confirm').click();
      await runner.getByTestId('work-finished').waitFor();
      // The participant's journey ends on the finished screen, without a console error.
      await expectEndPage(runner, /^\/participant\/work$/, /Работа завершена/);
      pupil!.watcher.expectNone('the participant');
      await expect
        .poll(() => page.getByTestId(`room-status-${id}`).getAttribute('data-status'), { timeout: 20_000 })
        .toMatch(/^(finished|scored)$/);
      await checkA11y(page, 'organizator-room-finished');

      // The candidate's paper form: found by the registration code printed on it, one task keyed in.
      await page.getByTestId(`room-paper-${id}`).waitFor();
      const room = await (
        await page.request.get(`/api/monitoring/room?diagnosticId=${chain.diagnosticId}&classId=${classId}`)
      ).json();
      const sitting = (
        room.participants as { participantTestId: number; examWorkId: number; registrationCode: string }[]
      ).find((r) => r.participantTestId === id)!;
      await page.getByTestId('paper-code-input').fill(sitting.registrationCode.toLowerCase());
      await page.getByTestId('paper-code-submit').click();
      await page.waitForURL(new RegExp(`/organizator/room/paper/${sitting.examWorkId}`));
      await expect.poll(() => page.getByTestId('paper-code').textContent()).toBe(sitting.registrationCode);
      const variant = await (await page.request.get(`/api/examresults/variant/${sitting.examWorkId}`)).json();
      const choice = (
        variant.tasks as { variantTaskId: number; position: number; answerType: string; answer: unknown }[]
      ).find((t) => t.answerType === 'single_choice' && t.answer === null)!;
      expect(choice, 'a choice task the candidate left for the paper form').toBeTruthy();
      const task = page.getByTestId(`paper-task-${choice.position}`);
      await expect
        .poll(() => page.getByTestId(`paper-source-${choice.position}`).getAttribute('data-source'))
        .toBe('none');
      await task.getByRole('radio').first().check();
      await checkA11y(page, 'organizator-paper-form');
      // The room's «Сообщение отправлено» toast closes by itself; the walk starts once it has.
      await expect.poll(() => page.locator('.lite-toast').count(), { timeout: 15_000 }).toBe(0);
      await tabWalk(page, 'organizator-paper-form', 80);
      await page.getByTestId('paper-save').click();
      await page.getByText(/Сохранено ответов: 1/).waitFor();
      await expect
        .poll(() => page.getByTestId(`paper-source-${choice.position}`).getAttribute('data-source'))
        .toBe('blank');
      const keyed = await (await page.request.get(`/api/exam/test/examwork/${sitting.examWorkId}`)).json();
      expect(
        (keyed.answers as { variantTaskId: number; answerMode: string }[]).find(
          (a) => a.variantTaskId === choice.variantTaskId,
        )?.answerMode,
      ).toBe('blank');
      await page.getByTestId('paper-back').click();
      await page.getByTestId(`room-row-${id}`).waitFor();
      await expectEndPage(page, /^\/organizator\/room\?/, /Аудитория/);
      watcher.expectNone();
    } finally {
      await context.close();
      await pupil?.context.close();
      pupil = undefined;
    }
  });
});

interface Assignment {
  id: number;
  round: number;
  anonCode: string;
  task: { criteria: { code: string; maxScore: number }[]; maxScore: number };
  answer: { value: unknown };
}

async function nextOf(request: APIRequestContext): Promise<Assignment | null> {
  const res = await request.get('/api/expert/next');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { assignment: Assignment | null }).assignment;
}

async function mark(request: APIRequestContext, a: Assignment, full: boolean) {
  const marks = a.task.criteria.map((c) => ({ criterionCode: c.code, score: full ? c.maxScore : 0 }));
  const res = await request.post(`/api/expert/assignment/${a.id}/marks`, { headers: XRW, data: { marks } });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * The expert's next assignment once it is this journey's essay in `round`; anything else in
 * their queue first (other browser tests' works, this work's empty tasks) gets full marks.
 */
async function essayFor(
  request: APIRequestContext,
  round: (r: number) => boolean,
): Promise<Assignment | null> {
  for (let i = 0; i < 60; i++) {
    const a = await nextOf(request);
    if (!a) return null;
    if (a.answer.value === ESSAY && round(a.round)) return a;
    await mark(request, a, true);
  }
  return null;
}

describe('expert', () => {
  it('grades blind, a second expert disagrees, and a third expert checks with the disagreement shown', async () => {
    const experts = await Promise.all(['expert', 'expert2', 'expert3'].map(staff));
    const watchers = experts.map((e) => watchConsole(e));
    try {
      // Scoring is a queued job; then the essay goes to two of the three experts.
      let first: { context: BrowserContext; a: Assignment } | undefined;
      let second: { context: BrowserContext; a: Assignment } | undefined;
      for (let i = 0; i < 40 && !second; i++) {
        for (const context of experts) {
          if (first?.context === context) continue;
          const a = await essayFor(context.request, (r) => r < 3);
          if (a && !first) first = { context, a };
          else if (a && !second) second = { context, a };
        }
        if (!second) await new Promise((r) => setTimeout(r, 500));
      }
      expect(second, 'two experts have the essay').toBeDefined();
      expect(first!.a.task.maxScore).toBeGreaterThan(1);

      // The first grades in the workspace: the answer, no name; full marks.
      const ui = await first!.context.newPage();
      await ui.goto('/expert/grading');
      const answer = ui.getByTestId('grading-answer');
      await answer.getByText(ESSAY).first().waitFor();
      expect(await ui.locator('main').textContent()).not.toContain(SURNAME);
      await checkA11y(ui, 'expert-blind-grading');
      for (const c of first!.a.task.criteria)
        await ui.getByTestId(`criterion-${c.code}`).fill(String(c.maxScore));
      await ui.getByTestId('grading-submit').click();
      await expect.poll(async () => (await nextOf(first!.context.request))?.id ?? 0).not.toBe(first!.a.id);

      // The second gives nothing: the two differ beyond the threshold.
      await mark(second!.context.request, second!.a, false);

      // The third expert (neither of the two) gets the third check and sees the disagreement.
      const third = experts.find((e) => e !== first!.context && e !== second!.context)!;
      let round3: Assignment | null = null;
      for (let i = 0; i < 20 && !round3; i++) {
        round3 = await essayFor(third.request, (r) => r === 3);
        if (!round3) await new Promise((r) => setTimeout(r, 500));
      }
      expect(round3, 'a third check').toBeTruthy();
      const thirdUi = await third.newPage();
      await thirdUi.goto('/expert/grading');
      await thirdUi.getByTestId('grading-third-check').waitFor();
      await thirdUi.getByTestId('disagreement-summary').waitFor();
      expect(await thirdUi.locator('main').textContent()).not.toContain(SURNAME);
      await checkA11y(thirdUi, 'expert-third-check');
      for (const c of round3!.task.criteria)
        await thirdUi.getByTestId(`criterion-${c.code}`).fill(String(c.maxScore));
      await thirdUi.getByTestId('grading-submit').click();
      await expect.poll(async () => (await nextOf(third.request))?.id ?? 0).not.toBe(round3!.id);
      await expectEndPage(thirdUi, /^\/expert\/grading$/, /Проверка/);
      for (const w of watchers) w.expectNone();
    } finally {
      for (const e of experts) await e.close();
    }
  });
});

describe('participant: the published result', () => {
  it('the coordinator sees why it waits, the admin publishes early, and the participant reads the result', async () => {
    const { context, page } = await newPage(browser);
    const coordinatorWatch = watchConsole(context);
    try {
      await signIn(page, 'coordinator');
      // Anything of the diagnostic's other tasks still waits for experts: cleared as above.
      const experts = await Promise.all(['expert', 'expert2', 'expert3'].map(staff));
      try {
        for (let round = 0; round < 10; round++) {
          for (const e of experts) await essayFor(e.request, () => false);
          const state = await (
            await page.request.get(`/api/examresults/enableChangePublish/${chain.diagnosticId}`)
          ).json();
          if (state.awaitingGrading === 0 && state.unscored === 0) break;
          await new Promise((r) => setTimeout(r, 1000));
        }
      } finally {
        for (const e of experts) await e.close();
      }
      // The coordinator sees the window and the counts before the button: the window is still open,
      // so the coordinator cannot publish (docs/design.md §3).
      await page.goto('/coordinator/results');
      await page.getByTestId('publish-diagnostic').click();
      await page.getByRole('option', { name: new RegExp(DIAGNOSTIC) }).click();
      await expect
        .poll(async () => (await page.getByTestId('publish-reason').textContent()) ?? '')
        .toMatch(/окно диагностики открыто до/);
      expect(await page.getByTestId('count-finished').textContent()).toMatch(/1$/);
      expect(await page.getByTestId('publish-button').isDisabled()).toBe(true);
      expect(await page.getByTestId('publish-early-button').count()).toBe(0);
      await checkA11y(page, 'coordinator-publish-state');
      await expectEndPage(page, /^\/coordinator\/results$/, /Публикация результатов/);
      coordinatorWatch.expectNone('the coordinator');
    } finally {
      await context.close();
    }

    // The admin picks the diagnostic by its name and publishes early, after a confirmation naming it.
    const admin = await newPage(browser);
    try {
      const page = admin.page;
      await signIn(page, 'admin');
      await page.goto('/admin/results');
      await page.getByTestId('publish-diagnostic').fill('E2E: маршруты');
      await page.getByRole('option', { name: new RegExp(DIAGNOSTIC) }).click();
      await page.getByTestId('publish-early-button').click();
      await expect
        .poll(async () => (await page.getByTestId('publish-confirm-text').textContent()) ?? '')
        .toContain(`«${DIAGNOSTIC}»`);
      expect(await page.getByTestId('publish-confirm').isDisabled()).toBe(true);
      await checkA11y(page, 'admin-publish-early-confirm');
      await page.getByTestId('override-ack').check();
      await page.getByTestId('publish-confirm').click();
      await expect
        .poll(async () => page.getByTestId('publish-state').getAttribute('data-published'))
        .toBe('true');
    } finally {
      await admin.context.close();
    }

    const sitting = await newPage(browser);
    const watcher = watchConsole(sitting.context);
    try {
      const p = sitting.page;
      await p.goto('/login?tab=code');
      await p.locator('input[name="activationCode"]').fill(chain.code!);
      await p.getByTestId('login-code-submit').click();
      await p.getByTestId('role-home-participant').waitFor();
      await p.goto('/participant/result');
      await p.getByTestId('result-score').waitFor();
      const result = await (await p.request.get(`/api/examresults/${chain.participantTestId}`)).json();
      expect(result.status).toBe('scored');
      expect(await p.getByTestId('result-score').textContent()).toContain(
        String(result.primaryScore).replace('.', ','),
      );
      await checkA11y(p, 'participant-published-result');
      await expectEndPage(p, /^\/participant\/result$/, /Результат/);
      watcher.expectNone();
    } finally {
      await sitting.context.close();
    }
  });
});

describe('ugnik', () => {
  it('reads the area diagnostics across schools, watches a room read-only, opens a diagnostic of their own', async () => {
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(context);
    try {
      await signIn(page, 'ugnik');
      await page.goto('/ugnik/area');
      const table = page.getByTestId('area-diagnostics');
      await table.waitFor();
      // More than one school of the area.
      const schools = await table.locator('tbody tr td:nth-child(2)').allTextContents();
      expect(new Set(schools).size).toBeGreaterThan(1);
      await checkA11y(page, 'ugnik-area');

      await page
        .getByTestId('area-search')
        .getByRole('textbox')
        .or(page.getByTestId('area-search'))
        .first()
        .fill('маршруты');
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
      expect(await table.locator('tbody tr').first().textContent()).toContain(DIAGNOSTIC);

      // Inspection: «Наблюдать» opens the school's sitting read-only; 7 «А» shows the student, no actions.
      await table.locator('[data-testid^="area-watch-"]').first().click();
      await page.waitForURL(/\/ugnik\/room\?/);
      await page.getByRole('combobox', { name: 'Класс или здание' }).click();
      await page.getByRole('option', { name: '7 «А»' }).first().click();
      const room = page.getByTestId('room-table');
      await room.getByRole('row').filter({ hasText: SURNAME }).waitFor();
      await page.getByTestId('room-read-only').waitFor();
      expect(await page.locator('[data-testid^="room-message-"]').count()).toBe(0);
      expect(await page.getByTestId('room-pause').count()).toBe(0);
      await checkA11y(page, 'ugnik-room');

      // A diagnostic of the ugnik's own for two schools of the area (setup), read on its page.
      const area = (await (await page.request.get('/api/ugnik/area/diagnostics')).json()) as {
        items: { schoolId: number }[];
      };
      const now = Date.now();
      await postJson(page.request, '/api/ugnik/diagnostic/create', {
        name: 'E2E: районная диагностика',
        startsAt: new Date(now - 3_600_000).toISOString(),
        endsAt: new Date(now + 86_400_000).toISOString(),
        parallels: [7],
        subjectTestIds: [chain.mathTestId],
        schoolIds: [...new Set(area.items.map((d) => d.schoolId))].slice(0, 2),
      });
      await page.goto('/ugnik/diagnostics');
      await page
        .getByTestId('ugnik-diagnostics-table')
        .getByRole('link', { name: 'E2E: районная диагностика' })
        .click();
      await page.getByTestId('ugnik-diagnostic-title').waitFor();
      await page.getByTestId('participants-table').waitFor();
      await checkA11y(page, 'ugnik-diagnostic');
      await expectEndPage(page, /^\/ugnik\/diagnostics\/\d+$/, /E2E: районная диагностика/);
      watcher.expectNone();
    } finally {
      await context.close();
    }
  });
});

/** One QTI 2.1 item: a single choice. */
const QTI = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="e2e-qti-planet" title="e2e-qti-planet" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>B</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
    <prompt>Какая планета ближе всех к Солнцу?</prompt>
    <simpleChoice identifier="A">Венера</simpleChoice><simpleChoice identifier="B">Меркурий</simpleChoice><simpleChoice identifier="C">Марс</simpleChoice>
  </choiceInteraction></itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>
`;

describe('admin', () => {
  it('imports a QTI item and authors a task in the editor', async () => {
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(context);
    try {
      await signIn(page, 'admin');
      await page.goto('/admin/content/import');
      await page.locator('input[type="file"]').setInputFiles({
        name: 'e2e-planet.xml',
        mimeType: 'application/xml',
        buffer: Buffer.from(QTI, 'utf8'),
      });
      await page.getByRole('combobox', { name: 'Предмет' }).click();
      await page.getByRole('option', { name: 'Математика (demo-math)' }).first().click();
      await page.getByTestId('import-start').click();
      const report = page.getByTestId('import-done');
      await report.waitFor({ timeout: 60_000 });
      await report.getByText('Загружено', { exact: true }).first().waitFor();
      expect(await report.getByText('Выбор одного ответа').count()).toBe(1);
      await checkA11y(page, 'admin-import-report');

      // A number task written in the editor, in the pool of the subject the list is filtered by.
      await page.goto('/admin/content/tasks');
      await page.getByRole('combobox', { name: 'Предмет' }).click();
      await page
        .getByRole('option', { name: /Математика/ })
        .first()
        .click();
      await page.getByTestId('task-create').click();
      await page.getByRole('heading', { name: 'Новое задание' }).waitFor();
      await page.getByRole('combobox', { name: 'Вид ответа' }).click();
      await page.getByRole('option', { name: 'Число', exact: true }).click();
      await page.getByTestId('confirm-type').click();
      const html = page.getByTestId('task-html');
      await html.getByRole('button', { name: 'HTML-код' }).click();
      await html
        .getByRole('textbox', { name: 'Текст задания: HTML-код' })
        .fill('<p>Сколько будет 3 + 4?</p>');
      await page.getByTestId('number-key').getByRole('textbox', { name: 'Число' }).fill('7');
      await checkA11y(page, 'admin-task-editor');
      await page.getByTestId('save-task').click();
      await page.getByText('Задание создано.').waitFor();
      await expectEndPage(page, /^\/admin\/content\/tasks\/\d+$/, /Задание/);
      watcher.expectNone();
    } finally {
      await context.close();
    }
  });
});

describe('guest', () => {
  it('starts an open practice test from the guest home, finishes it and reads its result at once', async () => {
    const { context, page } = await newPage(browser);
    const watcher = watchConsole(context);
    try {
      await signIn(page, 'guest');
      await page.getByTestId('open-tests').waitFor();
      // A new attempt, or the one another browser test left running.
      const go = page
        .locator('[data-testid^="open-test-start-"], [data-testid^="open-test-resume-"]')
        .first();
      await go.waitFor();
      const resuming = ((await go.getAttribute('data-testid')) ?? '').startsWith('open-test-resume-');
      await go.click();
      if (!resuming) await page.getByTestId('open-test-confirm').click();
      await page.waitForURL(/\/participant\/work$/);
      await page.getByTestId('task-1').waitFor();

      // One answer, given as a person would; then the finish.
      const tasks = (
        (await (await page.request.get('/api/exam/test/variant/current')).json()) as {
          tasks: { position: number; answerType: string; content: { options?: { id: string }[] } }[];
        }
      ).tasks;
      const choice = tasks.find((t) => t.answerType === 'single_choice' && t.content.options?.length);
      if (choice) {
        await page.getByTestId(`task-nav-${choice.position}`).click();
        await page
          .getByTestId(`task-${choice.position}`)
          .getByTestId(`option-${choice.content.options![0]!.id}`)
          .click();
        await waitSaved(page);
      }
      await page.getByTestId('finish-work').click();
      await page.getByTestId('finish-confirm').click();

      // The result, at once: no blank page, no reload.
      await expectEndPage(page, /^\/guest\/attempts\/\d+$/, /Результат попытки/);
      await page.getByTestId('attempt-finished-at').waitFor();
      await page.getByTestId('result-score').waitFor();
      watcher.expectNone();
    } finally {
      await context.close();
    }
  });
});
