import { and, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { ReportFilters } from '@attesta/contract';
import { participantTests } from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';

/*
 * The filters every report takes. Dates are plain school-calendar days (docs/design.md §8,
 * lib/calendar.ts) compared with `participant_tests.test_date`, the day of the sitting.
 */

export interface FilterInput {
  diagnosticId?: number | undefined;
  subjectTestId?: number | undefined;
  schoolId?: number | undefined;
  classId?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** A real calendar day written yyyy-mm-dd (2026-02-30 is not). */
export function isPlainDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** The filters as applied: 400 `invalid_date` for a date that is not a real day, `invalid_date_range` for end < start. */
export function reportFilters(q: FilterInput): ReportFilters {
  for (const [field, value] of [
    ['startDate', q.startDate],
    ['endDate', q.endDate],
  ] as const)
    if (value !== undefined && !isPlainDate(value))
      throw badRequest('invalid_date', `${field} must be a calendar day written yyyy-mm-dd`, [
        { path: `querystring.${field}`, message: 'yyyy-mm-dd', code: 'invalid_date' },
      ]);
  if (q.startDate !== undefined && q.endDate !== undefined && q.endDate < q.startDate)
    throw badRequest('invalid_date_range', 'endDate is before startDate', [
      { path: 'querystring.endDate', message: 'before startDate', code: 'invalid_date_range' },
    ]);
  return {
    diagnosticId: q.diagnosticId ?? null,
    subjectTestId: q.subjectTestId ?? null,
    schoolId: q.schoolId ?? null,
    classId: q.classId ?? null,
    startDate: q.startDate ?? null,
    endDate: q.endDate ?? null,
  };
}

/** SQL over `participant_tests` for the filters. */
export function filterCondition(f: ReportFilters): SQL | undefined {
  return and(
    f.diagnosticId !== null ? eq(participantTests.diagnosticId, f.diagnosticId) : undefined,
    f.subjectTestId !== null ? eq(participantTests.subjectTestId, f.subjectTestId) : undefined,
    f.schoolId !== null ? eq(participantTests.schoolId, f.schoolId) : undefined,
    f.classId !== null ? eq(participantTests.classId, f.classId) : undefined,
    f.startDate !== null ? gte(participantTests.testDate, f.startDate) : undefined,
    f.endDate !== null ? lte(participantTests.testDate, f.endDate) : undefined,
  );
}
