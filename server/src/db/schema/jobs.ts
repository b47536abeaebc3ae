import type { ErrorCode } from '@attesta/contract';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { diagnostics } from './diagnostics.js';
import { files } from './files.js';
import { users } from './users.js';
import { created } from './types.js';

/**
 * Queue items (docs/design.md §2): asynchronous jobs users can watch — planning, results, imports,
 * reports, exports, regrades. Any instance claims them with FOR UPDATE SKIP LOCKED, so each runs
 * once; failures retry with backoff until maxAttempts.
 */
export const queueItems = pgTable(
  'queue_items',
  {
    id: serial().primaryKey(),
    /** planning | result | import | report | export | scoring | regrade */
    type: text().notNull(),
    diagnosticId: integer().references(() => diagnostics.id),
    /** queued | running | done | failed | cancelled */
    status: text().notNull().default('queued'),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Same key while queued/running = the same job: re-queueing is idempotent. */
    dedupeKey: text(),
    progress: integer().notNull().default(0),
    progressText: text(),
    result: jsonb().$type<Record<string, unknown>>(),
    resultFileId: integer().references(() => files.id),
    /** For developers (English): a job's own refusal, or a generic text — never an exception's message. */
    error: text(),
    /** Why the last attempt failed, as an error code users see a text for (job_failed by default). */
    errorCode: text().$type<ErrorCode>(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(3),
    runAfter: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedBy: text(),
    lockedAt: timestamp({ withTimezone: true }),
    createdBy: integer().references(() => users.id),
    createdAt: created(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('queue_items_claim_idx')
      .on(t.runAfter)
      .where(sql`${t.status} = 'queued'`),
    uniqueIndex('queue_items_dedupe_idx')
      .on(t.dedupeKey)
      .where(sql`${t.status} in ('queued', 'running')`),
    index().on(t.type, t.diagnosticId),
    index().on(t.createdBy),
  ],
);
