import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { AppProviders } from '../../../test/test-app';
import type { OutboxSnapshot } from '../lib/outbox';
import { SaveStatus, saveStateOf } from './save-status';

const snapshot = (over: Partial<OutboxSnapshot> = {}): OutboxSnapshot => ({
  pending: 0,
  pendingTaskIds: [],
  sending: false,
  offline: false,
  held: false,
  stopped: null,
  lastSavedAt: '2030-01-01T10:00:00.000Z',
  storageFailed: false,
  ...over,
});

function show(props: { online: boolean; unsavedCount: number; compact?: boolean }) {
  return render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <SaveStatus
        snapshot={snapshot({ pending: props.unsavedCount })}
        unsavedCount={props.unsavedCount}
        online={props.online}
        onRetry={() => {}}
        compact={props.compact}
      />
    </AppProviders>,
  );
}

describe('the save status', () => {
  it('says «нет связи» whenever the browser is offline, also when nothing waits', () => {
    expect(saveStateOf(snapshot(), 0, false)).toBe('offline');
    expect(saveStateOf(snapshot(), 0, true)).toBe('saved');
    show({ online: false, unsavedCount: 0 });
    expect(screen.getByTestId('save-status')).toHaveTextContent(
      'Нет связи — ответы сохраняются на этом устройстве',
    );
  });

  it('on a phone, offline is a short visible line; the sentence stays for screen readers', () => {
    show({ online: false, unsavedCount: 2, compact: true });
    const status = screen.getByTestId('save-status');
    expect(screen.getByTestId('save-status-short')).toHaveTextContent(/^Нет связи$/);
    expect(screen.getByTestId('save-status-short')).toHaveClass('save-status-short');
    expect(status).toHaveAttribute('title', 'Нет связи — 2 изменения ждут отправки');
    expect(status.querySelector('.visually-hidden')).toHaveTextContent(
      'Нет связи — 2 изменения ждут отправки',
    );
  });

  it('on a phone, online, only the dot shows', () => {
    show({ online: true, unsavedCount: 0, compact: true });
    expect(screen.queryByTestId('save-status-short')).toBeNull();
  });
});
