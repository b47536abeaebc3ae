import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { participantTests } from './diagnostics.js';
import { users } from './users.js';
import { created } from './types.js';

/**
 * A short message staff sent from the room view to one participant's sitting. The runner shows the
 * unread ones (pushed live, or read again on reconnect) until the participant dismisses them.
 */
export const staffMessages = pgTable(
  'staff_messages',
  {
    id: serial().primaryKey(),
    participantTestId: integer()
      .notNull()
      .references(() => participantTests.id),
    authorId: integer().references(() => users.id),
    text: text().notNull(),
    createdAt: created(),
    readAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.participantTestId, t.createdAt)],
);
