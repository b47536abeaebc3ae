import { Text } from '../../components/lite/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../components/lite/tooltip';
import { currentLanguage } from '../../lib/i18n';
import { formatDisplayDateTime, formatDuration, formatTime } from '../../lib/format';
import { sessionTimeQuery } from '../../lib/session';

const TICK_MS = 15_000;
const WARN_SECONDS = 5 * 60;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

/**
 * Time left in the session. The end is fetched on load and when the window regains focus, never
 * on a timer: polling the server would itself keep an idle session alive forever.
 */
export function SessionTimer({ testId = 'session-time' }: { testId?: string | null }) {
  const { t, i18n } = useTranslation();
  const { data: endsAt } = useQuery({ ...sessionTimeQuery(), refetchOnWindowFocus: true });
  const now = useNow(TICK_MS);
  if (!endsAt) return null;

  const secondsLeft = Math.floor((endsAt.getTime() - now) / 1000);
  if (secondsLeft <= 0) {
    return (
      <Text size="sm" c="red.8" fw={600} data-testid={testId ?? undefined}>
        {t('header.sessionExpired')}
      </Text>
    );
  }
  // Minutes are precise enough for a header and do not churn every second.
  const left = formatDuration(
    secondsLeft >= 60 ? Math.floor(secondsLeft / 60) * 60 : secondsLeft,
    currentLanguage(i18n),
  );
  return (
    <Tooltip label={formatDisplayDateTime(endsAt)} align="end">
      <Text
        size="sm"
        c={secondsLeft <= WARN_SECONDS ? 'orange.9' : 'dimmed'}
        data-testid={testId ?? undefined}
      >
        {t('header.session', { time: formatTime(endsAt) })} ({t('header.sessionLeft', { left })})
      </Text>
    </Tooltip>
  );
}
