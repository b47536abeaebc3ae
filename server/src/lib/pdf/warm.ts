import { createPdf, decoratePages, pageNumberFooter, pdfToBuffer } from './document.js';
import type { FontName } from './fonts.js';
import { heading, keyValues, paragraph, table } from './layout.js';
import { drawQr } from './qr.js';

const SAMPLE = 'Съешь же ещё этих мягких булок: ABC abc 0123456789 № «» — ≤ ≥';

/**
 * Builds and drops a small document with what Attesta's documents use (every font, a table, a QR
 * code, page numbers), so that the first PDF a user asks for does not pay for decoding the fonts'
 * tables (metrics, character map, shaping, glyph outlines for the subset) and for compiling the
 * layout code: about half a second of one core, once per process. The server calls it once it
 * listens.
 */
export async function warmPdfFonts(): Promise<void> {
  const doc = createPdf({ title: 'warm-up' });
  heading(doc, SAMPLE);
  keyValues(doc, [['Школа', SAMPLE]]);
  for (const font of ['regular', 'bold', 'italic', 'mono'] satisfies FontName[])
    paragraph(doc, SAMPLE, { font });
  table(doc, [{ header: '№' }, { header: 'Участник', weight: 3 }], [['1', SAMPLE]]);
  drawQr(doc, 'https://attesta.example/login?tab=code&code=A0000-00000', 400, 600, 80);
  decoratePages(doc, pageNumberFooter);
  await pdfToBuffer(doc);
}
