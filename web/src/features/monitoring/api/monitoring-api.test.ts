import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '../../../test/test-app';
import { monitoringApi, timeSpanOf } from './monitoring-api';
import { roomRow } from '../../../test/room-fixtures';

afterEach(() => vi.unstubAllGlobals());

const row = roomRow({ deadlineAt: '2026-04-10T10:45:00.000Z', integrity: { blur: 2 } });
const snapshot = {
  diagnosticId: 5,
  classId: 9,
  buildingId: null,
  serverTime: '2026-04-10T10:05:30.000Z',
  participants: [row],
};

describe('monitoringApi.room', () => {
  it('reads the snapshot through the contract schema', async () => {
    const server = fakeServer({ 'GET /api/monitoring/room': () => json(200, snapshot) });
    await expect(monitoringApi.room({ diagnosticId: 5, classId: 9 })).resolves.toEqual(snapshot);
    expect(server.calls[0]!.url).toContain('diagnosticId=5&classId=9');
  });

  it('refuses a snapshot whose rows do not fit the contract', async () => {
    fakeServer({
      'GET /api/monitoring/room': () =>
        json(200, { ...snapshot, participants: [{ ...row, status: 'sleeping' }] }),
    });
    await expect(monitoringApi.room({ diagnosticId: 5, classId: 9 })).rejects.toThrow();
  });
});

describe('timeSpanOf', () => {
  it.each([
    [10, '00:10:00'],
    [-5, '-00:05:00'],
    [90, '01:30:00'],
    [60 * 25, '1.01:00:00'],
  ])('%i minutes → %s', (minutes, span) => expect(timeSpanOf(minutes)).toBe(span));
});
