import type { FieldError } from '@attesta/contract';
import { badRequest } from './errors.js';

/*
 * Text PostgreSQL cannot store or a client cannot render safely: NUL (text columns refuse it and a
 * JSON value with \u0000 fails in jsonb) and lone UTF-16 surrogates (not valid Unicode; they fail
 * on the way to the database and break UTF-8 consumers). One place decides, so every entry —
 * JSON body, query, path, multipart field or file name — answers the same 400 `invalid_text`.
 */

/** Whether a string is safe to store and show (no NUL, no lone surrogate). */
export function isCleanText(s: string): boolean {
  // isWellFormed (ES2024, Node 20) is false exactly when a surrogate is unpaired.
  return !s.includes('\u0000') && (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** The dotted path of the first string (or object key) in `value` that is not clean text, if any. */
export function findInvalidText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return isCleanText(value) ? null : path;
  // Bytes (a file's content) are not text.
  if (value === null || typeof value !== 'object' || depth > 64 || ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInvalidText(value[i], `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    if (!isCleanText(key)) return `${path}.${[...key].map((c) => (isCleanText(c) ? c : '\uFFFD')).join('')}`;
    const found = findInvalidText(v, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** 400 `invalid_text` naming where the bad character is. */
export function invalidText(path: string) {
  const errors: FieldError[] = [
    { path, message: 'contains a NUL character or an unpaired surrogate (not valid text)' },
  ];
  return badRequest(
    'invalid_text',
    `The text in ${path} contains characters that are not valid text`,
    errors,
  );
}

/** Throws 400 `invalid_text` when `value` holds a string that is not clean text. */
export function assertCleanText(value: unknown, path: string): void {
  const found = findInvalidText(value, path);
  if (found) throw invalidText(found);
}

/**
 * 400 `invalid_text` for the first cell of a file's table (rows numbered as the file shows them,
 * columns from 1) that is not clean text: a NUL in a csv or a spreadsheet cell would otherwise
 * reach a text column and fail there. `errors[0].params` names the row and column.
 */
export function assertCleanCells<T extends { row: number; cells: readonly string[] }>(
  table: T[],
  path = 'file',
): T[] {
  for (const { row, cells } of table)
    for (let i = 0; i < cells.length; i++)
      if (!isCleanText(cells[i]!)) {
        const err = invalidText(`${path}.row${row}.col${i + 1}`);
        err.errors![0]!.params = { row, column: i + 1 };
        throw err;
      }
  return table;
}
