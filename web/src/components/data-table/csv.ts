/**
 * CSV for spreadsheets (docs/design.md §6: exported cells never start a formula). Russian Excel opens a
 * `;`-separated UTF-8 file with a BOM directly, so that is what we write.
 */
export type CsvValue = string | number | boolean | null | undefined;

export const CSV_DELIMITER = ';';
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula triggers get a leading apostrophe; quotes, delimiters and line breaks are quoted. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  if (/[";\n\r,]/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function toCsv(header: readonly CsvValue[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(CSV_DELIMITER));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
