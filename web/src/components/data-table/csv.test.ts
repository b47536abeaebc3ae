import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';
import { fileNameFromDisposition } from './download';
import { cleanFilter } from './list-request';

describe('csv', () => {
  it('never lets a cell start a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+7 999')).toBe("'+7 999");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('Иванова')).toBe('Иванова');
    expect(csvCell(null)).toBe('');
    expect(csvCell(7)).toBe('7');
  });

  it('quotes delimiters, quotes and line breaks; starts with a BOM', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('7 «А», 2')).toBe('"7 «А», 2"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(toCsv(['ФИО', 'Класс'], [['Иванова Анна', '7 «А»']])).toBe(
      '\ufeffФИО;Класс\r\nИванова Анна;7 «А»\r\n',
    );
  });

  it('writes numbers as they are and guards a formula in any row', () => {
    expect(
      toCsv(
        ['ID', 'Имя'],
        [
          [1, 'a;b'],
          [2, '=1+1'],
        ],
      ),
    ).toBe('\ufeffID;Имя\r\n1;"a;b"\r\n2;\'=1+1\r\n');
  });
});

describe('helpers', () => {
  it('reads the file name of a Content-Disposition header', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="codes.pdf"; filename*=UTF-8''%D0%BA%D0%BE%D0%B4%D1%8B.pdf`,
      ),
    ).toBe('коды.pdf');
    expect(fileNameFromDisposition('attachment; filename="report.xlsx"')).toBe('report.xlsx');
    expect(
      fileNameFromDisposition("attachment; FILENAME*=utf-8''%D1%81%D0%BF%D0%B8%D1%81%D0%BE%D0%BA.csv"),
    ).toBe('список.csv');
    expect(fileNameFromDisposition('attachment; filename*=plain.txt')).toBe('plain.txt');
    expect(fileNameFromDisposition(null)).toBeNull();
  });

  it('leaves empty filter values out', () => {
    expect(cleanFilter({ search: '  ', classId: undefined, parallel: 7, q: ' ив ' })).toEqual({
      parallel: 7,
      q: 'ив',
    });
    expect(cleanFilter({ search: '' })).toBeUndefined();
  });
});
