import 'fake-indexeddb/auto';
import type { CurrentParticipantTest, ExamWorkState } from '@attesta/contract';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users, type Handler } from '../../../test/test-app';
import { openIdbOutboxStore } from '../lib/outbox-store';
import { currentTest, saved, variant, workState } from '../test-fixtures';
import { RUNNER_COMPACT_QUERY } from './runner-bar';

// Issue 14, item 1: locked delivery — the runner's own shell, leaving asked first, full screen,
// the app shell's kiosk, answer forms only for a paper sitting, the phone's compact header.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

const realMatchMedia = window.matchMedia;
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.matchMedia = realMatchMedia;
});

let nextWorkId = 7000;

function sitting(
  overrides: Partial<ExamWorkState> = {},
  extra: Record<string, Handler> = {},
  test: Partial<CurrentParticipantTest> = {},
) {
  const id = ++nextWorkId;
  const work = workState(id, overrides);
  const current = () => ({ ...currentTest(work), ...test });
  const server = fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, current()),
    'GET /api/exam/test/variant/current': () => json(200, variant),
    [`GET /api/exam/test/examwork/${id}`]: () => json(200, { ...work, serverTime: new Date().toISOString() }),
    [`GET /api/exam/test/examwork/left/${id}`]: () =>
      json(200, {
        examWorkId: id,
        secondsLeft: 45 * 60,
        deadlineAt: work.deadlineAt,
        status: 'in_progress',
        paused: false,
        serverTime: new Date().toISOString(),
      }),
    'PUT /api/exam/test/saveanswer': ({ body }) =>
      json(200, { seq: (body as { seq: number }).seq, savedAt: new Date().toISOString() }),
    'POST /api/Account/LogOff': () => json(200, { redirectTo: null }),
    ...extra,
  });
  return { id, work, server };
}

async function openRunner() {
  const view = renderApp('/participant/work');
  expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
  return view;
}

const withTestAllowingBlank = (allowBlank: boolean) => ({
  subjectTest: { ...currentTest(null).subjectTest, allowBlank },
});

