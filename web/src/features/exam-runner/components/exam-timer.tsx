import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatClock } from '../lib/countdown';

/**
 * The visible clock is hidden from screen readers (a change every second would drown everything);
 * the label says what it is, and warnings are announced separately (runner's live region).
 */
export function ExamTimer({ secondsLeft, paused }: { secondsLeft: number; paused: boolean }) {
  const { t } = useTranslation();
  const level = secondsLeft <= 60 ? 'critical' : secondsLeft <= 300 ? 'warning' : 'normal';
  return (
    <div className="exam-timer" data-level={level} data-paused={paused || undefined}>
      <Text size="xs" c="dimmed" component="span" className="exam-timer-label">
        {paused ? t('runner.timer.paused') : t('runner.timer.left')}
      </Text>
      <span className="exam-timer-value" aria-hidden="true" data-testid="timer">
        {formatClock(secondsLeft)}
      </span>
    </div>
  );
}
