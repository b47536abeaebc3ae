import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';
import { organizatorRoomHandlers, roomRow } from '../../test/room-fixtures';

/* The sitting's log names staff by name and tells lost connections and second devices in words. */

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
  actorName: null,
  offlineSeconds: null,
  ...over,
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe("a sitting's event log", { timeout: 20_000 }, () => {
  it('writes out a lost connection, its return, a second device and who of staff acted, by name', async () => {
    fakeServer({
      ...organizatorRoomHandlers([roomRow({})]),
      'GET /api/monitoring/participantTest/7/events': () =>
        json(200, {
          participantTestId: 7,
          truncated: false,
          events: [
            event({}),
            event({ at: '2026-04-10T07:05:00.000Z', kind: 'second_device' }),
            event({ at: '2026-04-10T07:10:00.000Z', kind: 'connection_lost', actor: 'system' }),
            event({
              at: '2026-04-10T07:12:05.000Z',
              kind: 'connection_restored',
              actor: 'system',
              offlineSeconds: 125,
            }),
            event({
              at: '2026-04-10T07:20:00.000Z',
              kind: 'paused',
              actor: 'staff',
              actorName: 'Иванов И. И.',
              reason: 'Пожарная тревога',
            }),
            event({ at: '2026-04-10T07:30:00.000Z', kind: 'resumed', actor: 'staff' }),
          ],
        }),
    });
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    await userEvent.click(await screen.findByRole('button', { name: 'Журнал событий: Иванов Иван' }));
    const log = await screen.findByTestId('sitting-log-table');
    const rows = within(log)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          // units are bound to their numbers by no-break spaces
          .map((c) => c.textContent?.replace(/\u00a0/g, ' ')),
      );
    expect(rows.map((cells) => cells.slice(1))).toEqual([
      ['Работа начата', 'Участник', '—'],
      [
        'Попытка входа с другого устройства',
        'Участник',
        'вход не допущен: работа открыта на другом устройстве',
      ],
      ['Потеря связи с сервером', 'Система', '—'],
      ['Связь с сервером восстановлена', 'Система', 'без связи: 2 мин 5 с'],
      ['Пауза', 'Иванов И. И.', 'причина: Пожарная тревога'],
      // A staff action of an account without a name still says who in words, never an id.
      ['Продолжение после паузы', 'Сотрудник', '—'],
    ]);
    expect(log).not.toHaveTextContent(/connection_|second_device|monitoring\./);
  });
});
