import type { AnswerType, BlankLayoutPage } from '@attesta/contract';
import jsQR from 'jsqr';
import { parseBlankCode, type BlankCode } from '../exam-test/index.js';
import {
  applyHomography,
  homographyFrom,
  scaleAt,
  type Homography,
  type Point,
} from './recognize.geometry.js';
import { CORNERS, findMarks, type Corner, type FoundMark, type GreyImage } from './recognize.marks.js';

export type { GreyImage } from './recognize.marks.js';

/*
 * Reading one scanned page of an answer form (issue 25, item 2; docs/paper-forms.md): no HTTP, no
 * database. The page is identified by its QR code (jsQR), straightened by its four corner marks (a
 * homography from the layout's mark centres to the found ones) and each bubble of the page's layout
 * is read by how dark its inside is against the page's own paper, ink and blank bubbles.
 */

/** What the reader needs to know of the form a code names; null when no such form exists. */
export interface PageForm {
  /** The layout of the page the code names (its `page`), as the form is laid out now. */
  page: BlankLayoutPage;
  /** The version of the form's whole layout now (`layoutVersionOf`). */
  layoutVersion: string;
  /** Answer type of each task on the form, for the one-mark rules (a missing task has none). */
  answerTypes: ReadonlyMap<number, AnswerType>;
}

export type PageStatus = 'recognized' | 'needs_review' | 'unidentified';

export type PageProblem =
  /** No QR code could be read, or it is not an Attesta page code. */
  | 'no_code'
  /** The code names no form the caller knows (another system's sheet, a deleted work). */
  | 'unknown_form'
  /** The sheet was printed with another layout than the work has now, or before layouts (B1). */
  | 'layout_changed'
  /** Fewer than four corner marks, or four that do not fit the page. */
  | 'marks_not_found'
  /** A mark the reader cannot tell (between empty and filled), or a one-mark rule broken. */
  | 'doubtful_marks';

export interface BubbleReading {
  variantTaskId: number;
  value: string;
  /** Darkness of the bubble's inside above the page's blank bubbles, 0 (as printed) … 1 (solid ink). */
  fill: number;
  /**
   * Share of the bubble's inside as dark as ink, above the page's blank bubbles (their printed
   * letter): 0 … 1. A pen stroke (a tick, a cross) has much of it; a rubbed-out fill none.
   */
  ink: number;
  marked: boolean;
  /** How sure the reading is, 0 … 1: 1 far from the threshold, 0 on it. */
  confidence: number;
}

export interface TaskReading {
  variantTaskId: number;
  /** The values of the marked bubbles, in layout order; empty when none is marked. */
  value: string[];
  /** The least confidence of its bubbles; 0 when a one-mark rule is broken (a double mark). */
  confidence: number;
  doubleMark: boolean;
}

export interface PageRecognition {
  status: PageStatus;
  code: BlankCode | null;
  problem: PageProblem | null;
  tasks: TaskReading[];
  bubbles: BubbleReading[];
  /** Layout points → image pixels, when the page was straightened. */
  transform: Homography | null;
}

/**
 * Decision on a bubble's fill (its darkness above the page's blank bubbles, as a share of full
 * ink): at MARK_THRESHOLD a bubble is as likely filled as not; a reading within CERTAIN_BAND of it
 * has a confidence under 1, and under REVIEW_BELOW it goes to a person. A pen cross over the bubble
 * reads about 0.35, a pencil fill 0.5 and more, an erased mark 0.1 at most.
 */
export const MARK_THRESHOLD = 0.22;
const CERTAIN_BAND = 0.12;
export const REVIEW_BELOW = 0.5;
/**
 * The second measure, for strokes: a pixel is "ink" when its darkness (between the paper around the
 * bubble and the page's ink) is at least INK_LEVEL — a rubbed-out fill (grey 200–235) never is, a
 * blurred pen line is. A bubble whose ink share (above the page's blank bubbles) reaches
 * INK_THRESHOLD is as likely marked as not, and INK_BAND either side of it is doubt.
 */
export const INK_LEVEL = 0.45;
export const INK_THRESHOLD = 0.15;
const INK_BAND = 0.05;
/** The inside read: a disc this share of the radius (the ring's inner edge is at ~0.9 r). */
const INNER = 0.62;

