/**
 * The runner's top bar: the test, variant and participant, the save status, the timer, the pause
 * button, the shortcuts and the finish button.
 */
import type { ParticipantVariant } from '@attesta/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PauseState } from '../api/exam-api';
import type { OutboxSnapshot } from '../lib/outbox';
import { ExamTimer } from './exam-timer';
import { PauseButton } from './pause-overlay';
import { SaveStatus } from './save-status';
import { ShortcutsHelp } from './shortcuts-help';

interface RunnerBarProps {
  variant: Pick<ParticipantVariant, 'subjectTestName' | 'number'>;
  participantName: string;
  snapshot: OutboxSnapshot;
  /** Tasks with something the server does not have yet. */
  unsavedCount: number;
  online: boolean;
  onRetry: () => void;
  secondsLeft: number;
  paused: boolean;
  allowance: PauseState['allowance'];
  pauseBusy: boolean;
  onPause: () => void;
  onFinish: () => void;
}

export function RunnerBar({
  variant,
  participantName,
  snapshot,
  unsavedCount,
  online,
  onRetry,
  secondsLeft,
  paused,
  allowance,
  pauseBusy,
  onPause,
  onFinish,
}: RunnerBarProps) {
  const { t } = useTranslation();
  return (
    <div className="runner-bar">
      <Stack gap={0} className="runner-title">
        <Text fw={650} component="h1" fz="lg" m={0} data-testid="runner-title">
          {variant.subjectTestName}
        </Text>
        <Text size="xs" c="dimmed">
          {t('runner.variant', { n: variant.number })} · {participantName}
        </Text>
      </Stack>
      <SaveStatus snapshot={snapshot} unsavedCount={unsavedCount} online={online} onRetry={onRetry} />
      <Group gap="xs" wrap="nowrap" className="runner-actions">
        <ExamTimer secondsLeft={secondsLeft} paused={paused} />
        <PauseButton allowance={allowance} busy={pauseBusy && !paused} onPause={onPause} />
        <ShortcutsHelp />
        <Button color="red.8" onClick={onFinish} data-testid="finish-work">
          {t('runner.finish.button')}
        </Button>
      </Group>
    </div>
  );
}
