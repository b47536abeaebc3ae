import { createHash } from 'node:crypto';
import type { BlankLayout, BlankLayoutPage } from '@attesta/contract';
import { MM, type PdfDoc } from '../../lib/pdf/index.js';

/*
 * The machine-readable parts of an answer form: corner registration marks, bubbles and framed
 * boxes. Each is drawn by one function here that also records where it put it, so the PDF and
 * its layout (GET …/blanks?format=layout) come from the same numbers and cannot drift apart.
 * Coordinates are pdfkit's: points from the page's top left, y down — the layout's own frame
 * (PDF's bottom-left origin is pdfkit's business). They are rounded to 1/100 pt before drawing,
 * so what is drawn is exactly what is recorded.
 */

/** Side of a registration mark (a solid black square). */
export const MARK_SIZE = 5 * MM;
/** From each page edge to the near edge of its corner's mark. */
export const MARK_OFFSET = 7 * MM;
/** Stroke of a bubble's ring and a box's frame: survives a photocopy, a 1 pt line may not. */
export const RING_WIDTH = 1.3;
export const FRAME_WIDTH = 1.2;
const BLACK = '#000000';
const LABEL_GREY = '#444444';

const round = (v: number) => Math.round(v * 100) / 100;

export interface BubbleSpec {
  variantTaskId: number;
  value: string;
  x: number;
  y: number;
  r: number;
  /** The letter, digit or sign printed inside. */
  label: string;
}

export interface BoxSpec {
  variantTaskId: number;
  kind: 'text' | 'essay';
  part?: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Collects the layout of a form while its PDF is drawn. */
export class Sheet {
  readonly pages: BlankLayoutPage[] = [];

  constructor(private readonly doc: PdfDoc) {}

  /** The layout record of page `index` (0-based), created on first use. */
  page(index: number): BlankLayoutPage {
    while (this.pages.length <= index)
      this.pages.push({
        page: this.pages.length + 1,
        widthPt: round(this.doc.page.width),
        heightPt: round(this.doc.page.height),
        marks: [],
        bubbles: [],
        boxes: [],
      });
    return this.pages[index]!;
  }

  /** The page the flowing content is on: the last one (decoration comes after all content). */
  private current(): BlankLayoutPage {
    const { start, count } = this.doc.bufferedPageRange();
    return this.page(start + count - 1);
  }

  /** An outlined circle with its label inside. */
  bubble(spec: BubbleSpec): void {
    const x = round(spec.x);
    const y = round(spec.y);
    const r = round(spec.r);
    this.current().bubbles.push({ variantTaskId: spec.variantTaskId, value: spec.value, x, y, r });
    const { doc } = this;
    doc.save().circle(x, y, r).lineWidth(RING_WIDTH).strokeColor(BLACK).stroke().restore();
    const size = r * 1.1;
    // Cap height of DejaVu is ~0.73 em, its ascent ~0.93 em: this centres the glyph on (x, y).
    doc
      .font('regular')
      .fontSize(size)
      .fillColor(LABEL_GREY)
      .text(spec.label, x - r, y - 0.563 * size, { width: 2 * r, align: 'center', lineBreak: false });
  }

  /** A printed frame around an area written in by hand. */
  box(spec: BoxSpec): void {
    const box = {
      variantTaskId: spec.variantTaskId,
      kind: spec.kind,
      ...(spec.part === undefined ? {} : { part: spec.part }),
      x: round(spec.x),
      y: round(spec.y),
      w: round(spec.w),
      h: round(spec.h),
    };
    this.current().boxes.push(box);
    this.doc
      .save()
      .rect(box.x, box.y, box.w, box.h)
      .lineWidth(FRAME_WIDTH)
      .strokeColor(BLACK)
      .stroke()
      .restore();
  }

  /** The four corner marks of page `index`, at fixed offsets from the page's corners. */
  marks(index: number): void {
    const page = this.page(index);
    const { doc } = this;
    const near = MARK_OFFSET + MARK_SIZE / 2;
    for (const [cx, cy] of [
      [near, near],
      [page.widthPt - near, near],
      [near, page.heightPt - near],
      [page.widthPt - near, page.heightPt - near],
    ] as const) {
      const mark = { x: round(cx), y: round(cy), size: round(MARK_SIZE) };
      page.marks.push(mark);
      doc
        .save()
        .rect(mark.x - mark.size / 2, mark.y - mark.size / 2, mark.size, mark.size)
        .fill(BLACK)
        .restore();
    }
  }
}

/**
 * The layout version printed in each page's code: the first 8 hex digits of the SHA-256 of the
 * layout's JSON. Any moved bubble, box or mark, another page count or page size gives another one.
 */
export function layoutVersionOf(layout: BlankLayout): string {
  return createHash('sha256').update(JSON.stringify(layout)).digest('hex').slice(0, 8).toUpperCase();
}
