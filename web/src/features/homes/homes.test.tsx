import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';
import { moscowToday } from './api/home-api';

const user = (role: string) => ({ id: 7, login: role, displayName: 'Иванова Анна', roles: [role] });

function server(role: string, handlers: Record<string, Handler>) {
  return fakeServer({
    'GET /api/user': () => json(200, user(role)),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    ...handlers,
  });
}

const diagnostic = (over: object = {}) => ({
  id: 11,
  code: 'D-1',
  name: 'Математика 7',
  kind: 'diagnostic',
  startsAt: '2026-03-02T06:00:00.000Z',
  endsAt: '2026-03-02T15:00:00.000Z',
  parallels: [7],
  status: 'running',
  resultsPublished: false,
  subjectTests: [{ id: 3, name: 'Алгебра 7', parallels: [7] }],
  participantCount: 25,
  ...over,
});
const page = (items: unknown[], total = items.length) => json(200, { items, total });
const queueItem = (over: object = {}) => ({
  id: 1,
  type: 'import',
  status: 'done',
  diagnosticId: null,
  diagnosticCode: null,
  diagnosticName: null,
  params: {},
  progress: 100,
  progressText: null,
  result: null,
  resultFileId: null,
  error: null,
  errorCode: null,
  attempts: 1,
  maxAttempts: 3,
  runAfter: '2026-03-01T10:00:00.000Z',
  createdBy: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...over,
});
/** A stat shows '—' until its call answers: wait for the number. */
const expectStat = (testId: string, text: string) =>
  waitFor(() => expect(screen.getByTestId(testId)).toHaveTextContent(text));
