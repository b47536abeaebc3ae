import { Button, Group, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import type { OutboxSnapshot } from '../lib/outbox';

export type SaveState = 'saved' | 'saving' | 'offline' | 'blocked' | 'idle';

export function saveStateOf(snapshot: OutboxSnapshot, debouncing: number, online: boolean): SaveState {
  if (snapshot.stopped === 'blocked') return 'blocked';
  const waiting = snapshot.pending + debouncing;
  // The browser is offline: say so even when nothing waits (what is typed now stays on the device).
  if (!online || (waiting > 0 && snapshot.offline)) return 'offline';
  if (waiting > 0 || snapshot.sending) return 'saving';
  return snapshot.lastSavedAt ? 'saved' : 'idle';
}

const pad = (n: number) => String(n).padStart(2, '0');
const clockTime = (iso: string) => {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

/**
 * «Сохранено в чч:мм:сс» / «Сохранение…» / «Нет связи — N изменений ждут отправки». On a phone the
 * coloured dot stands for the words, except without a connection: then a short «Нет связи» shows
 * too (one line), the full sentence stays for screen readers and on hover.
 */
export function SaveStatus({
  snapshot,
  unsavedCount,
  online,
  onRetry,
  compact = false,
}: {
  snapshot: OutboxSnapshot;
  unsavedCount: number;
  online: boolean;
  onRetry: () => void;
  /** The phone's bar: the coloured dot shows, the words are there for screen readers and on hover. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const state = saveStateOf(snapshot, Math.max(0, unsavedCount - snapshot.pending), online);
  const text =
    state === 'offline'
      ? unsavedCount > 0
        ? t('runner.save.offline', { count: unsavedCount })
        : t('runner.save.offlineNothing')
      : state === 'saving'
        ? t('runner.save.saving')
        : state === 'blocked'
          ? t('runner.save.blocked', { count: unsavedCount })
          : state === 'saved'
            ? t('runner.save.savedAt', { time: clockTime(snapshot.lastSavedAt!) })
            : t('runner.save.idle');
  return (
    <Group gap="xs" wrap="nowrap">
      <Text
        size="sm"
        role="status"
        aria-live="polite"
        className="save-status"
        data-state={state}
        data-testid="save-status"
        title={compact ? text : undefined}
      >
        <span className="save-status-dot" aria-hidden="true" />
        <span className={compact ? 'visually-hidden' : undefined}>{text}</span>
        {compact && state === 'offline' && (
          <span className="save-status-short" aria-hidden="true" data-testid="save-status-short">
            {t('runner.save.offlineShort')}
          </span>
        )}
      </Text>
      {state === 'offline' && !compact && (
        <Button size="compact-xs" variant="default" onClick={onRetry} data-testid="save-retry">
          {t('runner.save.retry')}
        </Button>
      )}
      {snapshot.storageFailed && !compact && (
        <Text size="xs" c="orange.9">
          {t('runner.save.noStorage')}
        </Text>
      )}
    </Group>
  );
}
