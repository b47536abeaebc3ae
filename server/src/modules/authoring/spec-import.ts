import ExcelJS from 'exceljs';
import { parse as parseCsvText } from 'csv-parse/sync';
import type { FieldError } from '@attesta/contract';
import { AppError, badRequest } from '../../lib/errors.js';
import { assertCleanCells } from '../../lib/text-hygiene.js';
import { assertSafeXlsx, isZip, XLSX_LIMITS, XlsxRefusal } from '../../lib/xlsx-guard.js';

/*
 * The elements of a specification from a spreadsheet (issue 11): .xlsx (the first sheet) or .csv
 * in UTF-8 separated by commas or semicolons. The first row names the columns, in English or
 * Russian: code (код), name (название), parent (родитель: the parent's code), kind (вид: content /
 * skill, содержание / умение; optional). Every row is checked before anything is written; the
 * errors name the row (1-based, the header is row 1) and the column.
 */

export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
const MAX_ROWS = 5000;
/** An xlsx is a zip: refuse one whose parts inflate to more than this (a zip bomb). */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export type ImportColumn = 'code' | 'name' | 'parent' | 'kind';

export interface ImportRow {
  row: number;
  code: string;
  name: string;
  parent: string | null;
  kind: 'content' | 'skill' | null;
}

const HEADERS: Record<string, ImportColumn> = {
  code: 'code',
  код: 'code',
  name: 'name',
  название: 'name',
  наименование: 'name',
  parent: 'parent',
  родитель: 'parent',
  'код родителя': 'parent',
  kind: 'kind',
  вид: 'kind',
};

const KINDS: Record<string, 'content' | 'skill'> = {
  content: 'content',
  skill: 'skill',
  содержание: 'content',
  'элемент содержания': 'content',
  умение: 'skill',
};

export const importError = (
  row: number,
  column: ImportColumn | undefined,
  code: string,
  message: string,
): FieldError => ({
  path: `rows[${row}]${column ? `.${column}` : ''}`,
  message: `row ${row}: ${message}`,
  code,
  params: { row, ...(column ? { column } : {}) },
});

export const importFailed = (errors: FieldError[]) =>
  badRequest(
    'import_invalid',
    `The file has ${errors.length} error(s); nothing was imported. First: ${errors[0]?.message}`,
    errors.slice(0, 500),
  );

const unsupported = () =>
  new AppError(415, 'unsupported_media_type', 'Send the elements as an .xlsx workbook or a UTF-8 .csv file');

// ---------------------------------------------------------------- reading the table

async function xlsxTable(data: Buffer): Promise<string[][]> {
  // Inflated first with running limits (a zip bomb, a sheet of too many rows) before exceljs.
  try {
    await assertSafeXlsx(data, { ...XLSX_LIMITS, maxInflatedBytes: MAX_INFLATED_BYTES });
  } catch (error) {
    if (!(error instanceof XlsxRefusal)) throw error;
    if (error.reason === 'too_many_rows')
      throw importFailed([importError(MAX_ROWS + 2, undefined, 'too_many_rows', `at most ${MAX_ROWS} rows`)]);
    if (error.reason === 'too_large') throw badRequest('package_too_large', error.message);
    throw importFailed([importError(1, undefined, 'unreadable', 'the workbook cannot be read')]);
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw importFailed([importError(1, undefined, 'unreadable', 'the workbook cannot be read')]);
  }
  const ws = wb.worksheets[0];
  if (!ws) return [];
  if (ws.rowCount > MAX_ROWS + 1)
    throw importFailed([importError(MAX_ROWS + 2, undefined, 'too_many_rows', `at most ${MAX_ROWS} rows`)]);
  const table: string[][] = [];
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= Math.min(row.cellCount, 50); c++) cells.push(row.getCell(c).text ?? '');
    table.push(cells);
  }
  return table;
}

function csvTable(data: Buffer): string[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw importFailed([importError(1, undefined, 'not_utf8', 'the file is not UTF-8 text')]);
  }
  text = text.replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  try {
    return parseCsvText(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      bom: true,
      to_line: MAX_ROWS + 2,
    }) as string[][];
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 1;
    throw importFailed([importError(line, undefined, 'malformed_csv', (err as Error).message)]);
  }
}

/** A NUL in a cell is no text (it would fail in the database): 400 invalid_text naming the cell. */
function clean(table: string[][]): string[][] {
  assertCleanCells(table.map((cells, i) => ({ row: i + 1, cells })));
  return table;
}

