import { describe, expect, it } from 'vitest';
import { displayDate, schoolDay, schoolInstant } from './calendar.js';

describe('school calendar (Moscow days)', () => {
  it.each([
    ['2026-11-21T20:59:59Z', '2026-11-21'],
    ['2026-11-21T21:00:00Z', '2026-11-22'],
    ['2026-11-21T00:00:00Z', '2026-11-21'],
    ['2026-06-30T22:30:00Z', '2026-07-01'],
  ])('%s falls on %s', (instant, day) => {
    expect(schoolDay(new Date(instant))).toBe(day);
  });

  it('turns wall-clock times into instants and dates into Russian form', () => {
    expect(schoolInstant('2026-11-22', '08:00').toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(displayDate('2026-11-22')).toBe('22.11.2026');
  });
});
