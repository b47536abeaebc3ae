import { ERROR_CODES } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { describeApiError } from '../lib/form-errors';
import { createI18n } from '../lib/i18n';

// Every error code the API can answer has its own text in both languages: a code added to the
// contract without one fails here (and does not compile), and no code falls back to the server's
// English message.
describe('texts of the API error codes', () => {
  for (const lang of ['ru', 'en'] as const) {
    it(`every code has its own ${lang} text`, () => {
      const t = createI18n(lang).t;
      const problems = ERROR_CODES.filter((code) => {
        const text = describeApiError(new ApiError({ status: 400, code, message: `SERVER-${code}` }), t);
        return !text.trim() || text.includes('SERVER-') || text.includes(`apiErrors.codes.${code}`);
      });
      expect(problems).toEqual([]);
    });
  }

  it('the Russian texts are Russian and differ from the English ones', () => {
    const ru = createI18n('ru').t;
    const en = createI18n('en').t;
    for (const code of ERROR_CODES) {
      const error = new ApiError({ status: 400, code, message: 'x' });
      const r = describeApiError(error, ru);
      expect(r, code).toMatch(/[а-яё]/i);
      expect(r, code).not.toBe(describeApiError(error, en));
    }
  });
});
