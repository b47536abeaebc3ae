/** The work can no longer continue here: staff moved it to another device, logged out or deleted it. */
import { Button, Paper, Stack, Text, Title } from '../../../components/lite/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { logOff } from '../../../lib/logoff';

export function EndedScreen({ why }: { why: 'session_cleared' | 'logged_out' | 'deleted' }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <Paper p="xl" radius="md" withBorder maw={560} mx="auto" mt="xl" data-testid={`runner-ended-${why}`}>
      <Stack gap="md">
        <Title order={1} fz="h2">
          {t(`runner.ended.${why}.title`)}
        </Title>
        <Text>{t(`runner.ended.${why}.text`)}</Text>
        <Button onClick={() => void logOff({ queryClient }, '/login')} data-testid="runner-ended-login">
          {t('runner.ended.login')}
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * Time is up but the server could not be told (no connection): the work is not shown as finished,
 * since only the server's answer makes it so. The server finishes it by itself with the answers it
 * has; what this browser could not send stays here, and the organizer can key it in.
 */
export function TimeUpScreen({
  unsent,
  online,
  onRetry,
}: {
  unsent: number;
  online: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper p="xl" radius="md" withBorder maw={600} mx="auto" mt="xl" data-testid="runner-time-up">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {t('runner.timeUp.title')}
        </Title>
        <Text>{online ? t('runner.timeUp.checking') : t('runner.timeUp.offline')}</Text>
        {unsent > 0 && (
          <Text fw={500} data-testid="runner-time-up-unsent">
            {t('runner.timeUp.unsent', { count: unsent })}
          </Text>
        )}
        <Button variant="default" onClick={onRetry} data-testid="runner-time-up-retry">
          {t('runner.timeUp.retry')}
        </Button>
      </Stack>
    </Paper>
  );
}