/** jsQR over a crop of the image (grey → RGBA); the code's text and its centre in image pixels. */
function qrIn(
  image: GreyImage,
  x0: number,
  y0: number,
  w: number,
  h: number,
): { text: string; centre: Point } | null {
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    let o = y * w * 4;
    let i = (y0 + y) * image.width + x0;
    for (let x = 0; x < w; x++, o += 4, i++) {
      const g = image.data[i]!;
      rgba[o] = g;
      rgba[o + 1] = g;
      rgba[o + 2] = g;
      rgba[o + 3] = 255;
    }
  }
  const found = jsQR(rgba, w, h, { inversionAttempts: 'dontInvert' });
  if (!found) return null;
  const { topLeftCorner: a, bottomRightCorner: b } = found.location;
  return { text: found.data, centre: { x: x0 + (a.x + b.x) / 2, y: y0 + (a.y + b.y) / 2 } };
}

/** The image at half its size, each pixel the mean of a 2 × 2 block. */
function halved(image: GreyImage): GreyImage {
  const width = image.width >> 1;
  const height = image.height >> 1;
  const data = new Uint8Array(width * height);
  const src = image.data;
  for (let y = 0; y < height; y++) {
    let i = 2 * y * image.width;
    let j = i + image.width;
    for (let x = 0, o = y * width; x < width; x++, o++, i += 2, j += 2)
      data[o] = (src[i]! + src[i + 1]! + src[j]! + src[j + 1]! + 2) >> 2;
  }
  return { width, height, data };
}

/** The code where it is printed (top right; bottom left upside down), then anywhere on the image. */
function codeIn(image: GreyImage) {
  const { width, height } = image;
  const w = Math.round(width / 2);
  const h = Math.round(height / 3);
  return (
    qrIn(image, width - w, 0, w, h) ?? qrIn(image, 0, height - h, w, h) ?? qrIn(image, 0, 0, width, height)
  );
}

/**
 * Finds and reads the page code: first where it is printed (the top right, or the bottom left of a
 * page scanned upside down), then anywhere on the page; then the same on the page at half its size
 * (a noisy photographed code jsQR misses at full size — the QR's modules split by noise into
 * specks — it reads once 2 × 2 blocks are averaged; its own error correction and the code's format
 * still decide what it says).
 */
export function readPageCode(
  image: GreyImage,
): { code: BlankCode | null; text: string; centre: Point } | null {
  let found = codeIn(image);
  if (!found && image.width >= 400 && image.height >= 400) {
    const half = codeIn(halved(image));
    if (half) found = { text: half.text, centre: { x: half.centre.x * 2, y: half.centre.y * 2 } };
  }
  return found ? { ...found, code: parseBlankCode(found.text) } : null;
}

/** The layout corner a mark belongs to, by which quarter of the page its centre lies in. */
const cornerOf = (page: BlankLayoutPage, p: Point): Corner =>
  p.y < page.heightPt / 2
    ? p.x < page.widthPt / 2
      ? 'topLeft'
      : 'topRight'
    : p.x < page.widthPt / 2
      ? 'bottomLeft'
      : 'bottomRight';

/**
 * The transform from layout points to image pixels. The four marks alone are symmetric, so the QR
 * code says which way up the page is: the image corner nearest to it is the page's top right, and
 * the others follow in cyclic order (a scan is never a mirror image).
 */
