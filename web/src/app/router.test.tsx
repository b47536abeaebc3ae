import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../lib/api-client';
import { currentTest, workState } from '../features/exam-runner/test-fixtures';
import { apiError, fakeServer, json, renderApp, users } from '../test/test-app';

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const signedIn = (user: object, extra = {}) =>
  fakeServer({
    'GET /api/user': () => json(200, user),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    ...extra,
  });

describe('routing and guards', () => {
  it('sends a visitor without a session from a role home to /login with the return address', async () => {
    fakeServer({ 'GET /api/user': () => apiError(401, 'unauthorized') });
    const { router } = renderApp('/admin');
    expect(await screen.findByTestId('login-title')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?returnUrl=%2Fadmin');
    // GET /api/user is a synchronous-style call: only logged.
    expect(consoleError).toHaveBeenCalledWith('GET /api/user: 401');
  });

  it('/ opens the role home when signed in and the login page otherwise', async () => {
    signedIn(users.coordinator);
    const first = renderApp('/');
    expect(await screen.findByTestId('role-home-coordinator')).toBeInTheDocument();
    expect(first.router.state.location.pathname).toBe('/coordinator');
    first.unmount();

    fakeServer({ 'GET /api/user': () => apiError(401, 'unauthorized') });
    const second = renderApp('/');
    expect(await screen.findByTestId('login-title')).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/login');
  });

  it("sends a user from another role's home to their own", async () => {
    signedIn(users.coordinator);
    const { router } = renderApp('/admin');
    expect(await screen.findByTestId('role-home-coordinator')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/coordinator');
  });

  it('shows the header: name, role, session time, language, log off; and only existing sections', async () => {
    signedIn(users.coordinator);
    renderApp('/coordinator');
    expect(await screen.findByTestId('role-home-coordinator')).toHaveFocus();
    expect(screen.getByTestId('user-name')).toHaveTextContent('Иванова Анна Сергеевна');
    expect(screen.getByTestId('current-role')).toHaveTextContent('Школьный координатор');
    expect(await screen.findByTestId('session-time')).toHaveTextContent(/^Сеанс до \d\d:\d\d/);
    expect(screen.getByTestId('logoff')).toHaveTextContent('Выйти');
    const nav = screen.getByRole('navigation', { name: 'Разделы' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Главная',
      'Смена пароля',
      'Ученики',
      'Классы',
      'Здания',
      'Организаторы',
      'Диагностики',
      'Очередь задач',
      'Тестирование работников',
      'Работники: особые условия',
      'Импорт контингента',
      'Сканы бланков',
      'Проверка сканов',
      'Публикация результатов',
      'Отчёты',
    ]);
    expect(within(screen.getByTestId('account-summary')).getByText('coordinator')).toBeInTheDocument();
  });

  it('chooses the home by role priority and lets a multi-role user switch', async () => {
    signedIn(users.multi, {
      'GET /api/exam/test/currentParticipantTest': () => apiError(501, 'not_implemented'),
    });
    const { router } = renderApp('/');
    expect(await screen.findByTestId('role-home-admin')).toBeInTheDocument();
    const switcher = screen.getByTestId('role-switch');
    expect(
      within(switcher)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Администратор', 'Эксперт', 'Участник']);
    await userEvent.selectOptions(switcher, 'participant');
    expect(await screen.findByTestId('role-home-participant')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/participant');
    // A participant has no password to change.
    const nav = screen.getByRole('navigation', { name: 'Разделы' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Главная', 'Мои результаты']);
  });

  it('shows a 404 page for unknown addresses', async () => {
    fakeServer({});
    renderApp('/no/such/page');
    expect(await screen.findByTestId('not-found-title')).toHaveTextContent('Страница не найдена');
  });
});

describe('the login page while the session is still valid', () => {
  it('opens the role home of a signed-in staff member, or the page they were sent from', async () => {
    signedIn(users.coordinator, { 'GET /api/user/hasSession': () => json(200, true) });
    const first = renderApp('/login');
    expect(await screen.findByTestId('role-home-coordinator')).toBeInTheDocument();
    expect(first.router.state.location.pathname).toBe('/coordinator');
    expect(screen.queryByTestId('login-title')).toBeNull();
    first.unmount();

    const second = renderApp('/login?returnUrl=%2Fcoordinator%2Fstudents');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/coordinator/students'));
  });

  it("opens a participant's running work; a participant whose work is not running here lands on the start page", async () => {
    let test = currentTest(workState(41));
    const server = signedIn(users.participant, {
      'GET /api/user/hasSession': () => json(200, true),
      'GET /api/exam/test/currentParticipantTest': () => json(200, test),
    });
    const first = renderApp('/login?tab=code');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/participant/work'));
    expect(screen.queryByTestId('login-title')).toBeNull();
    first.unmount();

    // The work runs on another device: the start page says so (no runner opens here).
    test = { ...test, openElsewhere: true };
    const second = renderApp('/login');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/participant'));
    expect(server.callsTo('GET /api/exam/test/currentParticipantTest').length).toBeGreaterThanOrEqual(2);
  });

  it('stays the login page without a session, and asks nothing that fails', async () => {
    const server = fakeServer({ 'GET /api/user/hasSession': () => json(200, false) });
    const { router } = renderApp('/login');
    expect(await screen.findByTestId('login-title')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(server.callsTo('GET /api/user')).toHaveLength(0);
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('api client failure rules inside the app', () => {
  it('401 → the unauthorized page, which keeps the return address', async () => {
    signedIn(users.coordinator, { 'GET /api/kim/parallels': () => apiError(401, 'session_expired') });
    const { router } = renderApp('/coordinator');
    await screen.findByTestId('role-home-coordinator');
    await act(async () => {
      await apiClient.get('/api/kim/parallels').catch(() => {});
    });
    expect(await screen.findByTestId('unauthorized-title')).toHaveTextContent(
      'Сеанс завершён или нет доступа',
    );
    expect(router.state.location.search).toBe('?returnUrl=%2Fcoordinator');
    expect(screen.getByTestId('login-again')).toHaveAttribute('href', '/login?returnUrl=%2Fcoordinator');
  });

  it('another failure status → the general error page with status and code, never the server’s message', async () => {
    signedIn(users.coordinator, {
      'POST /api/ugnik/diagnostic/list': () => apiError(500, 'internal_error', 'Unexpected database failure'),
    });
    const { router } = renderApp('/coordinator');
    await screen.findByTestId('role-home-coordinator');
    await act(async () => {
      await apiClient.post('/api/ugnik/diagnostic/list', {}).catch(() => {});
    });
    expect(await screen.findByTestId('error-title')).toHaveTextContent('Что-то пошло не так');
    expect(router.state.location.pathname).toBe('/error');
    const details = screen.getByTestId('error-details');
    expect(details).toHaveTextContent('500');
    expect(details).toHaveTextContent('internal_error');
    expect(screen.getByTestId('error-explained')).toHaveTextContent('На сервере произошла ошибка.');
    expect(document.body).not.toHaveTextContent('Unexpected database failure');
  });

  it('a failure while sending → the error page with the serialized error', async () => {
    fakeServer({});
    const { router } = renderApp('/login');
    await screen.findByTestId('login-title');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await act(async () => {
      await apiClient.get('/api/kim/parallels').catch(() => {});
    });
    expect(await screen.findByTestId('error-title')).toBeInTheDocument();
    expect(JSON.parse(new URLSearchParams(router.state.location.search).get('error')!)).toEqual({
      name: 'TypeError',
      message: 'Failed to fetch',
    });
    expect(
      screen.getByText('Не удалось отправить запрос на сервер. Проверьте подключение к интернету.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('error-details')).toHaveTextContent('TypeError');
  });

  it('a session that ends on the participant home goes to the unauthorized page', async () => {
    signedIn(users.participant, {
      'GET /api/exam/test/currentParticipantTest': () => apiError(401, 'session_expired'),
    });
    const { router } = renderApp('/participant');
    expect(await screen.findByTestId('unauthorized-title')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?returnUrl=%2Fparticipant');
  });

  it('shows the assigned test when the server can tell it', async () => {
    signedIn(users.participant, {
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(null)),
      'GET /api/user/checkTechSpec': () => apiError(501, 'not_implemented'),
      'GET /api/exam/test/examwork/timeBefore': () => apiError(501, 'not_implemented'),
    });
    renderApp('/participant');
    const card = await screen.findByTestId('participant-test');
    expect(card).toHaveTextContent('Математика, 7 класс');
    expect(card).toHaveTextContent('01.01.2030');
  });
});

describe('pages reachable without a session', () => {
  it('the error page reads its query', async () => {
    const server = fakeServer({});
    renderApp('/error?status=403&code=forbidden&message=Access%20denied');
    expect(await screen.findByTestId('error-details')).toHaveTextContent('forbidden');
    expect(screen.getByTestId('error-explained')).toHaveTextContent('Недостаточно прав для этого действия.');
    expect(document.body).not.toHaveTextContent('Access denied');
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
    expect(server.calls).toHaveLength(0);
  });

  it('the unauthorized page refuses a foreign return address', async () => {
    fakeServer({});
    renderApp('/unauthorized?returnUrl=%2F%2Fevil.example');
    expect(await screen.findByTestId('login-again')).toHaveAttribute('href', '/login');
  });
});

describe('language', () => {
  it('switches the interface to English', async () => {
    fakeServer({});
    renderApp('/login');
    await screen.findByTestId('login-title');
    await userEvent.click(screen.getByText('EN'));
    await waitFor(() => expect(screen.getByTestId('login-title')).toHaveTextContent('Sign in'));
    expect(screen.getByRole('tab', { name: 'Activation code' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    document.cookie = 'attesta_lang=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });
});
