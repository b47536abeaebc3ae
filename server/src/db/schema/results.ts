import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { subjectTests, variantTasks } from './content.js';
import { diagnostics, participantTests } from './diagnostics.js';
import { examWorks } from './exam.js';
import { users } from './users.js';
import { created } from './types.js';

/**
 * Points of one task of a finished work. `autoScore` is what the scoring engine gave (null for
 * expert-graded types); `finalScore` is what counts (auto, or the experts' final mark).
 */
export const taskScores = pgTable(
  'task_scores',
  {
    id: serial().primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    variantTaskId: integer()
      .notNull()
      .references(() => variantTasks.id),
    /** scored | empty | invalid | manual (scoring engine status) */
    autoStatus: text().notNull(),
    autoScore: numeric({ mode: 'number' }),
    finalScore: numeric({ mode: 'number' }),
    maxScore: numeric({ mode: 'number' }).notNull(),
    /** auto | awaiting_experts | expert */
    status: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>(),
    updatedAt: created(),
  },
  (t) => [uniqueIndex().on(t.examWorkId, t.variantTaskId), index().on(t.status)],
);

/** The result of a work: totals, mark and level from the subject test's scale, per element. */
export const results = pgTable(
  'results',
  {
    id: serial().primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    participantTestId: integer()
      .notNull()
      .references(() => participantTests.id),
    diagnosticId: integer()
      .notNull()
      .references(() => diagnostics.id),
    subjectTestId: integer()
      .notNull()
      .references(() => subjectTests.id),
    /** awaiting_experts | scored */
    status: text().notNull(),
    primaryScore: numeric({ mode: 'number' }).notNull(),
    maxScore: numeric({ mode: 'number' }).notNull(),
    percent: numeric({ mode: 'number' }).notNull(),
    mark: text(),
    level: text(),
    /** Per specification element: { [code]: { name, score, max } } */
    perElement: jsonb()
      .$type<Record<string, { name: string; score: number; max: number }>>()
      .notNull()
      .default({}),
    /** A short public code printed on result documents to verify them. */
    verificationCode: text().notNull(),
    computedAt: created(),
  },
  (t) => [
    uniqueIndex().on(t.examWorkId),
    index().on(t.participantTestId),
    index().on(t.diagnosticId),
    uniqueIndex().on(t.verificationCode),
  ],
);

/**
 * One expert's grading of one answer (blind: the expert sees `anonCode`, never a name). Two
 * rounds per answer; a third when their totals differ by more than the task's threshold.
 */
export const expertAssignments = pgTable(
  'expert_assignments',
  {
    id: serial().primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    variantTaskId: integer()
      .notNull()
      .references(() => variantTasks.id),
    expertId: integer()
      .notNull()
      .references(() => users.id),
    /** 1, 2 (blind double marking) or 3 (third check) */
    round: smallint().notNull(),
    /** The same for every round of one answer: what experts and the zip show instead of a name. */
    anonCode: text().notNull(),
    /** assigned | graded */
    status: text().notNull().default('assigned'),
    total: numeric({ mode: 'number' }),
    comment: text(),
    assignedAt: created(),
    gradedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex().on(t.examWorkId, t.variantTaskId, t.round),
    uniqueIndex().on(t.examWorkId, t.variantTaskId, t.expertId),
    index().on(t.expertId, t.status),
    index().on(t.anonCode),
  ],
);

/** An expert's points per rubric criterion. */
export const expertMarks = pgTable(
  'expert_marks',
  {
    assignmentId: integer()
      .notNull()
      .references(() => expertAssignments.id, { onDelete: 'cascade' }),
    criterionCode: text().notNull(),
    score: numeric({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.criterionCode] })],
);

export const RESULT_STATUSES = ['awaiting_experts', 'scored'] as const;
