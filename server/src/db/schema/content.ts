import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const created = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const subjects = pgTable('subjects', {
  id: serial().primaryKey(),
  name: text().notNull(),
  code: text().unique(),
});

/** A subject with a kind of exam: diagnostic, preprof, preschool, worker. */
export const subjectExams = pgTable(
  'subject_exams',
  {
    id: serial().primaryKey(),
    subjectId: integer()
      .notNull()
      .references(() => subjects.id),
    kind: text().notNull(),
    name: text().notNull(),
  },
  (t) => [uniqueIndex().on(t.subjectId, t.kind)],
);

export const testGroups = pgTable('test_groups', {
  id: serial().primaryKey(),
  name: text().notNull(),
});

export const subjectTests = pgTable(
  'subject_tests',
  {
    id: serial().primaryKey(),
    subjectExamId: integer()
      .notNull()
      .references(() => subjectExams.id),
    testGroupId: integer().references(() => testGroups.id),
    name: text().notNull(),
    /** Grades the test is offered for. */
    parallels: smallint().array().notNull().default([]),
    durationMinutes: integer().notNull(),
    description: text(),
    procedureHtml: text(),
    instructionHtml: text(),
    /** Mark scale: [{ mark: '5', minScore: 18 }, ...] from the highest mark down. */
    markScale: jsonb().$type<{ mark: string; minScore: number; level?: string }[]>().notNull().default([]),
    createdAt: created(),
  },
  (t) => [index().on(t.subjectExamId)],
);

export const variants = pgTable(
  'variants',
  {
    id: serial().primaryKey(),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
    number: integer().notNull(),
  },
  (t) => [uniqueIndex().on(t.subjectTestId, t.number)],
);

/**
 * A task. `content` is what a participant may see (options, items, blanks); `reference`,
 * `scoring`, `solutionHtml` and `criteria` are secret until results are published.
 */
export const tasks = pgTable('tasks', {
  id: serial().primaryKey(),
  answerType: text().notNull(),
  html: text().notNull(),
  content: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  reference: jsonb().$type<unknown>(),
  scoring: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  solutionHtml: text(),
  criteria: jsonb().$type<{ code: string; text: string; maxScore: number }[]>(),
  maxScore: numeric({ mode: 'number' }).notNull().default(1),
  createdAt: created(),
});

export const variantTasks = pgTable(
  'variant_tasks',
  {
    id: serial().primaryKey(),
    variantId: integer()
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    taskId: integer()
      .notNull()
      .references(() => tasks.id),
    position: integer().notNull(),
    maxScore: numeric({ mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex().on(t.variantId, t.position), index().on(t.taskId)],
);
