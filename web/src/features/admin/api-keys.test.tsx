import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };
const SECRET = 'atk_0123456789ab_s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3t-xyz';

const key = (id: number, extra = {}) => ({
  id,
  name: 'МРКО',
  prefix: '0123456789ab',
  userId: 50 + id,
  userLogin: 'integration-0123456789ab',
  scopes: ['mrko', 'reports'],
  ooId: null,
  ooName: null,
  createdAt: '2026-03-10T07:15:00.000Z',
  createdByLogin: 'admin',
  lastUsedAt: null,
  revokedAt: null,
  ...extra,
});

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/admin/apiKeys': () =>
      json(200, {
        items: [
          key(1),
          key(2, {
            name: 'ПАК',
            prefix: 'ffffeeeedddd',
            scopes: ['specifications'],
            ooId: 4,
            ooName: 'ОО Северная',
            revokedAt: '2026-03-11T07:15:00.000Z',
            lastUsedAt: '2026-03-11T06:00:00.000Z',
          }),
        ],
      }),
    'POST /api/admin/oo/list': () => json(200, { items: [], total: 0 }),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('API keys', { timeout: 30_000 }, () => {
  it('lists keys with their access, ОО, use and state, never a secret', async () => {
    server();
    renderApp('/admin/api-keys');
    const table = await screen.findByTestId('api-keys-table', {}, { timeout: 10_000 });
    const mrko = within(table).getByText('МРКО').closest('tr')!;
    expect(within(mrko).getByText('Выгрузка для МРКО')).toBeInTheDocument();
    expect(within(mrko).getByText('Все результаты за период')).toBeInTheDocument();
    expect(within(mrko).getByText('Все ОО')).toBeInTheDocument();
    expect(within(mrko).getByText('не использовался')).toBeInTheDocument();
    expect(within(mrko).getByRole('button', { name: 'Отозвать' })).toBeInTheDocument();
    const pak = within(table).getByText('ПАК').closest('tr')!;
    expect(within(pak).getByText('ОО Северная')).toBeInTheDocument();
    expect(within(pak).getByText(/^Отозван/)).toBeInTheDocument();
    expect(within(pak).queryByRole('button', { name: 'Отозвать' })).toBeNull();
    expect(await screen.findByRole('link', { name: 'Ключи API' }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('creates a key and shows its secret once, with a warning and a copy button', async () => {
    const api = server({
      'POST /api/admin/apiKeys': () => json(200, { key: key(3, { name: 'Журнал' }), secret: SECRET }),
    });
    renderApp('/admin/api-keys');
    await screen.findByTestId('api-keys-table', {}, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    // nothing ticked: the form says so before sending
    await userEvent.type(within(dialog).getByLabelText(/Название/), 'Журнал');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(api.callsTo('POST /api/admin/apiKeys')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Выгрузка для МРКО' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(api.callsTo('POST /api/admin/apiKeys')).toHaveLength(1));
    expect(api.callsTo('POST /api/admin/apiKeys')[0]!.body).toEqual({
      name: 'Журнал',
      scopes: ['mrko'],
      ooId: null,
    });
    expect(await screen.findByTestId('api-key-secret')).toHaveTextContent(SECRET);
    expect(screen.getByText(/показывается один раз/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Скопировать' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Я сохранил ключ' }));
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('a refused create is explained by its code', async () => {
    server({ 'POST /api/admin/apiKeys': () => apiError(403, 'forbidden') });
    renderApp('/admin/api-keys');
    await screen.findByTestId('api-keys-table', {}, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Название/), 'Журнал');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Загрузка работников' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).not.toContain('forbidden');
    expect(alert.textContent).not.toBe('');
  });

  it('revokes after a confirmation; a failure is shown by its code', async () => {
    let fail = true;
    const api = server({
      'POST /api/admin/apiKeys/1/revoke': () =>
        fail ? apiError(404, 'not_found') : json(200, key(1, { revokedAt: '2026-03-12T07:15:00.000Z' })),
    });
    renderApp('/admin/api-keys');
    const table = await screen.findByTestId('api-keys-table', {}, { timeout: 10_000 });
    const row = within(table).getByText('МРКО').closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Отозвать' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/перестанет работать/)).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/apiKeys/1/revoke')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отозвать' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).not.toContain('not_found');
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отозвать' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST /api/admin/apiKeys/1/revoke')).toHaveLength(2);
    await waitFor(() => expect(api.callsTo('GET /api/admin/apiKeys').length).toBeGreaterThan(1));
  });
});
