import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV export', () => {
  it('prefixes cells that would start a formula with an apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+7 999')).toBe("'+7 999");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('Иванов')).toBe('Иванов');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('writes a BOM, semicolons and CRLF, quoting separators', () => {
    expect(
      toCsv(
        ['ID', 'Имя'],
        [
          [1, 'a;b'],
          [2, '=1+1'],
        ],
      ),
    ).toBe('\uFEFFID;Имя\r\n1;"a;b"\r\n2;\'=1+1\r\n');
  });
});
