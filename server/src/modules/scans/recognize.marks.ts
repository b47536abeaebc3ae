import type { Point } from './recognize.geometry.js';

/** A decoded page: one byte per pixel, 0 black … 255 white, row by row. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A registration mark found on a scan. */
export interface FoundMark extends Point {
  /** Dark pixels in the blob. */
  area: number;
  /** Median grey of its pixels: the page's own black. */
  ink: number;
}

/** Corners in cyclic order around the page (no mirror image keeps this order). */
export const CORNERS = ['topLeft', 'topRight', 'bottomRight', 'bottomLeft'] as const;
export type Corner = (typeof CORNERS)[number];

/** How far into the image, as a share of its width and height, a corner's mark is looked for. */
const REGION_W = 0.25;
const REGION_H = 0.2;

/** The grey level below which a share `p` of the histogram's pixels lie. */
function level(hist: Uint32Array, total: number, p: number): number {
  let seen = 0;
  for (let g = 0; g < 256; g++) {
    seen += hist[g]!;
    if (seen > p * total) return g;
  }
  return 255;
}

/**
 * The registration mark in one corner region: the largest solid, square-ish dark blob. Solid means
 * its bounding box is mostly filled (a square turned by up to ~12° still fills 70 %) and the middle
 * of the box is dark throughout — which the QR code's blobs, text and frames are not. A filled
 * bubble is solid too, but smaller than a mark and never as near the corner.
 */
function markIn(image: GreyImage, x0: number, y0: number, w: number, h: number): FoundMark | null {
  const { data, width } = image;
  const hist = new Uint32Array(256);
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) hist[data[y * width + x]!]!++;
  // Halfway between the darkest pixels (the mark's ink: a mark is more than 0.1 % of any region)
  // and the region's median (its paper). Not a two-class split such as Otsu's: in a photo the page
  // in shadow and the desk beside it are two light classes, and the mark is neither.
  const ink = level(hist, w * h, 0.001);
  const paper = level(hist, w * h, 0.5);
  if (paper - ink < 50) return null;
  const threshold = (ink + paper) / 2;
  const dark = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) dark[y * w + x] = data[(y0 + y) * width + x0 + x]! <= threshold ? 1 : 0;

  const minSide = Math.max(4, Math.min(image.width, image.height) * 0.006);
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  let best: FoundMark | null = null;
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (!dark[start] || label[start]) continue;
    next++;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    let area = 0;
    let sx = 0;
    let sy = 0;
    let minX = w;
    let maxX = 0;
    let minY = h;
    let maxY = 0;
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % w;
      const y = (i - x) / w;
      area++;
      sx += x;
      sy += y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < w - 1 ? i + 1 : -1,
        y > 0 ? i - w : -1,
        y < h - 1 ? i + w : -1,
      ])
        if (j >= 0 && dark[j] && !label[j]) {
          label[j] = next;
          stack[top++] = j;
        }
    }
    const bw = maxX - minX + 1;
    const bh = maxY - minY + 1;
    if (bw < minSide || bh < minSide) continue;
    if (bw / bh > 1.4 || bh / bw > 1.4) continue;
    if (area / (bw * bh) < 0.7) continue;
    if (best && area <= best.area) continue;
    // The middle half of the box must be dark throughout (allowing for noise).
    let inside = 0;
    let darkInside = 0;
    for (let y = minY + Math.floor(bh / 4); y <= maxY - Math.floor(bh / 4); y++)
      for (let x = minX + Math.floor(bw / 4); x <= maxX - Math.floor(bw / 4); x++) {
        inside++;
        if (label[y * w + x] === next) darkInside++;
      }
    if (darkInside < 0.95 * inside) continue;
    const greys: number[] = [];
    for (let y = minY; y <= maxY; y += 2)
      for (let x = minX; x <= maxX; x += 2)
        if (label[y * w + x] === next) greys.push(data[(y0 + y) * width + x0 + x]!);
    greys.sort((a, b) => a - b);
    best = { x: x0 + sx / area + 0.5, y: y0 + sy / area + 0.5, area, ink: greys[greys.length >> 1]! };
  }
  return best;
}

/** The mark found in each corner region of the image (pixel centres), or null where none is. */
export function findMarks(image: GreyImage): Record<Corner, FoundMark | null> {
  const w = Math.max(1, Math.round(image.width * REGION_W));
  const h = Math.max(1, Math.round(image.height * REGION_H));
  const right = image.width - w;
  const bottom = image.height - h;
  return {
    topLeft: markIn(image, 0, 0, w, h),
    topRight: markIn(image, right, 0, w, h),
    bottomRight: markIn(image, right, bottom, w, h),
    bottomLeft: markIn(image, 0, bottom, w, h),
  };
}
