import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { specifications, subjectTests } from './content.js';
import { buildings, classes, schools, students, workers } from './org.js';
import { users } from './users.js';
import { created } from './types.js';

/** A testing event: subject tests in a date window for parallels and schools. */
export const diagnostics = pgTable(
  'diagnostics',
  {
    id: serial().primaryKey(),
    code: text().notNull(),
    name: text().notNull(),
    /** diagnostic | inspection | preprof | preschool | worker | open (guests' open tests, docs/open-tests.md) */
    kind: text().notNull().default('diagnostic'),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    parallels: smallint().array().notNull().default([]),
    specificationId: integer().references(() => specifications.id),
    createdBy: integer().references(() => users.id),
    createdByRole: text(),
    resultsPublished: boolean().notNull().default(false),
    publishedAt: timestamp({ withTimezone: true }),
    /**
     * When the results were first published; kept when they are unpublished. From then on no work of
     * the diagnostic starts (docs/design.md §3, "Publication ends the sitting"): the keys have been seen.
     */
    firstPublishedAt: timestamp({ withTimezone: true }),
    isDemo: boolean().notNull().default(false),
    createdAt: created(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex().on(t.code), index().on(t.startsAt)],
);

export const diagnosticSubjectTests = pgTable(
  'diagnostic_subject_tests',
  {
    diagnosticId: integer()
      .notNull()
      .references(() => diagnostics.id, { onDelete: 'cascade' }),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
  },
  (t) => [primaryKey({ columns: [t.diagnosticId, t.subjectTestId] })],
);

export const diagnosticSchools = pgTable(
  'diagnostic_schools',
  {
    diagnosticId: integer()
      .notNull()
      .references(() => diagnostics.id, { onDelete: 'cascade' }),
    schoolId: integer()
      .notNull()
      .references(() => schools.id),
  },
  (t) => [primaryKey({ columns: [t.diagnosticId, t.schoolId] })],
);

/** One participant registered for one subject test of a diagnostic. */
export const participantTests = pgTable(
  'participant_tests',
  {
    id: serial().primaryKey(),
    diagnosticId: integer()
      .notNull()
      .references(() => diagnostics.id),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
    studentId: integer().references(() => students.id),
    workerId: integer().references(() => workers.id),
    /** A guest's attempt at an open test (diagnostic of kind `open`): the guest who sits it. */
    guestUserId: integer().references(() => users.id),
    schoolId: integer().references(() => schools.id),
    classId: integer().references(() => classes.id),
    buildingId: integer().references(() => buildings.id),
    testDate: date({ mode: 'string' }).notNull(),
    activationCode: text().notNull(),
    registrationCode: text().notNull(),
    status: text().notNull().default('planned'),
    isImpersonal: boolean().notNull().default(false),
    /**
     * A guest's attempt not finished yet: the guest index's condition, kept in a column of its own
     * so that the index does not name `status`. An update that changes no indexed column may stay
     * on its page (a HOT update, no index entries written): at 10:00 every sign-in and every start
     * changes `status`, and naming it in an index made each of them write all ten indexes.
     */
    guestLive: boolean().generatedAlwaysAs(
      sql`guest_user_id is not null and status in ('planned', 'active', 'in_progress')`,
    ),
    createdAt: created(),
    updatedAt: created(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('participant_tests_activation_code_idx').on(sql`upper(${t.activationCode})`),
    uniqueIndex().on(t.registrationCode),
    // One live registration per participant and subject test of a diagnostic (and per worker).
    uniqueIndex('participant_tests_student_once_idx')
      .on(t.diagnosticId, t.subjectTestId, t.studentId)
      .where(sql`${t.deletedAt} is null and ${t.studentId} is not null`),
    uniqueIndex('participant_tests_worker_once_idx')
      .on(t.diagnosticId, t.workerId)
      .where(sql`${t.deletedAt} is null and ${t.workerId} is not null`),
    // One live (not finished) attempt per guest and open subject test; finished ones stay as history.
    uniqueIndex('participant_tests_guest_live_idx')
      .on(t.subjectTestId, t.guestUserId)
      .where(sql`${t.deletedAt} is null and ${t.guestLive}`),
    index().on(t.guestUserId),
    index().on(t.diagnosticId),
    index().on(t.studentId),
    index().on(t.schoolId, t.testDate),
  ],
);
