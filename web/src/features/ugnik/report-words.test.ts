import { UGNIK_SURNAMES_HEADERS_RU } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { ugnikBundle } from './i18n';

// Screen and file use the same words (issue 23, item 6): the server heads the surnames workbook
// with the contract's words (server ugnik.test.ts reads it back); the Russian screen shows them.
describe('the ugnik’s report column words', () => {
  it('the Russian surnames table says what its file says', () => {
    const detail = (ugnikBundle.ru as { ugnik: { detail: Record<string, unknown> } }).ugnik.detail;
    expect(detail).toMatchObject(UGNIK_SURNAMES_HEADERS_RU);
  });
});
