import type { BlankLayoutPage } from '@attesta/contract';
import sharp from 'sharp';
import { applyHomography, scaleAt, type Homography } from './recognize.geometry.js';
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
 * A PNG of `region` of the page image, straightened: each pixel of the crop is a point of the region
 * (layout points, upright) looked up on the scan through the page's transform — the homography the
 * reader fitted to the four registration marks — and sampled bilinearly. A rotated, skewed or
 * photographed page thus gives an upright crop whose edges are the region's: a printed frame lies
 * along the crop's border, and a grid's rows run level. The crop keeps the scan's resolution there
 * (the transform's scale at the region's middle). Without a region or transform: the whole page,
 * scaled down.
 */
export async function cropPng(
  png: Buffer,
  transform: Homography | null,
  region: Region | null,
): Promise<Buffer> {
  if (!region || !transform) {
    return sharp(png)
      .resize(PAGE_SIDE, PAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  }
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const out = warp({ data, width: info.width, height: info.height }, transform, region);
  return sharp(out.data, { raw: { width: out.width, height: out.height, channels: 1 } })
    .png()
    .toBuffer();
}

/** Crops are at most this many pixels on a side (a whole-page region at 600 dpi stays within it). */
const CROP_SIDE = 4000;

/** The region of a grey image resampled upright through the page's transform (white off the scan). */
export function warp(
  image: { data: Uint8Array; width: number; height: number },
  transform: Homography,
  region: Region,
): { data: Buffer; width: number; height: number } {
  const middle = { x: region.x + region.w / 2, y: region.y + region.h / 2 };
  const perPoint = Math.min(
    scaleAt(transform, middle),
    CROP_SIDE / Math.max(region.w, 1),
    CROP_SIDE / Math.max(region.h, 1),
  );
  const width = Math.max(2, Math.round(region.w * perPoint));
  const height = Math.max(2, Math.round(region.h * perPoint));
  const out = Buffer.alloc(width * height, 255);
  const { data, width: w, height: h } = image;
  for (let j = 0; j < height; j++) {
    const y = region.y + ((j + 0.5) * region.h) / height;
    for (let i = 0; i < width; i++) {
      const p = applyHomography(transform, { x: region.x + ((i + 0.5) * region.w) / width, y });
      // Pixel centres are at +0.5: the sample's four neighbours and its weights.
      const sx = p.x - 0.5;
      const sy = p.y - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const at = y0 * w + x0;
      const top = data[at]! * (1 - fx) + data[at + 1]! * fx;
      const bottom = data[at + w]! * (1 - fx) + data[at + w + 1]! * fx;
      out[j * width + i] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { data: out, width, height };
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
