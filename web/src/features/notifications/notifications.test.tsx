import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '@attesta/contract';
import { fakeServer, json, renderApp, users } from '../../test/test-app';
import { notificationText } from './components/notification-text';
import { notificationsBundle } from './locales';
import { createI18n } from '../../lib/i18n';
import { registerBundle, type LooseT } from '../../components/data-table/use-bundle-t';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const at = '2026-04-10T09:30:00.000Z';
const note = (id: number, over: Partial<Notification>): Notification => ({
  id,
  kind: 'queue_done',
  params: {},
  link: null,
  createdAt: at,
  readAt: null,
  ...over,
});

const published = note(3, {
  kind: 'results_published',
  params: { diagnosticId: 7, diagnosticName: 'Математика, весна' },
  link: '/account/password',
});
const grading = note(2, { kind: 'grading_assigned', params: { count: 5 }, link: '/expert/grading' });
const failed = note(1, {
  kind: 'queue_failed',
  params: { queueItemId: 12, type: 'report', errorCode: 'job_failed' },
  readAt: at,
});

function serve(items: Notification[], pageSize = 20) {
  let list = [...items];
  const page = (n: number) => () =>
    json(200, {
      items: list.slice((n - 1) * pageSize, n * pageSize),
      total: list.length,
      unread: list.filter((x) => x.readAt === null).length,
      page: n,
      pageSize,
    });
  const handlers: Parameters<typeof fakeServer>[0] = {
    'GET /api/user': () => json(200, users.coordinator),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/notification/getList/1': page(1),
    'GET /api/notification/getList/2': page(2),
  };
  for (const n of items) {
    handlers[`GET /api/notification/get/${n.id}`] = () => {
      list = list.map((x) => (x.id === n.id ? { ...x, readAt: x.readAt ?? at } : x));
      return json(
        200,
        list.find((x) => x.id === n.id),
      );
    };
    handlers[`GET /api/notification/delete/${n.id}`] = () => {
      list = list.filter((x) => x.id !== n.id);
      return json(200, { ok: true, unread: list.filter((x) => x.readAt === null).length });
    };
  }
  return fakeServer(handlers);
}

describe('notification bell', () => {
  it('shows the unread count and lists notifications written in Russian by kind', async () => {
    serve([published, grading, failed]);
    renderApp('/coordinator');
    const bell = await screen.findByTestId('notification-bell', {}, { timeout: 5000 });
    await waitFor(() => expect(bell).toHaveAccessibleName('Уведомления: 2 непрочитанных'));
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');

    await userEvent.click(bell);
    expect(await screen.findByTestId('notification-3')).toHaveTextContent(
      'Опубликованы результаты диагностики «Математика, весна»',
    );
    expect(screen.getByTestId('notification-2')).toHaveTextContent('Вам назначено 5 ответов на проверку');
    expect(screen.getByTestId('notification-1')).toHaveTextContent('Не выполнено: отчёт № 12.');
    expect(screen.getByTestId('notification-3')).toHaveAttribute('data-unread', 'true');
    expect(screen.getByTestId('notification-1')).toHaveAttribute('data-unread', 'false');
  });

  it('opening one marks it read on the server and follows its link', async () => {
    const server = serve([published, grading]);
    const { router } = renderApp('/coordinator');
    await userEvent.click(await screen.findByTestId('notification-bell', {}, { timeout: 5000 }));
    const item = await screen.findByTestId('notification-3');
    await userEvent.click(within(item).getByText(/Опубликованы результаты/));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/password'));
    expect(server.callsTo('GET /api/notification/get/3')).toHaveLength(1);
    expect(server.callsTo('GET /api/notification/get/3')[0]!.headers['X-Requested-With']).toBe(
      'XMLHttpRequest',
    );
    await waitFor(() =>
      expect(screen.getByTestId('notification-bell')).toHaveAccessibleName('Уведомления: 1 непрочитанное'),
    );
  });

  it('deletes one, and says so when none is left', async () => {
    const server = serve([grading]);
    renderApp('/coordinator');
    await userEvent.click(await screen.findByTestId('notification-bell', {}, { timeout: 5000 }));
    await screen.findByTestId('notification-2');
    expect(screen.getByTestId('notification-delete-2')).toHaveAttribute('aria-label', 'Удалить уведомление');
    await userEvent.click(screen.getByTestId('notification-delete-2'));
    expect(await screen.findByTestId('notifications-empty')).toHaveTextContent('Уведомлений нет');
    expect(server.callsTo('GET /api/notification/delete/2')).toHaveLength(1);
    expect(screen.getByTestId('notification-bell')).toHaveAccessibleName('Уведомления');
  });
});

describe('notification bell over the runner', () => {
  it('is not there: a participant taking a test is not interrupted', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'GET /api/notification/getList/1': () =>
        json(200, { items: [], total: 0, unread: 0, page: 1, pageSize: 20 }),
    });
    const { router } = renderApp('/participant/work');
    // The runner has its own shell (no portal header, hence no bell).
    await screen.findByTestId('runner-shell', {}, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/participant/work');
    expect(screen.queryByTestId('notification-bell')).toBeNull();
    expect(server.callsTo('GET /api/notification/getList/1')).toHaveLength(0);
  });
});

describe('notification bell, more pages', () => {
  it('reads the next page on asking', async () => {
    const server = serve([published, grading, failed], 2);
    renderApp('/coordinator');
    await userEvent.click(await screen.findByTestId('notification-bell', {}, { timeout: 5000 }));
    await screen.findByTestId('notification-2');
    expect(screen.queryByTestId('notification-1')).toBeNull();
    await userEvent.click(screen.getByTestId('notifications-more'));
    expect(await screen.findByTestId('notification-1')).toBeInTheDocument();
    expect(server.callsTo('GET /api/notification/getList/2')).toHaveLength(1);
    expect(screen.queryByTestId('notifications-more')).toBeNull();
  });
});

describe('notification texts', () => {
  it('writes each kind in English too', async () => {
    const i18n = createI18n('en');
    registerBundle(i18n, notificationsBundle);
    await i18n.changeLanguage('en');
    const t = i18n.t.bind(i18n) as unknown as LooseT;
    expect(notificationText(published, t)).toBe('Results of “Математика, весна” are published');
    expect(notificationText(grading, t)).toBe('5 answers were assigned to you for grading');
    expect(notificationText({ kind: 'grading_assigned', params: { count: 1 } }, t)).toBe(
      '1 answer was assigned to you for grading',
    );
    expect(notificationText({ kind: 'queue_done', params: { queueItemId: 4, type: 'import' } }, t)).toBe(
      'Done: content import no. 4',
    );
    expect(notificationText(failed, t)).toMatch(/^Failed: report no\. 12\. \S/);
    const kind = (k: string) => k as Notification['kind'];
    expect(notificationText({ kind: kind('feedback_answered'), params: { feedbackId: 3 } }, t)).toBe(
      'An administrator answered your feedback',
    );
    expect(notificationText({ kind: kind('something_new'), params: {} }, t)).toBe('New notification');
  });
});
