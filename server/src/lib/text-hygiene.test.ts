import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { assertCleanCells, assertCleanText, findInvalidText, isCleanText } from './text-hygiene.js';

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
    // Bytes are no text: a file's content with zeros in it is not looked into.
    expect(findInvalidText({ media: [{ bytes: Buffer.from([0, 1, 0]) }] }, 'items')).toBeNull();
  });

  it('names the first cell of a file that is not text by its row and column', () => {
    const table = [
      { row: 1, cells: ['a', 'b'] },
      { row: 3, cells: ['c', 'd\u0000', 'e\u0000'] },
    ];
    expect(() => assertCleanCells(table)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'invalid_text',
        errors: [expect.objectContaining({ path: 'file.row3.col2', params: { row: 3, column: 2 } })],
      }),
    );
    expect(assertCleanCells(table.slice(0, 1))).toEqual(table.slice(0, 1));
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
