import 'fake-indexeddb/auto';
import { ANSWER_VALUE_MAX_BYTES, type ExamWorkState } from '@attesta/contract';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../../test/test-app';
import { openIdbOutboxStore } from '../lib/outbox-store';
import { saveRunnerSnapshot, saveRunnerVariant } from '../../../lib/runner-snapshot';
import { rememberUser } from '../../../lib/session';
import { currentTest, saved, variant, workState } from '../test-fixtures';

// The runner's first render loads KaTeX and Mantine: give slow CI machines time.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

let nextWorkId = 500;

/** A signed-in participant with a running work; the outbox store is shared, so each test gets its own work id. */
function runningWork(overrides: Partial<ExamWorkState> = {}, extra: Record<string, Handler> = {}) {
  const id = ++nextWorkId;
  const work = workState(id, overrides);
  const saves: { variantTaskId: number; value: unknown; seq: number }[] = [];
  const flags = new Set<number>();
  const flagHandlers = Object.fromEntries(
    variant.tasks.map((task) => [
      `PUT /api/exam/test/examwork/${id}/${task.variantTaskId}/flag`,
      ({ body }: { body: unknown }) => {
        if ((body as { flagged: boolean }).flagged) flags.add(task.variantTaskId);
        else flags.delete(task.variantTaskId);
        return json(200, { examWorkId: id, flags: [...flags] });
      },
    ]),
  );
  const server = fakeServer({
    ...flagHandlers,
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(work)),
    'GET /api/exam/test/variant/current': () => json(200, variant),
    [`GET /api/exam/test/examwork/${id}`]: () => json(200, { ...work, serverTime: new Date().toISOString() }),
    [`GET /api/exam/test/examwork/left/${id}`]: () =>
      json(200, {
        examWorkId: id,
        secondsLeft: Math.max(0, Math.ceil((Date.parse(work.deadlineAt) - Date.now()) / 1000)),
        deadlineAt: work.deadlineAt,
        status: 'in_progress',
        paused: false,
        serverTime: new Date().toISOString(),
      }),
    'PUT /api/exam/test/saveanswer': ({ body }) => {
      const b = body as { variantTaskId: number; value: unknown; seq: number };
      saves.push(b);
      return json(200, { seq: b.seq, savedAt: new Date().toISOString() });
    },
    ...extra,
  });
  return { id, work, server, saves };
}

