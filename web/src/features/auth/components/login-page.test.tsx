import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../../test/test-app';

const loginAnswer = (user: object) =>
  json(200, { user, expiresAt: '2030-01-01T12:00:00.000Z', token: 'tok' });

describe('login page', () => {
  beforeEach(() => {
    // GET /api/user is logged (not redirected) when there is no session; keep the output clean.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('leads with the activation code, offers the password second, with labelled fields and links', async () => {
    fakeServer({});
    const { router } = renderApp('/login');
    const title = await screen.findByTestId('login-title');
    expect(title).toHaveTextContent('Вход');
    expect(title).toHaveFocus();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['По коду активации', 'По логину и паролю']);
    expect(screen.getByRole('tab', { name: 'По коду активации' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText(/^Код активации/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Пароль/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Регистрация' })).toHaveAttribute('href', '/account/register');
    expect(screen.getByRole('link', { name: 'Забыли пароль?' })).toHaveAttribute('href', '/account/forgot');

    await userEvent.click(screen.getByRole('tab', { name: 'По логину и паролю' }));
    expect(screen.getByLabelText(/^Логин/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Пароль/)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=password');
  });

  it.each([
    ['/login?returnUrl=%2Fcoordinator%2Fstudents', 'По логину и паролю'],
    ['/login?returnUrl=%2Fparticipant%2Fwork', 'По коду активации'],
    ['/login?tab=code&returnUrl=%2Fadmin', 'По коду активации'],
  ])('opens %s on the tab «%s»', async (url, tab) => {
    fakeServer({});
    renderApp(url);
    await screen.findByTestId('login-title');
    expect(screen.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
  });

  it('validates before sending', async () => {
    const server = fakeServer({});
    renderApp('/login?tab=password');
    await userEvent.click(await screen.findByTestId('login-submit'));
    expect(await screen.findAllByText('Заполните поле')).toHaveLength(2);
    expect(screen.getByLabelText(/^Логин/)).toHaveFocus();
    expect(server.callsTo('POST /api/Account/login')).toHaveLength(0);
  });

  it('logs in by login and password and opens the role home', async () => {
    const server = fakeServer({
      'POST /api/Account/login': () => loginAnswer(users.coordinator),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    });
    const { router } = renderApp('/login?tab=password');
    await userEvent.type(await screen.findByLabelText(/^Логин/), 'coordinator');
    await userEvent.type(screen.getByLabelText(/^Пароль/), 'demo');
    await userEvent.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('role-home-coordinator')).toHaveTextContent(
      'Кабинет школьного координатора',
    );
    expect(router.state.location.pathname).toBe('/coordinator');
    expect(screen.getByTestId('greeting')).toHaveTextContent('Здравствуйте, Иванова Анна Сергеевна!');
    const [call] = server.callsTo('POST /api/Account/login');
    expect(call!.body).toEqual({ login: 'coordinator', password: 'demo' });
    expect(call!.headers['X-Requested-With']).toBe('XMLHttpRequest');
    // The user came with the login answer: the guard did not have to ask again.
    expect(server.callsTo('GET /api/user')).toHaveLength(0);
    expect(screen.getByTestId('logoff')).toBeInTheDocument();
  });

  it('goes back to the return address after login', async () => {
    fakeServer({ 'POST /api/Account/login': () => loginAnswer(users.coordinator) });
    const { router } = renderApp('/login?returnUrl=%2Faccount%2Fpassword');
    await userEvent.type(await screen.findByLabelText(/^Логин/), 'coordinator');
    await userEvent.type(screen.getByLabelText(/^Пароль/), 'demo');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/password'));
  });

  it.each([
    [apiError(401, 'invalid_credentials'), 'Неверный логин или пароль'],
    [
      apiError(429, 'too_many_requests', 'slow down', { 'Retry-After': '90' }),
      'Слишком много попыток. Повторите через 1\u00a0мин 30\u00a0с.',
    ],
    [
      apiError(403, 'account_blocked'),
      'Учётная запись заблокирована. Обратитесь к школьному координатору или администратору.',
    ],
    [
      apiError(403, 'email_not_confirmed'),
      'Адрес электронной почты ещё не подтверждён. Перейдите по ссылке из письма.',
    ],
  ])('shows the server refusal inline (%#)', async (response, message) => {
    fakeServer({ 'POST /api/Account/login': () => response });
    const { router } = renderApp('/login?tab=password');
    await userEvent.type(await screen.findByLabelText(/^Логин/), 'coordinator');
    await userEvent.type(screen.getByLabelText(/^Пароль/), 'wrong');
    await userEvent.click(screen.getByTestId('login-submit'));
    // Exact characters (the retry time uses no-break spaces), not whitespace-normalised text.
    expect((await screen.findByTestId('login-error')).textContent).toBe(message);
    // Suppressed: a 401 here is a wrong password, not a lost session.
    expect(router.state.location.pathname).toBe('/login');
  });

  it('logs in by activation code and opens the participant home', async () => {
    const server = fakeServer({
      'POST /api/Account/login': () => loginAnswer(users.participant),
      'GET /api/exam/test/currentParticipantTest': () => apiError(501, 'not_implemented'),
    });
    const { router } = renderApp('/login?tab=code');
    await userEvent.type(await screen.findByLabelText(/^Код активации/), 'AB12-CD34');
    await userEvent.click(screen.getByTestId('login-code-submit'));

    expect(await screen.findByTestId('role-home-participant')).toBeInTheDocument();
    expect(server.callsTo('POST /api/Account/login')[0]!.body).toEqual({ activationCode: 'AB12-CD34' });
    expect(screen.getByTestId('code-accepted')).toHaveTextContent('Код активации принят');
    expect(await screen.findByTestId('test-coming-soon')).toHaveTextContent('Тест будет доступен');
    // 501 from the not-yet-built call was suppressed: still on the home.
    expect(router.state.location.pathname).toBe('/participant');
  });

  it('solves the proof of work the server asks for after many wrong codes, showing that it checks', async () => {
    const secret = 'test-signature-secret';
    const keySecret = 'test-key-secret';
    // A real (small) challenge: the form must really solve it, not just echo something back.
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 10,
      counter: 40,
      deriveKey,
      expiresAt: new Date(Date.now() + 60_000),
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret,
    });
    let answer: (response: Response) => void = () => {};
    const withProof = new Promise<Response>((resolve) => (answer = resolve));
    const server = fakeServer({
      'POST /api/Account/login': (({ body }: { body: unknown }) =>
        (body as { proof?: string }).proof
          ? withProof
          : apiError(428, 'proof_of_work_required')) as unknown as Handler,
      'GET /api/Account/LoginChallenge': () => json(200, challenge),
      'GET /api/exam/test/currentParticipantTest': () => apiError(501, 'not_implemented'),
    });
    renderApp('/login?tab=code');
    await userEvent.type(await screen.findByLabelText(/^Код активации/), 'AB12-CD34');
    await userEvent.click(screen.getByTestId('login-code-submit'));

    expect(await screen.findByTestId('login-code-checking')).toHaveTextContent('Проверяем…');
    await waitFor(() => expect(server.callsTo('POST /api/Account/login')).toHaveLength(2));
    const sent = server.callsTo('POST /api/Account/login')[1]!.body as {
      activationCode: string;
      proof: string;
    };
    expect(sent.activationCode).toBe('AB12-CD34');
    const proof = JSON.parse(sent.proof) as {
      challenge: Challenge;
      solution: { counter: number; derivedKey: string };
    };
    expect(proof.challenge).toEqual(challenge);
    const check = await verifySolution({
      challenge: proof.challenge,
      solution: proof.solution,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret,
    });
    expect(check.verified).toBe(true);

    answer(loginAnswer(users.participant));
    expect(await screen.findByTestId('role-home-participant')).toBeInTheDocument();
    expect(screen.queryByTestId('login-code-checking')).not.toBeInTheDocument();
  });

  it('says so when the proof of work is refused', async () => {
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 10,
      counter: 3,
      deriveKey,
      hmacSignatureSecret: 's',
      hmacKeySignatureSecret: 'k',
    });
    fakeServer({
      'POST /api/Account/login': ({ body }) =>
        (body as { proof?: string }).proof
          ? apiError(400, 'proof_of_work_invalid')
          : apiError(428, 'proof_of_work_required'),
      'GET /api/Account/LoginChallenge': () => json(200, challenge),
    });
    renderApp('/login?tab=code');
    await userEvent.type(await screen.findByLabelText(/^Код активации/), 'AB12-CD34');
    await userEvent.click(screen.getByTestId('login-code-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'Проверка браузера не удалась или устарела. Нажмите «Войти по коду» ещё раз.',
    );
    expect(screen.queryByTestId('login-code-checking')).not.toBeInTheDocument();
  });

  it('rejects a malformed code before sending and shows an unknown code inline', async () => {
    const server = fakeServer({ 'POST /api/Account/login': () => apiError(401, 'invalid_activation_code') });
    renderApp('/login?tab=code');
    const input = await screen.findByLabelText(/^Код активации/);
    await userEvent.type(input, 'код!');
    await userEvent.click(screen.getByTestId('login-code-submit'));
    expect(await screen.findByText('Код состоит из латинских букв, цифр и дефисов')).toBeInTheDocument();
    expect(server.callsTo('POST /api/Account/login')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, 'ZZZZ-0000');
    await userEvent.click(screen.getByTestId('login-code-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      'Код активации не найден или больше не действует',
    );
  });

  it('a network failure during login is shown inline', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderApp('/login?tab=password');
    await userEvent.type(await screen.findByLabelText(/^Логин/), 'a');
    await userEvent.type(screen.getByLabelText(/^Пароль/), 'b');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Нет связи с сервером');
  });
});
