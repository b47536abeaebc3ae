import { NOTIFICATION_PAGE_SIZE, type Notification, type NotificationList } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './notifications.repo.js';

/*
 * A user's own notifications (docs/notifications.md). Another user's notification is answered as
 * unknown (404): whether it exists is not the caller's business.
 */

/** What leaves the server of a notification (allowlisted fields). */
export const presentNotification = (row: repo.NotificationRow): Notification => ({
  id: row.id,
  kind: row.kind,
  params: row.params,
  link: row.link,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
});

/** `getList/{id}`: one page (0 = the first), newest first, with the unread count of all pages. */
export async function listOwn(db: DbOrTx, userId: number, pageParam: number): Promise<NotificationList> {
  const page = Math.max(1, pageParam);
  const [list, unread] = await Promise.all([
    repo.listOwn(db, userId, page, NOTIFICATION_PAGE_SIZE),
    repo.unreadCount(db, userId),
  ]);
  return {
    items: list.items.map(presentNotification),
    total: list.total,
    unread,
    page,
    pageSize: NOTIFICATION_PAGE_SIZE,
  };
}

/** `get/{id}`: one own notification, marked read (the first reading's time is kept). */
export async function readOwn(db: DbOrTx, userId: number, id: number): Promise<Notification> {
  const row = await repo.readOwn(db, userId, id);
  if (!row) throw notFound('No such notification');
  return presentNotification(row);
}

/** `delete/{id}`: removes one own notification; answers the unread count left. */
export async function deleteOwn(db: DbOrTx, userId: number, id: number) {
  if (!(await repo.deleteOwn(db, userId, id))) throw notFound('No such notification');
  return { ok: true as const, unread: await repo.unreadCount(db, userId) };
}