export function straighten(
  image: GreyImage,
  page: BlankLayoutPage,
  qrCentre: Point,
): { h: Homography; ink: number } | null {
  const found = findMarks(image);
  const imageCorners: Record<Corner, Point> = {
    topLeft: { x: 0, y: 0 },
    topRight: { x: image.width, y: 0 },
    bottomRight: { x: image.width, y: image.height },
    bottomLeft: { x: 0, y: image.height },
  };
  const nearestToQr = CORNERS.reduce((best, c) =>
    Math.hypot(imageCorners[c].x - qrCentre.x, imageCorners[c].y - qrCentre.y) <
    Math.hypot(imageCorners[best].x - qrCentre.x, imageCorners[best].y - qrCentre.y)
      ? c
      : best,
  );
  const shift = (CORNERS.indexOf(nearestToQr) - CORNERS.indexOf('topRight') + 4) % 4;
  const from: Point[] = [];
  const to: FoundMark[] = [];
  for (const mark of page.marks) {
    const layoutCorner = cornerOf(page, mark);
    const imageCorner = CORNERS[(CORNERS.indexOf(layoutCorner) + shift) % 4]!;
    const hit = found[imageCorner];
    if (!hit) return null;
    from.push(mark);
    to.push(hit);
  }
  if (from.length !== 4 || new Set(page.marks.map((m) => cornerOf(page, m))).size !== 4) return null;
  const h = homographyFrom(from, to);
  if (!h) return null;
  // Each found blob must be about as large as a mark is there, or it was something else.
  for (let i = 0; i < 4; i++) {
    const side = page.marks[i]!.size * scaleAt(h, from[i]!);
    const ratio = to[i]!.area / (side * side);
    if (!(ratio > 0.5 && ratio < 1.8)) return null;
  }
  const inks = to.map((m) => m.ink).sort((a, b) => a - b);
  return { h, ink: (inks[1]! + inks[2]!) / 2 };
}

/** Pixels of the image within `radius` of `centre` (pixel i spans [i, i + 1)). */
function greysInDisc(image: GreyImage, centre: Point, inner: number, outer: number): number[] {
  const out: number[] = [];
  const x0 = Math.max(0, Math.floor(centre.x - outer));
  const x1 = Math.min(image.width - 1, Math.ceil(centre.x + outer));
  const y0 = Math.max(0, Math.floor(centre.y - outer));
  const y1 = Math.min(image.height - 1, Math.ceil(centre.y + outer));
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const d = Math.hypot(x + 0.5 - centre.x, y + 0.5 - centre.y);
      if (d <= outer && d >= inner) out.push(image.data[y * image.width + x]!);
    }
  return out;
}

/** The value at share `p` of the sorted values (the lower one between two). */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(p * (sorted.length - 1))] ?? 0;
};

/**
 * Reads every bubble of a page by two measures of its inside (a disc clear of the printed ring),
 * each pixel's darkness measured between the paper around that bubble (a high percentile of a ring
 * just outside it, so a neighbour's label or an overflowing fill do not count) and the page's ink
 * (the marks' black): the fill, the mean darkness, and the ink share, the share of pixels at least
 * INK_LEVEL dark. Each is taken minus the page's blank bubble level (the 40th percentile of its
 * bubbles: most are empty), which takes out the printed letter inside and the blur of the ring.
 * The fill reads a filled bubble, however light; the ink share reads a thin stroke (a tick, a
 * cross), which darkens only a quarter of the inside but as dark as ink — and tells it from an
 * erasure, which is as dark on average but nowhere near ink.
 */
export function readBubbles(
  image: GreyImage,
  page: BlankLayoutPage,
  h: Homography,
  ink: number,
): BubbleReading[] {
  const raw = page.bubbles.map((bubble) => {
    const centre = applyHomography(h, bubble);
    const r = bubble.r * scaleAt(h, bubble);
    const paper = percentile(greysInDisc(image, centre, 1.2 * r, 1.45 * r), 0.8);
    const span = Math.max(16, paper - ink);
    const inside = greysInDisc(image, centre, 0, INNER * r);
    let sum = 0;
    let inky = 0;
    for (const g of inside) {
      const darkness = Math.min(1, Math.max(0, (paper - g) / span));
      sum += darkness;
      if (darkness >= INK_LEVEL) inky++;
    }
    return inside.length ? { fill: sum / inside.length, ink: inky / inside.length } : { fill: 0, ink: 0 };
  });
  const blankFill = percentile(
    raw.map((b) => b.fill),
    0.4,
  );
  const blankInk = percentile(
    raw.map((b) => b.ink),
    0.4,
  );
  return page.bubbles.map((bubble, i) => {
    const fill = Math.max(0, raw[i]!.fill - blankFill);
    const ink = Math.max(0, raw[i]!.ink - blankInk);
    // Each measure's vote: how far above (+) or below (−) its threshold, in its bands. A bubble is a
    // mark when either says so (a stroke is dark where it lies, a fill everywhere); it is certainly
    // empty only when both say so clearly.
    const vote = Math.max((fill - MARK_THRESHOLD) / CERTAIN_BAND, (ink - INK_THRESHOLD) / INK_BAND);
    return {
      variantTaskId: bubble.variantTaskId,
      value: bubble.value,
      fill: Math.round(fill * 1000) / 1000,
      ink: Math.round(ink * 1000) / 1000,
      marked: vote >= 0,
      confidence: Math.round(Math.min(1, Math.abs(vote)) * 100) / 100,
    };
  });
}

