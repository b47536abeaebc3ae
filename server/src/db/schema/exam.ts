import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { variants, variantTasks, quizzes } from './content.js';
import { participantTests } from './diagnostics.js';
import { files } from './files.js';
import { users } from './users.js';
import { created, jsonValue } from './types.js';

/**
 * One attempt of a participant test (docs/design.md §3). The server owns the clock:
 * deadline = min(startedAt + timeLimit + extra + paused, diagnostic window end); `deadlineAt`
 * stores it (recomputed on every pause/resume/time change) so the sweeper can find expired works.
 */
export const examWorks = pgTable(
  'exam_works',
  {
    id: serial().primaryKey(),
    participantTestId: integer()
      .notNull()
      .references(() => participantTests.id),
    variantId: integer()
      .notNull()
      .references(() => variants.id),
    /** new | in_progress | paused | finished | scored */
    status: text().notNull().default('in_progress'),
    /** online | blank (paper answer form) */
    answerMode: text().notNull().default('online'),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    timeLimitSeconds: integer().notNull(),
    /** Signed: ChangeTimeTill adds or removes time. */
    extraSeconds: integer().notNull().default(0),
    /** Total of closed pauses. */
    pausedSeconds: integer().notNull().default(0),
    /** Start of the pause in force, if any. */
    pausedAt: timestamp({ withTimezone: true }),
    /**
     * When the participant's own pause in force ends by itself (its share of the subject test's
     * pause allowance); null for a staff pause, which lasts until staff resume it.
     */
    pausedUntil: timestamp({ withTimezone: true }),
    deadlineAt: timestamp({ withTimezone: true }).notNull(),
    /** End of the diagnostic window when the work started: no deadline goes past it. */
    windowEndsAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }),
    /** manual | timeout | organizator */
    finishReason: text(),
    /** The device that works on it; another device needs the organizator's clearSession. */
    deviceId: text(),
    /** Variant task ids the participant flagged ("отмечено"): they follow the work to another device. */
    flags: integer().array().notNull().default([]),
    deletedAt: timestamp({ withTimezone: true }),
    deletedBy: integer().references(() => users.id),
    deletedReason: text(),
    createdAt: created(),
    updatedAt: created(),
  },
  (t) => [
    // At most one live work per participant test: examwork/new is idempotent under concurrency.
    uniqueIndex('exam_works_live_idx')
      .on(t.participantTestId)
      .where(sql`${t.deletedAt} is null`),
    index('exam_works_sweep_idx')
      .on(t.deadlineAt)
      .where(sql`${t.status} = 'in_progress'`),
    index().on(t.variantId),
  ],
);

/** Pause intervals, for the audit trail and the live room view. */
export const examWorkPauses = pgTable(
  'exam_work_pauses',
  {
    id: serial().primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
    pausedBy: integer().references(() => users.id),
    /** Paused by staff (an organizator): only staff may resume. */
    byStaff: boolean().notNull().default(false),
    /**
     * A rest break of the participant's accommodations profile (restBreakMinutes): it stops the
     * clock like a pause but uses the profile's minutes, not the test's pause allowance.
     */
    restBreak: boolean().notNull().default(false),
    resumedBy: integer().references(() => users.id),
    reason: text(),
  },
  (t) => [index().on(t.examWorkId)],
);

/**
 * The latest answer per (exam work, variant task). `seq` grows per task on the client; a save
 * applies only when its seq is newer, so retries and out-of-order deliveries never overwrite
 * newer data.
 */
export const answers = pgTable(
  'answers',
  {
    id: serial().primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    variantTaskId: integer()
      .notNull()
      .references(() => variantTasks.id),
    value: jsonValue<unknown>(),
    seq: integer().notNull(),
    /** online | blank */
    answerMode: text().notNull().default('online'),
    /** participant | staff (keyed in from a paper form) */
    source: text().notNull().default('participant'),
    savedBy: integer().references(() => users.id),
    savedAt: created(),
  },
  (t) => [uniqueIndex().on(t.examWorkId, t.variantTaskId)],
);

/** Files attached to an answer (file-answer tasks, scanned paper forms). */
export const answerFiles = pgTable(
  'answer_files',
  {
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    variantTaskId: integer()
      .notNull()
      .references(() => variantTasks.id),
    fileId: integer()
      .notNull()
      .references(() => files.id),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.examWorkId, t.variantTaskId, t.fileId] })],
);

/** Integrity and lifecycle events of a work (lost focus, left fullscreen, proctoring flags...). */
export const examWorkEvents = pgTable(
  'exam_work_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    at: created(),
    kind: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>(),
  },
  (t) => [index().on(t.examWorkId, t.at)],
);

/** Questionnaire answers of a participant test. */
export const quizAnswers = pgTable('quiz_answers', {
  participantTestId: integer()
    .primaryKey()
    .references(() => participantTests.id),
  quizId: integer()
    .notNull()
    .references(() => quizzes.id),
  answers: jsonb().$type<Record<string, string | string[]>>().notNull(),
  savedAt: created(),
});

/** Feedback messages (e.g. about a task), with an optional file. */
export const feedback = pgTable(
  'feedback',
  {
    id: serial().primaryKey(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    subjectId: integer().notNull(),
    text: text().notNull(),
    fileId: integer().references(() => files.id),
    /** The path of the web page it was sent from. */
    page: text(),
    /** new → in_progress → answered (the admins' inbox). */
    status: text({ enum: ['new', 'in_progress', 'answered'] })
      .notNull()
      .default('new'),
    answer: text(),
    answeredAt: timestamp({ withTimezone: true }),
    answeredBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.status, t.createdAt), index().on(t.userId, t.createdAt)],
);
