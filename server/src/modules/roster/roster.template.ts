import { buildWorkbook, sheet, XLSX_MIME } from '../../lib/xlsx.js';

/** The templates of the import files: the header in Russian and one example row (docs/roster.md). */

interface TemplateColumn {
  header: string;
  example: string;
  width: number;
}

const STUDENT_COLUMNS: TemplateColumn[] = [
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

const STAFF_COLUMNS: TemplateColumn[] = [
  { header: 'ОО', example: 'ГБОУ Школа № 1', width: 24 },
  { header: 'Школа', example: 'Школа № 1', width: 24 },
  { header: 'Роль', example: 'организатор', width: 14 },
  { header: 'Фамилия', example: 'Петрова', width: 16 },
  { header: 'Имя', example: 'Анна', width: 14 },
  { header: 'Отчество', example: 'Сергеевна', width: 16 },
  { header: 'E-mail', example: 'petrova@school1.example', width: 26 },
  { header: 'Логин', example: 'petrova', width: 14 },
  { header: 'Должность', example: 'Учитель математики', width: 22 },
  { header: 'Внешний id', example: 'S-0001', width: 14 },
];

const csvCell = (text: string) => (/[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

async function template(
  columns: TemplateColumn[],
  sheetName: string,
  base: string,
  format: 'xlsx' | 'csv',
): Promise<{ data: Buffer; fileName: string; mime: string }> {
  if (format === 'csv') {
    const lines = [columns.map((c) => csvCell(c.header)), columns.map((c) => csvCell(c.example))];
    const text = '\uFEFF' + lines.map((l) => l.join(';')).join('\r\n') + '\r\n';
    return { data: Buffer.from(text, 'utf8'), fileName: `${base}.csv`, mime: 'text/csv; charset=utf-8' };
  }
  const data = await buildWorkbook([
    sheet({
      name: sheetName,
      columns: columns.map((c, i) => ({
        header: c.header,
        width: c.width,
        value: (row: string[]) => row[i],
      })),
      rows: [columns.map((c) => c.example)],
    }),
  ]);
  return { data, fileName: `${base}.xlsx`, mime: XLSX_MIME };
}

/** The student roster's template. */
export const rosterTemplate = (format: 'xlsx' | 'csv') =>
  template(STUDENT_COLUMNS, 'Ученики', 'roster-template', format);

/** The staff file's template. */
export const staffTemplate = (format: 'xlsx' | 'csv') =>
  template(STAFF_COLUMNS, 'Сотрудники', 'staff-template', format);