/** Groups of a task's bubble values of which at most one may be marked (a one-mark rule). */
export function oneMarkGroups(type: AnswerType | undefined, values: string[]): string[][] {
  const by = (key: (v: string) => string) => {
    const groups = new Map<string, string[]>();
    for (const v of values) groups.set(key(v), [...(groups.get(key(v)) ?? []), v]);
    return [...groups.values()];
  };
  const head = (v: string) => v.slice(0, Math.max(0, v.indexOf(':')));
  const tail = (v: string) => v.slice(v.lastIndexOf(':') + 1);
  switch (type) {
    case 'single_choice':
      return [values];
    case 'number':
    case 'digit_sequence': // a digit per column; one sign; one comma
    case 'matching': // one right item per left item
    case 'cloze': // one option per choice gap
      return by(head);
    case 'ordering': // one position per item, one item per position
      return [...by((v) => v.slice(0, v.lastIndexOf(':'))), ...by(tail)];
    default:
      return [];
  }
}

/** Per task: the marked values, the least confidence, and whether a one-mark rule is broken. */
export function readTasks(
  bubbles: BubbleReading[],
  answerTypes: ReadonlyMap<number, AnswerType>,
): TaskReading[] {
  const byTask = new Map<number, BubbleReading[]>();
  for (const b of bubbles) byTask.set(b.variantTaskId, [...(byTask.get(b.variantTaskId) ?? []), b]);
  return [...byTask].map(([variantTaskId, readings]) => {
    const value = readings.filter((b) => b.marked).map((b) => b.value);
    const chosen = new Set(value);
    const doubleMark = oneMarkGroups(
      answerTypes.get(variantTaskId),
      readings.map((b) => b.value),
    ).some((group) => group.filter((v) => chosen.has(v)).length > 1);
    const confidence = doubleMark ? 0 : Math.min(...readings.map((b) => b.confidence));
    return { variantTaskId, value, confidence, doubleMark };
  });
}

const unread = (status: PageStatus, code: BlankCode | null, problem: PageProblem): PageRecognition => ({
  status,
  code,
  problem,
  tasks: [],
  bubbles: [],
  transform: null,
});

/**
 * Reads one page. `formOf` finds the form a code names (null: not one of ours). A page whose code
 * cannot be read, or names no form, is unidentified; one printed with another layout, or whose marks
 * cannot be found, needs review with nothing read; otherwise its bubbles are read, and it needs
 * review when any task's confidence is under REVIEW_BELOW or breaks a one-mark rule.
 */
export async function recognizePage(
  image: GreyImage,
  formOf: (code: BlankCode) => Promise<PageForm | null> | PageForm | null,
  given?: BlankCode,
): Promise<PageRecognition> {
  // A code a person gave (the page's own could not be read): the page is taken as upright, its code
  // where it is printed, and as printed with the form's layout now.
  const qr = given ? { code: given, centre: { x: image.width, y: 0 } } : readPageCode(image);
  if (!qr?.code) return unread('unidentified', null, 'no_code');
  const { code } = qr;
  const form = await formOf(code);
  if (!form) return unread('unidentified', code, 'unknown_form');
  if (!given && code.layoutVersion !== form.layoutVersion)
    return unread('needs_review', code, 'layout_changed');
  const straight = straighten(image, form.page, qr.centre);
  if (!straight) return unread('needs_review', code, 'marks_not_found');
  const bubbles = readBubbles(image, form.page, straight.h, straight.ink);
  const tasks = readTasks(bubbles, form.answerTypes);
  const doubtful = tasks.some((t) => t.confidence < REVIEW_BELOW);
  return {
    status: doubtful ? 'needs_review' : 'recognized',
    code,
    problem: doubtful ? 'doubtful_marks' : null,
    tasks,
    bubbles,
    transform: straight.h,
  };
}
