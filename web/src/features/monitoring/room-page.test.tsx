import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';
import { organizatorRoomHandlers, roomRow } from '../../test/room-fixtures';

const row = (over: object) => roomRow(over);

const event = (over: object) => ({
  at: '2026-04-10T07:00:00.000Z',
  kind: 'started',
  actor: 'participant',
  examWorkId: 70,
  reason: null,
  deltaSeconds: null,
  integrityKind: null,
  finishReason: null,
  verdict: null,
  ...over,
});

function roomServer(extra: Record<string, Handler> = {}, rows: object[] = [row({})]) {
  return fakeServer({
    ...organizatorRoomHandlers(rows),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('room view', { timeout: 20_000 }, () => {
  it('shows one row per sitting with its subject test: the same participant twice, told apart by subject', async () => {
    roomServer({}, [
      row({}),
      row({
        participantTestId: 8,
        examWorkId: null,
        subjectTestId: 4,
        subjectTestName: 'Геометрия, 7 класс',
        status: 'not_started',
        activationCode: 'EF34GH',
        registrationCode: 'R-2',
      }),
    ]);
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    const table = await screen.findByTestId('room-table');
    expect(within(table).getByRole('columnheader', { name: 'Тест по предмету' })).toBeInTheDocument();
    expect(await within(table).findByTestId('room-subject-7')).toHaveTextContent('Математика, 7 класс');
    expect(within(table).getByTestId('room-subject-8')).toHaveTextContent('Геометрия, 7 класс');
    expect(within(table).getAllByText('Иванов Иван')).toHaveLength(2);
  });

  it("opens a sitting's event log in a drawer, written out in words", async () => {
    const api = roomServer({
      'GET /api/monitoring/participantTest/7/events': () =>
        json(200, {
          participantTestId: 7,
          truncated: false,
          events: [
            event({}),
            event({
              at: '2026-04-10T07:10:00.000Z',
              kind: 'paused',
              actor: 'staff',
              reason: 'Пожарная тревога',
            }),
            event({
              at: '2026-04-10T07:20:00.000Z',
              kind: 'time_changed',
              actor: 'staff',
              deltaSeconds: 600,
            }),
            event({ at: '2026-04-10T07:25:00.000Z', kind: 'integrity', integrityKind: 'blur' }),
            event({
              at: '2026-04-10T07:45:00.000Z',
              kind: 'finished',
              finishReason: 'timeout',
              actor: 'system',
            }),
          ],
        }),
    });
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    await userEvent.click(await screen.findByRole('button', { name: 'Журнал событий: Иванов Иван' }));
    const log = await screen.findByTestId('sitting-log-table');
    expect(screen.getByRole('dialog', { name: 'Журнал событий: Иванов Иван' })).toBeInTheDocument();
    expect(screen.getByText('Тест по предмету: Математика, 7 класс')).toBeInTheDocument();
    const rows = within(log).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Работа начата',
      'Пауза',
      'Изменено время',
      'Нарушение',
      'Работа завершена',
    ]);
    expect(within(rows[1]!).getByText('причина: Пожарная тревога')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Сотрудник')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('+10 мин')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('уход из окна')).toBeInTheDocument();
    expect(within(rows[4]!).getByText('истекло время')).toBeInTheDocument();
    expect(api.callsTo('GET /api/monitoring/participantTest/7/events')).toHaveLength(1);
  });

  it('says in words why the log could not be read, and stays on the room', async () => {
    roomServer({ 'GET /api/monitoring/participantTest/7/events': () => apiError(403, 'forbidden') });
    const { router } = renderApp('/organizator/room?diagnosticId=5&classId=9');
    await userEvent.click(await screen.findByRole('button', { name: 'Журнал событий: Иванов Иван' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Не удалось загрузить журнал: .*[а-я]/);
    expect(router.state.location.pathname).toBe('/organizator/room');
  });

  it('sends a short message to one sitting; an empty text is refused before sending, a refusal is said in words', async () => {
    let answer = () => json(200, { id: 1, participantTestId: 7, text: 'x', at: '', readAt: null });
    const api = roomServer({ 'POST /api/monitoring/participantTest/7/message': () => answer() });
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    await userEvent.click(await screen.findByRole('button', { name: 'Написать сообщение: Иванов Иван' }));
    const dialog = await screen.findByRole('dialog', { name: 'Сообщение участнику: Иванов Иван' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отправить' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Введите текст сообщения');
    expect(api.callsTo('POST /api/monitoring/participantTest/7/message')).toHaveLength(0);

    const input = within(dialog).getByLabelText(/Текст сообщения/);
    expect(input).toHaveAttribute('maxLength', '500');
    answer = () => apiError(403, 'forbidden');
    await userEvent.type(input, 'Проверьте бланк');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отправить' }));
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent(/^Не удалось отправить:/);
    expect(refusal).not.toHaveTextContent(/monitoring\.|forbidden/);

    answer = () => json(200, { id: 1, participantTestId: 7, text: 'x', at: '', readAt: null });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отправить' }));
    await screen.findByText('Сообщение отправлено');
    const calls = api.callsTo('POST /api/monitoring/participantTest/7/message');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body).toEqual({ text: 'Проверьте бланк' });
  });

  it('writes a staff message out in the event log', async () => {
    roomServer({
      'GET /api/monitoring/participantTest/7/events': () =>
        json(200, {
          participantTestId: 7,
          truncated: false,
          events: [event({ kind: 'message', actor: 'staff', message: 'Осталось 10 минут' })],
        }),
    });
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    await userEvent.click(await screen.findByRole('button', { name: 'Журнал событий: Иванов Иван' }));
    const log = await screen.findByTestId('sitting-log-table');
    expect(within(log).getByText('Сообщение участнику')).toBeInTheDocument();
    expect(within(log).getByText('«Осталось 10 минут»')).toBeInTheDocument();
  });

  it("shows each sitting's accommodations in words, a dash for none", async () => {
    roomServer({}, [
      row({
        accommodations: {
          extraTimePercent: 50,
          largeText: true,
          theme: 'high_contrast',
          lineReader: false,
          textToSpeech: false,
          restBreakMinutes: 0,
        },
      }),
      row({ participantTestId: 8, name: 'Петров Пётр', accommodations: null }),
    ]);
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    const table = await screen.findByTestId('room-table');
    expect(within(table).getByRole('columnheader', { name: 'Особые условия' })).toBeInTheDocument();
    expect(await within(table).findByTestId('accommodations-words-7')).toHaveTextContent(
      '+50 % времени, крупный шрифт, высокий контраст',
    );
    expect(within(table).queryByTestId('accommodations-words-8')).toBeNull();
    expect(within(within(table).getByTestId('room-row-8')).getAllByText('—').length).toBeGreaterThan(0);
  });
});
