import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  attachmentDisposition,
  buildWorkbook,
  dayColumn,
  safeText,
  schoolTimeColumn,
  sheet,
} from './xlsx.js';

describe('spreadsheets', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `'=HYPERLINK("http://evil","x")`],
    ['+7 999', "'+7 999"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['Иванов', 'Иванов'],
  ])('never lets text start a formula: %s', (input, output) => {
    expect(safeText(input)).toBe(output);
  });

  it('writes a workbook whose cells read back as text and numbers, never formulas', async () => {
    const buffer = await buildWorkbook([
      sheet({
        name: 'Участники',
        title: ['Диагностика по математике'],
        columns: [
          { header: 'Фамилия', value: (r) => r.s },
          { header: 'Балл', value: (r) => r.n },
        ],
        rows: [
          { s: '=1+1', n: -3 },
          { s: 'Петрова', n: 12.5 },
        ],
      }),
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buffer as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Участники')!;
    expect(ws.getCell('A1').value).toBe('Диагностика по математике');
    expect(ws.getCell('A2').value).toBe('Фамилия');
    expect(ws.getCell('A3').value).toBe("'=1+1");
    expect(ws.getCell('A3').formula).toBeUndefined();
    expect(ws.getCell('B3').value).toBe(-3);
    expect(ws.getCell('B4').value).toBe(12.5);
  });

  it('writes days and instants as real date cells shown dd.mm.yyyy (hh:mm in school time), not as text', async () => {
    const buffer = await buildWorkbook([
      sheet({
        name: 'Даты',
        columns: [
          dayColumn('Дата', (r: { day: string | null; at: string }) => r.day),
          schoolTimeColumn('Начало', (r: { day: string | null; at: string }) => r.at),
        ],
        rows: [
          { day: '2026-03-02', at: '2026-03-02T06:30:00.000Z' },
          { day: null, at: '2026-03-02T21:10:00.000Z' },
        ],
      }),
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buffer as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Даты')!;
    const day = ws.getCell('A2');
    expect(day.type).toBe(ExcelJS.ValueType.Date);
    expect(day.numFmt).toBe('dd.mm.yyyy');
    expect((day.value as Date).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    const at = ws.getCell('B2');
    expect(at.type).toBe(ExcelJS.ValueType.Date);
    expect(at.numFmt).toBe('dd.mm.yyyy hh:mm');
    // 06:30 UTC is 09:30 at school (Moscow); 21:10 UTC is already the next school day.
    expect((at.value as Date).toISOString()).toBe('2026-03-02T09:30:00.000Z');
    expect((ws.getCell('B3').value as Date).toISOString()).toBe('2026-03-03T00:10:00.000Z');
    expect(ws.getCell('A3').value).toBeNull();
  });

  it('names downloads in Cyrillic safely', () => {
    expect(attachmentDisposition('Коды "7А".xlsx')).toBe(
      `attachment; filename="____ _7__.xlsx"; filename*=UTF-8''${encodeURIComponent('Коды "7А".xlsx')}`,
    );
  });
});
