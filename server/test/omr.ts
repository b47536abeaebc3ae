import type { AnswerType, BlankLayout, BlankLayoutPage } from '@attesta/contract';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { mulberry32 } from '../src/modules/authoring/generate.js';
import { oneMarkGroups } from '../src/modules/scans/recognize.js';
import type { PageImage } from './pdf.js';

/*
 * Filled answer sheets made from real forms, for the scan reader's tests: marks drawn into a page
 * rendered from the form's own PDF (test/pdf.ts rasterizePdf) at the layout's bubble positions, then
 * the page spoilt the way a scanner or a copier spoils it (rotation, scale, blur, noise, JPEG).
 */

export type MarkStyle =
  /** A filled disc of this grey (0 black … 255 white), as a pen or a pencil fills a bubble. */
  | { kind: 'disc'; grey: number; share?: number }
  /** Two strokes corner to corner through the bubble. */
  | { kind: 'cross'; grey: number; widthPt: number }
  /** A tick: a short stroke down to the bubble's lower middle, a long one up to its top right. */
  | { kind: 'tick'; grey: number; widthPt: number }
  /** What an eraser leaves of a fill: a faint disc. */
  | { kind: 'erased'; grey: number };

/** Darkens a pixel to `grey` at most (ink on paper only darkens). */
function ink(page: PageImage, x: number, y: number, grey: number, alpha = 1): void {
  if (x < 0 || y < 0 || x >= page.width || y >= page.height) return;
  const i = (y * page.width + x) * 4;
  for (let c = 0; c < 3; c++) {
    const mixed = page.rgba[i + c]! * (1 - alpha) + grey * alpha;
    page.rgba[i + c] = Math.min(page.rgba[i + c]!, mixed);
  }
}

/** A pen stroke through `points` (in pixels), `half` pixels either side of its middle line. */
function stroke(page: PageImage, points: { x: number; y: number }[], half: number, grey: number): void {
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1]!;
    const b = points[k]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length2 = dx * dx + dy * dy || 1;
    for (let y = Math.floor(Math.min(a.y, b.y) - half); y <= Math.max(a.y, b.y) + half; y++)
      for (let x = Math.floor(Math.min(a.x, b.x) - half); x <= Math.max(a.x, b.x) + half; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / length2));
        if (Math.hypot(px - a.x - t * dx, py - a.y - t * dy) <= half) ink(page, x, y, grey);
      }
  }
}

/** A stray pen line on the page, from `from` to `to` in points (a slip, a doodle, a crossed-out word). */
export function strayLine(
  page: PageImage,
  from: { x: number; y: number },
  to: { x: number; y: number },
  grey: number,
  widthPt: number,
): void {
  const s = page.pxPerPt;
  stroke(
    page,
    [from, to].map((p) => ({ x: p.x * s, y: p.y * s })),
    (widthPt * s) / 2,
    grey,
  );
}

/** Draws a mark into bubble `bubble` of a page rendered at `page.pxPerPt`. */
export function markBubble(
  page: PageImage,
  bubble: BlankLayoutPage['bubbles'][number],
  style: MarkStyle,
): void {
  const s = page.pxPerPt;
  const cx = bubble.x * s;
  const cy = bubble.y * s;
  const r = bubble.r * s;
  if (style.kind === 'cross') {
    const half = (style.widthPt * s) / 2;
    const reach = r * 0.8;
    for (let y = Math.floor(cy - reach - half); y <= cy + reach + half; y++)
      for (let x = Math.floor(cx - reach - half); x <= cx + reach + half; x++) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const d1 = Math.abs(dx - dy) / Math.SQRT2;
        const d2 = Math.abs(dx + dy) / Math.SQRT2;
        if (Math.max(Math.abs(dx), Math.abs(dy)) <= reach && Math.min(d1, d2) <= half)
          ink(page, x, y, style.grey);
      }
    return;
  }
  if (style.kind === 'tick') {
    const at = (u: number, v: number) => ({ x: cx + u * r, y: cy + v * r });
    stroke(page, [at(-0.65, -0.05), at(-0.15, 0.55), at(0.8, -0.75)], (style.widthPt * s) / 2, style.grey);
    return;
  }
  const radius = r * (style.kind === 'disc' ? (style.share ?? 0.95) : 0.95);
  for (let y = Math.floor(cy - radius); y <= cy + radius; y++)
    for (let x = Math.floor(cx - radius); x <= cx + radius; x++)
      if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius) ink(page, x, y, style.grey);
}

