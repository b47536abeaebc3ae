import { Alert, Anchor, Button, Group, Paper, Stack, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isAppShell } from '../../../lib/device';
import { logOff } from '../../../lib/logoff';
import { Link, Navigate } from 'react-router';
import { currentUserQuery } from '../../../lib/session';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';

interface FinishedScreenProps {
  /** The participant test the work belongs to (a guest's attempt: its result page). */
  participantTestId: number;
  finishedAt: string | null;
  reason: string | null;
  answered: number | null;
  total: number | null;
}

export function FinishedScreen({
  participantTestId,
  finishedAt,
  reason,
  answered,
  total,
}: FinishedScreenProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: user } = useQuery(currentUserQuery());
  // The app shell's kiosk: the finish is the way out, to the login page, with no links elsewhere.
  const kiosk = isAppShell();
  // A guest's attempt at an open test is published by its own finish: its result, at once.
  if (user?.roles.includes('guest')) return <Navigate to={`/guest/attempts/${participantTestId}`} replace />;
  return (
    <Stack gap="lg" maw={720} data-testid="work-finished">
      <PageTitle>{t('runner.finished.title')}</PageTitle>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="xs">
          {finishedAt && (
            <Text data-testid="finished-at">
              {t('runner.finished.at', { time: formatDisplayDateTime(new Date(finishedAt)) })}
            </Text>
          )}
          {reason === 'timeout' && <Text>{t('runner.finished.timeout')}</Text>}
          {reason === 'organizator' && <Text>{t('runner.finished.byStaff')}</Text>}
          {answered !== null && total !== null && (
            <Text data-testid="finished-answered">{t('runner.finished.answered', { answered, total })}</Text>
          )}
        </Stack>
      </Paper>
      <Alert color="blue" variant="light">
        {t('runner.finished.results')}
        {!kiosk && (
          <>
            {' '}
            <Anchor component={Link} to="/participant/result" data-testid="finished-result-link">
              {/* The results feature registers this key (its navigation item) on the app's i18n instance. */}
              {(t as unknown as (key: string, o: { defaultValue: string }) => string)('results.nav.result', {
                defaultValue: 'Мои результаты',
              })}
            </Anchor>
          </>
        )}
      </Alert>
      <Group>
        <Button
          variant="default"
          onClick={() => void logOff({ queryClient }, '/login')}
          data-testid="finished-logoff"
        >
          {t('runner.finished.logoff')}
        </Button>
      </Group>
    </Stack>
  );
}
