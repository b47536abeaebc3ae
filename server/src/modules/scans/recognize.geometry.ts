/*
 * A plane-to-plane perspective transform (homography) from four point pairs: the layout's mark
 * centres (PDF points) to where the marks were found on a scan (pixels). Eight unknowns, eight
 * equations (h33 = 1): small enough to solve here, by Gaussian elimination with partial pivoting,
 * rather than bring in a library for one 8 × 8 system. Covers rotation, scale, shift, shear and the
 * slight perspective of a page photographed at an angle.
 */

export interface Point {
  x: number;
  y: number;
}

/** Row-major 3 × 3 with h[8] = 1. */
export type Homography = readonly [number, number, number, number, number, number, number, number, number];

/** Solves A·x = b in place (n × n); null when the system is singular (collinear points). */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++)
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let row = col + 1; row < n; row++) {
      const f = a[row]![col]! / a[col]![col]!;
      if (f === 0) continue;
      for (let k = col; k < n; k++) a[row]![k]! -= f * a[col]![k]!;
      b[row]! -= f * b[col]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    let sum = b[row]!;
    for (let k = row + 1; k < n; k++) sum -= a[row]![k]! * x[k]!;
    x[row] = sum / a[row]![row]!;
  }
  return x;
}

/** The homography that maps each `from[i]` onto `to[i]` (exactly four pairs); null if degenerate. */
export function homographyFrom(from: readonly Point[], to: readonly Point[]): Homography | null {
  if (from.length !== 4 || to.length !== 4) throw new Error('a homography needs four point pairs');
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(a, b);
  if (!h || !h.every(Number.isFinite)) return null;
  return [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1];
}

export function applyHomography(h: Homography, p: Point): Point {
  const w = h[6] * p.x + h[7] * p.y + h[8];
  return { x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w };
}

/** How many pixels one point is at `p` (the square root of the Jacobian's determinant there). */
export function scaleAt(h: Homography, p: Point): number {
  const w = h[6] * p.x + h[7] * p.y + h[8];
  const { x: u, y: v } = applyHomography(h, p);
  const dudx = (h[0] - u * h[6]) / w;
  const dudy = (h[1] - u * h[7]) / w;
  const dvdx = (h[3] - v * h[6]) / w;
  const dvdy = (h[4] - v * h[7]) / w;
  return Math.sqrt(Math.abs(dudx * dvdy - dudy * dvdx));
}
