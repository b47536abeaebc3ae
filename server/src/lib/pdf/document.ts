import PDFDocument from 'pdfkit';
import { fontFace, type FontName } from './fonts.js';

export type PdfDoc = PDFKit.PDFDocument;

export interface Margins {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface PdfOptions {
  /** Document title (PDF metadata, shown by viewers instead of the file name). */
  title: string;
  subject?: string;
  author?: string;
  /** Page margins in points; the top and bottom ones also hold what decoratePages draws. */
  margins?: Partial<Margins>;
}

/** 1 mm in PDF points: layouts are easier to check against a ruler in millimetres. */
export const MM = 72 / 25.4;

export const DEFAULT_MARGINS: Margins = { top: 20 * MM, bottom: 18 * MM, left: 18 * MM, right: 15 * MM };

const FONT_NAMES: FontName[] = ['regular', 'bold', 'italic', 'mono'];

/**
 * An A4 document with the Attesta fonts registered and selected. Pages are buffered so that
 * decoratePages can number them "стр. N из M" once the total is known.
 */
export function createPdf(options: PdfOptions): PdfDoc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { ...DEFAULT_MARGINS, ...options.margins },
    bufferPages: true,
    // No default font: pdfkit would load Helvetica (no Cyrillic), and a default given as a file
    // would hold DejaVu Sans under its path, so that every later doc.font('regular') parsed the
    // file again (pdfkit keeps a font under the name it was first asked by). `null` loads none.
    font: null as unknown as string,
    lang: 'ru-RU',
    displayTitle: true,
    info: {
      Title: options.title,
      ...(options.subject ? { Subject: options.subject } : {}),
      Author: options.author ?? 'Attesta',
      Creator: 'Attesta',
      Producer: 'Attesta',
      // pdfkit derives the file ID from it and fails when a given `info` lacks it.
      CreationDate: new Date(),
    },
  });
  // The fonts parsed once per process (fonts.ts); pdfkit accepts a parsed fontkit font as a source.
  for (const name of FONT_NAMES) doc.registerFont(name, fontFace(name) as unknown as Buffer);
  doc.font('regular' satisfies FontName);
  return doc;
}

/** Ends the document and collects its bytes. */
export function pdfToBuffer(doc: PdfDoc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

export interface PageInfo {
  /** 1-based. */
  pageNumber: number;
  pageCount: number;
  /** The page's own margins (decoratePages lifts the bottom one while drawing). */
  margins: Margins;
}

/** Width between the left and right margins of the current page. */
export const contentWidth = (doc: PdfDoc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** Lowest y content may reach on the current page. */
export const contentBottom = (doc: PdfDoc) => doc.page.height - doc.page.margins.bottom;

/** Starts a new page unless `height` points still fit below the cursor. */
export function ensureSpace(doc: PdfDoc, height: number): void {
  if (doc.y + height > contentBottom(doc)) doc.addPage();
}

/**
 * Draws running headers/footers on every page once the content is complete (so the page count is
 * known). `draw` may write in the margins: the bottom margin is lifted meanwhile, because pdfkit
 * would otherwise start a new page for text placed below it.
 */
export function decoratePages(doc: PdfDoc, draw: (doc: PdfDoc, page: PageInfo) => void): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const margins = { ...doc.page.margins };
    doc.page.margins.bottom = 0;
    doc.save();
    draw(doc, { pageNumber: i - start + 1, pageCount: count, margins });
    doc.restore();
    doc.page.margins.bottom = margins.bottom;
  }
}

/** "стр. N из M", centred in the bottom margin. */
export function pageNumberFooter(doc: PdfDoc, page: PageInfo): void {
  const { left, bottom } = page.margins;
  const y = doc.page.height - bottom / 2 - 4;
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#444444')
    .text(`стр. ${page.pageNumber} из ${page.pageCount}`, left, y, {
      width: contentWidth(doc),
      align: 'center',
      lineBreak: false,
    });
}

/** A one-line running header in the top margin, left of `reserveRight` points kept free (e.g. for a QR). */
export function runningHeader(doc: PdfDoc, text: string, reserveRight = 0): void {
  const { left, top } = doc.page.margins;
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('#444444')
    .text(text, left, top / 2 - 4, {
      width: contentWidth(doc) - reserveRight,
      ellipsis: true,
      height: 10,
      lineBreak: false,
    });
}
