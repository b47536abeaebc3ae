/* What the school-data repositories share: row helpers, sort and page types. */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { type SortSpec } from '../../lib/list.js';
import { outer } from '../../db/fragments.js';

export interface Page {
  page: number;
  pageSize: number;
}
export type Sort<F extends string> = SortSpec<F> | SortSpec<F>[] | undefined;

export const DIAGNOSTIC_ID = outer('diagnostics', 'id');
export const DIAGNOSTIC_PARALLELS = outer('diagnostics', 'parallels');
export const BUILDING_ID = outer('buildings', 'id');
export const CLASS_ID = outer('classes', 'id');
export const PT_ID = outer('participant_tests', 'id');
export const WORK_ID = outer('exam_works', 'id');

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/** Moscow calendar day of an instant (UTC+3 all year since 2014, so a fixed offset is exact). */
export const moscowDay = (col: SQL | AnyColumn) =>
  sql`((${col} at time zone 'UTC') + interval '3 hours')::date`;
