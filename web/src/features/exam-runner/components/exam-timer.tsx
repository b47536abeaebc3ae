import { Text, VisuallyHidden } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { formatClock } from '../lib/countdown';

/**
 * The visible clock is hidden from screen readers (digits with a colon are read badly); a
 * visually hidden twin says the same time in words («До конца работы осталось 1 ч 29 мин 5 с»),
 * so a screen reader finds the true time left whenever it reads the header. The box is a timer
 * (not live: a change every second would drown everything); warnings are announced separately
 * (the runner's live region).
 */
export function ExamTimer({ secondsLeft, paused }: { secondsLeft: number; paused: boolean }) {
  const { t, i18n } = useTranslation();
  const level = secondsLeft <= 60 ? 'critical' : secondsLeft <= 300 ? 'warning' : 'normal';
  const words = t('runner.timer.warningExact', {
    time: formatDuration(secondsLeft, i18n.language === 'en' ? 'en' : 'ru'),
  });
  return (
    <div className="exam-timer" role="timer" data-level={level} data-paused={paused || undefined}>
      {/* «Осталось» is in the words already; «Пауза» is not. */}
      <Text
        size="xs"
        c="dimmed"
        component="span"
        className="exam-timer-label"
        aria-hidden={paused ? undefined : true}
      >
        {paused ? t('runner.timer.paused') : t('runner.timer.left')}
      </Text>
      <span className="exam-timer-value" aria-hidden="true" data-testid="timer">
        {formatClock(secondsLeft)}
      </span>
      <VisuallyHidden component="span" data-testid="timer-words">
        {words}
      </VisuallyHidden>
    </div>
  );
}
