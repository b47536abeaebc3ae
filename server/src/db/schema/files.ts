import { bigint, customType, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** PostgreSQL bytea as a Node Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Stored files (task images, answer attachments, feedback, help, container resources). Bytes live
 * in PostgreSQL so an answer and its files commit in one transaction (docs/design.md §7).
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
    data: bytea().notNull(),
    /** Extracted or uploaded plain text (GET /api/files/text/{id}). */
    text: text(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.ownerType, t.ownerId), index().on(t.createdBy)],
);
