import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext } from 'playwright-core';
import { checkA11y } from './axe.js';
import { baseURL, launchBrowser, newPage, startWork } from './support.js';

// Issue 4: a participant writes an essay, two experts grade it blind (one through the grading
// workspace in the browser), the results are published, and the participant sees them. The sitting
// has a diagnostic of its own: publishing ends a diagnostic's sitting (docs/design.md §3), and the
// demo diagnostic is still sat by the other browser files.

interface Criterion {
  code: string;
  maxScore: number;
}
interface NextAnswer {
  assignment: { id: number; task: { criteria: Criterion[] } } | null;
}

const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function staff(login: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseURL() });
  const res = await context.request.post('/api/Account/login', {
    headers: XRW,
    data: { login, password: PASSWORD },
  });
  expect(res.status(), login).toBe(200);
  return context;
}

async function nextOf(request: APIRequestContext): Promise<NextAnswer> {
  const res = await request.get('/api/expert/next');
  expect(res.status()).toBe(200);
  return (await res.json()) as NextAnswer;
}

/** Full marks on every criterion: the two experts agree, so the final mark is theirs. */
async function gradeAllByApi(request: APIRequestContext): Promise<number> {
  let graded = 0;
  for (let i = 0; i < 50; i++) {
    const { assignment } = await nextOf(request);
    if (!assignment) return graded;
    const marks = assignment.task.criteria.map((c) => ({ criterionCode: c.code, score: c.maxScore }));
    const res = await request.post(`/api/expert/assignment/${assignment.id}/marks`, {
      headers: XRW,
      data: { marks },
    });
    expect(res.status(), await res.text()).toBe(200);
    graded++;
  }
  return graded;
}

/** Today's school day (Moscow), as registrations take it. */
const schoolDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());

/**
 * A diagnostic of the demo math test made by the coordinator of demo school 1, with one of its
 * 7th-graders registered: the activation code of that registration.
 */
async function ownSitting(): Promise<{ diagnosticId: number; code: string }> {
  const coordinator = await staff('coordinator');
  try {
    const post = async <T>(url: string, data: unknown): Promise<T> => {
      const res = await coordinator.request.post(url, { headers: XRW, data });
      expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
      return (await res.json()) as T;
    };
    const list = await post<{ items: { subjectTests: { id: number; name: string }[] }[] }>(
      '/api/coordinator/diagnostic/list',
      { page: 1, pageSize: 100 },
    );
    const math = list.items.flatMap((d) => d.subjectTests).find((s) => /математике/i.test(s.name))!;
    const now = Date.now();
    const diagnostic = await post<{ id: number }>('/api/createDiagnostic/create', {
      name: 'E2E: проверка и публикация',
      startsAt: new Date(now - 3_600_000).toISOString(),
      endsAt: new Date(now + 2 * 86_400_000).toISOString(),
      parallels: [7],
      subjectTestIds: [math.id],
    });
    const students = await post<{ items: { id: number }[] }>('/api/coordinator/student/list', {
      page: 1,
      pageSize: 1,
      filter: { parallel: 7 },
    });
    const registered = await post<{ items: { activationCode: string }[] }>(
      '/api/coordinator/participantTest/save',
      {
        diagnosticId: diagnostic.id,
        subjectTestId: math.id,
        testDate: schoolDay(),
        studentIds: [students.items[0]!.id],
      },
    );
    return { diagnosticId: diagnostic.id, code: registered.items[0]!.activationCode };
  } finally {
    await coordinator.close();
  }
}