/**
 * A sheet photographed at an angle, in uneven light: the page tilted by `degrees` about its
 * horizontal middle line and seen by a pinhole camera `distance` page heights away (the top edge
 * comes out narrower than the bottom), the light falling off to `light` (share of brightness kept)
 * at the right edge. A model of the camera, not of the reader's homography.
 */
export function photographed(page: PageImage, degrees: number, distance = 3, light = 1): PageImage {
  const { width, height } = page;
  const out = new Uint8ClampedArray(width * height * 4).fill(255);
  const tilt = (degrees * Math.PI) / 180;
  const d = distance * height;
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      // The image point (u, v) from the centre, back onto the tilted page: v(d + Y sin) = d Y cos.
      const u = x + 0.5 - cx;
      const v = y + 0.5 - cy;
      const pageY = (v * d) / (d * Math.cos(tilt) - v * Math.sin(tilt));
      const pageX = (u * (d + pageY * Math.sin(tilt))) / d;
      const sx = pageX + cx - 0.5;
      const sy = pageY + cy - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= width - 1 || y0 >= height - 1) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const o = (y * width + x) * 4;
      const shade = 1 - (1 - light) * (x / width);
      for (let c = 0; c < 3; c++) {
        const at = (xx: number, yy: number) => page.rgba[(yy * width + xx) * 4 + c]!;
        const value =
          at(x0, y0) * (1 - fx) * (1 - fy) +
          at(x0 + 1, y0) * fx * (1 - fy) +
          at(x0, y0 + 1) * (1 - fx) * fy +
          at(x0 + 1, y0 + 1) * fx * fy;
        out[o + c] = value * shade;
      }
    }
  return { ...page, rgba: out };
}

export interface Spoil {
  /** Degrees, clockwise. */
  rotate?: number;
  /** Size of the result against the rendered page. */
  scale?: number;
  /** Gaussian blur, sigma in pixels. */
  blur?: number;
  /** Gaussian noise, standard deviation in grey levels. */
  noise?: number;
  /** JPEG quality; without it the page is a PNG. */
  jpegQuality?: number;
  seed?: number;
}

/** The page as a scanner would hand it over: rotated, scaled, blurred, noisy, compressed. */
export async function spoil(page: PageImage, options: Spoil): Promise<Buffer> {
  let image = sharp(Buffer.from(page.rgba.buffer, page.rgba.byteOffset, page.rgba.byteLength), {
    raw: { width: page.width, height: page.height, channels: 4 },
  })
    .flatten({ background: '#ffffff' })
    .greyscale();
  if (options.rotate) image = image.rotate(options.rotate, { background: '#ffffff' });
  let { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  let next = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  if (options.scale && options.scale !== 1)
    next = next.resize(Math.round(info.width * options.scale), Math.round(info.height * options.scale));
  if (options.blur) next = next.blur(options.blur);
  ({ data, info } = await next.raw().toBuffer({ resolveWithObject: true }));
  if (options.noise) {
    // Seeded (mulberry32), so a failing test fails the same way again.
    const random = mulberry32(options.seed ?? 1);
    for (let i = 0; i < data.length; i++) {
      const gauss = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + gauss * options.noise)));
    }
  }
  const out = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return options.jpegQuality ? out.jpeg({ quality: options.jpegQuality }).toBuffer() : out.png().toBuffer();
}

export const copyPage = (page: PageImage): PageImage => ({ ...page, rgba: new Uint8ClampedArray(page.rgba) });

/** Dark pen, dark pencil, lighter pencil, a felt-tip: fills of varied darkness. */
const FILLS: MarkStyle[] = [
  { kind: 'disc', grey: 25 },
  { kind: 'disc', grey: 70, share: 0.85 },
  { kind: 'disc', grey: 105, share: 0.9 },
  { kind: 'disc', grey: 45 },
];
const CROSS: MarkStyle = { kind: 'cross', grey: 30, widthPt: 1.6 };
const ERASED: MarkStyle = { kind: 'erased', grey: 225 };

export interface Plan {
  /** What each task must read as: the marked values, in layout order. */
  expected: Map<number, string[]>;
  /** Tasks with two marks where one is allowed. */
  doubles: Set<number>;
}

