import { schoolDay, schoolInstant } from '../lib/calendar.js';

/** Today's calendar date in Moscow, `yyyy-mm-dd`: the day the demo diagnostic must run on. */
export const moscowToday = (now: Date = new Date()): string => schoolDay(now);

/** The UTC instant of a Moscow wall-clock time (`HH:MM`) on a date. */
export const moscowInstant = (date: string, time: string): Date => schoolInstant(date, time);

/**
 * The demo diagnostic's window: from today's midnight to 04:00 the next night, Moscow time. A real
 * diagnostic runs in school hours; the demo must work whenever a newcomer (or CI) opens it, and the
 * server moves it to the new day after midnight, so it never closes while someone tries it.
 */
export function demoWindow(today: string): { startsAt: Date; endsAt: Date } {
  const startsAt = moscowInstant(today, '00:00');
  return { startsAt, endsAt: new Date(startsAt.getTime() + 28 * 3_600_000) };
}
