/**
 * Calendar days of the school system. Test dates (`participant_tests.test_date`), "today" for
 * activation codes and date filters are Moscow calendar days: Moscow has kept UTC+3 all year
 * since 2014, so a fixed offset is exact and the result never depends on the server's TZ.
 */
export const SCHOOL_UTC_OFFSET_MS = 3 * 3_600_000;

/** `yyyy-mm-dd` of the school calendar day an instant falls on. */
export function schoolDay(at: Date = new Date()): string {
  return new Date(at.getTime() + SCHOOL_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant of a school wall-clock time (`HH:MM`) on a school calendar day. */
export function schoolInstant(date: string, time = '00:00'): Date {
  return new Date(`${date}T${time}:00+03:00`);
}

/** The instant a school calendar day ends (the next day's 00:00): "on or before this day" is `< schoolDayEnd`. */
export const schoolDayEnd = (date: string): Date => new Date(schoolInstant(date).getTime() + 86_400_000);

/** `dd.mm.yyyy` of a `yyyy-mm-dd` date, as Russian documents write it. */
export const displayDate = (isoDate: string) => isoDate.split('-').reverse().join('.');
