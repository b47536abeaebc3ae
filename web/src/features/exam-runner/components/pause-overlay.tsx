import { Button, Overlay, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PauseState } from '../api/exam-api';

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
    <Overlay fixed blur={8} color="#000" backgroundOpacity={0.55} zIndex={300} center>
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
            {pause.byStaff ? t('runner.pause.byStaff') : t('runner.pause.title')}
          </Title>
          <Text>{pause.byStaff ? t('runner.pause.byStaffText') : t('runner.pause.text')}</Text>
          {pause.reason && <Text c="dimmed">{pause.reason}</Text>}
          {!pause.byStaff && (
            <Button size="md" onClick={onResume} loading={busy} data-testid="resume-work">
              {t('runner.pause.resume')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Overlay>
  );
}
