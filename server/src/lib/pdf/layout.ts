import { contentWidth, ensureSpace, type PdfDoc } from './document.js';
import type { FontName } from './fonts.js';

/** Text colour of body text; a dark grey prints crisp without looking heavy. */
export const INK = '#111111';
export const MUTED = '#555555';

export interface TextOptions {
  font?: FontName;
  size?: number;
  color?: string;
  align?: 'left' | 'center' | 'right' | 'justify';
  /** Space after the block, points. */
  gap?: number;
}

/** A wrapped paragraph at the cursor, across the content width; breaks pages by itself. */
export function paragraph(doc: PdfDoc, text: string, options: TextOptions = {}): void {
  doc
    .font(options.font ?? 'regular')
    .fontSize(options.size ?? 10)
    .fillColor(options.color ?? INK)
    .text(text, doc.page.margins.left, doc.y, {
      width: contentWidth(doc),
      align: options.align ?? 'left',
      lineGap: 1.5,
    });
  doc.y += options.gap ?? 4;
}

/** A bold heading kept on one page with at least `keepWith` points of what follows. */
export function heading(doc: PdfDoc, text: string, options: TextOptions & { keepWith?: number } = {}): void {
  const size = options.size ?? 13;
  doc.font('bold').fontSize(size);
  ensureSpace(doc, doc.heightOfString(text, { width: contentWidth(doc) }) + (options.keepWith ?? 40));
  paragraph(doc, text, { font: 'bold', size, gap: 6, ...options });
}

export interface Column {
  header: string;
  /** Share of the table width (the shares are normalised), default 1. */
  weight?: number;
  align?: 'left' | 'center' | 'right';
  font?: FontName;
}

export interface TableOptions {
  size?: number;
  padding?: number;
  /** Draw the header row (repeated after page breaks); default true. */
  header?: boolean;
  /** Cell borders; default true. */
  borders?: boolean;
}

function columnWidths(doc: PdfDoc, columns: Column[]): number[] {
  const total = columns.reduce((sum, c) => sum + (c.weight ?? 1), 0);
  return columns.map((c) => (contentWidth(doc) * (c.weight ?? 1)) / total);
}

function rowHeight(doc: PdfDoc, cells: string[], widths: number[], columns: Column[], pad: number): number {
  const heights = cells.map((cell, i) => {
    doc.font(columns[i]?.font ?? 'regular');
    return doc.heightOfString(cell || ' ', { width: widths[i]! - 2 * pad });
  });
  return Math.max(...heights) + 2 * pad;
}

function drawRow(
  doc: PdfDoc,
  cells: string[],
  widths: number[],
  columns: Column[],
  opts: { pad: number; height: number; bold: boolean; borders: boolean },
): void {
  let x = doc.page.margins.left;
  const y = doc.y;
  cells.forEach((cell, i) => {
    const width = widths[i]!;
    if (opts.borders) doc.lineWidth(0.5).strokeColor('#777777').rect(x, y, width, opts.height).stroke();
    doc
      .font(opts.bold ? 'bold' : (columns[i]?.font ?? 'regular'))
      .fillColor(INK)
      .text(cell, x + opts.pad, y + opts.pad, {
        width: width - 2 * opts.pad,
        align: columns[i]?.align ?? 'left',
      });
    x += width;
  });
  doc.x = doc.page.margins.left;
  doc.y = y + opts.height;
}

/**
 * A simple table across the content width: cells wrap, rows never split, the header row repeats
 * after a page break. Enough for reports and lists; not a spreadsheet.
 */
export function table(doc: PdfDoc, columns: Column[], rows: string[][], options: TableOptions = {}): void {
  const size = options.size ?? 9.5;
  const pad = options.padding ?? 4;
  const borders = options.borders ?? true;
  const widths = columnWidths(doc, columns);
  const headers = columns.map((c) => c.header);
  doc.fontSize(size);
  const headerHeight = rowHeight(
    doc,
    headers,
    widths,
    columns.map((c) => ({ ...c, font: 'bold' })),
    pad,
  );
  const drawHeader = () => {
    if (options.header === false) return;
    drawRow(doc, headers, widths, columns, { pad, height: headerHeight, bold: true, borders });
  };

  doc.fontSize(size);
  const firstHeight = rows[0] ? rowHeight(doc, rows[0], widths, columns, pad) : 0;
  ensureSpace(doc, (options.header === false ? 0 : headerHeight) + firstHeight);
  drawHeader();
  for (const row of rows) {
    doc.fontSize(size);
    const height = rowHeight(doc, row, widths, columns, pad);
    const pageBefore = doc.bufferedPageRange().count;
    ensureSpace(doc, height);
    if (doc.bufferedPageRange().count !== pageBefore) {
      drawHeader();
      doc.fontSize(size);
    }
    drawRow(doc, row, widths, columns, { pad, height, bold: false, borders });
  }
  doc.y += 6;
}

/** Label–value pairs as a borderless two-column table (document headers, slips). */
export function keyValues(
  doc: PdfDoc,
  pairs: [string, string][],
  options: { size?: number; labelWeight?: number } = {},
) {
  table(
    doc,
    [
      { header: '', weight: options.labelWeight ?? 1, font: 'bold' },
      { header: '', weight: 3 - (options.labelWeight ?? 1) },
    ],
    pairs,
    { header: false, borders: false, size: options.size ?? 10, padding: 2 },
  );
}
