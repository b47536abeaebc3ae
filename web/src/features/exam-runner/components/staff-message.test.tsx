import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { AppProviders, apiError, fakeServer, json } from '../../../test/test-app';
import { StaffMessages } from './staff-message';

// The organizer's message reaches the runner on the participant stream, is announced, dismissed
// for good (marked read), and a runner that was offline shows the unread ones it missed.

class FakeEventSource {
  static CLOSED = 2;
  static all: FakeEventSource[] = [];
  readyState = 1;
  onerror: (() => void) | null = null;
  onopen: (() => void) | null = null;
  private readonly listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? [])
      fn({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

const message = (id: number, text: string) => ({
  id,
  participantTestId: 7,
  text,
  at: `2026-04-10T07:0${id}:00.000Z`,
  readAt: null,
});

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

function show() {
  return render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <StaffMessages />
    </AppProviders>,
  );
}

describe('staff messages in the runner', () => {
  it('shows a pushed message as an announced notice; dismissing marks it read and it stays gone', async () => {
    let unread = [] as ReturnType<typeof message>[];
    const server = fakeServer({
      'GET /api/monitoring/messages': () => json(200, { messages: unread }),
      'POST /api/monitoring/messages/1/read': () => json(200, { ...message(1, 'x'), readAt: 'now' }),
    });
    show();
    await waitFor(() => expect(server.callsTo('GET /api/monitoring/messages')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(FakeEventSource.all).toHaveLength(1);

    unread = [message(1, 'Осталось 10 минут')];
    act(() => FakeEventSource.all[0]!.emit('message', message(1, 'Осталось 10 минут')));
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('Сообщение от организатора');
    expect(notice).toHaveTextContent('Осталось 10 минут');

    await userEvent.click(screen.getByRole('button', { name: 'Прочитано' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.callsTo('POST /api/monitoring/messages/1/read')).toHaveLength(1);
    // A reconnect reads the unread ones again; the dismissed one is not shown back.
    act(() => FakeEventSource.all[0]!.emit('hello', { serverTime: '' }));
    await waitFor(() => expect(server.callsTo('GET /api/monitoring/messages')).toHaveLength(2));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a reload shows the messages sent while it was away, oldest first; a message it cannot read is ignored', async () => {
    fakeServer({
      'GET /api/monitoring/messages': () =>
        json(200, { messages: [message(2, 'Подойдите к столу'), message(1, 'Проверьте бланк')] }),
    });
    show();
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      expect.stringContaining('Проверьте бланк'),
      expect.stringContaining('Подойдите к столу'),
    ]);
    act(() => FakeEventSource.all[0]!.emit('message', { id: 'x' }));
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });

  it('shows nothing when the unread messages cannot be read', async () => {
    const server = fakeServer({ 'GET /api/monitoring/messages': () => apiError(403, 'forbidden') });
    show();
    await waitFor(() => expect(server.callsTo('GET /api/monitoring/messages')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
