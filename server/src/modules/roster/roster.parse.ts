import ExcelJS from 'exceljs';
import { parse as parseCsvText } from 'csv-parse/sync';
import type { FieldError, RosterColumn, RosterRowError, RosterRowErrorCode } from '@attesta/contract';
import { badRequest } from '../../lib/errors.js';
import { assertCleanCells } from '../../lib/text-hygiene.js';
import { assertSafeXlsx, isZip, XLSX_LIMITS, XlsxRefusal } from '../../lib/xlsx-guard.js';

/*
 * Reading a roster file (docs/roster.md): .xlsx (the first sheet) or .csv in UTF-8 separated by
 * commas or semicolons (a BOM is allowed). The first non-empty row names the columns in English or
 * Russian, in any order and case. Cells are read as text: a formula cell gives its cached value,
 * never a computed one; a date cell gives yyyy-mm-dd. Rows are checked one by one here; what
 * needs the database (scope, matches) is the service's.
 */

export const MAX_ROSTER_BYTES = 5 * 1024 * 1024;
export const MAX_ROSTER_ROWS = 20_000;
const MAX_COLUMNS = 50;

/** One checked row: the student and where they belong, as the file names them. */
export interface RosterRow {
  row: number;
  oo: string;
  school: string;
  building: string | null;
  grade: number;
  letter: string;
  surname: string;
  name: string;
  patronymic: string | null;
  /** yyyy-mm-dd */
  birthDate: string | null;
  externalId: string | null;
}

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase().replace(/ё/g, 'е');

/** Names compare case- and space-insensitively (ОО, schools, buildings, people). */
export const nameKey = norm;

/** The header names both files share (ОО, school, the person's names, external id), normalised. */
export const SHARED_HEADERS = {
  oo: 'oo',
  оо: 'oo',
  school: 'school',
  школа: 'school',
  surname: 'surname',
  фамилия: 'surname',
  name: 'name',
  имя: 'name',
  patronymic: 'patronymic',
  отчество: 'patronymic',
  externalid: 'externalId',
  'external id': 'externalId',
  external_id: 'externalId',
  'внешний id': 'externalId',
  'внешний идентификатор': 'externalId',
} as const;

const HEADERS: Record<string, RosterColumn> = {
  ...SHARED_HEADERS,
  building: 'building',
  здание: 'building',
  grade: 'grade',
  parallel: 'grade',
  параллель: 'grade',
  class: 'class',
  класс: 'class',
  birthdate: 'birthDate',
  'birth date': 'birthDate',
  birth_date: 'birthDate',
  'дата рождения': 'birthDate',
};

const REQUIRED: readonly RosterColumn[] = ['oo', 'school', 'grade', 'class', 'surname', 'name'];

const MAX_LENGTH: Record<RosterColumn, number> = {
  oo: 300,
  school: 300,
  building: 300,
  grade: 10,
  class: 20,
  surname: 100,
  name: 100,
  patronymic: 100,
  birthDate: 20,
  externalId: 100,
};

/** A row error of a file whose columns are `C` and whose row error codes are `K`. */
export interface RowError<C extends string, K extends string> {
  row: number;
  column?: C;
  code: K;
  message: string;
}

export const rowError = <C extends string = RosterColumn, K extends string = RosterRowErrorCode>(
  row: number,
  column: C | undefined,
  code: K,
  message: string,
): RowError<C, K> => ({ row, ...(column ? { column } : {}), code, message });

const unsupported = (why: string) =>
  badRequest('unsupported_format', `${why}: send an .xlsx workbook or a UTF-8 .csv file`);

const tooManyRows = () =>
  badRequest('too_many_rows', `A roster file has at most ${MAX_ROSTER_ROWS} rows besides the header`);

