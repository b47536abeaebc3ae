/*
 * SQL pieces that several modules' queries share over common tables. They hold no rule of any
 * module: a module's rules stay in its own repositories and access files.
 */
import { sql } from 'drizzle-orm';
import { classes } from './schema/index.js';

/**
 * A column named with its table, for correlated subqueries: drizzle leaves columns unqualified in
 * single-table selects, and an unqualified `id` inside a subquery would bind to the inner table.
 */
export const outer = (table: string, column: string) => sql.raw(`"${table}"."${column}"`);

/** Classes in school order: by parallel, then by letter (5А, 5Б, 6А …). */
export const classOrder = sql`${classes.parallelId} * 100 + ascii(${classes.letter})`;