/**
 * Fills the form: per task, marks chosen by its answer type — a choice (by a cross in multiple
 * choice), a digit per column, one right item per left, one position per item — with an erased
 * mark beside some, and (when asked) a second mark in one digit column of the digit sequence.
 */
export function fillForm(
  blankPages: PageImage[],
  layout: BlankLayout,
  answerTypes: ReadonlyMap<number, AnswerType>,
  withDouble: boolean,
): { pages: PageImage[]; plan: Plan } {
  const pages = blankPages.map(copyPage);
  const expected = new Map<number, string[]>();
  const doubles = new Set<number>();
  let n = 0;
  const style = () => FILLS[n++ % FILLS.length]!;
  layout.pages.forEach((page, p) => {
    const byTask = new Map<number, BlankLayoutPage['bubbles']>();
    for (const b of page.bubbles) byTask.set(b.variantTaskId, [...(byTask.get(b.variantTaskId) ?? []), b]);
    for (const [taskId, bubbles] of byTask) {
      const type = answerTypes.get(taskId);
      const marked: string[] = [];
      const mark = (value: string, how: MarkStyle = style()) => {
        const bubble = bubbles.find((b) => b.value === value);
        if (!bubble) return;
        markBubble(pages[p]!, bubble, how);
        if (how.kind !== 'erased') marked.push(value);
      };
      const values = bubbles.map((b) => b.value);
      if (type === 'single_choice') {
        mark(values[1]!);
        mark(values[3]!, ERASED);
      } else if (type === 'multiple_choice') {
        mark(values[0]!);
        mark(values[2]!, CROSS);
        mark(values[4]!, ERASED);
      } else if (type === 'number' || type === 'digit_sequence') {
        // Column k gets digit (k * 3) % 10; the number also a comma after column 2.
        const columns = [
          ...new Set(values.filter((v) => /^\d+:\d$/.test(v)).map((v) => Number(v.split(':')[0]))),
        ];
        for (const c of columns.slice(0, 3)) mark(`${c}:${(c * 3) % 10}`);
        if (type === 'number') mark('comma:2');
        if (type === 'digit_sequence' && withDouble) {
          mark(`1:${(3 + 5) % 10}`);
          doubles.add(taskId);
        }
      } else if (type === 'matching' || type === 'ordering' || type === 'cloze') {
        // The first column of the first row, the second of the second…
        const rows = [...new Set(values.map((v) => v.slice(0, v.lastIndexOf(':'))))];
        rows.forEach((row, i) => {
          const inRow = values.filter((v) => v.slice(0, v.lastIndexOf(':')) === row);
          mark(inRow[i % inRow.length]!);
        });
      }
      const order = new Map(values.map((v, i) => [v, i]));
      expected.set(
        taskId,
        [...new Set(marked)].sort((a, b) => order.get(a)! - order.get(b)!),
      );
    }
  });
  return { pages, plan: { expected, doubles } };
}

/** A kind of mark the random filler draws, `weight` times as often as a mark of weight 1. */
export interface MarkKind {
  name: string;
  weight: number;
  style: (random: () => number) => MarkStyle;
}

export interface RandomFill {
  /** Share of one-mark groups (a single choice, a digit column, a matching row) answered at all. */
  answered: number;
  /** Share of a multiple choice's options marked. */
  chosen: number;
  /** Share of tasks with an erased mark on one of its unmarked bubbles (a changed mind). */
  erased: number;
  /** Stray pen lines per page, none of them on a bubble. */
  strays: number;
}

/** What a randomly filled page must read as, and what was drawn on it. */
export interface RandomPage {
  page: PageImage;
  /** Per task of the page: the marked values, in layout order. */
  expected: Map<number, string[]>;
  /** Per bubble (`variantTaskId|value`): the mark kind's name, or `erased`; absent when left blank. */
  drawn: Map<string, string>;
  strays: number;
}

export const bubbleKey = (b: { variantTaskId: number; value: string }) => `${b.variantTaskId}|${b.value}`;

/**
 * Fills one page of a form as a participant might, seeded: every task answered by its own rules
 * (at most one mark per one-mark group, so the page holds no double mark), each mark of a kind
 * drawn by weight; erased marks beside some answers, and stray lines that touch no bubble.
 */