describe('the runner shell', () => {
  it('has no portal navigation, one timer and one main: test, timer, save status, tools, help, finish', async () => {
    sitting();
    await openRunner();
    expect(screen.getByTestId('runner-shell')).toBeInTheDocument();
    // None of the portal around the sitting.
    expect(screen.queryByRole('navigation', { name: 'Разделы' })).toBeNull();
    expect(screen.queryByTestId('nav-participant')).toBeNull();
    expect(screen.queryByTestId('language-switch')).toBeNull();
    expect(screen.queryByTestId('logoff')).toBeNull();
    expect(screen.queryByTestId('user-name')).toBeNull();
    expect(screen.queryByLabelText('Уведомления')).toBeNull();
    // One timer: the exam's, no session countdown beside it.
    expect(screen.queryByTestId('session-time')).toBeNull();
    expect(screen.getAllByTestId('timer')).toHaveLength(1);
    expect(document.querySelectorAll('main')).toHaveLength(1);
    expect(document.querySelector('main')).toHaveAttribute('id', 'main');

    const bar = screen.getByTestId('runner-bar');
    expect(within(bar).getByRole('heading', { level: 1 })).toHaveTextContent('Математика, 7 класс');
    expect(within(bar).getByTestId('timer')).toBeInTheDocument();
    expect(within(bar).getByTestId('save-status')).toBeInTheDocument();
    expect(within(bar).getByTestId('help-open')).toBeInTheDocument();
    expect(within(bar).getByTestId('feedback-open')).toBeInTheDocument();
    expect(within(bar).getByTestId('finish-work')).toBeInTheDocument();
    expect(within(bar).getByTestId('runner-logout')).toHaveTextContent('Выйти');
    // The only navigation on the page is the task list.
    expect(screen.getAllByRole('navigation').map((n) => n.getAttribute('aria-label'))).toEqual(['Задания']);
  });

  it('leaving for another page asks first: «Остаться» keeps the work, «Уйти» leaves', async () => {
    sitting();
    const { router } = await openRunner();
    // The router's blocker is registered by an effect of a second render (useBlocker): let it settle.
    await act(async () => {});
    act(() => void router.navigate('/participant'));
    const dialog = await screen.findByRole('dialog', { name: 'Выйти из работы?' });
    expect(within(dialog).getByTestId('leave-saved')).toHaveTextContent('Все ответы сохранены');
    expect(within(dialog).getByText(/время работы продолжает идти/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByTestId('leave-stay'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/participant/work');
    expect(screen.getByTestId('task-1')).toBeInTheDocument();

    act(() => void router.navigate('/participant'));
    await userEvent.click(await screen.findByTestId('leave-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/participant'));
  });

  it('a reload or closing the tab meets the browser’s question while the work runs', async () => {
    sitting();
    await openRunner();
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });

  it('logging out asks first, says what waits unsent, and keeps it in the outbox', async () => {
    const { id, server } = sitting(
      {},
      {
        'PUT /api/exam/test/saveanswer': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    );
    await openRunner();
    await userEvent.click(screen.getByTestId('option-a'));
    await waitFor(() => expect(screen.getByTestId('task-nav-1')).toHaveAttribute('data-unsaved'));

    await userEvent.click(screen.getByTestId('runner-logout'));
    const dialog = await screen.findByRole('dialog', { name: 'Выйти из системы во время работы?' });
    expect(within(dialog).getByTestId('leave-unsent')).toHaveTextContent(
      '1 изменение ещё не отправлено. Оно сохранено в этом браузере',
    );
    await userEvent.click(within(dialog).getByTestId('leave-stay'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST /api/Account/LogOff')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('runner-logout'));
    await userEvent.click(await screen.findByTestId('leave-confirm'));
    await waitFor(() => expect(server.callsTo('POST /api/Account/LogOff')).toHaveLength(1), {
      timeout: 10_000,
    });
    // Nothing is lost: the unsent answer waits in this browser for the participant's return.
    const waiting = await openIdbOutboxStore().list(id);
    expect(waiting).toEqual([expect.objectContaining({ variantTaskId: 101, value: 'a' })]);
  });

  it('full screen on request: the button calls the Fullscreen API and toggles, by keyboard too', async () => {
    let element: Element | null = null;
    const request = vi.fn(async () => {
      element = document.documentElement;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    const exit = vi.fn(async () => {
      element = null;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, get: () => true });
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => element });
    Object.defineProperty(document.documentElement, 'requestFullscreen', {
      configurable: true,
      value: request,
    });
    Object.defineProperty(document, 'exitFullscreen', { configurable: true, value: exit });
    try {
      sitting();
      await openRunner();
      const button = screen.getByTestId('fullscreen-toggle');
      expect(button).toHaveTextContent('Во весь экран');
      expect(button).toHaveAttribute('aria-pressed', 'false');
      await userEvent.click(button);
      expect(request).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'true'));
      expect(button).toHaveTextContent('Выйти из полноэкранного режима');

      // Leaving full screen by the browser's own way (Esc): the button follows.
      await act(async () => {
        element = null;
        document.dispatchEvent(new Event('fullscreenchange'));
      });
      expect(button).toHaveAttribute('aria-pressed', 'false');

      button.focus();
      await userEvent.keyboard('{Enter}');
      expect(request).toHaveBeenCalledTimes(2);
      await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'true'));
      await userEvent.keyboard(' ');
      expect(exit).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'false'));
    } finally {
      for (const key of ['fullscreenEnabled', 'fullscreenElement', 'exitFullscreen'])
        delete (document as unknown as Record<string, unknown>)[key];
      delete (document.documentElement as unknown as Record<string, unknown>).requestFullscreen;
    }
  });

  it('no full-screen button where the browser has no Fullscreen API', async () => {
    sitting();
    await openRunner();
    expect(screen.queryByTestId('fullscreen-toggle')).toBeNull();
  });

  it('the app shell is a kiosk: full screen shell, no log out and no way out but the finish', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 AttestaApp/2.1',
    );
    Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, get: () => true });
    const { id, server, work } = sitting({ answers: [saved(101, 'a')] });
    const finished = {
      ...work,
      status: 'finished',
      finishedAt: new Date().toISOString(),
      finishReason: 'manual',
    };
    let done = false;
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init = {}) => {
      const url = String(input);
      if (init.method === 'PUT' && url === `/api/exam/test/examwork/finish/${id}/manual`) {
        done = true;
        return json(200, finished);
      }
      if (done && url === `/api/exam/test/examwork/${id}`) return json(200, finished);
      return original(input, init);
    });
    try {
      await openRunner();
      expect(screen.getByTestId('runner-shell')).toHaveAttribute('data-kiosk');
      expect(screen.queryByTestId('runner-logout')).toBeNull();
      expect(screen.queryByTestId('fullscreen-toggle')).toBeNull();
      // No link leaves the page (the skip link stays on it).
      const exits = screen.queryAllByRole('link').filter((a) => !a.getAttribute('href')?.startsWith('#'));
      expect(exits).toEqual([]);

      // The finish flow is the way out: the finished screen logs out, with no links elsewhere.
      await userEvent.click(screen.getByTestId('finish-work'));
      await userEvent.click(await screen.findByTestId('finish-confirm'));
      expect(await screen.findByTestId('work-finished')).toBeInTheDocument();
      expect(screen.queryByTestId('finished-result-link')).toBeNull();
      await userEvent.click(screen.getByTestId('finished-logoff'));
      await waitFor(() => expect(server.callsTo('POST /api/Account/LogOff')).toHaveLength(1));
    } finally {
      delete (document as unknown as Record<string, unknown>).fullscreenEnabled;
    }
  });

  it('a browser is no kiosk: the finished screen links to the results and logs out', async () => {
    sitting({ status: 'finished', finishedAt: new Date().toISOString(), finishReason: 'manual' });
    renderApp('/participant/work');
    expect(await screen.findByTestId('work-finished')).toBeInTheDocument();
    expect(screen.getByTestId('runner-shell')).not.toHaveAttribute('data-kiosk');
    expect(screen.getByTestId('finished-result-link')).toBeInTheDocument();
    expect(screen.getByTestId('finished-logoff')).toHaveTextContent('Выйти');
    // Finished: nothing holds the participant any more.
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });
});

