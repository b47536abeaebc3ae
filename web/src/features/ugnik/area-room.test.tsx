import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, type Handler } from '../../test/test-app';
import { roomRow } from '../../test/room-fixtures';

// The ugnik's read-only room (docs/ugnik.md): reached from its area's list, the class picked by name,
// the live rows shown without selection, actions, messages or codes; the event log stays.

const ugnik = { id: 5, login: 'ugnik', displayName: 'Белов Константин', roles: ['ugnik'] };
const areaRow = {
  diagnosticId: 11,
  code: 'D-11',
  name: 'Математика 7',
  kind: 'diagnostic',
  status: 'active',
  startsAt: '2026-03-01T06:00:00.000Z',
  endsAt: '2026-03-05T15:00:00.000Z',
  schoolId: 3,
  schoolName: 'Школа № 1',
  participantCount: 25,
  finishedCount: 12,
};
const klass = (id: number, name: string) => ({
  id,
  schoolId: 3,
  schoolName: 'Школа № 1',
  buildingId: null,
  parallelId: 7,
  letter: name.slice(-2, -1),
  name,
});
const row = (over: object = {}) =>
  roomRow({
    accommodations: {
      extraTimePercent: 50,
      largeText: true,
      theme: 'default',
      lineReader: false,
      textToSpeech: false,
      restBreakMinutes: 0,
    },
    activationCode: null,
    registrationCode: null,
    ...over,
  });

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, ugnik),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/ugnik/area/diagnostics': () =>
      json(200, { area: { id: 1, name: 'Центральный район' }, items: [areaRow] }),
    'POST /api/ugnik/class/list': () =>
      json(200, { items: [klass(9, '7 «А»'), klass(10, '7 «Б»')], total: 2 }),
    'POST /api/ugnik/building/list': () =>
      json(200, {
        items: [{ id: 4, schoolId: 3, schoolName: 'Школа № 1', name: 'Корпус 2', address: null }],
        total: 1,
      }),
    'GET /api/monitoring/room': () =>
      json(200, {
        diagnosticId: 11,
        classId: 9,
        buildingId: null,
        serverTime: new Date().toISOString(),
        participants: [row(), row({ participantTestId: 8, name: 'Петров Пётр', accommodations: null })],
      }),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('ugnik: watching a room of its area', { timeout: 20_000 }, () => {
  it('goes from the area list to the room and picks the class by name, or a whole building, of that school', async () => {
    const api = server();
    const { router } = renderApp('/ugnik/area');
    const watch = await screen.findByRole('link', { name: 'Наблюдать: Математика 7, Школа № 1' });
    expect(watch).toHaveAttribute('href', '/ugnik/room?diagnosticId=11&schoolId=3');
    await userEvent.click(watch);

    expect(await screen.findByRole('heading', { name: 'Наблюдение за аудиторией' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Наблюдение за аудиторией' })).toHaveAttribute(
      'href',
      '/ugnik/room',
    );
    await waitFor(() =>
      expect(screen.getByTestId('watch-diagnostic')).toHaveValue('Математика 7 (D-11) — Школа № 1'),
    );
    expect(screen.getByText('Выберите класс или здание, чтобы наблюдать.')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /api/ugnik/class/list')).toHaveLength(1));
    expect(api.callsTo('POST /api/ugnik/class/list')[0]!.body).toMatchObject({ filter: { schoolId: 3 } });

    const picker = screen.getByTestId('watch-class');
    await userEvent.type(picker, 'Б');
    const listbox = await waitFor(() => document.getElementById(picker.getAttribute('aria-controls') ?? '')!);
    expect(within(listbox).queryByRole('option', { name: '7 «А»', hidden: true })).toBeNull();
    await userEvent.click(await within(listbox).findByRole('option', { name: '7 «Б»', hidden: true }));

    await waitFor(() => expect(router.state.location.search).toContain('classId=10'));
    expect(await screen.findByTestId('room-table')).toBeInTheDocument();
    const room = api.callsTo('GET /api/monitoring/room')[0]!.url;
    expect(room).toContain('diagnosticId=11');
    expect(room).toContain('classId=10');

    await userEvent.clear(picker);
    await userEvent.type(picker, 'Корпус');
    await userEvent.click(
      await within(listbox).findByRole('option', { name: 'Корпус 2 (всё здание)', hidden: true }),
    );
    await waitFor(() => expect(router.state.location.search).toContain('buildingId=4'));
    expect(router.state.location.search).not.toContain('classId');
    await waitFor(() => expect(api.callsTo('GET /api/monitoring/room')).toHaveLength(2));
    const building = api.callsTo('GET /api/monitoring/room')[1]!.url;
    expect(building).toContain('buildingId=4');
    expect(building).not.toContain('classId');
  });

  it('shows the rows read-only: subject, accommodations and the log, no selection, actions, messages or codes', async () => {
    const api = server({
      'GET /api/monitoring/participantTest/7/events': () =>
        json(200, {
          participantTestId: 7,
          truncated: false,
          events: [
            {
              at: '2026-04-10T07:00:00.000Z',
              kind: 'started',
              actor: 'participant',
              examWorkId: 70,
              reason: null,
              deltaSeconds: null,
              integrityKind: null,
              finishReason: null,
              verdict: null,
            },
          ],
        }),
    });
    renderApp('/ugnik/room?diagnosticId=11&schoolId=3&classId=9');
    const table = await screen.findByTestId('room-table');
    expect(await within(table).findByTestId('room-subject-7')).toHaveTextContent('Математика, 7 класс');
    expect(within(table).getByTestId('room-status-7')).toHaveTextContent('Выполняет');
    expect(within(table).getByRole('columnheader', { name: 'Особые условия' })).toBeInTheDocument();
    expect(within(table).getByTestId('accommodations-words-7')).toHaveTextContent('+50 % времени');
    expect(screen.getByTestId('room-read-only')).toHaveTextContent('Только наблюдение');

    expect(within(table).queryByRole('columnheader', { name: 'Код активации' })).toBeNull();
    expect(within(table).queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByTestId('room-select-all')).toBeNull();
    for (const id of [
      'room-pause',
      'room-resume',
      'room-extend',
      'room-logout',
      'room-clear-session',
      'room-restore',
    ])
      expect(screen.queryByTestId(id)).toBeNull();
    expect(screen.queryByRole('button', { name: /Написать сообщение/ })).toBeNull();
    expect(screen.queryByText(/^Выбрано:/)).toBeNull();
    // Every cell of a row: the header's count, no hidden leftover column.
    const headers = within(table).getAllByRole('columnheader').length;
    expect(within(within(table).getByTestId('room-row-8')).getAllByRole('cell')).toHaveLength(headers);

    await userEvent.click(screen.getByRole('button', { name: 'Журнал событий: Иванов Иван' }));
    const log = await screen.findByTestId('sitting-log-table');
    expect(within(log).getByText('Работа начата')).toBeInTheDocument();
    expect(api.callsTo('GET /api/monitoring/participantTest/7/events')).toHaveLength(1);
    // Nothing but reads: no room action was sent.
    expect(
      api.calls
        .map((c) => c.key)
        .filter((k) => !k.startsWith('GET ') && !/^POST \/api\/ugnik\/(class|building)\/list$/.test(k)),
    ).toEqual([]);
  });
});
