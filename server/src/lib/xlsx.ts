import ExcelJS from 'exceljs';
import { SCHOOL_UTC_OFFSET_MS } from './calendar.js';

export type CellValue = string | number | boolean | Date | null | undefined;

export interface SheetColumn<Row> {
  header: string;
  /** Column width in characters. */
  width?: number;
  value: (row: Row) => CellValue;
  /** Excel number format, e.g. '0.0' or 'dd.mm.yyyy'. */
  format?: string;
}

export interface SheetSpec<Row> {
  name: string;
  columns: SheetColumn<Row>[];
  rows: Iterable<Row>;
  /** Lines above the header (title, filters), each in its own merged row. */
  title?: string[];
}

/** The number formats of date cells: a day as дд.мм.гггг, an instant with its time (school time). */
export const DAY_FORMAT = 'dd.mm.yyyy';
export const DATETIME_FORMAT = 'dd.mm.yyyy hh:mm';

/**
 * A calendar day (`yyyy-mm-dd`) as a date cell's value. Excel dates have no zone: ExcelJS writes a
 * Date's UTC fields, so the day is its UTC midnight. Anything else (null, a malformed day) → null.
 */
export function excelDay(day: string | null | undefined): Date | null {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An instant as a date-time cell's value: the school's wall clock (Moscow), as Excel has no zones. */
export function excelSchoolTime(at: Date | string | null | undefined): Date | null {
  if (at === null || at === undefined) return null;
  const ms = (typeof at === 'string' ? new Date(at) : at).getTime();
  return Number.isNaN(ms) ? null : new Date(ms + SCHOOL_UTC_OFFSET_MS);
}

/** A column of calendar days, written as real date cells shown дд.мм.гггг. */
export function dayColumn<Row>(
  header: string,
  day: (row: Row) => string | null | undefined,
  width = 12,
): SheetColumn<Row> {
  return { header, width, format: DAY_FORMAT, value: (row) => excelDay(day(row)) };
}

/** A column of instants, written as real date-time cells in school time, shown дд.мм.гггг чч:мм. */
export function schoolTimeColumn<Row>(
  header: string,
  at: (row: Row) => Date | string | null | undefined,
  width = 17,
): SheetColumn<Row> {
  return { header, width, format: DATETIME_FORMAT, value: (row) => excelSchoolTime(at(row)) };
}

/**
 * Text that a spreadsheet would run as a formula (or as DDE) starts with = + - @, a tab or CR.
 * Such text is prefixed with an apostrophe-like quote so it stays text (OWASP CSV injection).
 * Numbers are written as numbers, so negative numbers are unaffected.
 */
export function safeText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cell(value: CellValue): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return safeText(value);
  return value;
}

/** A sheet whose row type is inferred from its rows, ready for buildWorkbook. */
export function sheet<Row>(spec: SheetSpec<Row>): SheetSpec<unknown> {
  return spec as SheetSpec<unknown>;
}

/** Builds an .xlsx (one or more sheets) with bold frozen headers and formula-safe text cells. */
export async function buildWorkbook(sheets: SheetSpec<unknown>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Attesta';
  wb.created = new Date();
  for (const spec of sheets) {
    const ws = wb.addWorksheet(spec.name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Лист');
    const titleRows = spec.title ?? [];
    for (const line of titleRows) {
      const row = ws.addRow([safeText(line)]);
      row.font = { bold: true };
      ws.mergeCells(row.number, 1, row.number, Math.max(1, spec.columns.length));
    }
    const header = ws.addRow(spec.columns.map((c) => safeText(c.header)));
    header.font = { bold: true };
    header.alignment = { vertical: 'middle', wrapText: true };
    spec.columns.forEach((c, i) => {
      const col = ws.getColumn(i + 1);
      col.width = c.width ?? Math.min(60, Math.max(10, c.header.length + 2));
      if (c.format) col.numFmt = c.format;
    });
    for (const row of spec.rows) {
      const added = ws.addRow(spec.columns.map((c) => cell(c.value(row))));
      // A date needs its format on the cell itself: a Date without one would read as a bare serial.
      spec.columns.forEach((c, i) => {
        const target = added.getCell(i + 1);
        if (target.value instanceof Date) target.numFmt = c.format ?? DAY_FORMAT;
      });
    }
    ws.views = [{ state: 'frozen', ySplit: header.number }];
    ws.autoFilter = {
      from: { row: header.number, column: 1 },
      to: { row: header.number, column: spec.columns.length },
    };
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One Content-Disposition for every download (RFC 6266 / 5987), whatever the file type. */
export { attachmentDisposition } from './file-sniff.js';
