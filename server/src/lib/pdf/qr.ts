import QRCode from 'qrcode';
import type { PdfDoc } from './document.js';

/** Modules of a QR symbol: `dark(row, col)` for 0 ≤ row, col < size. */
export interface QrMatrix {
  size: number;
  dark(row: number, col: number): boolean;
}

/** Blank quiet zone scanners need around a symbol, in modules (the standard asks for 4). */
export const QR_QUIET_MODULES = 4;

/**
 * The QR symbol of `text`. Level M (15% recovery) survives a pen stroke or a smudge on a scanned
 * page while keeping modules large for short payloads such as page codes.
 */
export function qrMatrix(text: string): QrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

/**
 * Draws `text` as a vector QR code whose outer square, quiet zone included, is `size` points at
 * (x, y). Vector modules stay sharp at any printer resolution, unlike an embedded bitmap.
 */
export function drawQr(doc: PdfDoc, text: string, x: number, y: number, size: number): void {
  const matrix = qrMatrix(text);
  const module = size / (matrix.size + 2 * QR_QUIET_MODULES);
  const origin = { x: x + QR_QUIET_MODULES * module, y: y + QR_QUIET_MODULES * module };
  doc.save();
  doc.rect(x, y, size, size).fill('#ffffff');
  for (let row = 0; row < matrix.size; row++) {
    // Runs of dark modules become one rectangle: fewer path operators, no hairline seams.
    let col = 0;
    while (col < matrix.size) {
      if (!matrix.dark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < matrix.size && matrix.dark(row, col)) col++;
      doc.rect(origin.x + start * module, origin.y + row * module, (col - start) * module, module);
    }
  }
  doc.fill('#000000');
  doc.restore();
}

/**
 * A machine-readable code with its human-readable text under it, so a page can be matched by a
 * scanner or, when the symbol is damaged, typed in by a person.
 */
export function drawPageCode(doc: PdfDoc, code: string, x: number, y: number, size: number): void {
  drawQr(doc, code, x, y, size);
  doc.font('mono').fontSize(6.5).fillColor('#000000');
  const width = doc.widthOfString(code) + 2;
  doc.text(code, x + size / 2 - width / 2, y + size, { width, align: 'center', lineBreak: false });
}