describe('the runner', () => {
  it('shows task states in the navigation: answered, flagged, current; keyboard moves between tasks', async () => {
    const { saves } = runningWork({ answers: [saved(101, 'b', 3)] });
    renderApp('/participant/work');
    expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByTestId('option-b')).toBeChecked();
    expect(screen.getByTestId('task-nav-1')).toHaveAttribute('data-answered');
    expect(screen.getByTestId('task-nav-1')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByTestId('task-nav-2')).not.toHaveAttribute('data-answered');

    await userEvent.click(screen.getByTestId('task-nav-2'));
    expect(await screen.findByTestId('task-2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Задание 2 из 3' })).toHaveFocus();
    await userEvent.click(screen.getByTestId('flag-task'));
    expect(screen.getByTestId('task-nav-2')).toHaveAttribute('data-flagged');
    expect(screen.getByTestId('task-nav-2')).toHaveAccessibleName('Задание 2: нет ответа, отмечено');

    // Alt+→ next task, Alt+F flag.
    await userEvent.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(await screen.findByTestId('task-3')).toBeInTheDocument();
    await userEvent.keyboard('{Alt>}f{/Alt}');
    expect(screen.getByTestId('task-nav-3')).toHaveAttribute('data-flagged');

    // Arrow keys move the focus inside the task list (one tab stop).
    screen.getByTestId('task-nav-3').focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('task-nav-2')).toHaveFocus();
    // Enter on the current task's number goes to the task (its heading), like any other number.
    screen.getByTestId('task-nav-3').focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'Задание 3 из 3' })).toHaveFocus();

    // A change is unsaved until the server acknowledges it, then answered and "saved at".
    await userEvent.type(within(screen.getByTestId('task-3')).getByTestId('number-input'), '2,5');
    expect(screen.getByTestId('task-nav-3')).toHaveAttribute('data-unsaved');
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 3000 });
    expect(saves[0]).toEqual({ examWorkId: expect.any(Number), variantTaskId: 103, value: '2,5', seq: 1 });
    await waitFor(() => expect(screen.getByTestId('task-nav-3')).not.toHaveAttribute('data-unsaved'));
    expect(screen.getByTestId('task-nav-3')).toHaveAttribute('data-answered');
    expect(screen.getByTestId('save-status')).toHaveTextContent(/^Сохранено в \d\d:\d\d:\d\d$/);
  });

  it('saves at once when the participant moves to another task, with seq above the stored one', async () => {
    const { saves } = runningWork({ answers: [saved(102, 'Тверь', 7)] });
    renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('task-nav-2', {}, { timeout: 5000 }));
    const input = within(await screen.findByTestId('task-2')).getByTestId('short-text');
    await userEvent.clear(input);
    await userEvent.type(input, 'Москва');
    await userEvent.click(screen.getByTestId('next-task'));
    await waitFor(() => expect(saves.at(-1)).toMatchObject({ variantTaskId: 102, value: 'Москва', seq: 8 }));
  });

  it('an answer larger than the server takes is not queued: the participant is told (issue 23 item 7)', async () => {
    const { saves, server } = runningWork();
    renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('task-nav-2', {}, { timeout: 5000 }));
    const input = within(await screen.findByTestId('task-2')).getByTestId('short-text');
    fireEvent.change(input, { target: { value: 'ж'.repeat(ANSWER_VALUE_MAX_BYTES) } });
    await userEvent.click(screen.getByTestId('next-task'));
    expect(await screen.findByText('Ответ на задание 2 слишком длинный')).toBeInTheDocument();
    expect(screen.getByText(/Такой ответ не будет сохранён: его размер больше 256 КБ/)).toBeInTheDocument();
    expect(saves.filter((s) => s.variantTaskId === 102)).toEqual([]);
    expect(server.callsTo('PUT /api/exam/test/saveanswer')).toEqual([]);
  });

  it('a failing save shows the offline status, keeps the change and never navigates away', async () => {
    const { server } = runningWork(
      {},
      {
        'PUT /api/exam/test/saveanswer': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    );
    const { router } = renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('option-a', {}, { timeout: 5000 }));
    await waitFor(
      () =>
        expect(screen.getByTestId('save-status')).toHaveTextContent('Нет связи — 1 изменение ждёт отправки'),
      {
        timeout: 3000,
      },
    );
    expect(screen.getByTestId('save-status')).toHaveAttribute('aria-live', 'polite');
    expect(router.state.location.pathname).toBe('/participant/work');
    expect(server.callsTo('PUT /api/exam/test/saveanswer').length).toBeGreaterThan(0);
    expect(screen.getByTestId('task-nav-1')).toHaveAttribute('data-unsaved');
  });

  it('a 500 on save is retried quietly, without the error page', async () => {
    let fail = true;
    const { saves } = runningWork(
      {},
      {
        'PUT /api/exam/test/saveanswer': ({ body }) => {
          if (fail) {
            fail = false;
            return apiError(500, 'internal');
          }
          const b = body as { variantTaskId: number; value: unknown; seq: number };
          saves.push(b);
          return json(200, { seq: b.seq, savedAt: new Date().toISOString() });
        },
      },
    );
    const { router } = renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('option-b', {}, { timeout: 5000 }));
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 4000 });
    expect(router.state.location.pathname).toBe('/participant/work');
  });

  it('the finish summary lists unanswered and flagged tasks; confirming finishes the work', async () => {
    const { id, server, work } = runningWork({ answers: [saved(101, 'a')] }, {});
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
    renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('task-nav-3', {}, { timeout: 5000 }));
    await userEvent.click(screen.getByTestId('flag-task'));
    await userEvent.click(screen.getByTestId('finish-work'));
    const summary = await screen.findByTestId('finish-summary');
    expect(within(summary).getByTestId('finish-unanswered')).toHaveTextContent('23');
    expect(within(summary).getByTestId('finish-flagged-3')).toBeInTheDocument();

    // Jumping to an unanswered task closes the dialog.
    await userEvent.click(within(summary).getByTestId('finish-unanswered-2'));
    expect(await screen.findByTestId('task-2')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('finish-work'));
    await userEvent.click(await screen.findByTestId('finish-confirm'));
    expect(await screen.findByTestId('work-finished')).toHaveTextContent('Работа завершена');
    expect(screen.getByTestId('finished-answered')).toHaveTextContent('Ответы даны на 1 из 3 заданий.');
  });

  it("a guest's finished attempt goes straight to its result page (the runner's leave guard does not hold it)", async () => {
    const guest = { id: 12, login: 'guest', displayName: 'Никитина Анна', roles: ['guest', 'participant'] };
    const { id, server, work } = runningWork(
      {},
      {
        'GET /api/user': () => json(200, guest),
        'GET /api/openTestAttempts/5': () => apiError(409, 'work_not_finished'),
      },
    );
    const finished = {
      ...work,
      status: 'finished',
      finishedAt: new Date().toISOString(),
      finishReason: 'manual',
    };
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init = {}) => {
      if (init.method === 'PUT' && String(input) === `/api/exam/test/examwork/finish/${id}/manual`)
        return json(200, finished);
      return original(input, init);
    });
    const { router } = renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('finish-work', {}, { timeout: 5000 }));
    await userEvent.click(await screen.findByTestId('finish-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/guest/attempts/5'));
    expect(await screen.findByTestId('open-attempt-page')).toBeInTheDocument();
  });

  it('at zero the runner flushes, finishes by timeout and shows the finished screen', async () => {
    const deadlineAt = new Date(Date.now() + 1500).toISOString();
    const { id, server, work } = runningWork({ deadlineAt, secondsLeft: 2 }, {});
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init = {}) => {
      if (init.method === 'PUT' && String(input) === `/api/exam/test/examwork/finish/${id}/timeout`) {
        server.calls.push({ key: `PUT ${String(input)}`, body: undefined, headers: {}, url: String(input) });
        return json(200, { ...work, status: 'finished', finishedAt: deadlineAt, finishReason: 'timeout' });
      }
      return original(input, init);
    });
    renderApp('/participant/work');
    expect(await screen.findByTestId('timer', {}, { timeout: 5000 })).toHaveAttribute('aria-hidden', 'true');
    await userEvent.click(screen.getByTestId('option-b'));
    expect(await screen.findByTestId('work-finished', {}, { timeout: 5000 })).toBeInTheDocument();
    const order = server.calls.map((c) => c.key);
    const saveAt = order.indexOf('PUT /api/exam/test/saveanswer');
    const finishAt = order.indexOf(`PUT /api/exam/test/examwork/finish/${id}/timeout`);
    expect(saveAt).toBeGreaterThan(-1);
    expect(finishAt).toBeGreaterThan(saveAt);
  });

  it('pauses: an overlay hides the tasks; a pause by staff cannot be lifted here', async () => {
    const pauseState = {
      examWorkId: 0,
      paused: true,
      pausedAt: new Date().toISOString(),
      pausedUntil: null,
      reason: null,
      byStaff: true,
      secondsLeft: 1200,
      allowance: { allowed: true, pausesLeft: 3, secondsLeft: 900 },
      restBreak: false,
      restBreakSecondsLeft: null,
      serverTime: new Date().toISOString(),
    };
    const { server } = runningWork(
      { status: 'paused', pausedAt: new Date().toISOString() },
      { 'GET /api/exam/test/examwork/pause': () => json(200, pauseState) },
    );
    renderApp('/participant/work');
    const overlay = await screen.findByTestId('pause-overlay', {}, { timeout: 5000 });
    expect(overlay).toHaveTextContent('Работа приостановлена организатором');
    expect(within(overlay).queryByTestId('resume-work')).toBeNull();
    expect(screen.getByTestId('timer')).toHaveTextContent('20:00');
    expect(server.callsTo('GET /api/exam/test/examwork/pause').length).toBeGreaterThan(0);
  });

  it('a reload while offline opens the runner from the local copy: the waiting answers, and the time left counted to the stored deadline on the local clock', async () => {
    const id = ++nextWorkId;
    // The copy was made ten minutes ago, when the server gave the work 45 minutes more; the server's
    // clock runs a minute ahead of this browser's. Now 34 minutes are left, not the 45 of the copy.
    const madeAt = Date.now() - 10 * 60_000;
    const serverThen = madeAt + 60_000;
    const work = workState(id, {
      answers: [saved(102, 'Тверь', 2)],
      serverTime: new Date(serverThen).toISOString(),
      deadlineAt: new Date(serverThen + 45 * 60_000).toISOString(),
      secondsLeft: 45 * 60,
    });
    // What the tab had before the connection dropped: the user, the copy, an unsent change.
    rememberUser({ ...users.participant, roles: [...users.participant.roles] });
    await saveRunnerSnapshot(currentTest(work), madeAt);
    await saveRunnerVariant(variant);
    await openIdbOutboxStore().put({
      examWorkId: id,
      variantTaskId: 102,
      value: 'Москва',
      seq: 3,
      order: 1,
      queuedAt: 0,
    });

    // Offline: nothing answers, not even a service worker's cache.
    const server = fakeServer({});
    server.fetch.mockImplementation(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { router } = renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('task-nav-2'));
    expect(within(screen.getByTestId('task-2')).getByTestId('short-text')).toHaveValue('Москва');
    expect(screen.getByTestId('task-nav-2')).toHaveAttribute('data-unsaved');
    await waitFor(() =>
      expect(screen.getByTestId('save-status')).toHaveTextContent('Нет связи — 1 изменение ждёт отправки'),
    );
    const [minutes, seconds] = screen.getByTestId('timer').textContent!.split(':').map(Number);
    const left = minutes! * 60 + seconds!;
    expect(left).toBeLessThanOrEqual(35 * 60);
    expect(left).toBeGreaterThan(34 * 60);
    expect(router.state.location.pathname).toBe('/participant/work');
  });

  it('opens nothing when the work is open on another device: no variant is loaded, the way out is said', async () => {
    const { work, server } = runningWork();
    let elsewhere = true;
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init = {}) => {
      if (String(input) === '/api/exam/test/currentParticipantTest')
        return json(200, { ...currentTest(work), openElsewhere: elsewhere });
      return original(input, init);
    });
    renderApp('/participant/work');
    const notice = await screen.findByTestId('open-elsewhere', {}, { timeout: 5000 });
    expect(notice).toHaveTextContent('Работа открыта на другом устройстве');
    expect(notice).toHaveTextContent('сбросить привязку к устройству');
    expect(screen.queryByTestId('task-1')).toBeNull();
    expect(server.callsTo('GET /api/exam/test/variant/current')).toHaveLength(0);

    // The organizer reset the binding: «Проверить снова» opens the runner here.
    elsewhere = false;
    await userEvent.click(screen.getByTestId('open-elsewhere-recheck'));
    expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('shows the flags the work carries on the server and changes them through the server', async () => {
    const { id, server } = runningWork({ flags: [102] });
    renderApp('/participant/work');
    expect(await screen.findByTestId('task-nav-2', {}, { timeout: 5000 })).toHaveAttribute('data-flagged');
    expect(screen.getByTestId('task-nav-1')).not.toHaveAttribute('data-flagged');
    await userEvent.click(screen.getByTestId('task-nav-2'));
    await userEvent.click(screen.getByTestId('flag-task'));
    await waitFor(() =>
      expect(server.callsTo(`PUT /api/exam/test/examwork/${id}/102/flag`).map((c) => c.body)).toEqual([
        { flagged: false },
      ]),
    );
    expect(screen.getByTestId('task-nav-2')).not.toHaveAttribute('data-flagged');
    expect(localStorage.getItem(`attesta.flags.pending.${id}`)).toBeNull();
  });

  it('a flag set offline waits in the browser and is sent when the connection returns', async () => {
    let up = false;
    const { id, server } = runningWork();
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init = {}) => {
      if (!up && String(input).endsWith('/flag')) throw new TypeError('Failed to fetch');
      return original(input, init);
    });
    renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('flag-task', {}, { timeout: 5000 }));
    expect(screen.getByTestId('task-nav-1')).toHaveAttribute('data-flagged');
    await waitFor(() => expect(localStorage.getItem(`attesta.flags.pending.${id}`)).toBe('{"101":true}'));
    up = true;
    act(() => void window.dispatchEvent(new Event('offline')));
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(localStorage.getItem(`attesta.flags.pending.${id}`)).toBeNull());
    expect(server.callsTo(`PUT /api/exam/test/examwork/${id}/101/flag`).at(-1)?.body).toEqual({
      flagged: true,
    });
  });

  it.each([
    ['a refusal (409 device_mismatch)', () => apiError(409, 'device_mismatch'), 'Работа не завершена: '],
    [
      'a refusal (409 deadline_passed)',
      () => apiError(409, 'deadline_passed', 'The time is over'),
      'Работа не завершена: Время работы истекло: ответы больше не принимаются.',
    ],
    [
      'a lost connection',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'Нет связи с сервером: работа ещё не завершена',
    ],
  ])(
    'a finish the server did not accept (%s) says so, keeps the runner and the answers; unsent answers block it',
    async (_, refuse, text) => {
      const { id, server } = runningWork(
        {},
        {
          'PUT /api/exam/test/saveanswer': () => {
            throw new TypeError('Failed to fetch');
          },
        },
      );
      const outbox = openIdbOutboxStore();
      const waiting = async () =>
        (await outbox.list(id)).map(({ variantTaskId, value }) => ({ variantTaskId, value }));
      const finishUrl = `/api/exam/test/examwork/finish/${id}/manual`;
      let finishes = 0;
      const finish = () => {
        finishes++;
        return refuse();
      };
      const original = server.fetch.getMockImplementation()!;
      server.fetch.mockImplementation(async (input, init = {}) => {
        if (init.method === 'PUT' && String(input) === finishUrl) return finish();
        return original(input, init);
      });
      renderApp('/participant/work');
      await userEvent.click(await screen.findByTestId('option-a', {}, { timeout: 5000 }));
      await userEvent.click(screen.getByTestId('finish-work'));
      // The save cannot go: the finish is not even tried, and says why.
      await userEvent.click(await screen.findByTestId('finish-confirm'));
      expect(await screen.findByTestId('finish-problem', {}, { timeout: 20_000 })).toBeInTheDocument();
      expect(screen.queryByTestId('work-finished')).toBeNull();
      expect(finishes).toBe(0);
      // The answer the server has not got waits in this browser's outbox.
      expect(await waiting()).toEqual([{ variantTaskId: 101, value: 'a' }]);

      // Saves come through again, but the finish itself is refused.
      const acknowledged: unknown[] = [];
      let saves: 'up' | 'down' = 'up';
      server.fetch.mockImplementation(async (input, init = {}) => {
        if (init.method === 'PUT' && String(input) === finishUrl) return finish();
        if (init.method === 'PUT' && String(input) === '/api/exam/test/saveanswer') {
          if (saves === 'down') throw new TypeError('Failed to fetch');
          const body = JSON.parse(String(init.body)) as { seq: number };
          acknowledged.push(body);
          return json(200, { seq: body.seq, savedAt: new Date().toISOString() });
        }
        return original(input, init);
      });
      await userEvent.click(screen.getByTestId('finish-confirm'));
      await waitFor(() => expect(screen.getByTestId('finish-problem')).toHaveTextContent(text), {
        timeout: 20_000,
      });
      expect(screen.getByTestId('finish-problem')).not.toHaveTextContent(
        /device|mismatch|Failed|time is over/i,
      );
      expect(screen.queryByTestId('work-finished')).toBeNull();
      expect(finishes).toBe(1);
      // The answer reached the server before the finish was asked for; nothing else was dropped.
      expect(acknowledged).toEqual([{ examWorkId: id, variantTaskId: 101, value: 'a', seq: 1 }]);
      expect(await waiting()).toEqual([]);

      // The refusal leaves the runner and its outbox working: a change made now, with the
      // connection gone again, waits in IndexedDB like any other.
      saves = 'down';
      await userEvent.click(screen.getByRole('button', { name: 'Вернуться к заданиям' }));
      await userEvent.click(screen.getByTestId('option-b'));
      await waitFor(async () => expect(await waiting()).toEqual([{ variantTaskId: 101, value: 'b' }]));
      expect(screen.getByTestId('task-1')).toBeInTheDocument();
    },
  );

  it('time up without a connection is not shown as finished; the changes left unsent are counted', async () => {
    const deadlineAt = new Date(Date.now() + 1500).toISOString();
    const { server } = runningWork({ deadlineAt, secondsLeft: 2 });
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init = {}) => {
      const url = String(input);
      if (
        url === '/api/exam/test/saveanswer' ||
        url.includes('/finish/') ||
        url.startsWith('/api/exam/test/examwork/')
      )
        throw new TypeError('Failed to fetch');
      return original(input, init);
    });
    renderApp('/participant/work');
    await userEvent.click(await screen.findByTestId('option-b', {}, { timeout: 5000 }));
    expect(await screen.findByTestId('runner-time-up', {}, { timeout: 25_000 })).toHaveTextContent(
      'Время работы вышло',
    );
    expect(screen.queryByTestId('work-finished')).toBeNull();
    expect(screen.getByTestId('runner-time-up-unsent')).toHaveTextContent('Не отправлено 1 изменение');
  }, 40_000);
});
