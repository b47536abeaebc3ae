import { loginBodySchema, registerBodySchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { describeApiError, describeFieldError, zodFieldErrors } from './form-errors';
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
    // Never the server's English message: the text is chosen by the code.
    expect(describeApiError(err('internal_error', 500), t)).toMatch(/^На сервере произошла ошибка/);
    expect(describeApiError(err('device_mismatch', 409), t)).toMatch(/открыта на другом устройстве/);
    expect(describeApiError(err('some_future_code', 418), t)).toBe(
      'Не удалось выполнить действие (ошибка 418). Повторите попытку; если не поможет — сообщите администратору.',
    );
    for (const code of ['internal_error', 'device_mismatch', 'some_future_code', 'work_paused'])
      expect(describeApiError(err(code, 409), t)).not.toContain('server says');
    expect(describeApiError(new Error('TypeError: x is undefined'), t)).not.toContain('TypeError');
  });

  it('describes field errors by their code, with the row of an import', () => {
    expect(
      describeFieldError(
        { path: 'body.surname', message: 'Too small', code: 'too_small', params: { minimum: 1 } },
        t,
      ),
    ).toBe('Заполните поле');
    expect(
      describeFieldError(
        {
          path: 'participantTest[3].testDate',
          message: 'row 3: must be between',
          code: 'outside_window',
          params: { row: 3, field: 'testDate', from: '2026-11-01', to: '2026-11-30' },
        },
        t,
      ),
    ).toBe('Строка 3, дата: дата вне окна диагностики 01.11.2026–30.11.2026');
    // The registration's refusal of a date names the window in dd.mm.yyyy.
    expect(
      describeFieldError(
        {
          path: 'body.testDate',
          message: 'must be between',
          code: 'outside_window',
          params: { from: '2026-12-01', to: '2026-12-05', date: '2026-12-20' },
        },
        t,
      ),
    ).toBe('дата вне окна диагностики 01.12.2026–05.12.2026');
    // A refusal about a student names them, also where the code's text has no place for the name.
    expect(
      describeFieldError(
        {
          path: 'body.studentIds',
          message: 'their schools do not take part',
          code: 'school_not_in_diagnostic',
          params: { name: 'Иванов Иван, Петров Пётр' },
        },
        t,
      ),
    ).toBe('Иванов Иван, Петров Пётр: школа не участвует в диагностике');
    expect(
      describeFieldError(
        {
          path: 'students.5',
          message: 'x',
          code: 'grade_not_in_test',
          params: { name: 'Иванов Иван', grade: 8, grades: '7' },
        },
        t,
      ),
    ).toBe('Иванов Иван: 8 класс, а тест для параллелей 7');
    expect(describeFieldError({ path: 'body.x', message: 'English text' }, t)).not.toContain('English');
  });
});
