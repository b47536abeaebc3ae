/*
 * SQL pieces that several modules' queries share over common tables. They hold no rule of any
 * module: a module's rules stay in its own repositories and access files.
 */
import { count, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { classes, subjectExams, subjectTests } from './schema/index.js';

/**
 * A column named with its table, for correlated subqueries: drizzle leaves columns unqualified in
 * single-table selects, and an unqualified `id` inside a subquery would bind to the inner table.
 */
export const outer = (table: string, column: string) => sql.raw(`"${table}"."${column}"`);

/** Classes in school order: by parallel, then by letter (5А, 5Б, 6А …). */
export const classOrder = sql`${classes.parallelId} * 100 + ascii(${classes.letter})`;

/** How many subject tests meet `where` (their exam joined, for conditions on it): a list's total. */
export const countSubjectTests = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select({ n: count() })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .where(where);
