import jsQR from 'jsqr';
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { QR_QUIET_MODULES, qrMatrix } from '../src/lib/pdf/index.js';

/** Page count (via pdf-lib, an independent parser) and the text of each page (via pdf.js). */
export async function readPdf(bytes: Buffer): Promise<{ pageCount: number; pages: string[] }> {
  const parsed = await PDFDocument.load(bytes);
  const proxy = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(proxy, { mergePages: false });
  return { pageCount: parsed.getPageCount(), pages: text };
}

/**
 * Rasterises the very matrix the toolkit draws (with its quiet zone) and reads it back with jsQR,
 * an independent decoder: proves what ends up on paper scans to `text`.
 */
export function decodeQrOf(text: string, pixelsPerModule = 4): string | null {
  const matrix = qrMatrix(text);
  const side = (matrix.size + 2 * QR_QUIET_MODULES) * pixelsPerModule;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / pixelsPerModule) - QR_QUIET_MODULES;
      const col = Math.floor(x / pixelsPerModule) - QR_QUIET_MODULES;
      const inside = row >= 0 && col >= 0 && row < matrix.size && col < matrix.size;
      if (inside && matrix.dark(row, col)) rgba.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
    }
  }
  return jsQR(rgba, side, side)?.data ?? null;
}
