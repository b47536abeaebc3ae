import { loginBodySchema, registerBodySchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { describeApiError, zodFieldErrors } from './form-errors';
import { createI18n } from './i18n';

const { t } = createI18n('ru');

describe('form errors', () => {
  it('translates contract validation issues per field', () => {
    const result = registerBodySchema.options[0].safeParse({
      email: 'x',
      password: '123',
      surname: '',
      name: 'a'.repeat(101),
    });
    expect(result.success).toBe(false);
    expect(zodFieldErrors(result.error!, t)).toEqual({
      email: 'Введите адрес электронной почты, например ivanova@school.ru',
      password: 'Пароль должен быть не короче 8 символов',
      surname: 'Заполните поле',
      name: 'Не длиннее 100 символов',
    });
    const code = loginBodySchema.options[1].safeParse({ activationCode: 'ab c!' });
    expect(zodFieldErrors(code.error!, t)).toEqual({
      activationCode: 'Код состоит из латинских букв, цифр и дефисов',
    });
  });

  it('describes API errors by code', () => {
    const err = (code: string, status = 400, retryAfterSeconds: number | null = null) =>
      new ApiError({ status, code, message: 'server says', retryAfterSeconds });
    expect(describeApiError(err('invalid_credentials', 401), t)).toBe('Неверный логин или пароль');
    expect(describeApiError(err('too_many_requests', 429, 125), t)).toBe(
      'Слишком много попыток. Повторите через 2\u00a0мин 5\u00a0с.',
    );
    expect(describeApiError(err('too_many_requests', 429), t)).toBe(
      'Слишком много попыток. Повторите попытку позже.',
    );
    expect(describeApiError(new ApiError({ status: 0, code: 'network_error', message: 'x' }), t)).toMatch(
      /Нет связи/,
    );
    expect(describeApiError(err('internal_error', 500), t)).toBe('Не удалось выполнить запрос: server says');
  });
});
