import { Button, Paper, Stack, Text, Title } from '../../../components/lite/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../../components/lite/tooltip';
import type { PauseState } from '../api/exam-api';
import { formatTime } from '../../../lib/format';

/** Hides the tasks while the work is paused; only a pause of one's own can be lifted here. */
export function PauseOverlay({
  pause,
  busy,
  onResume,
}: {
  pause: PauseState;
  busy: boolean;
  onResume: () => void;
}) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="pause-overlay">
      <Paper
        p="xl"
        radius="md"
        shadow="lg"
        maw={480}
        role="dialog"
        aria-modal="true"
        aria-labelledby="pause-title"
        data-testid="pause-overlay"
      >
        <Stack gap="md" align="center" ta="center">
          <Title id="pause-title" order={2} ref={headingRef} tabIndex={-1}>
            {pause.byStaff
              ? t('runner.pause.byStaff')
              : pause.restBreak
                ? t('runner.restBreak.title')
                : t('runner.pause.title')}
          </Title>
          <Text>
            {pause.byStaff
              ? t('runner.pause.byStaffText')
              : pause.restBreak
                ? t('runner.restBreak.text')
                : t('runner.pause.text')}
          </Text>
          {!pause.byStaff && pause.pausedUntil && (
            <Text fw={500} data-testid="pause-ends">
              {t(pause.restBreak ? 'runner.restBreak.endsAt' : 'runner.pause.endsAt', {
                time: formatTime(new Date(pause.pausedUntil)),
              })}
            </Text>
          )}
          {pause.reason && <Text c="dimmed">{pause.reason}</Text>}
          {!pause.byStaff && (
            <Button size="md" onClick={onResume} loading={busy} data-testid="resume-work">
              {t('runner.pause.resume')}
            </Button>
          )}
        </Stack>
      </Paper>
    </div>
  );
}

/**
 * The runner's pause button: off, with the reason said, when the test allows no pause or the
 * allowance is used up; otherwise it says how many pauses and minutes are left.
 */
export function PauseButton({
  allowance,
  busy,
  onPause,
}: {
  allowance: PauseState['allowance'];
  busy: boolean;
  onPause: () => void;
}) {
  const { t } = useTranslation();
  const none =
    allowance !== null && (!allowance.allowed || allowance.pausesLeft === 0 || allowance.secondsLeft === 0);
  const hint =
    allowance === null
      ? undefined
      : !allowance.allowed
        ? t('runner.pause.notAllowed')
        : none
          ? t('runner.pause.usedUp')
          : t('runner.pause.left', {
              count: allowance.pausesLeft,
              minutes: Math.floor(allowance.secondsLeft / 60),
            });
  return (
    <Tooltip label={hint} disabled={!hint}>
      <Button variant="default" onClick={onPause} loading={busy} disabled={none} data-testid="pause-work">
        {t('runner.pause.button')}
      </Button>
    </Tooltip>
  );
}
