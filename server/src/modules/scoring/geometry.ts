/*
 * Hit-testing of image areas (hotspot tasks, QTI areaMapping and `inside`). Coordinates are image
 * pixels as in an html <area>: rect left,top,right,bottom; circle x,y,r; ellipse x,y,rx,ry; poly
 * x1,y1,x2,y2,… (a repeated first point at the end is allowed); default — the whole image.
 * Boundaries count as inside.
 */

export type AreaShape = 'rect' | 'circle' | 'ellipse' | 'poly' | 'default';

export interface Point {
  x: number;
  y: number;
}

/** "x y" (QTI point: whole numbers, one space) → the point, or null. */
export function parsePoint(raw: string): Point | null {
  const m = /^\s*(-?\d{1,6})\s+(-?\d{1,6})\s*$/.exec(raw);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

export function insideShape(shape: AreaShape, coords: readonly number[], { x, y }: Point): boolean {
  const c = (i: number) => coords[i] ?? 0;
  switch (shape) {
    case 'default':
      return true;
    case 'rect': {
      const [left, right] = c(0) <= c(2) ? [c(0), c(2)] : [c(2), c(0)];
      const [top, bottom] = c(1) <= c(3) ? [c(1), c(3)] : [c(3), c(1)];
      return x >= left && x <= right && y >= top && y <= bottom;
    }
    case 'circle':
      return (x - c(0)) ** 2 + (y - c(1)) ** 2 <= c(2) ** 2;
    case 'ellipse': {
      const rx = c(2);
      const ry = c(3);
      if (rx <= 0 || ry <= 0) return false;
      return ((x - c(0)) / rx) ** 2 + ((y - c(1)) / ry) ** 2 <= 1;
    }
    case 'poly':
      return insidePolygon(coords, x, y);
  }
}

/** Even-odd rule, with points on an edge counted as inside. */
function insidePolygon(coords: readonly number[], x: number, y: number): boolean {
  const n = Math.floor(coords.length / 2);
  if (n < 3) return false;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = coords[2 * i]!;
    const yi = coords[2 * i + 1]!;
    const xj = coords[2 * j]!;
    const yj = coords[2 * j + 1]!;
    // On the edge (collinear and within the segment's box).
    const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (
      cross === 0 &&
      x >= Math.min(xi, xj) &&
      x <= Math.max(xi, xj) &&
      y >= Math.min(yi, yj) &&
      y <= Math.max(yi, yj)
    )
      return true;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