// ---------------------------------------------------------------- reading the table

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as text: cached values of formulas (never evaluated), dates as yyyy-mm-dd. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date)
    return Number.isNaN(value.getTime())
      ? ''
      : `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value)
    return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
  if ('text' in value && typeof value.text === 'string') return value.text;
  return '';
}

/** A row of the file: its spreadsheet number (1-based) and its cells as text. */
export interface TableRow {
  row: number;
  cells: string[];
}

async function xlsxTable(data: Buffer): Promise<TableRow[]> {
  // Inflated first with running limits (a zip bomb, a sheet of too many rows) before exceljs.
  try {
    await assertSafeXlsx(data, XLSX_LIMITS);
  } catch (error) {
    if (!(error instanceof XlsxRefusal)) throw error;
    if (error.reason === 'too_many_rows') throw tooManyRows();
    if (error.reason === 'too_large') throw badRequest('package_too_large', error.message);
    throw unsupported('The workbook cannot be read');
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw unsupported('The workbook cannot be read');
  }
  const ws = wb.worksheets[0];
  if (!ws) return [];
  if (ws.actualRowCount > MAX_ROSTER_ROWS + 1) throw tooManyRows();
  const table: TableRow[] = [];
  // Only the rows that exist: a lone cell far down the sheet costs nothing.
  ws.eachRow((row, number) => {
    const cells: string[] = [];
    for (let c = 1; c <= Math.min(row.cellCount, MAX_COLUMNS); c++)
      cells.push(cellText(row.getCell(c).value));
    table.push({ row: number, cells });
  });
  return table;
}

function csvTable(data: Buffer): TableRow[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw unsupported('The file is not UTF-8 text');
  }
  text = text.replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: { record: string[]; info: { records: number; empty_lines: number } }[];
  try {
    // One record more than allowed is enough to refuse the file; none is dropped unseen.
    records = parseCsvText(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      to: MAX_ROSTER_ROWS + 2,
    }) as unknown as typeof records;
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 1;
    throw unsupported(`The csv cannot be read (line ${line})`);
  }
  if (records.length > MAX_ROSTER_ROWS + 1) throw tooManyRows();
  // The row a spreadsheet shows: records and blank lines before it (a quoted cell over several
  // lines is one row).
  return records.map(({ record, info }) => ({
    row: info.records + info.empty_lines,
    cells: record,
  }));
}

/** The cells of a file, by its kind: an xlsx is a zip; anything else must be a .csv (or .txt). */
export async function tableOf(name: string, data: Buffer): Promise<TableRow[]> {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  // A NUL is no text (it would fail in the database): 400 invalid_text naming the cell.
  if (isZip(data)) {
    if (ext && ext !== 'xlsx') throw unsupported(`A .${ext} file is not a roster`);
    return assertCleanCells(await xlsxTable(data));
  }
  if (ext === 'csv' || ext === 'txt' || ext === '') return assertCleanCells(csvTable(data));
  throw unsupported(`A .${ext} file is not a roster`);
}

// ---------------------------------------------------------------- checking the rows

/** yyyy-mm-dd or dd.mm.yyyy → yyyy-mm-dd of a real calendar day, else null. */
export function parseDate(text: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text) ?? /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = text.includes('-') ? [m[1], m[2], m[3]] : [m[3], m[2], m[1]];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() !== Number(mo) - 1 ||
    date.getUTCDate() !== Number(d) ||
    Number(y) < 1900
  )
    return null;
  return `${y}-${pad(Number(mo))}-${pad(Number(d))}`;
}

/**
 * A class as the file writes it (`7А`, `7 «А»`, `7-Б`, or the letter `А` alone), with the row's
 * grade: its letter, or the error. A leading number is the grade and must equal the row's.
 */
export function classLetter(
  text: string,
  grade: number,
): { letter: string } | { error: 'invalid_class' | 'class_grade_mismatch' } {
  const clean = text.replace(/[«»"'“”„]/g, ' ').trim();
  // Digits alone: a class named by a number (7 «1»); the grade alone names no class.
  if (/^\d+$/.test(clean)) return Number(clean) === grade ? { error: 'invalid_class' } : { letter: clean };
  const m = /^(\d{1,2})(?:[\s\-–—.]*)(\p{L}[\p{L}\p{N}]*|\d+)$/u.exec(clean.replace(/\s+/g, ' '));
  let letter = clean;
  if (m) {
    if (Number(m[1]) !== grade) return { error: 'class_grade_mismatch' };
    letter = m[2]!;
  }
  letter = letter.replace(/[\s\-–—.]+/g, '').toUpperCase();
  if (!/^[\p{L}\p{N}]{1,10}$/u.test(letter)) return { error: 'invalid_class' };
  return { letter };
}

/** The key of a student within the file: the school and the external id, else the natural key. */
const duplicateKey = (r: RosterRow) =>
  [norm(r.oo), norm(r.school)]
    .concat(
      r.externalId !== null
        ? ['id', r.externalId]
        : [
            'n',
            String(r.grade),
            r.letter,
            norm(r.surname),
            norm(r.name),
            norm(r.patronymic ?? ''),
            r.birthDate ?? '',
          ],
    )
    .join('\u0000');

/**
 * What a kind of file (students, staff) has: its header names (English and Russian, normalised),
 * the required columns and each column's longest value.
 */
export interface FileLayout<C extends string> {
  headers: Record<string, C>;
  required: readonly C[];
  maxLength: Record<C, number>;
}

/** One row's cells by column, for a layout's row checker. */
export interface RowCells<C extends string, K extends string> {
  row: number;
  /** The trimmed value of a column (inner runs of spaces as one), null when empty or too long. */
  value(column: C): string | null;
  /** Records an error of the row. */
  fail(column: C, code: K, message: string): void;
  /** False once the row has an error. */
  readonly ok: boolean;
}

/**
 * The rows of the table, checked one by one by the layout's `check` (null: the row is wrong), with
 * required values, sizes and the same record twice in the file (`key`) checked here. A missing
 * required column is a 400 `validation_failed` naming it; more rows than allowed a 400
 * `too_many_rows`.
 */
export function readTableRows<C extends string, K extends string, R>(
  table: TableRow[],
  layout: FileLayout<C>,
  check: (cells: RowCells<C, K | 'required' | 'too_long'>) => R | null,
  duplicate: { key: (r: R) => string; column: (r: R) => C; message: (firstRow: number) => string },
): { rows: (R & { row: number })[]; errors: RowError<C, K | 'required' | 'too_long' | 'duplicate_row'>[] } {
  type Code = K | 'required' | 'too_long' | 'duplicate_row';
  const isEmpty = (r: TableRow) => r.cells.every((c) => c.trim() === '');
  const headerAt = table.findIndex((r) => !isEmpty(r));
  if (headerAt < 0)
    throw badRequest('validation_failed', 'The file has no header row', [
      { path: 'file', message: 'the file is empty' },
    ]);
  const header = table[headerAt]!;
  const columns = new Map<C, number>();
  header.cells.forEach((cell, i) => {
    const column = layout.headers[norm(cell)];
    if (column && !columns.has(column)) columns.set(column, i);
  });
  const missing = layout.required.filter((c) => !columns.has(c));
  if (missing.length) {
    const errors: FieldError[] = missing.map((c) => ({
      path: `header.${c}`,
      message: `no column «${c}» in the header`,
      code: 'required',
      params: { row: header.row, column: c },
    }));
    throw badRequest('validation_failed', `The header lacks the column(s) ${missing.join(', ')}`, errors);
  }
  const body = table.slice(headerAt + 1).filter((r) => !isEmpty(r));
  if (body.length > MAX_ROSTER_ROWS) throw tooManyRows();

  const rows: (R & { row: number })[] = [];
  const errors: RowError<C, Code>[] = [];
  const seen = new Map<string, number>();
  for (const { row, cells } of body) {
    let ok = true;
    const fail = (column: C, code: Code, message: string) => {
      errors.push(rowError(row, column, code, message));
      ok = false;
    };
    const value = (c: C): string | null => {
      const at = columns.get(c);
      const text = (at === undefined ? '' : (cells[at] ?? '')).trim().replace(/\s+/g, ' ');
      if (!text) {
        if (layout.required.includes(c)) fail(c, 'required', `the ${c} is empty`);
        return null;
      }
      if (text.length > layout.maxLength[c]) {
        fail(c, 'too_long', `the ${c} is longer than ${layout.maxLength[c]} characters`);
        return null;
      }
      return text;
    };
    const checked = check({
      row,
      value,
      fail,
      get ok() {
        return ok;
      },
    });
    if (!ok || checked === null) continue;
    const key = duplicate.key(checked);
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push(rowError(row, duplicate.column(checked), 'duplicate_row', duplicate.message(first)));
      continue;
    }
    seen.set(key, row);
    rows.push({ ...checked, row });
  }
  return { rows, errors };
}

const STUDENT_LAYOUT: FileLayout<RosterColumn> = {
  headers: HEADERS,
  required: REQUIRED,
  maxLength: MAX_LENGTH,
};

/**
 * The student rows of the table: required values, sizes, grade, class, date, and the same student
 * twice in the file.
 */
export function readRosterRows(table: TableRow[]): { rows: RosterRow[]; errors: RosterRowError[] } {
  return readTableRows<RosterColumn, RosterRowErrorCode, Omit<RosterRow, 'row'>>(
    table,
    STUDENT_LAYOUT,
    (cells) => {
      const { value, fail } = cells;
      const [oo, school, building, gradeText, classText, surname, name, patronymic, birthText, externalId] = [
        value('oo'),
        value('school'),
        value('building'),
        value('grade'),
        value('class'),
        value('surname'),
        value('name'),
        value('patronymic'),
        value('birthDate'),
        value('externalId'),
      ];
      let grade = -1;
      if (gradeText !== null) {
        grade = /^\d{1,2}$/.test(gradeText) ? Number(gradeText) : -1;
        if (grade < 0 || grade > 11)
          fail('grade', 'invalid_grade', `«${gradeText}» is not a grade from 0 to 11`);
      }
      let letter = '';
      if (classText !== null && grade >= 0 && grade <= 11) {
        const parsed = classLetter(classText, grade);
        if ('error' in parsed)
          fail(
            'class',
            parsed.error,
            parsed.error === 'class_grade_mismatch'
              ? `the class «${classText}» is not of grade ${grade}`
              : `«${classText}» is not a class (a letter or letters and digits, e.g. 7А)`,
          );
        else letter = parsed.letter;
      }
      let birthDate: string | null = null;
      if (birthText !== null) {
        birthDate = parseDate(birthText);
        if (birthDate === null)
          fail('birthDate', 'invalid_date', `«${birthText}» is not a date (yyyy-mm-dd or dd.mm.yyyy)`);
      }
      if (!cells.ok) return null;
      return {
        oo: oo!,
        school: school!,
        building,
        grade,
        letter,
        surname: surname!,
        name: name!,
        patronymic,
        birthDate,
        externalId,
      };
    },
    {
      key: (r) => duplicateKey({ ...r, row: 0 }),
      column: (r) => (r.externalId !== null ? 'externalId' : 'surname'),
      message: (first) => `the same student as on row ${first}`,
    },
  );
}
