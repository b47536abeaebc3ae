import { buildWorkbook, sheet, XLSX_MIME } from '../../lib/xlsx.js';

/** The template of a roster file: the header in Russian and one example row (docs/roster.md). */

const COLUMNS: { header: string; example: string; width: number }[] = [
  { header: 'ОО', example: 'ГБОУ Школа № 1', width: 24 },
  { header: 'Школа', example: 'Школа № 1', width: 24 },
  { header: 'Здание', example: 'Основное здание', width: 20 },
  { header: 'Параллель', example: '7', width: 10 },
  { header: 'Класс', example: '7А', width: 8 },
  { header: 'Фамилия', example: 'Иванов', width: 16 },
  { header: 'Имя', example: 'Иван', width: 14 },
  { header: 'Отчество', example: 'Иванович', width: 16 },
  { header: 'Дата рождения', example: '01.09.2012', width: 14 },
  { header: 'Внешний id', example: 'A-0001', width: 14 },
];

const csvCell = (text: string) => (/[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export async function rosterTemplate(
  format: 'xlsx' | 'csv',
): Promise<{ data: Buffer; fileName: string; mime: string }> {
  if (format === 'csv') {
    const lines = [COLUMNS.map((c) => csvCell(c.header)), COLUMNS.map((c) => csvCell(c.example))];
    const text = '\uFEFF' + lines.map((l) => l.join(';')).join('\r\n') + '\r\n';
    return {
      data: Buffer.from(text, 'utf8'),
      fileName: 'roster-template.csv',
      mime: 'text/csv; charset=utf-8',
    };
  }
  const data = await buildWorkbook([
    sheet({
      name: 'Ученики',
      columns: COLUMNS.map((c, i) => ({
        header: c.header,
        width: c.width,
        value: (row: string[]) => row[i],
      })),
      rows: [COLUMNS.map((c) => c.example)],
    }),
  ]);
  return { data, fileName: 'roster-template.xlsx', mime: XLSX_MIME };
}
