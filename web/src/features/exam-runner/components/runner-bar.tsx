/**
 * The runner's own header (docs/design.md, "Locked delivery"): the test, the one timer, the save
 * status and the work's tools — pause, full screen, shortcuts, the app's tools (help, feedback),
 * log out (asked first) and finish. No portal navigation. On a phone it collapses to one bar —
 * the menu, the test's name, the save dot and the timer — and the rest opens from the menu, so
 * the tasks keep the screen.
 */
import type { ParticipantVariant } from '@attesta/contract';
import { ActionIcon, Button, Group, Stack, Text } from '../../../components/lite/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/lite/dialog';
import type { PauseState } from '../api/exam-api';
import type { OutboxSnapshot } from '../lib/outbox';
import { ExamTimer } from './exam-timer';
import { FullscreenButton } from './fullscreen-button';
import { PauseButton } from './pause-overlay';
import { SaveStatus } from './save-status';
import { ShortcutsHelp } from './shortcuts-help';

/** Phones, upright or on their side: the header is one compact bar. */
export const RUNNER_COMPACT_QUERY = '(max-width: 40em), (max-height: 30em)';

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
  /** The app's tools for the runner (help, feedback): composed in app/, not imported here. */
  tools?: ReactNode;
  /** The app shell's kiosk: full screen already, no way out but the finish. */
  kiosk: boolean;
  /** Log out, asked first; absent in the kiosk. */
  onLogout?: () => void;
}

export function RunnerBar(props: RunnerBarProps) {
  const { t } = useTranslation();
  const compact = useMediaQuery(RUNNER_COMPACT_QUERY) ?? false;
  const [menuOpened, menu] = useDisclosure(false);
  const subtitle = `${t('runner.variant', { n: props.variant.number })} · ${props.participantName}`;
  const saveStatus = (
    <SaveStatus
      snapshot={props.snapshot}
      unsavedCount={props.unsavedCount}
      online={props.online}
      onRetry={props.onRetry}
      compact={compact}
    />
  );
  const pause = (
    <PauseButton
      allowance={props.allowance}
      busy={props.pauseBusy && !props.paused}
      onPause={props.onPause}
    />
  );
  const logout = props.onLogout && (
    <Button variant="subtle" color="gray.8" onClick={props.onLogout} data-testid="runner-logout">
      {t('header.logoff')}
    </Button>
  );

  if (compact) {
    const closeThen = (action: () => void) => () => {
      menu.close();
      action();
    };
    return (
      <header className="runner-bar" data-compact data-testid="runner-bar">
        <ActionIcon
          variant="subtle"
          color="gray.8"
          size="lg"
          onClick={menu.toggle}
          aria-label={t('runner.menu.open')}
          aria-expanded={menuOpened}
          aria-haspopup="dialog"
          data-testid="runner-menu"
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </ActionIcon>
        <Text
          component="h1"
          fw={650}
          fz="sm"
          m={0}
          className="runner-title"
          truncate="end"
          data-testid="runner-title"
        >
          {props.variant.subjectTestName}
        </Text>
        {saveStatus}
        <ExamTimer secondsLeft={props.secondsLeft} paused={props.paused} />
        <Dialog
          opened={menuOpened}
          onClose={menu.close}
          drawer="left"
          size="min(320px, 85vw)"
          title={props.variant.subjectTestName}
          data-testid="runner-menu-drawer"
        >
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {subtitle}
            </Text>
            <PauseButton
              allowance={props.allowance}
              busy={props.pauseBusy && !props.paused}
              onPause={closeThen(props.onPause)}
            />
            {!props.kiosk && <FullscreenButton fullWidth />}
            {props.tools && (
              <Group gap="xs" className="runner-tools">
                {props.tools}
              </Group>
            )}
            {props.onLogout && (
              <Button variant="default" onClick={closeThen(props.onLogout)} data-testid="runner-logout">
                {t('header.logoff')}
              </Button>
            )}
            <Button color="red.8" onClick={closeThen(props.onFinish)} data-testid="finish-work">
              {t('runner.finish.button')}
            </Button>
          </Stack>
        </Dialog>
      </header>
    );
  }

  return (
    <header className="runner-bar" data-testid="runner-bar">
      <Stack gap={0} className="runner-title">
        <Text fw={650} component="h1" fz="lg" m={0} data-testid="runner-title">
          {props.variant.subjectTestName}
        </Text>
        <Text size="xs" c="dimmed">
          {subtitle}
        </Text>
      </Stack>
      {saveStatus}
      <Group gap="xs" wrap="nowrap" className="runner-actions">
        <ExamTimer secondsLeft={props.secondsLeft} paused={props.paused} />
        {pause}
        {!props.kiosk && <FullscreenButton />}
        <ShortcutsHelp />
        {props.tools}
        {logout}
        <Button color="red.8" onClick={props.onFinish} data-testid="finish-work">
          {t('runner.finish.button')}
        </Button>
      </Group>
    </header>
  );
}
