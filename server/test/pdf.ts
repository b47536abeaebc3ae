import jsQR from 'jsqr';
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { QR_QUIET_MODULES, qrMatrix } from '../src/lib/pdf/index.js';
import { renderPdfPage } from '../src/lib/pdf/render.js';

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

/** A rendered page: RGBA pixels, and how many pixels a PDF point is. */
export interface PageImage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
  pxPerPt: number;
}

/**
 * Renders every page of a PDF at `dpi` with pdf.js (Mozilla's renderer, its legacy build, which
 * runs on Node 20) onto a Skia canvas (@napi-rs/canvas, whose prebuilt binary comes inside its npm
 * package): a renderer independent of pdfkit, which wrote the PDF, so positions read off the pixels
 * prove where things were drawn.
 */
export async function rasterizePdf(bytes: Buffer, dpi: number): Promise<PageImage[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pxPerPt = dpi / 72;
  const pages: PageImage[] = [];
  try {
    for (let n = 1; n <= document.numPages; n++) {
      pages.push({ ...(await renderPdfPage(await document.getPage(n), pxPerPt)), pxPerPt });
    }
  } finally {
    await document.destroy();
  }
  return pages;
}

/** Grey level (0 black … 255 white) of the pixel under a point given in PDF points from the top left. */
export function greyAt(page: PageImage, xPt: number, yPt: number): number {
  const x = Math.min(page.width - 1, Math.max(0, Math.round(xPt * page.pxPerPt)));
  const y = Math.min(page.height - 1, Math.max(0, Math.round(yPt * page.pxPerPt)));
  const i = (y * page.width + x) * 4;
  return (page.rgba[i]! * 299 + page.rgba[i + 1]! * 587 + page.rgba[i + 2]! * 114) / 1000;
}

/** Reads the QR code anywhere on a rendered page with jsQR; null when there is none it can read. */
export function decodeQrOnPage(page: PageImage): string | null {
  return jsQR(page.rgba, page.width, page.height)?.data ?? null;
}
