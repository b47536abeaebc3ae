import { schoolDay, schoolInstant } from '../lib/calendar.js';

/** Today's calendar date in Moscow, `yyyy-mm-dd`: the day the demo diagnostic must run on. */
export const moscowToday = (now: Date = new Date()): string => schoolDay(now);

/** The UTC instant of a Moscow wall-clock time (`HH:MM`) on a date. */
export const moscowInstant = (date: string, time: string): Date => schoolInstant(date, time);

/** The demo diagnostic's window: the whole school day, 08:00–20:00 Moscow time. */
export function demoWindow(today: string): { startsAt: Date; endsAt: Date } {
  return { startsAt: moscowInstant(today, '08:00'), endsAt: moscowInstant(today, '20:00') };
}
