import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** PostgreSQL bytea as a Node Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Stored files (task images, answer attachments, feedback, help, reports, import uploads): their
 * metadata, and their bytes either in `data` (the `database` storage, on a PostgreSQL server) or
 * in a blob store under `storageKey` (the `disk` storage, the default on the embedded database:
 * lib/file-storage). A row and its bytes commit together: a blob is written before the
 * transaction that inserts its row, and removed again if that transaction fails.
 * `ownerType`/`ownerId` say what a file belongs to; access is decided by the owner's rules.
 */
export const files = pgTable(
  'files',
  {
    id: serial().primaryKey(),
    ownerType: text().notNull(),
    ownerId: integer(),
    name: text().notNull(),
    mime: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    sha256: text().notNull(),
    /** The bytes, when they live in the database (null when they live under `storageKey`). */
    data: bytea(),
    /**
     * The key of the bytes in the blob store (lib/file-storage), when they live there. Rows may
     * share one (a new task version copies its files' rows, not their bytes).
     */
    storageKey: text(),
    /** Extracted or uploaded plain text (GET /api/files/text/{id}). */
    text: text(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index().on(t.ownerType, t.ownerId),
    index().on(t.createdBy),
    // Every file has its bytes somewhere.
    check('files_bytes_stored', sql`${t.data} is not null or ${t.storageKey} is not null`),
  ],
);
