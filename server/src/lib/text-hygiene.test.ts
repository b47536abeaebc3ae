import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { assertCleanText, findInvalidText, isCleanText } from './text-hygiene.js';

describe('text hygiene', () => {
  it('accepts ordinary text, Cyrillic and surrogate pairs', () => {
    for (const s of ['', 'ok', 'Привет, мир', 'ё', 'emoji 😀 pair', '\t\n\r'])
      expect(isCleanText(s)).toBe(true);
  });

  it('refuses NUL and lone surrogates', () => {
    for (const s of ['a\u0000b', '\uD800', 'x\uDBFFy', '\uDC00', 'x\uDFFF', '😀'.slice(0, 1), '😀'.slice(1)])
      expect(isCleanText(s), JSON.stringify(s)).toBe(false);
  });

  it('finds the first bad string or key in nested JSON, with its path', () => {
    expect(findInvalidText({ a: [1, 'x', { b: '\uD83D' }] }, 'body')).toBe('body.a.2.b');
    expect(findInvalidText({ ['k\u0000']: 1 }, 'query')).toBe('query.k\uFFFD');
    expect(findInvalidText({ a: ['fine', 2, null, true] }, 'body')).toBeNull();
  });

  it('throws 400 invalid_text naming the path', () => {
    try {
      assertCleanText({ name: 'x\u0000' }, 'body');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({ status: 400, code: 'invalid_text', errors: [{ path: 'body.name' }] });
    }
  });
});
