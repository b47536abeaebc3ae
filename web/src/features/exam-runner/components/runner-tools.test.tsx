import 'fake-indexeddb/auto';
import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users, type Handler } from '../../../test/test-app';
import { currentTest, variant, workState } from '../test-fixtures';

// The runner's tools of issue 14, item 2 (docs/accommodations.md): the rest break of the
// accommodations profile, the magnifier, the highlighter and the calculator.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

let nextWorkId = 900;

function pauseState(id: number, over: Record<string, unknown> = {}) {
  return {
    examWorkId: id,
    paused: false,
    pausedAt: null,
    pausedUntil: null,
    reason: null,
    byStaff: false,
    secondsLeft: 1200,
    allowance: { allowed: true, pausesLeft: 3, secondsLeft: 900 },
    restBreak: false,
    restBreakSecondsLeft: null,
    serverTime: new Date().toISOString(),
    ...over,
  };
}

/** A signed-in participant with a running work, and whatever the test adds. */
export function runningWork(extra: Record<string, Handler> = {}, variantOver: Record<string, unknown> = {}) {
  const id = ++nextWorkId;
  const work = workState(id);
  const server = fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(work)),
    'GET /api/exam/test/variant/current': () => json(200, { ...variant, ...variantOver }),
    [`GET /api/exam/test/examwork/${id}`]: () => json(200, { ...work, serverTime: new Date().toISOString() }),
    [`GET /api/exam/test/examwork/left/${id}`]: () =>
      json(200, {
        examWorkId: id,
        secondsLeft: 1200,
        deadlineAt: work.deadlineAt,
        status: 'in_progress',
        paused: false,
        serverTime: new Date().toISOString(),
      }),
    'GET /api/exam/test/examwork/pause': () => json(200, pauseState(id)),
    ...extra,
  });
  return { id, server };
}

describe('rest breaks', () => {
  it('a profile with break minutes gets «Перерыв»: the break covers the tasks and ends on the server', async () => {
    const id = nextWorkId + 1;
    const now = new Date();
    const until = new Date(now.getTime() + 600_000).toISOString();
    const onBreak = pauseState(id, {
      paused: true,
      pausedAt: now.toISOString(),
      pausedUntil: until,
      restBreak: true,
      restBreakSecondsLeft: 600,
    });
    let left = 600;
    const { server } = runningWork({
      'GET /api/exam/test/examwork/pause': () => json(200, pauseState(id, { restBreakSecondsLeft: left })),
      'POST /api/exam/test/examwork/break/start': () => json(200, onBreak),
      'POST /api/exam/test/examwork/break/end': () => {
        left = 480;
        return json(200, pauseState(id, { restBreakSecondsLeft: left }));
      },
    });
    renderApp('/participant/work');
    const button = await screen.findByTestId('rest-break', {}, { timeout: 5000 });
    expect(button).toHaveAccessibleDescription(/осталось до 10 мин/);
    await userEvent.click(button);
    const overlay = await screen.findByTestId('pause-overlay');
    expect(within(overlay).getByRole('heading')).toHaveTextContent('Перерыв');
    expect(overlay).toHaveTextContent('Перерыв закончится в');
    expect(screen.queryByTestId('task-1')).toBeNull();
    expect(server.callsTo('POST /api/exam/test/examwork/break/start')).toHaveLength(1);
    expect(server.callsTo('POST /api/exam/test/examwork/pause')).toHaveLength(0);

    await userEvent.click(within(overlay).getByTestId('resume-work'));
    await waitFor(() => expect(screen.queryByTestId('pause-overlay')).toBeNull());
    expect(server.callsTo('POST /api/exam/test/examwork/break/end')).toHaveLength(1);
    expect(await screen.findByTestId('task-1')).toBeInTheDocument();
    expect(screen.getByTestId('rest-break')).toHaveAccessibleDescription(/осталось до 8 мин/);
  });

  it('is not offered without break minutes in the profile', async () => {
    runningWork();
    renderApp('/participant/work');
    expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('rest-break')).toBeNull();
  });
});

