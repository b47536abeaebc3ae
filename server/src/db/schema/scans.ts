import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { participantTests } from './diagnostics.js';
import { examWorks } from './exam.js';
import { files } from './files.js';
import { created } from './types.js';
import { users } from './users.js';

/*
 * Scanned answer sheets (issue 25, item 2; docs/paper-forms.md): a batch is one upload of one or
 * more files, read page by page in the background; a page row is what was read off one page.
 */

export const scanBatches = pgTable(
  'scan_batches',
  {
    id: serial().primaryKey(),
    /** Who uploaded it: the only one (besides an admin) who may read it. */
    userId: integer()
      .notNull()
      .references(() => users.id),
    /** queued | running | done | failed */
    status: text().notNull().default('queued'),
    createdAt: created(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.userId)],
);

/** One page of a file of a batch, and what was read off it. */
export const scanPages = pgTable(
  'scan_pages',
  {
    id: serial().primaryKey(),
    batchId: integer()
      .notNull()
      .references(() => scanBatches.id, { onDelete: 'cascade' }),
    /** The file's name as uploaded, and its place in the upload (1-based). */
    file: text().notNull(),
    fileIndex: integer().notNull(),
    /** SHA-256 of the file's bytes: the same file's page read before is a duplicate. */
    fileSha256: text().notNull(),
    /** 1-based page of the file. */
    page: integer().notNull(),
    /** recognized | needs_review | unidentified | duplicate */
    status: text().notNull(),
    /** Why a page was not read as recognized (recognize.ts PageProblem), for logs and review. */
    problem: text(),
    registrationCode: text(),
    examWorkId: integer(),
    /** The page of the answer form the QR code names. */
    formPage: integer(),
    /**
     * The version of the layout the page was read with (its code's, or the form's now when a person
     * named the form): its review regions and answer areas are taken from that layout, whatever the
     * work's form has become since (blanks.service.ts blankFormForScan `layouts`).
     */
    layoutVersion: text(),
    /** [{ variantTaskId, value: string[], confidence }] */
    answers: jsonb().notNull().default([]),
    /**
     * Whether the page's clear answers went into its work (scans.save.ts): false while they wait
     * for the work to be writable (an unfinished work whose form is not read whole yet).
     */
    applied: boolean().notNull().default(false),
    /** The page as read (grey PNG, a files row): review crops are cut from it. */
    imageFileId: integer().references(() => files.id),
    /** Layout points → pixels of that image (recognize.geometry.ts Homography); null: not straightened. */
    transform: jsonb().$type<number[]>(),
    createdAt: created(),
  },
  (t) => [
    index().on(t.batchId),
    index().on(t.fileSha256, t.page),
    // A work's pages (applyWork), and on every finish whether any wait for it (scans.apply.ts).
    index().on(t.examWorkId),
  ],
);

/**
 * One thing reading scans could not settle (issue 25, item 3): a doubtful or double mark, a text box
 * to key in, a page not identified or not read, a newer scan differing from an answer a scan saved.
 * Nothing it holds is saved as an answer until a person resolves it.
 */
export const scanReviewItems = pgTable(
  'scan_review_items',
  {
    id: serial().primaryKey(),
    /** doubtful | key_text | unidentified | unreadable | replace */
    kind: text().notNull(),
    /** open | resolved */
    status: text().notNull().default('open'),
    pageId: integer()
      .notNull()
      .references(() => scanPages.id, { onDelete: 'cascade' }),
    /** The work and sitting the page belongs to (null: not identified); the scope is the sitting's. */
    examWorkId: integer().references(() => examWorks.id),
    participantTestId: integer().references(() => participantTests.id),
    variantTaskId: integer(),
    /** A cloze gap's id, for the text box of one gap. */
    part: text(),
    taskNumber: integer(),
    answerType: text(),
    /** The task's bubbles in layout order: [{ value, label }]. */
    choices: jsonb().$type<{ value: string; label: string }[]>().notNull().default([]),
    digitColumns: integer(),
    /** Layout values read off the scan. */
    recognized: jsonb().$type<string[]>().notNull().default([]),
    confidence: real(),
    doubleMark: boolean().notNull().default(false),
    /** replace: the layout values the earlier scan saved. */
    savedValue: jsonb().$type<string[]>(),
    /** What the crop shows, in layout points of the page ({ x, y, w, h }); null: the whole page. */
    region: jsonb().$type<{ x: number; y: number; w: number; h: number }>(),
    /** accepted | set | keyed | identified | dismissed */
    resolution: text(),
    resolvedBy: integer().references(() => users.id),
    resolvedAt: timestamp({ withTimezone: true }),
    createdAt: created(),
  },
  (t) => [
    index().on(t.status, t.participantTestId),
    index().on(t.pageId),
    index().on(t.examWorkId, t.variantTaskId),
  ],
);

/**
 * The answer a scan last saved into a task of a work, in layout values: a later scan that reads it
 * differently asks before replacing it (a `replace` review item).
 */
export const scanSavedAnswers = pgTable(
  'scan_saved_answers',
  {
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    variantTaskId: integer().notNull(),
    value: jsonb().$type<string[]>().notNull(),
    pageId: integer().references(() => scanPages.id, { onDelete: 'set null' }),
    savedAt: created(),
  },
  (t) => [primaryKey({ columns: [t.examWorkId, t.variantTaskId] })],
);
