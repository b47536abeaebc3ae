/** The signed-in user's notifications (server/src/modules/notifications, docs/notifications.md). */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call';

/** A bell must never send the user to an error page: its failures stay in the bell. */
const quiet = { suppressRedirect: true } as const;

/** How often the unread count is read again while a page is open (and on returning to the tab). */
export const NOTIFICATIONS_REFRESH_MS = 30_000;

export const notificationsKey = ['notifications'] as const;

/**
 * The user's notifications a page at a time (the first at once, the next on asking) with the
 * unread count, kept fresh by polling.
 */
export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: [...notificationsKey, 'list'],
    queryFn: ({ pageParam, signal }) =>
      call('GET /api/notification/getList/{id}', { params: { id: pageParam } }, { ...quiet, signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });

/** Opens one notification: the server marks it read. */
export const openNotification = (id: number) =>
  call('GET /api/notification/get/{id}', { params: { id } }, quiet);

export const deleteNotification = (id: number) =>
  call('GET /api/notification/delete/{id}', { params: { id } }, quiet);
