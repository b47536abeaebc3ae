import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { NotificationKind, NotificationParams } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { notifications } from '../../db/schema/index.js';
import { paged } from '../../lib/list.js';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  params: NotificationParams;
  link: string | null;
  /** Set for notifications that add up while unread: `params.count` is summed into the unread one. */
  groupKey?: string | null;
}

const own = (userId: number, id: number) => and(eq(notifications.userId, userId), eq(notifications.id, id));

export const unreadCount = async (db: DbOrTx, userId: number) =>
  (
    await db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
  )[0]?.n ?? 0;

/** A user's notifications, newest first, one page, with the count of all of them. */
export const listOwn = (db: DbOrTx, userId: number, page: number, pageSize: number) =>
  paged(
    db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId)),
  );

/** Marks the user's own notification read (the first reading stays) and returns it; null if none. */
export async function readOwn(db: DbOrTx, userId: number, id: number): Promise<NotificationRow | null> {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(own(userId, id))
    .returning();
  return row ?? null;
}

export async function deleteOwn(db: DbOrTx, userId: number, id: number): Promise<boolean> {
  const rows = await db.delete(notifications).where(own(userId, id)).returning({ id: notifications.id });
  return rows.length > 0;
}

/**
 * Stores notifications. One of a group adds its count to the user's unread one of that group
 * (and becomes new again) instead of a second row; give one row per user and group.
 */
export async function insertNotifications(db: DbOrTx, rows: readonly NewNotification[]): Promise<void> {
  const single = rows.filter((r) => !r.groupKey);
  const grouped = rows.filter((r) => r.groupKey);
  if (single.length) await db.insert(notifications).values(single.map((r) => ({ ...r, groupKey: null })));
  if (grouped.length)
    await db
      .insert(notifications)
      .values([...grouped])
      .onConflictDoUpdate({
        target: [notifications.userId, notifications.groupKey],
        targetWhere: sql`${notifications.readAt} is null and ${notifications.groupKey} is not null`,
        set: {
          params: sql`jsonb_set(${notifications.params}, '{count}', to_jsonb(
            coalesce((${notifications.params}->>'count')::int, 0) + coalesce((excluded.params->>'count')::int, 0)))`,
          link: sql`excluded.link`,
          createdAt: sql`now()`,
        },
      });
}