/** The cells of a file, by its kind (an xlsx is a zip; anything else must be a .csv / .txt file). */
export async function tableOf(name: string, data: Buffer): Promise<string[][]> {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (isZip(data)) {
    if (ext && ext !== 'xlsx') throw unsupported();
    return clean(await xlsxTable(data));
  }
  if (ext === 'csv' || ext === 'txt' || ext === '') return clean(csvTable(data));
  throw unsupported();
}

// ---------------------------------------------------------------- checking the rows

/**
 * The rows of the table, checked one by one (codes unique, kinds known, sizes) and as a whole:
 * a parent is a code of the file or of `existing` (the specification's elements now), and no
 * element becomes its own ancestor. Throws 400 `import_invalid` with every error.
 */
export function readElementRows(
  table: string[][],
  existing: ReadonlyMap<string, string | null>,
): ImportRow[] {
  const errors: FieldError[] = [];
  const headerAt = table.findIndex((r) => r.some((c) => c.trim() !== ''));
  if (headerAt < 0) throw importFailed([importError(1, undefined, 'empty_file', 'the file has no rows')]);
  const columns = new Map<ImportColumn, number>();
  table[headerAt]!.forEach((cell, i) => {
    const column = HEADERS[cell.trim().toLowerCase()];
    if (column && !columns.has(column)) columns.set(column, i);
  });
  for (const required of ['code', 'name'] as const)
    if (!columns.has(required))
      errors.push(
        importError(headerAt + 1, required, 'missing_column', `no column «${required}» in the header`),
      );
  if (errors.length) throw importFailed(errors);
  if (table.length - headerAt - 1 > MAX_ROWS)
    throw importFailed([
      importError(headerAt + MAX_ROWS + 2, undefined, 'too_many_rows', `at most ${MAX_ROWS} rows`),
    ]);

  const cell = (r: string[], c: ImportColumn) => {
    const i = columns.get(c);
    return i === undefined ? '' : (r[i] ?? '').trim();
  };
  const rows: ImportRow[] = [];
  const seen = new Map<string, number>();
  table.slice(headerAt + 1).forEach((r, i) => {
    const row = headerAt + i + 2;
    if (r.every((c) => c.trim() === '')) return;
    const code = cell(r, 'code');
    const name = cell(r, 'name');
    const parent = cell(r, 'parent') || null;
    const kindText = cell(r, 'kind').toLowerCase();
    let ok = true;
    const fail = (column: ImportColumn, code: string, message: string) => {
      errors.push(importError(row, column, code, message));
      ok = false;
    };
    if (!code) fail('code', 'required', 'the code is empty');
    else if (code.length > 32) fail('code', 'too_long', 'the code is longer than 32 characters');
    else if (seen.has(code))
      fail('code', 'duplicate_code', `the code ${code} is also on row ${seen.get(code)}`);
    if (!name) fail('name', 'required', 'the name is empty');
    else if (name.length > 1000) fail('name', 'too_long', 'the name is longer than 1000 characters');
    const kind = kindText ? KINDS[kindText] : null;
    if (kind === undefined) fail('kind', 'invalid_kind', `«${kindText}» is not a kind (content or skill)`);
    if (parent !== null && parent === code) fail('parent', 'cycle', 'an element cannot be its own parent');
    if (code && !seen.has(code)) seen.set(code, row);
    if (ok) rows.push({ row, code, name, parent, kind: kind ?? null });
  });
  if (!rows.length && !errors.length)
    throw importFailed([importError(headerAt + 1, undefined, 'empty_file', 'the file has no elements')]);

  // Parents: known codes, and no cycle through the file and what stays of the specification.
  const parentOf = new Map(existing);
  for (const r of rows) parentOf.set(r.code, r.parent);
  for (const r of rows) {
    if (r.parent === null) continue;
    if (!parentOf.has(r.parent)) {
      errors.push(importError(r.row, 'parent', 'unknown_parent', `no element with the code ${r.parent}`));
      continue;
    }
    const path = new Set([r.code]);
    for (let p: string | null | undefined = r.parent; p; p = parentOf.get(p)) {
      if (path.has(p)) {
        errors.push(importError(r.row, 'parent', 'cycle', `${r.code} would be its own ancestor`));
        break;
      }
      path.add(p);
    }
  }
  if (errors.length) throw importFailed(errors.sort((a, b) => Number(a.params!.row) - Number(b.params!.row)));
  return rows;
}
