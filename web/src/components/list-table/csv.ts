/** CSV export of what a table shows; cells are formula-safe (DESIGN.md §6). */

export type CsvValue = string | number | boolean | null | undefined;

/** Characters a spreadsheet reads as the start of a formula (also tab and CR, OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[";\n\r,]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Semicolon-separated with a BOM: Russian Excel opens it with the right columns and encoding
 * (a comma is the decimal separator there).
 */
export function toCsv(header: readonly CsvValue[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Saves a blob through a temporary link. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(
  fileName: string,
  header: readonly CsvValue[],
  rows: readonly (readonly CsvValue[])[],
) {
  saveBlob(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }), fileName);
}