describe('grading and publication', () => {
  it('an expert grades an essay in the workspace and the participant sees the published result', async () => {
    const { diagnosticId, code } = await ownSitting();
    const { context, page } = await newPage(browser);
    const experts: BrowserContext[] = [];
    try {
      await startWork(page, code);
      const variant = await (await page.request.get('/api/exam/test/variant/current')).json();
      const essay = (variant.tasks as { position: number; answerType: string }[]).find(
        (t) => t.answerType === 'extended_text',
      )!;
      await page.getByTestId(`task-nav-${essay.position}`).click();
      await page
        .getByTestId(`task-${essay.position}`)
        .getByTestId('extended-text')
        .fill('Сила тока прямо пропорциональна напряжению и обратно пропорциональна сопротивлению.');
      await page.keyboard.press('Tab');
      await expect
        .poll(async () => (await page.getByTestId('save-status').textContent()) ?? '', { timeout: 20_000 })
        .toMatch(/Сохранено/);
      await page.getByTestId('finish-work').click();
      await page.getByTestId('finish-confirm').click();
      await page.getByTestId('work-finished').waitFor();
      const current = await (await page.request.get('/api/exam/test/currentParticipantTest')).json();
      expect(current.diagnostic.id).toBe(diagnosticId);

      // Scoring runs as a queued job; the essay then goes to two of the three demo experts.
      for (const login of ['expert', 'expert2', 'expert3']) experts.push(await staff(login));
      let assigned: BrowserContext[] = [];
      for (let i = 0; i < 40 && assigned.length < 2; i++) {
        assigned = [];
        for (const e of experts) if ((await nextOf(e.request)).assignment) assigned.push(e);
        if (assigned.length < 2) await new Promise((r) => setTimeout(r, 500));
      }
      expect(assigned.length).toBeGreaterThanOrEqual(2);

      // The first expert grades in the browser: the anonymised answer, the rubric, submit.
      const ui = await assigned[0]!.newPage();
      await ui.goto('/expert/grading');
      await ui.getByTestId('grading-answer').waitFor();
      expect(await ui.getByTestId('grading-answer').textContent()).not.toMatch(/9 «А»|Преображенская/);
      const first = (await nextOf(assigned[0]!.request)).assignment!;
      for (const c of first.task.criteria)
        await ui.getByTestId(`criterion-${c.code}`).fill(String(c.maxScore));
      await ui.getByTestId('grading-submit').click();
      await expect
        .poll(async () => (await nextOf(assigned[0]!.request)).assignment?.id ?? 0, { timeout: 15_000 })
        .not.toBe(first.id);

      // Everything else open in the diagnostic is graded the same way (the other browser tests'
      // works too), so nothing awaits experts and publication is allowed.
      const admin = await staff('admin');
      experts.push(admin);
      for (let round = 0; round < 10; round++) {
        let graded = 0;
        for (const e of experts.slice(0, 3)) graded += await gradeAllByApi(e.request);
        const state = await (
          await admin.request.get(`/api/examresults/enableChangePublish/${diagnosticId}`)
        ).json();
        if (state.awaitingGrading === 0 && state.unscored === 0) break;
        if (graded === 0) await new Promise((r) => setTimeout(r, 1000));
      }
      // The window is still open: refused, with the counts; the admin publishes early (audited).
      const early = await admin.request.get(`/api/examresults/changePublish/${diagnosticId}/true`, {
        headers: XRW,
      });
      expect(early.status()).toBe(409);
      expect((await early.json()).code).toBe('publication_window_open');
      const publish = await admin.request.get(
        `/api/examresults/changePublish/${diagnosticId}/true?override=true`,
        { headers: XRW },
      );
      expect(publish.status(), await publish.text()).toBe(200);

      // The participant sees the published result, with the essay's points.
      await page.goto('/participant/result');
      await page.getByTestId('result-page').waitFor();
      await page.getByTestId('result-score').waitFor();
      await checkA11y(page, 'grading-published-result');
      const result = await (await page.request.get(`/api/examresults/${current.id}`)).json();
      expect(result.status).toBe('scored');
      const essayScore = (result.tasks as { position: number; score: number; maxScore: number }[]).find(
        (t) => t.position === essay.position,
      )!;
      expect(essayScore.score).toBe(essayScore.maxScore);
      expect(await page.getByTestId('result-score').textContent()).toContain(
        String(result.primaryScore).replace('.', ','),
      );
    } finally {
      for (const e of experts) await e.close();
      await context.close();
    }
  });
});
