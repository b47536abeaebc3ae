import { describe, expect, it } from 'vitest';
import {
  formatDisplayDate,
  formatDisplayDateTime,
  formatDuration,
  formatIsoLocal,
  formatMoney,
  formatNumber,
  formatPlainDate,
  formatShortDate,
  parsePlainDate,
  parseSessionTime,
} from './format';

const NBSP = '\u00a0';

describe('number and money formats', () => {
  it('formats rubles with a comma decimal separator and no-break spaces (U+00A0)', () => {
    expect(formatMoney(1234567.5)).toBe(`1${NBSP}234${NBSP}567,50${NBSP}₽`);
    expect(formatMoney(0)).toBe(`0,00${NBSP}₽`);
    expect(formatMoney(-1234.567)).toBe(`-1${NBSP}234,57${NBSP}₽`);
    expect(formatMoney(999)).toBe(`999,00${NBSP}₽`);
  });

  it('formats numbers in Russian and English', () => {
    expect(formatNumber(1234.5)).toBe(`1${NBSP}234,5`);
    expect(formatNumber(12345.678, 'ru', 1)).toBe(`12${NBSP}345,7`);
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatMoney(1234.5, 'en')).toBe('₽1,234.50');
  });
});

describe('date formats', () => {
  const date = new Date(2024, 2, 5, 9, 7, 3);

  it('writes dd.MM.yy, dd.mm.yyyy, yyyy-mm-dd and ISO local without a zone', () => {
    expect(formatShortDate(date)).toBe('05.03.24');
    expect(formatDisplayDate(date)).toBe('05.03.2024');
    expect(formatDisplayDateTime(date)).toBe('05.03.2024 09:07');
    expect(formatPlainDate(date)).toBe('2024-03-05');
    expect(formatIsoLocal(date)).toBe('2024-03-05T09:07:03');
    expect(formatShortDate(new Date(2000, 11, 31))).toBe('31.12.00');
  });

  it('parses plain dates strictly', () => {
    expect(parsePlainDate('2024-02-29')?.getDate()).toBe(29);
    expect(parsePlainDate('2023-02-29')).toBeNull();
    expect(parsePlainDate('05.03.2024')).toBeNull();
  });

  it('parses the session time ISO string', () => {
    expect(parseSessionTime('2025-05-20T10:15:00.000Z')?.getTime()).toBe(Date.UTC(2025, 4, 20, 10, 15));
    expect(parseSessionTime('2025-05-20T13:15:00+03:00')?.getTime()).toBe(Date.UTC(2025, 4, 20, 10, 15));
    expect(parseSessionTime('2025-05-20T10:15:00')?.getTime()).toBe(new Date(2025, 4, 20, 10, 15).getTime());
    expect(parseSessionTime('not a date')).toBeNull();
    expect(parseSessionTime('2025-13-45T99:00:00Z')).toBeNull();
    expect(parseSessionTime(42)).toBeNull();
  });

  it('formats durations without plural forms', () => {
    expect(formatDuration(125)).toBe(`2${NBSP}мин 5${NBSP}с`);
    expect(formatDuration(3600)).toBe(`1${NBSP}ч`);
    expect(formatDuration(0.2)).toBe(`1${NBSP}с`);
    expect(formatDuration(-5, 'en')).toBe(`0${NBSP}s`);
  });
});
