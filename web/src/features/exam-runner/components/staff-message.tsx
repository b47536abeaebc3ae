/**
 * Messages the organizer sends from the room view, shown on the runner as announced notices the
 * participant dismisses. They arrive on the participant stream (its `message` event, the same
 * connection as pause and time changes); after a reload or a lost connection the unread ones are
 * read again (GET /api/monitoring/messages), so a message sent while offline is not lost.
 */
import { staffMessageSchema, type StaffMessage } from '@attesta/contract';
import { Alert, Stack, Text } from '../../../components/lite/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../lib/call';
import { openEventStream } from '../../../lib/event-stream';
import { formatDisplayDateTime } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';
import { WORK_EVENTS_URL } from '../hooks/use-work-events';

i18n.addResourceBundle(
  'ru',
  'translation',
  {
    staffMessage: { title: 'Сообщение от организатора', sentAt: 'Отправлено {{time}}', dismiss: 'Прочитано' },
  },
  true,
  false,
);
i18n.addResourceBundle(
  'en',
  'translation',
  { staffMessage: { title: 'A message from the organizer', sentAt: 'Sent {{time}}', dismiss: 'Got it' } },
  true,
  false,
);

const quiet = { suppressRedirect: true } as const;
const RETRY_MS = 5000;
export const STAFF_MESSAGES_KEY = ['exam', 'staff-messages'] as const;

export function StaffMessages() {
  const { t: translate } = useTranslation();
  // Keys registered here, not in the typed shared locale.
  const t = translate as unknown as (key: string, options?: Record<string, unknown>) => string;
  const unread = useQuery({
    queryKey: STAFF_MESSAGES_KEY,
    queryFn: ({ signal }) => call('GET /api/monitoring/messages', {}, { ...quiet, signal }),
    retry: false,
  });
  const refetch = unread.refetch;
  const [pushed, setPushed] = useState<StaffMessage[]>([]);
  const [dismissed, setDismissed] = useState<Set<number>>(new Set());

  useEffect(
    () =>
      openEventStream(WORK_EVENTS_URL, {
        retryMs: RETRY_MS,
        on: {
          // (Re)connected: what was sent meanwhile is read again.
          hello: () => void refetch(),
          message: (data) => {
            const message = staffMessageSchema.safeParse(data);
            if (message.success) setPushed((list) => [...list, message.data]);
          },
        },
      }),
    [refetch],
  );

  const byId = new Map<number, StaffMessage>();
  for (const m of [...(unread.data?.messages ?? []), ...pushed]) if (!dismissed.has(m.id)) byId.set(m.id, m);
  const shown = [...byId.values()].sort((a, b) => a.at.localeCompare(b.at) || a.id - b.id);
  if (shown.length === 0) return null;

  const dismiss = (id: number) => {
    setDismissed((prev) => new Set(prev).add(id));
    // Marked read on the server so a reload does not show it again; a failure only means it may.
    call('POST /api/monitoring/messages/{id}/read', { params: { id } }, quiet).catch(() => {});
  };

  return (
    <Stack gap="xs" mx="lg" mb="md" data-testid="staff-messages">
      {shown.map((m) => (
        <Alert
          key={m.id}
          role="alert"
          aria-live="assertive"
          color="blue"
          variant="light"
          title={t('staffMessage.title')}
          withCloseButton
          closeButtonLabel={t('staffMessage.dismiss')}
          onClose={() => dismiss(m.id)}
          data-testid={`staff-message-${m.id}`}
        >
          <Text style={{ whiteSpace: 'pre-wrap' }}>{m.text}</Text>
          {/* Not dimmed: grey on the light blue of the notice is below 4.5:1. */}
          <Text size="xs">{t('staffMessage.sentAt', { time: formatDisplayDateTime(new Date(m.at)) })}</Text>
        </Alert>
      ))}
    </Stack>
  );
}
