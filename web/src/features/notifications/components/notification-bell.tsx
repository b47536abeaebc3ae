import {
  ActionIcon,
  Alert,
  Button,
  Box,
  Group,
  Indicator,
  Loader,
  Stack,
  Text,
  UnstyledButton,
} from '../../../components/lite/core';
import type { Notification } from '@attesta/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { Popover } from '../../../components/lite/popover';
import { formatDisplayDateTime } from '../../../lib/format';
import {
  deleteNotification,
  notificationsKey,
  notificationsQuery,
  openNotification,
} from '../api/notifications-api';
import { notificationsBundle } from '../locales';
import { notificationText } from './notification-text';
import './notification-bell.css';

/**
 * The bell of the app header: the unread count as a badge, and a dropdown of the latest
 * notifications. Opening one marks it read and follows its link; each can be deleted. The count
 * is read again every 30 s and when the tab regains focus (docs/notifications.md).
 */
export function NotificationBell() {
  const { t } = useBundleT(notificationsBundle);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const list = useInfiniteQuery(notificationsQuery());
  // Pages read at different moments may repeat one (a new notification shifts them): once each.
  const items = [...new Map((list.data?.pages ?? []).flatMap((p) => p.items).map((n) => [n.id, n])).values()];
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationsKey });
  const open = useMutation({
    mutationFn: (n: Notification) => openNotification(n.id),
    onSuccess: async (n) => {
      await refresh();
      if (n.link) {
        setOpened(false);
        void navigate(n.link);
      }
    },
  });
  const remove = useMutation({ mutationFn: deleteNotification, onSuccess: refresh });

  const unread = list.data?.pages[0]?.unread ?? 0;
  const label = unread ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell');

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={360}
      focusOnOpen={false}
      panelProps={{ className: 'notification-panel' }}
      target={(props) => (
        <Indicator
          label={unread > 99 ? '99+' : unread}
          disabled={!unread}
          size={18}
          color="red"
          offset={4}
          data-testid="notification-count"
        >
          <ActionIcon
            variant="subtle"
            size="lg"
            {...props}
            aria-label={label}
            data-testid="notification-bell"
          >
            <BellIcon />
          </ActionIcon>
        </Indicator>
      )}
    >
      <Text fw={600} px="xs" pb="xs">
        {t('notifications.title')}
      </Text>
      {list.isPending ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : list.isError ? (
        <Alert color="red">{t('notifications.failed')}</Alert>
      ) : items.length === 0 ? (
        <Text c="dimmed" size="sm" px="xs" pb="xs" data-testid="notifications-empty">
          {t('notifications.empty')}
        </Text>
      ) : (
        <div className="notification-list">
          <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((n) => (
              <Group
                key={n.id}
                component="li"
                gap="xs"
                wrap="nowrap"
                align="flex-start"
                data-testid={`notification-${n.id}`}
                data-unread={n.readAt === null}
              >
                <UnstyledButton
                  onClick={() => open.mutate(n)}
                  style={{ flex: 1, borderRadius: 4 }}
                  p="xs"
                  bg={n.readAt === null ? 'var(--mantine-color-attesta-0, #eef4ff)' : undefined}
                >
                  <Text size="sm" fw={n.readAt === null ? 600 : 400}>
                    {notificationText(n, t)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDisplayDateTime(new Date(n.createdAt))}
                    {n.readAt === null ? ` · ${t('notifications.unread')}` : ''}
                  </Text>
                </UnstyledButton>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('notifications.delete')}
                  onClick={() => remove.mutate(n.id)}
                  data-testid={`notification-delete-${n.id}`}
                  mt={4}
                >
                  <Box component="span" aria-hidden fz="lg" lh={1}>
                    ×
                  </Box>
                </ActionIcon>
              </Group>
            ))}
          </Stack>
          {list.hasNextPage && (
            <Button
              variant="subtle"
              size="xs"
              fullWidth
              mt="xs"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
              data-testid="notifications-more"
            >
              {t('notifications.more')}
            </Button>
          )}
        </div>
      )}
    </Popover>
  );
}

function BellIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}
