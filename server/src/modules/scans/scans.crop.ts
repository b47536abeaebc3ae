import type { BlankLayoutPage } from '@attesta/contract';
import sharp from 'sharp';
import { applyHomography, type Homography } from './recognize.geometry.js';
import type { GreyImage } from './recognize.marks.js';

/*
 * The images a person reviews (issue 25, item 3): a page is kept as read (a grey PNG, the pixels the
 * reader's transform refers to), and a review item's crop is cut from it when asked for — the area
 * of a task's bubbles, a text box, or the whole page.
 */

/** A rectangle in layout points of a page (y down). */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A whole page shown for review is at most this many pixels on its long side. */
const PAGE_SIDE = 1400;
/** Points of margin around a task's bubbles, so their labels and the marks' edges show. */
const MARGIN = 8;

export const pagePng = (image: GreyImage): Promise<Buffer> =>
  sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .png({ compressionLevel: 6 })
    .toBuffer();

/**
 * The form's right margin (exam-test blanks.pdf.ts MARGINS.right, 15 mm, both print sizes): a
 * choice's text runs from beside its bubble to here.
 */
const TEXT_RIGHT = (15 * 72) / 25.4;
/** Below the last choice's bubble, room for a second line of its text. */
const TEXT_BELOW = 12;

/**
 * The area of a task's bubbles on its page, or null when the page has none of them. The layout
 * records bubbles and boxes only, not a task's rows; but a single or multiple choice prints each
 * option's text in its bubble's row, to the right up to the form's margin (blanks.pdf.ts
 * bubbleList), so their crop reaches across to it (and a line lower), and a person sees the texts.
 */
export function taskRegion(
  page: BlankLayoutPage,
  variantTaskId: number,
  answerType?: string | null,
): Region | null {
  const bubbles = page.bubbles.filter((b) => b.variantTaskId === variantTaskId);
  if (!bubbles.length) return null;
  const withTexts = answerType === 'single_choice' || answerType === 'multiple_choice';
  const x0 = Math.min(...bubbles.map((b) => b.x - b.r)) - MARGIN;
  const y0 = Math.min(...bubbles.map((b) => b.y - b.r)) - MARGIN;
  const right = Math.max(...bubbles.map((b) => b.x + b.r)) + MARGIN;
  const x1 = withTexts ? Math.max(right, page.widthPt - TEXT_RIGHT) : right;
  const y1 = Math.max(...bubbles.map((b) => b.y + b.r)) + MARGIN + (withTexts ? TEXT_BELOW : 0);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

export const boxRegion = (box: { x: number; y: number; w: number; h: number }): Region => ({
  x: box.x - MARGIN / 2,
  y: box.y - MARGIN / 2,
  w: box.w + MARGIN,
  h: box.h + MARGIN,
});

/**
 * A PNG of `region` of the page image (through the page's transform: the rectangle around the
 * region's corners as scanned), or of the whole page, scaled down, without a region.
 */
export async function cropPng(
  png: Buffer,
  transform: Homography | null,
  region: Region | null,
): Promise<Buffer> {
  const image = sharp(png);
  if (!region || !transform) {
    return image.resize(PAGE_SIDE, PAGE_SIDE, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  }
  const { width = 0, height = 0 } = await image.metadata();
  const corners = [
    { x: region.x, y: region.y },
    { x: region.x + region.w, y: region.y },
    { x: region.x, y: region.y + region.h },
    { x: region.x + region.w, y: region.y + region.h },
  ].map((p) => applyHomography(transform, p));
  const left = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.x))));
  const top = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.y))));
  const right = Math.min(width, Math.ceil(Math.max(...corners.map((p) => p.x))));
  const bottom = Math.min(height, Math.ceil(Math.max(...corners.map((p) => p.y))));
  if (right - left < 2 || bottom - top < 2) return image.png().toBuffer();
  return image
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
}

/**
 * Share of dark pixels (under mid-grey) inside `region` of the page image, sampled every half point
 * through the page's transform (so a rotated page's frame never falls inside): handwriting in an
 * answer area, or none.
 */
export async function inkShare(png: Buffer, transform: Homography, region: Region): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  let all = 0;
  for (let y = region.y; y < region.y + region.h; y += 0.5)
    for (let x = region.x; x < region.x + region.w; x += 0.5) {
      const p = applyHomography(transform, { x, y });
      const px = Math.floor(p.x);
      const py = Math.floor(p.y);
      if (px < 0 || py < 0 || px >= info.width || py >= info.height) continue;
      all++;
      if (data[py * info.width + px]! < 128) dark++;
    }
  return all ? dark / all : 0;
}

/** A region shrunk by `by` points on every side (the inside of a printed frame). */
export const inset = (r: Region, by: number): Region => ({
  x: r.x + by,
  y: r.y + by,
  w: Math.max(1, r.w - 2 * by),
  h: Math.max(1, r.h - 2 * by),
});
