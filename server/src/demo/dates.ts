// Moscow has kept UTC+3 all year round since 2014, so a fixed offset is exact and needs no tz data.
const MOSCOW_OFFSET_MS = 3 * 3_600_000;

/** Today's calendar date in Moscow, `yyyy-mm-dd`: the day the demo diagnostic must run on. */
export function moscowToday(now: Date = new Date()): string {
  return new Date(now.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** The UTC instant of a Moscow wall-clock time (`HH:MM`) on a date. */
export function moscowInstant(date: string, time: string): Date {
  return new Date(`${date}T${time}:00+03:00`);
}

/** The demo diagnostic's window: the whole school day, 08:00–20:00 Moscow time. */
export function demoWindow(today: string): { startsAt: Date; endsAt: Date } {
  return { startsAt: moscowInstant(today, '08:00'), endsAt: moscowInstant(today, '20:00') };
}
