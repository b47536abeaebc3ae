import { integer, jsonb, pgTable, serial, uniqueIndex } from 'drizzle-orm/pg-core';
import { subjectTests } from './content.js';
import { diagnostics } from './diagnostics.js';
import { users } from './users.js';
import { created } from './types.js';

/**
 * Equating tables adopted by the admin for a subject test in a diagnostic (issue 28, item 2;
 * docs/item-analysis.md, "Equating"). Each adoption is a new row (`version` 1, 2, …): the highest
 * version is the one results use; earlier ones stay for the record. `tables` is the conversion of
 * every variant's primary scores to the scale as proposed at adoption (contract EquatingTables);
 * `cutScores` the lowest scaled score of each level above «ниже базового» (null until set).
 */
export const equatingTables = pgTable(
  'equating_tables',
  {
    id: serial().primaryKey(),
    diagnosticId: integer()
      .notNull()
      .references(() => diagnostics.id),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
    version: integer().notNull(),
    tables: jsonb().$type<unknown>().notNull(),
    cutScores: jsonb().$type<{ basic: number; advanced: number; high: number }>(),
    adoptedBy: integer().references(() => users.id),
    adoptedAt: created(),
  },
  (t) => [uniqueIndex().on(t.diagnosticId, t.subjectTestId, t.version)],
);
