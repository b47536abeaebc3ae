import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { craftXlsx, deflatedZeros, sheetXml } from '../../test/xlsx-craft.js';
import { assertSafeXlsx, MAX_SPREADSHEET_ROWS, XLSX_LIMITS, XlsxRefusal } from './xlsx-guard.js';

// Issue 23 item 8: a spreadsheet is inflated with a running limit and its rows counted before
// exceljs opens it, whatever its zip headers claim.

const reasonOf = async (data: Buffer, limits = XLSX_LIMITS) => {
  try {
    await assertSafeXlsx(data, limits);
    return 'accepted';
  } catch (error) {
    if (error instanceof XlsxRefusal) return error.reason;
    throw error;
  }
};

/** The most memory (heap + buffers) in use while `run` runs, above what was in use before it. */
async function peakGrowth(run: () => Promise<unknown>) {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, used())), 1);
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, used()) - before;
}

const MB = 1024 * 1024;

describe('assertSafeXlsx', () => {
  it('accepts a workbook exceljs wrote', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Лист');
    ws.addRow(['code', 'name']);
    for (let i = 0; i < 100; i++) ws.addRow([`A${i}`, 'Числа']);
    expect(await reasonOf(Buffer.from(await wb.xlsx.writeBuffer()))).toBe('accepted');
  });

  it('refuses a sheet whose headers claim 1 KB but which inflates to 200 MB, at once', async () => {
    const bomb = craftXlsx({ deflated: await deflatedZeros(200 * MB), declaredSize: 1024 });
    expect(bomb.length).toBeLessThan(MB);
    let reason = '';
    const growth = await peakGrowth(async () => (reason = await reasonOf(bomb)));
    expect(reason).toBe('too_large');
    expect(growth).toBeLessThan(32 * MB);
  });

  it('refuses a part that inflates past the running limit even where every claim is within it', async () => {
    // The headers claim 3 MB (within an 8 MB limit); the part inflates to 40 MB.
    const bomb = craftXlsx({ deflated: await deflatedZeros(40 * MB), declaredSize: 3 * MB });
    expect(await reasonOf(bomb, { ...XLSX_LIMITS, maxInflatedBytes: 8 * MB })).toBe('too_large');
    // Honest headers over the limit: refused before inflating.
    const honest = craftXlsx({ deflated: await deflatedZeros(9 * MB) });
    expect(await reasonOf(honest, { ...XLSX_LIMITS, maxInflatedBytes: 8 * MB })).toBe('too_large');
  });

  it(`refuses more than ${MAX_SPREADSHEET_ROWS} rows while counting them; accepts exactly that many`, async () => {
    const rows = (n: number) => craftXlsx({ data: sheetXml(['a'], n - 1, (i) => [`строка ${i}`]) });
    expect(await reasonOf(rows(MAX_SPREADSHEET_ROWS + 1))).toBe('too_many_rows');
    expect(await reasonOf(rows(MAX_SPREADSHEET_ROWS))).toBe('accepted');
    // Row tags cut by chunk boundaries are counted once: a small limit, many chunks.
    expect(await reasonOf(rows(1001), { ...XLSX_LIMITS, maxRows: 1000 })).toBe('too_many_rows');
    expect(await reasonOf(rows(1000), { ...XLSX_LIMITS, maxRows: 1000 })).toBe('accepted');
  });

  it('refuses what is not a readable zip', async () => {
    expect(await reasonOf(Buffer.from('PK\u0003\u0004 not really a zip'))).toBe('unreadable');
  });
});
