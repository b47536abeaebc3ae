/** «Мои обращения» (/account/feedback): one's own messages, newest first, with status and answer. */
import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDisplayDateTime } from '../../../lib/format';
import { downloadFeedbackFile, myFeedbackQuery } from '../api/feedback';
import { useFeedbackT } from '../locales';
import { FeedbackStatusBadge } from './status-badge';

export function MyFeedbackPage() {
  const t = useFeedbackT();
  const mine = useQuery(myFeedbackQuery());
  return (
    <Stack>
      <Title order={1}>{t('mineTitle')}</Title>
      {mine.isPending ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : mine.isError ? (
        <Alert color="red" role="alert">
          <Group>
            <Text size="sm">{t('failed')}</Text>
            <Button size="compact-sm" variant="light" onClick={() => void mine.refetch()}>
              {t('retry')}
            </Button>
          </Group>
        </Alert>
      ) : !mine.data.items.length ? (
        <Text c="dimmed">{t('mineEmpty')}</Text>
      ) : (
        mine.data.items.map((m) => (
          <Card withBorder key={m.id} data-testid={`my-feedback-${m.id}`}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('sentAt', { date: formatDisplayDateTime(new Date(m.createdAt)) })}
                </Text>
                <FeedbackStatusBadge status={m.status} />
              </Group>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{m.text}</Text>
              {m.fileId !== null && (
                <Group gap="xs">
                  <Text size="sm">{t('attachment')}:</Text>
                  <Button
                    size="compact-xs"
                    variant="light"
                    onClick={() => void downloadFeedbackFile(m.fileId!, m.fileName).catch(() => undefined)}
                  >
                    {m.fileName ?? t('attachment')}
                  </Button>
                </Group>
              )}
              {m.answer !== null ? (
                <Alert color="green" title={t('answer')} data-testid="my-feedback-answer">
                  {m.answeredAt && (
                    <Text size="xs" c="dimmed">
                      {t('answeredAt', { date: formatDisplayDateTime(new Date(m.answeredAt)) })}
                    </Text>
                  )}
                  <Text style={{ whiteSpace: 'pre-wrap' }}>{m.answer}</Text>
                </Alert>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('noAnswer')}
                </Text>
              )}
            </Stack>
          </Card>
        ))
      )}
    </Stack>
  );
}
