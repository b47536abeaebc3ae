import 'fake-indexeddb/auto';
import type { ExamWorkState } from '@attesta/contract';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../../test/test-app';
import { currentTest, variant, workState } from '../test-fixtures';
import { WORK_EVENTS_URL } from '../hooks/use-work-events';

// Staff actions reach the open runner by the server's push, the pause screen leaves no task on
// the page, a reload during a pause opens on the pause screen, and the pause allowance is shown.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

/** A stand-in for the browser's EventSource: the test plays the server's side. */
class FakeEventSource {
  static CLOSED = 2;
  static last: FakeEventSource | null = null;
  readyState = 1;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? [])
      fn({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  sessionStorage.clear();
  localStorage.clear();
  FakeEventSource.last = null;
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

let nextWorkId = 900;

const pauseState = (id: number, over: Record<string, unknown> = {}) => ({
  examWorkId: id,
  paused: false,
  pausedAt: null,
  pausedUntil: null,
  reason: null,
  byStaff: false,
  secondsLeft: 1500,
  allowance: { allowed: true, pausesLeft: 2, secondsLeft: 600 },
  restBreak: false,
  restBreakSecondsLeft: null,
  serverTime: new Date().toISOString(),
  ...over,
});

function runningWork(overrides: Partial<ExamWorkState> = {}, extra: Record<string, Handler> = {}) {
  const id = ++nextWorkId;
  const work = workState(id, overrides);
  const server = fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(work)),
    'GET /api/exam/test/variant/current': () => json(200, variant),
    [`GET /api/exam/test/examwork/${id}`]: () => json(200, { ...work, serverTime: new Date().toISOString() }),
    [`GET /api/exam/test/examwork/left/${id}`]: () =>
      json(200, {
        examWorkId: id,
        secondsLeft: 1500,
        deadlineAt: work.deadlineAt,
        status: 'in_progress',
        paused: false,
        serverTime: new Date().toISOString(),
      }),
    'GET /api/exam/test/examwork/pause': () => json(200, pauseState(id)),
    ...extra,
  });
  return { id, work, server };
}

const push = (kind: string, examWorkId: number) =>
  act(() => {
    FakeEventSource.last!.emit('work', { kind, examWorkId, at: new Date().toISOString() });
  });

describe('the runner hears staff actions by push', () => {
  it('a staff pause covers the tasks at once and removes them from the page; a resume brings them back', async () => {
    let paused = false;
    const { id, server } = runningWork(
      {},
      {
        'GET /api/exam/test/examwork/pause': () =>
          json(
            200,
            pauseState(
              id,
              paused
                ? { paused: true, pausedAt: new Date().toISOString(), byStaff: true, reason: 'тревога' }
                : {},
            ),
          ),
      },
    );
    renderApp('/participant/work');
    expect(await screen.findByTestId('task-1')).toBeInTheDocument();
    await waitFor(() => expect(FakeEventSource.last?.url).toBe(WORK_EVENTS_URL));
    act(() => FakeEventSource.last!.emit('hello', { serverTime: new Date().toISOString() }));

    paused = true;
    const before = server.callsTo('GET /api/exam/test/examwork/pause').length;
    await push('paused', id);
    const overlay = await screen.findByTestId('pause-overlay');
    expect(overlay).toHaveTextContent('Работа приостановлена организатором');
    expect(server.callsTo('GET /api/exam/test/examwork/pause').length).toBe(before + 1);
    // Not only covered: the task is not on the page.
    expect(screen.queryByTestId('task-1')).toBeNull();
    expect(document.body.textContent).not.toContain(
      variant.tasks[0]!.html.replace(/<[^>]+>/g, '').slice(0, 12),
    );

    paused = false;
    await push('resumed', id);
    expect(await screen.findByTestId('task-1')).toBeInTheDocument();
    expect(screen.queryByTestId('pause-overlay')).toBeNull();
  });

  // The server sends `logged_out` with no work id: the log out ends sessions, not a work.
  it.each([
    ['session_cleared', 'Работа перенесена организатором', true],
    ['logged_out', 'Организатор завершил ваш сеанс', false],
  ] as const)(
    'a session moved to another device or logged out ends the runner with a plain explanation (%s)',
    async (kind, title, withWorkId) => {
      const { id } = runningWork();
      renderApp('/participant/work');
      expect(await screen.findByTestId('task-1')).toBeInTheDocument();
      await waitFor(() => expect(FakeEventSource.last?.url).toBe(WORK_EVENTS_URL));
      const stream = FakeEventSource.last!;
      act(() => stream.emit('hello', { serverTime: new Date().toISOString() }));
      act(() =>
        stream.emit('work', { kind, examWorkId: withWorkId ? id : null, at: new Date().toISOString() }),
      );
      const ended = await screen.findByTestId(`runner-ended-${kind}`);
      expect(ended).toHaveTextContent(title);
      expect(screen.queryByTestId('task-1')).toBeNull();
      // The runner is over: its stream is closed, not left to reconnect.
      await waitFor(() => expect(stream.readyState).toBe(FakeEventSource.CLOSED));
    },
  );
});

