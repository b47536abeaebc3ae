import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
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
    /** [{ variantTaskId, value: string[], confidence }] */
    answers: jsonb().notNull().default([]),
    createdAt: created(),
  },
  (t) => [index().on(t.batchId), index().on(t.fileSha256, t.page)],
);