describe('the calculator', () => {
  it('is offered only where the test allows it, and works by buttons and keyboard', async () => {
    const id = nextWorkId + 1;
    const work = workState(id);
    runningWork({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, {
          ...currentTest(work),
          subjectTest: { ...currentTest(work).subjectTest, allowCalculator: true },
        }),
    });
    renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('calculator-open', {}, { timeout: 5000 }));
    const calc = await screen.findByTestId('calculator');
    await userEvent.click(within(calc).getByTestId('calc-7'));
    // (jsdom has no layout: Mantine hides a popover whose target has no box, so no role queries.)
    expect(within(calc).getByTestId('calc-*')).toHaveAttribute('aria-label', 'умножить');
    await userEvent.click(within(calc).getByTestId('calc-*'));
    await userEvent.click(within(calc).getByTestId('calc-6'));
    await userEvent.click(within(calc).getByTestId('calc-='));
    expect(within(calc).getByTestId('calculator-display')).toHaveTextContent('42');
    // The keyboard: 1,5 + 2 =.
    await userEvent.click(within(calc).getByTestId('calc-clear'));
    await userEvent.keyboard('1,5+2=');
    expect(within(calc).getByTestId('calculator-display')).toHaveTextContent('3,5');
  });

  it('is not offered where the test does not allow it', async () => {
    runningWork();
    renderApp('/participant/work');
    expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('calculator-open')).toBeNull();
  });
});

describe('the magnifier and the highlighter', () => {
  it('the reading aids enlarge the task area up to 200 %', async () => {
    runningWork();
    renderApp('/participant/work');
    await screen.findByTestId('task-1', {}, { timeout: 5000 });
    expect(screen.getByTestId('runner')).toHaveAttribute('data-zoom', '100');
    await userEvent.click(screen.getByTestId('reader-tools'));
    await userEvent.click(await screen.findByRole('radio', { name: '150 %' }));
    expect(screen.getByTestId('runner')).toHaveAttribute('data-zoom', '150');
    expect(screen.getByTestId('runner').style.getPropertyValue('--runner-zoom')).toBe('1.5');
  });

  it('starts at 150 % for a profile with the magnifier', async () => {
    const id = nextWorkId + 1;
    const work = workState(id);
    const test = currentTest(work);
    runningWork({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, {
          ...test,
          participant: { ...test.participant, accommodations: { ...NO_ACCOMMODATIONS, magnifier: true } },
        }),
    });
    renderApp('/participant/work');
    await screen.findByTestId('task-1', {}, { timeout: 5000 });
    expect(screen.getByTestId('runner')).toHaveAttribute('data-zoom', '150');
  });

  it('marks selected task text, keeps it for the task in this session, and removes it on a click', async () => {
    const { id } = runningWork();
    renderApp('/participant/work');
    const task = await screen.findByTestId('task-1', {}, { timeout: 5000 });
    const stem = task.querySelector('.task-html')!;
    const text = stem.textContent!;
    const range = document.createRange();
    range.selectNodeContents(stem);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
    await userEvent.click(screen.getByTestId('highlight-mark'));
    const marks = () => stem.querySelectorAll('mark[data-highlight]');
    expect(marks().length).toBeGreaterThan(0);
    expect([...marks()].map((m) => m.textContent).join('')).toBe(text);
    const key = `attesta.highlights.${id}:${variant.tasks[0]!.variantTaskId}`;
    expect(JSON.parse(sessionStorage.getItem(key)!)).toEqual([{ start: 0, end: text.length }]);

    await userEvent.click(marks()[0]!);
    expect(marks()).toHaveLength(0);
    expect(sessionStorage.getItem(key)).toBeNull();
    expect(stem.textContent).toBe(text);
  });
});
