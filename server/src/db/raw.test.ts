import { describe, expect, it } from 'vitest';
import { examWorks } from './schema/index.js';
import { fromRow } from './raw.js';

describe('fromRow', () => {
  it('reads snake_case driver rows into the typed row of the table', () => {
    const row = fromRow(examWorks, {
      id: 7,
      participant_test_id: 3,
      variant_id: 2,
      status: 'in_progress',
      answer_mode: 'online',
      started_at: '2026-11-21 07:00:00+00',
      time_limit_seconds: 2700,
      extra_seconds: 0,
      paused_seconds: 0,
      paused_at: null,
      deadline_at: '2026-11-21 07:45:00+00',
      window_ends_at: '2026-11-21 15:00:00+00',
      device_id: 'dev',
    });
    expect(row).toMatchObject({ id: 7, participantTestId: 3, variantId: 2, deviceId: 'dev', pausedAt: null });
    expect(row.startedAt).toBeInstanceOf(Date);
    expect(row.startedAt.toISOString()).toBe('2026-11-21T07:00:00.000Z');
    expect(row.deadlineAt.toISOString()).toBe('2026-11-21T07:45:00.000Z');
    // Absent columns come out as null, never undefined.
    expect(row.finishedAt).toBeNull();
  });
});
