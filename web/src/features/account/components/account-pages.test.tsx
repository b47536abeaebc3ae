import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users } from '../../../test/test-app';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

/** Click and paste: one change per field keeps these form tests fast; typing is covered by the login tests. */
async function fill(label: RegExp, value: string) {
  await userEvent.click(await screen.findByLabelText(label));
  await userEvent.paste(value);
}

describe('registration', () => {
  it('validates, registers and asks to check the e-mail', { timeout: 20_000 }, async () => {
    const server = fakeServer({
      'GET /api/Account/Parallels': () =>
        json(200, [
          { id: 7, name: '7 параллель' },
          { id: 8, name: '8 параллель' },
        ]),
      'POST /api/Account/Register': () => json(200, { status: 'confirmation_sent' }),
    });
    renderApp('/account/register');
    await screen.findByRole('option', { name: '7 параллель' });

    await userEvent.click(screen.getByTestId('register-submit'));
    expect(
      await screen.findByText('Введите адрес электронной почты, например ivanova@school.ru'),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /api/Account/Register')).toHaveLength(0);

    await fill(/^Электронная почта/, 'ivanova@school.ru');
    await fill(/^Пароль/, 'secret-123');
    await fill(/^Повторите пароль/, 'secret-124');
    await fill(/^Фамилия/, 'Иванова');
    await fill(/^Имя/, 'Анна');
    await userEvent.selectOptions(screen.getByLabelText(/^Параллель/), '7');
    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Пароли не совпадают')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText(/^Повторите пароль/));
    await fill(/^Повторите пароль/, 'secret-123');
    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByTestId('register-sent')).toHaveTextContent('ivanova@school.ru');
    expect(server.callsTo('POST /api/Account/Register')[0]!.body).toEqual({
      email: 'ivanova@school.ru',
      password: 'secret-123',
      surname: 'Иванова',
      name: 'Анна',
      parallel: 7,
    });
  });

  it('shows server field errors and a taken address under the field', async () => {
    let answer = apiError(409, 'email_taken');
    fakeServer({
      'GET /api/Account/Parallels': () => apiError(500, 'internal_error'),
      'POST /api/Account/Register': () => answer,
    });
    const { router } = renderApp('/account/register');
    // The optional list failing does not break the page (suppressed).
    expect(await screen.findByTestId('parallels-unavailable')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/register');
    await fill(/^Электронная почта/, 'a@b.ru');
    await fill(/^Пароль/, 'secret-123');
    await fill(/^Повторите пароль/, 'secret-123');
    await fill(/^Фамилия/, 'Иванова');
    await fill(/^Имя/, 'Анна');
    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Этот адрес уже зарегистрирован')).toBeInTheDocument();

    answer = json(400, {
      status: 400,
      code: 'validation_failed',
      message: 'bad',
      errors: [{ path: 'body.surname', message: 'Too long', code: 'too_big', params: { maximum: 100 } }],
    });
    await userEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Не длиннее 100 символов')).toBeInTheDocument();
    expect(screen.getByText('Проверьте заполнение полей.')).toBeInTheDocument();
  });
});

describe('confirmation, recovery and password change', () => {
  it('confirms the address once from the e-mail link', async () => {
    const server = fakeServer({ 'POST /api/Account/Register': () => json(200, { status: 'confirmed' }) });
    renderApp('/account/confirm?token=tok-1234567890');
    expect(await screen.findByTestId('confirm-done')).toBeInTheDocument();
    expect(server.callsTo('POST /api/Account/Register')).toHaveLength(1);
    expect(server.calls[0]!.body).toEqual({ confirmationToken: 'tok-1234567890' });
  });

  it('explains an invalid confirmation link', async () => {
    fakeServer({ 'POST /api/Account/Register': () => apiError(400, 'invalid_token') });
    renderApp('/account/confirm?token=tok-1234567890');
    expect(await screen.findByTestId('confirm-failed')).toHaveTextContent('Ссылка недействительна');
  });

  it('requests a reset link', async () => {
    const server = fakeServer({ 'POST /api/Account/SendRegistrationEMail': () => json(200, { ok: true }) });
    renderApp('/account/forgot');
    await fill(/^Электронная почта/, 'ivanova@school.ru');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить ссылку' }));
    expect(await screen.findByTestId('forgot-sent')).toHaveTextContent('ivanova@school.ru');
    expect(server.calls[0]!.body).toEqual({ email: 'ivanova@school.ru', kind: 'reset' });
  });

  it('sets a new password with the token', async () => {
    const server = fakeServer({ 'POST /api/Account/ResetPassword': () => json(200, { ok: true }) });
    renderApp('/account/reset?token=tok-1234567890');
    await fill(/^Новый пароль/, 'new-secret-1');
    await fill(/^Повторите пароль/, 'new-secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByTestId('reset-done')).toBeInTheDocument();
    expect(server.calls[0]!.body).toEqual({ token: 'tok-1234567890', newPassword: 'new-secret-1' });
  });

  it('changes the own password and reports a wrong current one', async () => {
    let answer = apiError(401, 'invalid_credentials');
    const server = fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/Account/ChangePassword': () => answer,
    });
    const { router } = renderApp('/account/password');
    await fill(/^Текущий пароль/, 'wrong');
    await fill(/^Новый пароль/, 'new-secret-1');
    await fill(/^Повторите пароль/, 'new-secret-1');
    await userEvent.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('Текущий пароль указан неверно')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/password');

    answer = json(200, { ok: true });
    await userEvent.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByTestId('password-changed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Текущий пароль/)).toHaveValue(''));
    expect(server.callsTo('POST /api/Account/ChangePassword')[1]!.body).toEqual({
      oldPassword: 'wrong',
      newPassword: 'new-secret-1',
    });
  });
});