describe('answer forms in the runner', () => {
  it('an online sitting shows no «Онлайн | На бланке» and no forms link, even when the test allows forms', async () => {
    sitting({ answerMode: 'online' }, {}, withTestAllowingBlank(true));
    await openRunner();
    expect(screen.queryByTestId('answer-mode')).toBeNull();
    expect(screen.queryByTestId('blanks-link')).toBeNull();
    expect(screen.queryByText('На бланке')).toBeNull();
  });

  it('a sitting on paper shows them when the test allows forms', async () => {
    sitting({ answerMode: 'blank' }, {}, withTestAllowingBlank(true));
    await openRunner();
    expect(screen.getByTestId('answer-mode')).toHaveTextContent('Онлайн');
    expect(screen.getByTestId('answer-mode')).toHaveTextContent('На бланке');
    expect(screen.getByTestId('blanks-link')).toHaveAttribute('href', expect.stringContaining('blank'));
  });

  it('a task already on the form keeps its controls, so it can come back online', async () => {
    sitting(
      { answerMode: 'online', answers: [{ ...saved(101, null), answerMode: 'blank' }] },
      {},
      withTestAllowingBlank(true),
    );
    await openRunner();
    expect(screen.getByTestId('answer-mode')).toBeInTheDocument();
  });

  it('a test without forms shows none, whatever the work says', async () => {
    sitting({ answerMode: 'blank' }, {}, withTestAllowingBlank(false));
    await openRunner();
    expect(screen.queryByTestId('answer-mode')).toBeNull();
    expect(screen.queryByTestId('blanks-link')).toBeNull();
  });
});

describe('the runner on a phone', () => {
  it('collapses the header into one bar with the timer and a menu holding the rest', async () => {
    window.matchMedia = vi.fn((query: string) => ({
      matches: query === RUNNER_COMPACT_QUERY,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })) as unknown as typeof window.matchMedia;
    sitting();
    await openRunner();
    const bar = await screen.findByTestId('runner-bar');
    await waitFor(() => expect(bar).toHaveAttribute('data-compact'));
    expect(within(bar).getByTestId('timer')).toBeInTheDocument();
    expect(within(bar).getByTestId('save-status')).toBeInTheDocument();
    expect(within(bar).getByRole('heading', { level: 1 })).toHaveTextContent('Математика, 7 класс');
    // Pause, tools, log out and finish wait in the menu.
    expect(screen.queryByTestId('finish-work')).toBeNull();
    expect(screen.queryByTestId('pause-work')).toBeNull();
    expect(screen.queryByTestId('help-open')).toBeNull();
    const menu = within(bar).getByRole('button', { name: 'Меню работы' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(menu);
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByTestId('finish-work')).toBeInTheDocument();
    expect(within(drawer).getByTestId('pause-work')).toBeInTheDocument();
    expect(within(drawer).getByTestId('help-open')).toBeInTheDocument();
    expect(within(drawer).getByTestId('runner-logout')).toBeInTheDocument();
    expect(screen.getAllByTestId('timer')).toHaveLength(1);

    // Finish from the menu: the menu closes and the finish summary opens.
    await userEvent.click(within(drawer).getByTestId('finish-work'));
    expect(await screen.findByTestId('finish-summary')).toBeInTheDocument();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
  });
});
