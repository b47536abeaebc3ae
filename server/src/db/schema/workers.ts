import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { subjectTests } from './content.js';
import { diagnostics } from './diagnostics.js';
import { schools, workerPositions } from './org.js';
import { users } from './users.js';

/**
 * A worker test (тестирование работников), e.g. organizers' training: a subject test of kind
 * `worker` offered to staff of a position. Its sittings are participant tests (with workerId) of
 * its own diagnostic (kind `worker`), so the runner, scoring and results work unchanged.
 */
export const workerTests = pgTable(
  'worker_tests',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
    diagnosticId: integer()
      .notNull()
      .references(() => diagnostics.id),
    positionId: integer().references(() => workerPositions.id),
    /** null: every school (created by admin); else one school (created by its coordinator). */
    schoolId: integer().references(() => schools.id),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.schoolId), index().on(t.diagnosticId)],
);
