/**
 * «Выйти из работы?»: asked before the participant leaves a running work — another page, the back
 * button, or logging out. It says what happens to the answers (all saved, or which wait in this
 * browser to be sent on return) and that the time keeps running; staying is the default.
 */
import { Button, Group, Stack, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/lite/dialog';

export type LeaveKind = 'leave' | 'logout';

interface LeaveDialogProps {
  /** What is asked: leaving the page, or logging out. Null: closed. */
  kind: LeaveKind | null;
  /** Tasks whose answer or file the server does not have yet. */
  unsentCount: number;
  busy: boolean;
  onStay: () => void;
  onLeave: () => void;
}

export function LeaveDialog({ kind, unsentCount, busy, onStay, onLeave }: LeaveDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      opened={kind !== null}
      onClose={onStay}
      title={kind === 'logout' ? t('runner.leave.logoutTitle') : t('runner.leave.title')}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      data-testid="leave-dialog"
    >
      <Stack gap="md">
        <Text>{t('runner.leave.timeRuns')}</Text>
        {unsentCount > 0 ? (
          <Text fw={500} c="orange.9" data-testid="leave-unsent">
            {t('runner.leave.unsent', { count: unsentCount })}
          </Text>
        ) : (
          <Text data-testid="leave-saved">{t('runner.leave.allSaved')}</Text>
        )}
        <Text size="sm" c="dimmed">
          {t('runner.leave.comeBack')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onStay} disabled={busy} data-autofocus data-testid="leave-stay">
            {t('runner.leave.stay')}
          </Button>
          <Button color="red.8" onClick={onLeave} loading={busy} data-testid="leave-confirm">
            {kind === 'logout' ? t('runner.leave.logout') : t('runner.leave.confirm')}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
