import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeQrOf, readPdf } from '../../../test/pdf.js';
import {
  createPdf,
  decoratePages,
  drawPageCode,
  fontFace,
  fontPaths,
  heading,
  keyValues,
  pageNumberFooter,
  paragraph,
  pdfToBuffer,
  qrMatrix,
  table,
  type PdfDoc,
  warmPdfFonts,
} from './index.js';

describe('PDF toolkit', () => {
  it('resolves the DejaVu fonts from node_modules', () => {
    for (const path of Object.values(fontPaths())) {
      expect(path).toMatch(/node_modules\/dejavu-fonts-ttf\/ttf\/DejaVu.+\.ttf$/);
      expect(existsSync(path)).toBe(true);
    }
  });

  it('renders an A4 document with Cyrillic text, a table that breaks pages, numbered pages and page codes', async () => {
    const doc = createPdf({ title: 'Проверка', subject: 'Тест' });
    heading(doc, 'Ведомость результатов');
    keyValues(doc, [
      ['Школа', 'ГБОУ Школа № 1234'],
      ['Класс', '7 «А»'],
    ]);
    paragraph(doc, 'Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(8));
    const rows = Array.from({ length: 80 }, (_, i) => [String(i + 1), `Участник ${i + 1}`, `${i % 5}`]);
    table(doc, [{ header: '№', weight: 0.4 }, { header: 'Ф. И. О.', weight: 3 }, { header: 'Балл' }], rows);
    decoratePages(doc, (d, page) => {
      pageNumberFooter(d, page);
      drawPageCode(d, `ATTESTA:T:${page.pageNumber}`, d.page.width - 90, 10, 60);
    });
    const bytes = await pdfToBuffer(doc);

    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { pageCount, pages } = await readPdf(bytes);
    expect(pageCount).toBeGreaterThanOrEqual(2);
    expect(pages).toHaveLength(pageCount);
    expect(pages[0]).toContain('Ведомость результатов');
    expect(pages[0]).toContain('французских булок');
    expect(pages[0]).toContain('7 «А»');
    pages.forEach((text, i) => {
      expect(text).toContain(`стр. ${i + 1} из ${pageCount}`);
      expect(text).toContain(`ATTESTA:T:${i + 1}`);
      // The header row repeats after every page break.
      expect(text).toContain('Ф. И. О.');
    });
    expect(pages.join('\n')).toContain('Участник 80');
  });

  it('parses each font once per process and shapes each word once, without one document changing another', async () => {
    // pdfkit's own fields: the current font (with the fontkit font inside) and the fonts by key.
    const internals = (doc: PdfDoc) =>
      doc as unknown as { _font: { font: unknown }; _fontFamilies: Record<string, unknown> };
    const text = 'Ведомость: Иванов Иван, 7 «А», 12 из 20 (60%)';
    const first = createPdf({ title: 'Первый' });
    const widthBefore = first.fontSize(11).widthOfString(text);
    paragraph(first, text.repeat(5));
    table(
      first,
      [
        { header: 'Ф. И. О.', font: 'bold' },
        { header: 'Код', font: 'mono' },
      ],
      [[text, 'B0000-00001']],
    );
    await pdfToBuffer(first);

    const second = createPdf({ title: 'Второй' });
    for (const name of ['regular', 'bold', 'italic', 'mono'] as const) {
      second.font(name);
      expect(internals(second)._font.font).toBe(fontFace(name));
      // A switch back finds the document's font by the name it was asked by, not a new parse.
      expect(internals(second)._fontFamilies[name]).toBe(internals(second)._font);
    }
    // The shared shaped runs are copied: pdfkit scales a run's positions in place, so a shared one
    // would come out scaled twice and the text measured wider in every later document.
    expect(second.font('regular').fontSize(11).widthOfString(text)).toBeCloseTo(widthBefore, 6);
    const run = fontFace('regular').layout('Ведомость') as { positions: object[] };
    const again = fontFace('regular').layout('Ведомость') as { positions: object[] };
    expect(again).not.toBe(run);
    expect(again.positions[0]).not.toBe(run.positions[0]);
    expect(again.positions).toEqual(run.positions);
  });

  it('keeps the text of every later document extractable after a Cyrillic letter drew on a Latin one', async () => {
    // DejaVu builds А, В, Е, Р, Х… from the Latin glyphs. Writing a document's subset asks fontkit
    // for those components without their characters, and fontkit keeps the glyph as first asked
    // for: every later document of the process then wrote Latin P, A, H… with an empty ToUnicode
    // entry (copying a verification code out of a PDF gave "R-5UF)-5YUH" or a blank).
    const fonts = ['regular', 'bold', 'italic', 'mono'] as const;
    const cyrillic = 'АВЕКМНОРСТХ авекмнорстху ЈЅІј';
    const latin = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz';
    const first = createPdf({ title: 'Кириллица' });
    for (const font of fonts) paragraph(first, cyrillic, { font });
    await pdfToBuffer(first);
    const second = createPdf({ title: 'Latin' });
    for (const font of fonts) paragraph(second, `${font}: ${latin}`, { font });
    const { pages } = await readPdf(await pdfToBuffer(second));
    for (const font of fonts) expect(pages[0]).toContain(`${font}: ${latin}`);
  });

  it('warms up the fonts and layout code (the server does it once it listens)', async () => {
    await expect(warmPdfFonts()).resolves.toBeUndefined();
  });

  it('draws QR codes an independent decoder reads back', () => {
    for (const code of ['ATTESTA:B1:123456789012:42:1', 'ATTESTA:B1:000000000001:2147483647:99']) {
      expect(qrMatrix(code).size).toBeGreaterThanOrEqual(21);
      expect(decodeQrOf(code)).toBe(code);
    }
  });
});