describe('a reload during a pause', () => {
  it('opens on the pause screen without loading the tasks, and loads them once resumed', async () => {
    let paused = true;
    const { id, server } = runningWork(
      { status: 'paused', pausedAt: new Date().toISOString() },
      {
        'GET /api/exam/test/variant/current': () =>
          paused ? apiError(409, 'work_paused', 'paused') : json(200, variant),
        'GET /api/exam/test/examwork/pause': () =>
          json(200, pauseState(id, paused ? { paused: true, pausedAt: new Date().toISOString() } : {})),
        'POST /api/exam/test/examwork/pause': () => {
          paused = false;
          return json(200, { works: [pauseState(id)] });
        },
      },
    );
    renderApp('/participant/work');
    const overlay = await screen.findByTestId('pause-overlay');
    expect(overlay).toHaveTextContent('Работа на паузе');
    expect(screen.queryByTestId('runner-load-failed')).toBeNull();
    expect(screen.queryByTestId('task-1')).toBeNull();
    await userEvent.click(screen.getByTestId('resume-work'));
    expect(await screen.findByTestId('task-1')).toBeInTheDocument();
    expect(server.callsTo('POST /api/exam/test/examwork/pause')[0]!.body).toEqual({ pause: false });
  });
});

describe('the pause allowance', () => {
  it('says what is left; a used-up allowance turns the button off with the reason', async () => {
    const { id } = runningWork(
      {},
      {
        'GET /api/exam/test/examwork/pause': () =>
          json(200, pauseState(id, { allowance: { allowed: true, pausesLeft: 0, secondsLeft: 300 } })),
      },
    );
    renderApp('/participant/work');
    await screen.findByTestId('task-1');
    await waitFor(() => expect(screen.getByTestId('pause-work')).toBeDisabled());
    expect(screen.getByTestId('pause-work')).toHaveAccessibleDescription(
      'Все паузы этой работы уже использованы',
    );
  });

  it('a refused pause (409 pause_limit) is said in Russian, not in the server’s words', async () => {
    const { id } = runningWork(
      {},
      {
        'POST /api/exam/test/examwork/pause': () =>
          apiError(409, 'pause_limit', 'All the pauses this test allows have been used'),
      },
    );
    renderApp('/participant/work');
    await screen.findByTestId('task-1');
    await waitFor(() =>
      expect(screen.getByTestId('pause-work')).toHaveAccessibleDescription('Осталось 2 паузы, до 10 мин'),
    );
    await userEvent.click(screen.getByTestId('pause-work'));
    expect(await screen.findByText(/паузы/i, { selector: '.lite-toast-message' })).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('All the pauses this test allows');
    expect(id).toBeGreaterThan(0);
  });
});
