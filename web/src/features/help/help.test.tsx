import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const coordinator = {
  id: 2,
  login: 'coord',
  displayName: 'Иванова Мария',
  roles: ['coordinator'],
  schoolId: 1,
};

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, coordinator),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/help': () =>
      json(200, {
        items: [
          { id: 5, title: 'Список учащихся', forPage: true },
          { id: 1, title: 'Как войти', forPage: false },
        ],
      }),
    'GET /api/help/5': () =>
      json(200, {
        id: 5,
        title: 'Список учащихся',
        html: '<p>Добавьте учащегося кнопкой «Создать».</p><img src=x onerror="alert(1)">',
        updatedAt: '2026-03-10T07:15:00.000Z',
      }),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('help', { timeout: 30_000 }, () => {
  it('opens from the header with the sections of this page first, then one section sanitised', async () => {
    const api = server();
    renderApp('/coordinator/students');
    // Nothing is asked for until the help is opened.
    await userEvent.click(await screen.findByTestId('help-open', {}, { timeout: 5000 }));
    const drawer = await screen.findByRole('dialog', { name: 'Справка' });
    expect(await within(drawer).findByRole('navigation', { name: 'Об этой странице' })).toHaveTextContent(
      'Список учащихся',
    );
    expect(within(drawer).getByRole('navigation', { name: 'Общая справка' })).toHaveTextContent('Как войти');
    expect(api.callsTo('GET /api/help')[0]!.url).toContain('page=%2Fcoordinator%2Fstudents');

    await userEvent.click(within(drawer).getByTestId('help-item-5'));
    const section = await within(drawer).findByTestId('help-section');
    expect(within(section).getByRole('heading', { name: 'Список учащихся' })).toBeInTheDocument();
    expect(section).toHaveTextContent('Добавьте учащегося кнопкой «Создать».');
    expect(section.querySelector('[onerror]')).toBeNull();
    await userEvent.click(within(drawer).getByRole('button', { name: /Ко всем разделам/ }));
    expect(await within(drawer).findByTestId('help-item-1')).toBeInTheDocument();
  });

  it('is on the public pages too, and says when there is none or it failed', async () => {
    fakeServer({
      'GET /api/user': () => apiError(401, 'unauthorized'),
      'GET /api/help': () => json(200, { items: [] }),
    });
    renderApp('/login');
    await userEvent.click(await screen.findByTestId('help-open', {}, { timeout: 5000 }));
    const drawer = await screen.findByRole('dialog', { name: 'Справка' });
    expect(await within(drawer).findByText('Для этой страницы справки пока нет.')).toBeInTheDocument();
  });

  it('a failure is said in words with a retry', async () => {
    const api = server({ 'GET /api/help': () => apiError(500, 'internal_error') });
    renderApp('/coordinator/students');
    await userEvent.click(await screen.findByTestId('help-open', {}, { timeout: 5000 }));
    const drawer = await screen.findByRole('dialog', { name: 'Справка' });
    expect(await within(drawer).findByText('Не удалось загрузить справку.')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Повторить' }));
    await waitFor(() => expect(api.callsTo('GET /api/help').length).toBeGreaterThan(1));
  });

  it('speaks English', async () => {
    server();
    const { i18n } = renderApp('/coordinator/students');
    await act(() => i18n.changeLanguage('en'));
    await userEvent.click(await screen.findByRole('button', { name: 'Help' }));
    const drawer = await screen.findByRole('dialog', { name: 'Help' });
    expect(await within(drawer).findByRole('navigation', { name: 'About this page' })).toBeInTheDocument();
  });
});