type Body = { filter?: Record<string, unknown>; pageSize?: number };
const bodyOf = (c: { body: unknown }) => c.body as Body;

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('role homes as dashboards', { timeout: 20_000 }, () => {
  it('coordinator: today with its rooms, what needs attention, upcoming, shortcuts; no placeholder', async () => {
    const today = moscowToday();
    const api = server('coordinator', {
      'POST /api/coordinator/diagnostic/list': ({ body }) => {
        const filter = (body as Body).filter ?? {};
        if (filter.dateFrom) return page([diagnostic()]);
        if (filter.status === 'planned')
          return page([diagnostic({ id: 12, name: 'Русский язык 8', status: 'planned' })]);
        if (filter.status === 'finished') return page([diagnostic({ id: 13, status: 'finished' })], 2);
        return apiError(400, 'validation_failed');
      },
      'POST /api/coordinator/participantTest/list': () => page([], 48),
      'POST /api/ParticipantTest/queuelist': () => page([queueItem({ status: 'failed' })], 3),
    });
    renderApp('/coordinator');
    expect(await screen.findByTestId('role-home-coordinator')).toBeInTheDocument();
    const todayTable = await screen.findByTestId('today-diagnostics');
    expect(within(todayTable).getByRole('link', { name: 'Математика 7' })).toHaveAttribute(
      'href',
      '/coordinator/diagnostics/11',
    );
    expect(within(todayTable).getByText('Алгебра 7')).toBeInTheDocument();
    expect(within(todayTable).getByText('Идёт')).toBeInTheDocument();
    expect(within(todayTable).getByRole('link', { name: 'Открыть аудиторию: Математика 7' })).toHaveAttribute(
      'href',
      '/coordinator/room?diagnosticId=11',
    );
    await expectStat('stat-participants', '48');
    await expectStat('stat-today', '1');
    await expectStat('stat-failed', '3');
    const attention = screen.getByTestId('home-attention');
    expect(
      await within(attention).findByRole('link', { name: '3 задания очереди завершились ошибкой' }),
    ).toHaveAttribute('href', '/coordinator/queue');
    expect(
      within(attention).getByRole('link', { name: '2 диагностики завершены, результаты не опубликованы' }),
    ).toHaveAttribute('href', '/coordinator/results');
    expect(
      await within(screen.getByTestId('upcoming-diagnostics')).findByText('Русский язык 8'),
    ).toBeInTheDocument();
    const shortcuts = screen.getByRole('navigation', { name: 'Быстрые переходы' });
    expect(within(shortcuts).getByRole('link', { name: 'Очередь заданий' })).toHaveAttribute(
      'href',
      '/coordinator/queue',
    );
    expect(screen.queryByText(/появятся/)).toBeNull();
    // The calls asked for today (Moscow), the planned ones and the failed queue items.
    expect(api.callsTo('POST /api/coordinator/diagnostic/list').map((c) => bodyOf(c).filter)).toEqual(
      expect.arrayContaining([
        { dateFrom: today, dateTo: today },
        { status: 'planned' },
        { status: 'finished' },
      ]),
    );
    expect(bodyOf(api.callsTo('POST /api/coordinator/participantTest/list')[0]!).filter).toEqual({
      date: today,
    });
    expect(bodyOf(api.callsTo('POST /api/ParticipantTest/queuelist')[0]!).filter).toEqual({
      status: 'failed',
    });
  });

  it('coordinator: says so when nothing needs attention, and shows a failed panel in words', async () => {
    server('coordinator', {
      'POST /api/coordinator/diagnostic/list': ({ body }) =>
        (body as Body).filter?.dateFrom ? apiError(500, 'internal_error') : page([]),
      'POST /api/coordinator/participantTest/list': () => page([], 0),
      'POST /api/ParticipantTest/queuelist': () => page([], 0),
    });
    const { router } = renderApp('/coordinator');
    const attention = await screen.findByTestId('home-attention');
    expect(
      await within(attention).findByText('Всё в порядке: ничего не ждёт ваших действий.'),
    ).toBeInTheDocument();
    expect(await within(screen.getByTestId('home-today')).findByRole('alert')).toHaveTextContent(
      /^Не удалось загрузить:/,
    );
    expect(await screen.findByText('Запланированных диагностик нет.')).toBeInTheDocument();
    // A failed panel stays on the home; it does not send the user to the error page.
    expect(router.state.location.pathname).toBe('/coordinator');
  });

  it("organizator: today's diagnostics with a link to the live room", async () => {
    server('organizator', {
      'POST /api/organizator/diagnostic/list': ({ body }) =>
        (body as Body).filter?.dateFrom ? page([diagnostic()]) : page([]),
    });
    renderApp('/organizator');
    expect(await screen.findByTestId('role-home-organizator')).toBeInTheDocument();
    const table = await screen.findByTestId('today-diagnostics');
    expect(within(table).getByRole('link', { name: 'Открыть аудиторию: Математика 7' })).toHaveAttribute(
      'href',
      '/organizator/room?diagnosticId=11',
    );
    expect(screen.queryByTestId('home-attention')).toBeNull();
    const shortcuts = screen.getByRole('navigation', { name: 'Быстрые переходы' });
    expect(within(shortcuts).getByRole('link', { name: 'Протокол' })).toHaveAttribute(
      'href',
      '/organizator/protocol',
    );
  });

  it.each(['coordinator', 'organizator'] as const)(
    '%s: the live room is linked once, from the shortcuts',
    async (role) => {
      server(role, {});
      renderApp(`/${role}`);
      const shortcuts = await screen.findByRole('navigation', { name: 'Быстрые переходы' });
      expect(within(shortcuts).getByTestId('room-link')).toHaveAttribute('href', `/${role}/room`);
      expect(
        screen.getAllByRole('link').filter((a) => a.getAttribute('href') === `/${role}/room`),
      ).toHaveLength(1);
      expect(screen.getAllByTestId('room-link')).toHaveLength(1);
    },
  );

  it('expert: answers awaiting grading, by test, with the way to grading', async () => {
    server('expert', {
      'GET /api/expert/queue': () =>
        json(200, {
          items: [
            {
              subjectTestId: 3,
              subjectTestName: 'Литература 9',
              subjectName: 'Литература',
              date: '2026-03-02',
              assigned: 4,
              graded: 1,
              thirdChecks: 1,
            },
            {
              subjectTestId: 4,
              subjectTestName: 'История 9',
              subjectName: 'История',
              date: '2026-03-02',
              assigned: 0,
              graded: 6,
              thirdChecks: 0,
            },
            {
              subjectTestId: 5,
              subjectTestName: 'Обществознание 9',
              subjectName: 'Обществознание',
              date: '2026-03-03',
              assigned: 3,
              graded: 0,
              thirdChecks: 0,
            },
          ],
        }),
    });
    renderApp('/expert');
    await expectStat('stat-to-grade', '7');
    await expectStat('stat-third', '1');
    const table = screen.getByTestId('grading-by-test');
    expect(within(table).getByText('Литература 9')).toBeInTheDocument();
    expect(within(table).getByText('02.03.2026')).toBeInTheDocument();
    expect(within(table).queryByText('История 9')).toBeNull();
    expect(screen.getByRole('link', { name: 'Перейти к проверке' })).toHaveAttribute(
      'href',
      '/expert/grading',
    );
  });

  it('admin: queue status, recent imports, today and shortcuts', async () => {
    const api = server('admin', {
      'POST /api/ParticipantTest/queuelist': ({ body }) => {
        const filter = (body as Body).filter ?? {};
        if (filter.type === 'import')
          return page([queueItem({ id: 9, status: 'failed' }), queueItem({ id: 8, status: 'done' })]);
        return page([], { queued: 4, running: 1, failed: 2 }[filter.status as string] ?? 0);
      },
      'POST /api/admin/diagnostics/list': () =>
        page([
          {
            ...diagnostic(),
            createdByRole: 'admin',
            createdByLogin: 'admin',
            publishedAt: null,
            subjectTests: [{ id: 3, name: 'Алгебра 7' }],
            schoolCount: 2,
            participantTestCount: 30,
            finishedWorkCount: 4,
          },
        ]),
    });
    renderApp('/admin');
    expect(await screen.findByTestId('role-home-admin')).toBeInTheDocument();
    await expectStat('stat-queued', '4');
    await expectStat('stat-running', '1');
    await expectStat('stat-failed', '2');
    expect(screen.getByRole('link', { name: /^2\s*С ошибкой$/ })).toHaveAttribute('href', '/admin/queue');
    const imports = await screen.findByTestId('recent-imports');
    expect(within(imports).getByText('Ошибка')).toBeInTheDocument();
    expect(within(imports).getByText('Выполнено')).toBeInTheDocument();
    expect(
      within(await screen.findByTestId('today-diagnostics')).getByText('Участников: 30'),
    ).toBeInTheDocument();
    expect(
      api.callsTo('POST /api/ParticipantTest/queuelist').some((c) => bodyOf(c).filter?.type === 'import'),
    ).toBe(true);
    const shortcuts = screen.getByRole('navigation', { name: 'Быстрые переходы' });
    expect(within(shortcuts).getByRole('link', { name: 'КИМ' })).toHaveAttribute('href', '/admin/content');
  });

  it('ugnik: its running and upcoming diagnostics', async () => {
    const api = server('ugnik', {
      'POST /api/ugnik/diagnostic/list': () =>
        page([
          {
            id: 7,
            code: 'I-2026-ABC123',
            name: 'Проверка математики',
            kind: 'inspection',
            startsAt: '2026-03-01T06:00:00.000Z',
            endsAt: '2026-03-05T15:00:00.000Z',
            parallels: [7],
            createdBy: 5,
            participantCount: 12,
            examWorkCount: 9,
            resultsPublished: false,
            createdAt: '2026-02-01T10:00:00.000Z',
            subjectTestCount: 1,
            schoolCount: 3,
          },
        ]),
    });
    renderApp('/ugnik');
    const table = await screen.findByTestId('ugnik-diagnostics');
    expect(within(table).getByRole('link', { name: 'Проверка математики' })).toHaveAttribute(
      'href',
      '/ugnik/diagnostics/7',
    );
    expect(within(table).getByText('Школ: 3')).toBeInTheDocument();
    expect(within(table).getByText('Работ: 9')).toBeInTheDocument();
    await expectStat('stat-ugnik-diagnostics', '1');
    expect(bodyOf(api.callsTo('POST /api/ugnik/diagnostic/list')[0]!).filter).toEqual({
      from: moscowToday(),
    });
  });
});
