import { json } from './test-app';

/** A row of the live room view (RoomRow) as the server sends it, for the room's tests. */
export const roomRow = (over: object = {}) => ({
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

/** The calls an organizator's room page makes, the room holding `rows`. */
export const organizatorRoomHandlers = (rows: object[]) => ({
  'GET /api/user': () =>
    json(200, { id: 4, login: 'organizator', displayName: 'Орлова Ольга', roles: ['organizator'] }),
  'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
  'POST /api/organizator/diagnostic/list': () => json(200, { items: [], total: 0 }),
  'POST /api/organizator/class/list': () => json(200, { items: [], total: 0 }),
  'GET /api/monitoring/room': () =>
    json(200, {
      diagnosticId: 5,
      classId: 9,
      buildingId: null,
      serverTime: new Date().toISOString(),
      participants: rows,
    }),
});
