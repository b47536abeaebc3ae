import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';

const organizator = { id: 4, login: 'organizator', displayName: 'Орлова Ольга', roles: ['organizator'] };

const row = (over: object) => ({
  participantTestId: 7,
  examWorkId: 70,
  deletedExamWorkId: null,
  name: 'Иванов Иван',
  className: '7 «А»',
  subjectTestId: 3,
  subjectTestName: 'Математика, 7 класс',
  status: 'in_progress',
  answered: 3,
  total: 10,
  secondsLeft: 600,
  deadlineAt: '2030-04-10T10:45:00.000Z',
  lastSaveAt: '2026-04-10T10:05:00.000Z',
  online: true,
  offlineSince: null,
  lastSeenAt: '2026-04-10T10:05:00.000Z',
  pausedByStaff: false,
  pauseReason: null,
  finishReason: null,
  integrity: {},
  activationCode: 'AB12CD',
  registrationCode: 'R-1',
  ...over,
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('room view', { timeout: 20_000 }, () => {
  it('shows one row per sitting with its subject test: the same participant twice, told apart by subject', async () => {
    fakeServer({
      'GET /api/user': () => json(200, organizator),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/organizator/diagnostic/list': () => json(200, { items: [], total: 0 }),
      'POST /api/organizator/class/list': () => json(200, { items: [], total: 0 }),
      'GET /api/monitoring/room': () =>
        json(200, {
          diagnosticId: 5,
          classId: 9,
          buildingId: null,
          serverTime: new Date().toISOString(),
          participants: [
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
          ],
        }),
    });
    renderApp('/organizator/room?diagnosticId=5&classId=9');
    const table = await screen.findByTestId('room-table');
    expect(within(table).getByRole('columnheader', { name: 'Тест по предмету' })).toBeInTheDocument();
    expect(await within(table).findByTestId('room-subject-7')).toHaveTextContent('Математика, 7 класс');
    expect(within(table).getByTestId('room-subject-8')).toHaveTextContent('Геометрия, 7 класс');
    expect(within(table).getAllByText('Иванов Иван')).toHaveLength(2);
  });
});