export function fillPageRandomly(
  blank: PageImage,
  layoutPage: BlankLayoutPage,
  answerTypes: ReadonlyMap<number, AnswerType>,
  kinds: readonly MarkKind[],
  fill: RandomFill,
  random: () => number,
): RandomPage {
  const page = copyPage(blank);
  const expected = new Map<number, string[]>();
  const drawn = new Map<string, string>();
  const totalWeight = kinds.reduce((sum, k) => sum + k.weight, 0);
  const pickKind = () => {
    let left = random() * totalWeight;
    return kinds.find((k) => (left -= k.weight) < 0) ?? kinds.at(-1)!;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const byTask = new Map<number, BlankLayoutPage['bubbles']>();
  for (const b of layoutPage.bubbles)
    byTask.set(b.variantTaskId, [...(byTask.get(b.variantTaskId) ?? []), b]);
  for (const [taskId, bubbles] of byTask) {
    const type = answerTypes.get(taskId);
    const values = bubbles.map((b) => b.value);
    const marked = new Set<string>();
    if (type === 'ordering') {
      // One position per item and one item per position: a permutation of the positions.
      const items = [...new Set(values.map((v) => v.slice(0, v.lastIndexOf(':'))))];
      const positions = [...new Set(values.map((v) => v.slice(v.lastIndexOf(':') + 1)))];
      for (let i = positions.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [positions[i], positions[j]] = [positions[j]!, positions[i]!];
      }
      if (random() < fill.answered)
        items.forEach((item, i) => {
          if (positions[i] !== undefined) marked.add(`${item}:${positions[i]}`);
        });
    } else {
      const groups = oneMarkGroups(type, values);
      if (groups.length) {
        for (const group of groups) if (random() < fill.answered) marked.add(pick(group));
      } else for (const v of values) if (random() < fill.chosen) marked.add(v);
    }
    for (const b of bubbles)
      if (marked.has(b.value)) {
        const kind = pickKind();
        markBubble(page, b, kind.style(random));
        drawn.set(bubbleKey(b), kind.name);
      }
    const unmarked = bubbles.filter((b) => !marked.has(b.value));
    if (unmarked.length && random() < fill.erased) {
      const b = pick(unmarked);
      markBubble(page, b, { kind: 'erased', grey: 200 + Math.round(random() * 35) });
      drawn.set(bubbleKey(b), 'erased');
    }
    expected.set(
      taskId,
      values.filter((v) => marked.has(v)),
    );
  }
  // Stray lines anywhere but on a bubble, a corner mark or the code's corner (top right).
  const clear = (x: number, y: number) =>
    x > 45 &&
    y > 45 &&
    x < layoutPage.widthPt - 45 &&
    y < layoutPage.heightPt - 45 &&
    !(x > layoutPage.widthPt / 2 && y < 130) &&
    layoutPage.bubbles.every((b) => Math.hypot(b.x - x, b.y - y) > 1.5 * b.r + 1);
  let strays = 0;
  for (let tries = 0; strays < fill.strays && tries < 200; tries++) {
    const from = { x: random() * layoutPage.widthPt, y: random() * layoutPage.heightPt };
    const angle = random() * Math.PI;
    const length = 6 + random() * 40;
    const to = { x: from.x + Math.cos(angle) * length, y: from.y + Math.sin(angle) * length };
    const along = Array.from({ length: 12 }, (_, k) => ({
      x: from.x + ((to.x - from.x) * k) / 11,
      y: from.y + ((to.y - from.y) * k) / 11,
    }));
    if (!along.every((p) => clear(p.x, p.y))) continue;
    strayLine(page, from, to, 20 + random() * 100, 0.6 + random() * 1.2);
    strays++;
  }
  return { page, expected, drawn, strays };
}

/** The pages as a scanner's PDF: each spoilt into a JPEG (seeded by its index) on an A4 page. */
export async function scannedPdf(pages: PageImage[], how: Spoil): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const [i, page] of pages.entries()) {
    const image = await pdf.embedJpg(
      await spoil(page, { jpegQuality: 75, ...how, seed: (how.seed ?? 0) + i + 1 }),
    );
    pdf.addPage([595.28, 841.89]).drawImage(image, { x: 0, y: 0, width: 595.28, height: 841.89 });
  }
  return Buffer.from(await pdf.save());
}
