import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp } from '../../test/test-app';

// The ugnik's list of the school diagnostics in its area: words for states, search on the server,
// a plain message when it is bound to no area or the list cannot be read.

const ugnik = { id: 5, login: 'ugnik', displayName: 'Белов Константин', roles: ['ugnik'] };
const row = (over: object = {}) => ({
  diagnosticId: 11,
  code: 'D-11',
  name: 'Математика 7',
  kind: 'diagnostic',
  status: 'active',
  startsAt: '2026-03-01T06:00:00.000Z',
  endsAt: '2026-03-05T15:00:00.000Z',
  schoolId: 3,
  schoolName: 'Школа № 1',
  participantCount: 25,
  finishedCount: 12,
  ...over,
});

function server(answer: (url: string) => Response, ownArea?: () => Response) {
  return fakeServer({
    'GET /api/user': () => json(200, ugnik),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/ugnik/area/diagnostics': ({ url }) => answer(url),
    ...(ownArea ? { 'GET /api/ugnik/area': ownArea } : {}),
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('ugnik: school diagnostics of the area', { timeout: 20_000 }, () => {
  it('says how many schools the area has, and leaves the line out when that cannot be read', async () => {
    const list = () => json(200, { area: { id: 1, name: 'Центральный район' }, items: [row()] });
    server(list, () => json(200, { area: { id: 1, name: 'Центральный район', schoolCount: 1204 } }));
    const first = renderApp('/ugnik/area');
    expect(await screen.findByTestId('area-school-count')).toHaveTextContent(/^Школ в районе: 1\s204$/);
    first.unmount();
    const failing = server(list, () => apiError(500, 'internal'));
    renderApp('/ugnik/area');
    expect(await screen.findByTestId('area-diagnostics')).toBeInTheDocument();
    await waitFor(() => expect(failing.callsTo('GET /api/ugnik/area')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('area-school-count')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('lists them with state, school, dates and counts, and searches on the server', async () => {
    const api = server((url) =>
      json(200, {
        area: { id: 1, name: 'Центральный район' },
        items: url.includes('search=')
          ? [row({ diagnosticId: 12, name: 'Русский язык 8', status: 'finished' })]
          : [row(), row({ schoolId: 4, schoolName: 'Лицей № 2', status: 'planned' })],
      }),
    );
    renderApp('/ugnik/area');
    expect(await screen.findByRole('heading', { name: 'Диагностики школ района: Центральный район' }));
    const table = await screen.findByTestId('area-diagnostics');
    const first = within(table).getByTestId('area-row-11-3');
    expect(first).toHaveTextContent('Математика 7');
    expect(first).toHaveTextContent('Школа № 1');
    expect(first).toHaveTextContent('Идёт');
    expect(first).toHaveTextContent('01.03.2026 — 05.03.2026');
    expect(first).toHaveTextContent('2512');
    expect(within(table).getByTestId('area-row-11-4')).toHaveTextContent('Запланирована');
    expect(await screen.findByRole('link', { name: 'Диагностики школ района' })).toHaveAttribute(
      'href',
      '/ugnik/area',
    );

    await userEvent.type(screen.getByLabelText('Поиск'), 'Рус');
    expect(await screen.findByText('Русский язык 8')).toBeInTheDocument();
    expect(screen.getByText('Завершена')).toBeInTheDocument();
    await waitFor(() =>
      expect(api.callsTo('GET /api/ugnik/area/diagnostics').at(-1)!.url).toContain(
        `search=${encodeURIComponent('Рус')}`,
      ),
    );
  });

  it('says so when the ugnik is bound to no area', async () => {
    server(() => json(200, { area: null, items: [] }));
    renderApp('/ugnik/area');
    expect(await screen.findByTestId('area-none')).toHaveTextContent('Вы не привязаны к району');
    expect(screen.queryByTestId('area-diagnostics')).toBeNull();
  });

  it('says in words why the list could not be read, and stays on the page', async () => {
    server(() => apiError(403, 'forbidden'));
    const { router } = renderApp('/ugnik/area');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Не удалось загрузить:/);
    expect(router.state.location.pathname).toBe('/ugnik/area');
  });
});
