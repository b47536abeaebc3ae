import type { NotificationKind, NotificationParams } from '@attesta/contract';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.js';
import { created } from './types.js';

/**
 * What the platform tells one user (docs/notifications.md): a kind and its parameters, which the
 * web writes in the reader's language — never text. Deleting one removes the row.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().$type<NotificationKind>().notNull(),
    params: jsonb().$type<NotificationParams>().notNull().default({}),
    /** A page of the web app (a path from its root), or null. */
    link: text(),
    /**
     * Notifications of one group add up while unread (answers to grade: one notification with a
     * count, not one per answer); null for those that never do.
     */
    groupKey: text(),
    createdAt: created(),
    readAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_unread_group_idx')
      .on(t.userId, t.groupKey)
      .where(sql`${t.readAt} is null and ${t.groupKey} is not null`),
  ],
);
