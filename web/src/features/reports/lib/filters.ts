/** The report filters as they live in the page address (`?diagnosticId=…&startDate=…`). */

export interface ReportFilterValues {
  diagnosticId: number | null;
  subjectTestId: number | null;
  schoolId: number | null;
  classId: number | null;
  startDate: string | null;
  endDate: string | null;
}

export const FILTER_KEYS = [
  'diagnosticId',
  'subjectTestId',
  'schoolId',
  'classId',
  'startDate',
  'endDate',
] as const satisfies readonly (keyof ReportFilterValues)[];

export const EMPTY_FILTERS: ReportFilterValues = {
  diagnosticId: null,
  subjectTestId: null,
  schoolId: null,
  classId: null,
  startDate: null,
  endDate: null,
};

const ID = /^\d{1,10}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readId(params: URLSearchParams, key: string): number | null {
  const value = params.get(key) ?? '';
  if (!ID.test(value)) return null;
  const n = Number(value);
  return n > 0 && n <= 2_147_483_647 ? n : null;
}

const readDay = (params: URLSearchParams, key: string) => {
  const value = params.get(key) ?? '';
  return DAY.test(value) ? value : null;
};

export function readFilters(params: URLSearchParams): ReportFilterValues {
  return {
    diagnosticId: readId(params, 'diagnosticId'),
    subjectTestId: readId(params, 'subjectTestId'),
    schoolId: readId(params, 'schoolId'),
    classId: readId(params, 'classId'),
    startDate: readDay(params, 'startDate'),
    endDate: readDay(params, 'endDate'),
  };
}

/** The address with some filters changed (null removes one); other parameters stay. */
export function writeFilters(
  params: URLSearchParams,
  change: Partial<ReportFilterValues> & Record<string, string | number | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(change)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

export const hasAnyFilter = (f: ReportFilterValues) => FILTER_KEYS.some((k) => f[k] !== null);
