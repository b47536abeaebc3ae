import type { AnswerType, BlankLayout } from '@attesta/contract';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyPage,
  fillForm,
  markBubble,
  photographed,
  scannedPdf,
  spoil,
  type Plan,
  type Spoil,
} from '../../../test/omr.js';
import { rasterizePdf, type PageImage } from '../../../test/pdf.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  tasksOfEveryType,
  type TestApp,
} from '../../../test/helpers.js';
import { QR_QUIET_MODULES, qrMatrix } from '../../lib/pdf/index.js';
import { formatBlankCode, type BlankCode } from '../exam-test/blanks.code.js';
import { layoutVersionOf } from '../exam-test/blanks.sheet.js';
import { openScan, SCAN_LIMITS } from './decode.js';
import { applyHomography, homographyFrom } from './recognize.geometry.js';
import type { GreyImage } from './recognize.marks.js';
import { boxRegion, cropPng, pagePng } from './scans.crop.js';
import { INK_THRESHOLD, recognizePage, type PageForm, type PageRecognition } from './recognize.js';

let t: TestApp;
let workId: number;
let registrationCode: string;
let layout: BlankLayout;
let version: string;
let answerTypes: Map<number, AnswerType>;
/** The blank form rendered at 200 dpi: the paper a participant fills. */
let blankPages: PageImage[];

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrg(t.app);
  const pt = await createParticipantTest(t.app, org);
  const tasks = tasksOfEveryType();
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, tasks);
  workId = await createExamWork(t.app, pt.participantTestId, variant.variantId);
  answerTypes = new Map(variant.variantTaskIds.map((id, i) => [id, tasks[i]!.answerType as AnswerType]));
  const [row] = await t.database.query<{ registration_code: string }>(
    'select registration_code from participant_tests where id = $1',
    [pt.participantTestId],
  );
  registrationCode = row!.registration_code;
  const { session: admin } = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
  const url = `/api/exam/test/examwork/${workId}/blanks`;
  const pdf = await t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });
  expect(pdf.statusCode).toBe(200);
  const layoutRes = await t.app.inject({
    method: 'GET',
    url: `${url}?format=layout`,
    headers: { cookie: admin.cookie },
  });
  layout = layoutRes.json<BlankLayout>();
  version = layoutVersionOf(layout);
  blankPages = await rasterizePdf(pdf.rawPayload, 200);
  expect(blankPages).toHaveLength(layout.pages.length);
}, 60_000);
afterAll(async () => t?.close());

/** The reader's view of this work's form, as the scans service gives it. */
const formOf = (code: BlankCode): PageForm | null =>
  code.examWorkId === workId && code.registrationCode === registrationCode && layout.pages[code.page - 1]
    ? { page: layout.pages[code.page - 1]!, layoutVersion: version, answerTypes }
    : null;

const fill = (withDouble: boolean) => fillForm(blankPages, layout, answerTypes, withDouble);

async function read(bytes: Buffer): Promise<PageRecognition[]> {
  const scan = await openScan(bytes);
  const out: PageRecognition[] = [];
  for await (const { image } of scan.pages()) out.push(await recognizePage(image, formOf));
  return out;
}

/** Every page read back: identified as its own page, each task exactly as filled. */
function expectRead(results: PageRecognition[], plan: Plan) {
  results.forEach((result, p) => {
    expect(result.code, `page ${p + 1}`).toEqual({
      registrationCode,
      examWorkId: workId,
      page: p + 1,
      layoutVersion: version,
    });
    expect(result.problem === 'marks_not_found', `page ${p + 1} straightened`).toBe(false);
    for (const task of result.tasks) {
      expect(task.value, `task ${task.variantTaskId} (${answerTypes.get(task.variantTaskId)})`).toEqual(
        plan.expected.get(task.variantTaskId),
      );
      expect(task.doubleMark).toBe(plan.doubles.has(task.variantTaskId));
      if (task.doubleMark) expect(task.confidence).toBe(0);
      else expect(task.confidence, `task ${task.variantTaskId} confidence`).toBeGreaterThanOrEqual(0.5);
    }
    const hasDouble = result.tasks.some((task) => plan.doubles.has(task.variantTaskId));
    expect(result.status).toBe(hasDouble ? 'needs_review' : 'recognized');
  });
  // Every task with bubbles was read on some page, and something was marked.
  const read = new Set(results.flatMap((r) => r.tasks.map((task) => task.variantTaskId)));
  expect([...read].sort()).toEqual([...plan.expected.keys()].sort());
  expect([...plan.expected.values()].flat().length).toBeGreaterThan(15);
}

async function scanned(pages: PageImage[], how: Spoil): Promise<PageRecognition[]> {
  const out: PageRecognition[] = [];
  for (const [i, page] of pages.entries())
    out.push(...(await read(await spoil(page, { ...how, seed: i + 1 }))));
  return out;
}

describe('recognizePage on filled real forms', () => {
  it('reads a clean scan: rotated 4°, shrunk, blurred, noisy, JPEG 70', async () => {
    const { pages, plan } = fill(false);
    expectRead(await scanned(pages, { rotate: 4, scale: 0.8, blur: 0.8, noise: 8, jpegQuality: 70 }), plan);
  }, 60_000);

  it('flags a double mark in a digit column, read the other way round: −3.5°, enlarged, JPEG 60', async () => {
    const { pages, plan } = fill(true);
    expect(plan.doubles.size).toBe(1);
    expectRead(
      await scanned(pages, { rotate: -3.5, scale: 1.15, blur: 1, noise: 10, jpegQuality: 60 }),
      plan,
    );
  }, 60_000);

  it('reads a page fed upside down (182°)', async () => {
    const { pages, plan } = fill(false);
    expectRead(await scanned(pages, { rotate: 182, blur: 0.6, noise: 6 }), plan);
  }, 60_000);

  it('reads a sheet photographed at an angle in uneven light, at 150 dpi', async () => {
    const { pages, plan } = fill(false);
    // Tilted 12° three page heights from the lens: the top edge 7 % narrower than the bottom; a shadow to 80 %.
    const photos = pages.map((page) => photographed(page, 12, 3, 0.8));
    expectRead(await scanned(photos, { rotate: 2, scale: 0.75, blur: 0.8, noise: 8, jpegQuality: 70 }), plan);
  }, 90_000);

  it('sends a double mark in a single choice and a faint, unclear mark to review', async () => {
    const single = [...answerTypes].find(([, type]) => type === 'single_choice')![0];
    const multiple = [...answerTypes].find(([, type]) => type === 'multiple_choice')![0];
    const p = layout.pages.findIndex((page) => page.bubbles.some((b) => b.variantTaskId === single));
    const page = copyPage(blankPages[p]!);
    const bubbles = (id: number) => layout.pages[p]!.bubbles.filter((b) => b.variantTaskId === id);
    markBubble(page, bubbles(single)[0]!, { kind: 'disc', grey: 40 });
    markBubble(page, bubbles(single)[2]!, { kind: 'disc', grey: 60 });
    // Light grey over the whole bubble: as dark as the line between a mark and none.
    markBubble(page, bubbles(multiple)[1]!, { kind: 'disc', grey: 196 });
    const [result] = await read(await spoil(page, { rotate: 3, blur: 0.8, noise: 6, jpegQuality: 75 }));
    expect(result!.status).toBe('needs_review');
    expect(result!.problem).toBe('doubtful_marks');
    const task = (id: number) => result!.tasks.find((t) => t.variantTaskId === id)!;
    expect(task(single)).toMatchObject({
      value: [bubbles(single)[0]!.value, bubbles(single)[2]!.value],
      doubleMark: true,
      confidence: 0,
    });
    expect(task(multiple).doubleMark).toBe(false);
    expect(task(multiple).confidence).toBeLessThan(0.5);
    // The other tasks of the page are clear and empty.
    for (const other of result!.tasks.filter(
      (t) => t.variantTaskId !== single && t.variantTaskId !== multiple,
    ))
      expect(other).toMatchObject({ value: [], confidence: 1 });
  }, 30_000);

  it('reads thin strokes by their ink: a faint tick and a faint cross are never taken for empty, a heavy erasure and the printed letters are', async () => {
    const byType = (type: AnswerType) => [...answerTypes].find(([, t]) => t === type)![0];
    const single = byType('single_choice');
    const multiple = byType('multiple_choice');
    const p = layout.pages.findIndex(
      (page) =>
        page.bubbles.some((b) => b.variantTaskId === single) &&
        page.bubbles.some((b) => b.variantTaskId === multiple),
    );
    expect(p).toBeGreaterThanOrEqual(0);
    const bubbles = (id: number) => layout.pages[p]!.bubbles.filter((b) => b.variantTaskId === id);
    const tick = bubbles(single)[1]!;
    const cross = bubbles(multiple)[0]!;
    const erased = bubbles(multiple)[2]!;
    const fresh = () => copyPage(blankPages[p]!);
    const readPage = async (page: PageImage, how: Spoil) => (await read(await spoil(page, how)))[0]!;
    const bubbleOf = (result: PageRecognition, b: { variantTaskId: number; value: string }) =>
      result.bubbles.find((r) => r.variantTaskId === b.variantTaskId && r.value === b.value)!;
    // A scan that thins strokes: shrunk, blurred, noisy, JPEG 55.
    const poor: Spoil = { rotate: -2, scale: 0.75, blur: 1.2, noise: 10, jpegQuality: 55, seed: 3 };

    // The faintest strokes the bench draws (grey 70, 1.2 pt) over a quarter of the inside: the
    // inside's mean darkness alone reads them as certainly empty.
    const faint = fresh();
    markBubble(faint, tick, { kind: 'tick', grey: 70, widthPt: 1.2 });
    markBubble(faint, cross, { kind: 'cross', grey: 70, widthPt: 1.2 });
    markBubble(faint, erased, { kind: 'erased', grey: 200 });
    const result = await readPage(faint, poor);
    for (const stroke of [tick, cross]) {
      const reading = bubbleOf(result, stroke);
      expect(reading.ink, `${stroke.value} ink share`).toBeGreaterThan(0.1);
      // Marked, or at least sent to a person: never read as certainly empty.
      expect(reading.marked || reading.confidence < 0.5, `${stroke.value} ${JSON.stringify(reading)}`).toBe(
        true,
      );
    }
    // A fill rubbed out to grey 200 (the heaviest erasure the bench draws) has next to no ink (its
    // printed letter blurs a little wider on the grey): no mark.
    expect(bubbleOf(result, erased).marked).toBe(false);
    expect(bubbleOf(result, erased).ink).toBeLessThan(INK_THRESHOLD - 0.05);
    // Every bubble left blank, its printed letter or digit inside, reads certainly empty.
    for (const b of layout.pages[p]!.bubbles.filter((b) => b !== tick && b !== cross && b !== erased))
      expect(bubbleOf(result, b), `${b.variantTaskId} ${b.value}`).toMatchObject({
        marked: false,
        confidence: 1,
      });

    // Clear pen strokes (grey 30, 1.6 pt) read as marks without review, the task's value as drawn.
    const clear = fresh();
    markBubble(clear, tick, { kind: 'tick', grey: 30, widthPt: 1.6 });
    markBubble(clear, cross, { kind: 'cross', grey: 30, widthPt: 1.6 });
    markBubble(clear, erased, { kind: 'erased', grey: 215 });
    const clean = await readPage(clear, poor);
    expect(clean.status).toBe('recognized');
    const task = (id: number) => clean.tasks.find((t) => t.variantTaskId === id)!;
    expect(task(single)).toMatchObject({ value: [tick.value], doubleMark: false });
    expect(task(multiple)).toMatchObject({ value: [cross.value], doubleMark: false });
    expect(task(single).confidence).toBeGreaterThanOrEqual(0.5);
    expect(task(multiple).confidence).toBeGreaterThanOrEqual(0.5);
  }, 30_000);

  it('reads the pages of a scanned PDF (JPEG pages inside, as scanners write them)', async () => {
    const { pages, plan } = fill(false);
    expectRead(await read(await scannedPdf(pages, { rotate: -2, blur: 0.7, noise: 6, seed: 10 })), plan);
  }, 60_000);

  it('reads a colour scan on cream paper, and a page scanned at 600 dpi', async () => {
    const { pages, plan } = fill(false);
    // Colour: the page tinted cream (blue least), as a colour JPEG.
    const colour: Buffer[] = [];
    for (const page of pages) {
      const rgb = Buffer.alloc(page.width * page.height * 3);
      for (let i = 0, o = 0; i < page.rgba.length; i += 4, o += 3) {
        const v = page.rgba[i]!;
        rgb[o] = v;
        rgb[o + 1] = Math.round(v * 0.96);
        rgb[o + 2] = Math.round(v * 0.86);
      }
      colour.push(
        await sharp(rgb, { raw: { width: page.width, height: page.height, channels: 3 } })
          .rotate(-1.5, { background: '#fff6e0' })
          .jpeg({ quality: 85 })
          .toBuffer(),
      );
    }
    const colourRead: PageRecognition[] = [];
    for (const bytes of colour) colourRead.push(...(await read(bytes)));
    expectRead(colourRead, plan);
    // 600 dpi: the 200 dpi page enlarged three times (about 35 million pixels, under the 40 million limit).
    const big = await spoil(pages[0]!, { scale: 3, rotate: 1, jpegQuality: 85 });
    expect((await sharp(big).metadata()).width!).toBeGreaterThan(4900);
    const [page1] = await read(big);
    expect(page1).toMatchObject({ status: 'recognized', code: { page: 1, layoutVersion: version } });
    expect(page1!.tasks.length).toBeGreaterThan(0);
    for (const task of page1!.tasks) {
      expect(task.value, `task ${task.variantTaskId} at 600 dpi`).toEqual(
        plan.expected.get(task.variantTaskId),
      );
      expect(task.confidence).toBeGreaterThanOrEqual(0.5);
    }
  }, 120_000);

  it('reads nothing from an empty form and sends nothing to review', async () => {
    const results = await scanned(blankPages, { rotate: 3, blur: 0.8, noise: 8, jpegQuality: 70 });
    for (const result of results) {
      expect(result.status).toBe('recognized');
      for (const task of result.tasks) expect(task.value).toEqual([]);
    }
  }, 60_000);

  it('would read wrong values through a wrong transform (the homography matters)', async () => {
    const { pages, plan } = fill(false);
    const image = (await openScan(await spoil(pages[0]!, { rotate: 4, jpegQuality: 80 })).then(async (s) => {
      for await (const p of s.pages()) return p.image;
      throw new Error('no page');
    }))!;
    const right = await recognizePage(image, formOf);
    expect(
      right.tasks.every((task) => plan.expected.get(task.variantTaskId)!.join() === task.value.join()),
    ).toBe(true);
    // The same page read as if it were not rotated: its marks taken for where the layout has them.
    const shifted: PageForm = {
      ...formOf(right.code!)!,
      page: { ...layout.pages[0]!, bubbles: layout.pages[0]!.bubbles.map((b) => ({ ...b, y: b.y + 8.5 })) },
    };
    const wrong = await recognizePage(image, () => shifted);
    expect(
      wrong.tasks.some((task) => plan.expected.get(task.variantTaskId)!.join() !== task.value.join()),
    ).toBe(true);
  }, 60_000);
});

describe('crops cut straightened by the registration marks', () => {
  /** The grey of the crop at (x, y). */
  const greyAt = (c: { data: Buffer; info: { width: number } }, x: number, y: number) =>
    c.data[Math.round(y) * c.info.width + Math.round(x)]!;
  /** Darkest grey within ±2 px across a line through (x, y): a thin frame line lands there. */
  function darkestNear(
    c: { data: Buffer; info: { width: number; height: number } },
    x: number,
    y: number,
    across: 'x' | 'y',
  ) {
    let min = 255;
    for (let d = -2; d <= 2; d++) {
      const px = across === 'x' ? x + d : x;
      const py = across === 'y' ? y + d : y;
      if (px >= 0 && py >= 0 && px < c.info.width && py < c.info.height)
        min = Math.min(min, greyAt(c, px, py));
    }
    return min;
  }

  it("puts a text box's printed frame along the crop's border on a rotated, photographed page", async () => {
    const pageIndex = layout.pages.findIndex((p) => p.boxes.some((b) => b.kind === 'text'));
    expect(pageIndex).toBeGreaterThanOrEqual(0);
    const box = layout.pages[pageIndex]!.boxes.find((b) => b.kind === 'text')!;
    // Tilted 10° before the lens (perspective), then turned 4° on the desk.
    const photo = photographed(blankPages[pageIndex]!, 10, 3, 0.9);
    const scan = await openScan(await spoil(photo, { rotate: 4, blur: 0.6, noise: 4, seed: 3 }));
    let image: GreyImage | null = null;
    for await (const p of scan.pages()) image = p.image;
    const read = await recognizePage(image!, formOf);
    expect(read.transform).not.toBeNull();
    const region = boxRegion(box);
    const png = await cropPng(await pagePng(image!), read.transform, region);
    const crop = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const perPoint = crop.info.width / region.w;
    // The region is the frame and 4 pt around it: the frame's edges lie 4 pt in from each border.
    const left = 4 * perPoint;
    const right = crop.info.width - 1 - 4 * perPoint;
    const top = 4 * perPoint;
    const bottom = crop.info.height - 1 - 4 * perPoint;
    const along = [0.1, 0.3, 0.5, 0.7, 0.9];
    for (const f of along) {
      const x = left + f * (right - left);
      const y = top + f * (bottom - top);
      expect(darkestNear(crop, x, top, 'y'), `top edge at ${f}`).toBeLessThan(128);
      expect(darkestNear(crop, x, bottom, 'y'), `bottom edge at ${f}`).toBeLessThan(128);
      expect(darkestNear(crop, left, y, 'x'), `left edge at ${f}`).toBeLessThan(128);
      expect(darkestNear(crop, right, y, 'x'), `right edge at ${f}`).toBeLessThan(128);
      // Outside the frame, the margin is paper all along: the frame is level, not slanted across it.
      expect(greyAt(crop, x, 1), `above the frame at ${f}`).toBeGreaterThan(150);
      expect(greyAt(crop, x, crop.info.height - 2), `below the frame at ${f}`).toBeGreaterThan(150);
    }
    // Upright and at the scan's scale: the crop's proportions are the region's.
    expect(Math.abs(crop.info.width / crop.info.height / (region.w / region.h) - 1)).toBeLessThan(0.02);
  }, 60_000);
});

describe('pages that cannot be read', () => {
  /** A page with only a QR code of `text` (and some print), as a PNG. */
  async function qrPage(text: string): Promise<Buffer> {
    const matrix = qrMatrix(text);
    const px = 6;
    const side = (matrix.size + 2 * QR_QUIET_MODULES) * px;
    const width = 1240;
    const height = 1754;
    const grey = Buffer.alloc(width * height, 255);
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++) {
        const row = Math.floor(y / px) - QR_QUIET_MODULES;
        const col = Math.floor(x / px) - QR_QUIET_MODULES;
        if (row >= 0 && col >= 0 && row < matrix.size && col < matrix.size && matrix.dark(row, col))
          grey[(60 + y) * width + width - 100 - side + x] = 0;
      }
    return sharp(grey, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer();
  }

  it('calls a photo without a code unidentified', async () => {
    const random = Buffer.alloc(400 * 300);
    for (let i = 0; i < random.length; i++) random[i] = (i * 7919) % 251;
    const png = await sharp(random, { raw: { width: 400, height: 300, channels: 1 } })
      .png()
      .toBuffer();
    const [result] = await read(png);
    expect(result).toMatchObject({ status: 'unidentified', code: null, problem: 'no_code', tasks: [] });
  });

  it("calls another system's QR unidentified, and a code of a form nobody knows", async () => {
    expect((await read(await qrPage('https://example.org/sheet/1')))[0]).toMatchObject({
      status: 'unidentified',
      problem: 'no_code',
    });
    const foreign = formatBlankCode({
      registrationCode: '999',
      examWorkId: workId + 1000,
      page: 1,
      layoutVersion: version,
    });
    expect((await read(await qrPage(foreign)))[0]).toMatchObject({
      status: 'unidentified',
      problem: 'unknown_form',
      code: { examWorkId: workId + 1000 },
    });
  });

  it('sends a sheet printed with another layout to review, reading nothing', async () => {
    const { pages } = fill(false);
    const png = await spoil(pages[0]!, { rotate: 1 });
    const scan = await openScan(png);
    for await (const { image } of scan.pages()) {
      const result = await recognizePage(image, (code) => ({ ...formOf(code)!, layoutVersion: '00000000' }));
      expect(result).toMatchObject({ status: 'needs_review', problem: 'layout_changed', tasks: [] });
    }
  }, 30_000);

  it('sends a page without its corner marks to review', async () => {
    const page = copyPage(blankPages[0]!);
    // White out the bottom left mark.
    const s = page.pxPerPt;
    for (let y = Math.floor(800 * s); y < page.height; y++)
      for (let x = 0; x < 50 * s; x++)
        page.rgba.fill(255, (y * page.width + x) * 4, (y * page.width + x) * 4 + 3);
    const [result] = await read(await spoil(page, { rotate: 2 }));
    expect(result).toMatchObject({ status: 'needs_review', problem: 'marks_not_found', tasks: [] });
  }, 30_000);
});

describe('homographyFrom', () => {
  it('maps the four points it was made from, and others as the transform does', () => {
    const angle = (4 * Math.PI) / 180;
    const f = (p: { x: number; y: number }) => ({
      x: 1.7 * (Math.cos(angle) * p.x - Math.sin(angle) * p.y) + 40,
      y: 1.7 * (Math.sin(angle) * p.x + Math.cos(angle) * p.y) + 12,
    });
    const from = [
      { x: 10, y: 10 },
      { x: 580, y: 12 },
      { x: 575, y: 830 },
      { x: 15, y: 828 },
    ];
    const h = homographyFrom(from, from.map(f))!;
    for (const p of [...from, { x: 300, y: 400 }, { x: 123, y: 777 }]) {
      const got = applyHomography(h, p);
      expect(got.x).toBeCloseTo(f(p).x, 6);
      expect(got.y).toBeCloseTo(f(p).y, 6);
    }
    expect(homographyFrom(from, [from[0]!, from[0]!, from[0]!, from[0]!].map(f))).toBeNull();
  });
});

describe('openScan', () => {
  it('refuses what is not a scan, a damaged image, a damaged PDF', async () => {
    await expect(openScan(Buffer.from('hello, this is text'))).rejects.toMatchObject({
      code: 'unsupported_file_type',
    });
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    await expect(openScan(png.subarray(0, 30))).rejects.toMatchObject({ status: 400, code: 'invalid_image' });
    await expect(openScan(Buffer.from('%PDF-1.7\nthis is not a pdf at all'))).rejects.toMatchObject({
      status: 400,
      code: 'invalid_pdf',
    });
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    // 8000 × 6000 of white compresses to a few kilobytes and would decode to 48 million pixels.
    const tiff = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
      .greyscale()
      .tiff({ compression: 'deflate' })
      .toBuffer();
    expect(tiff.length).toBeLessThan(1_000_000);
    await expect(openScan(tiff)).rejects.toMatchObject({ status: 400, code: 'image_too_large' });
  }, 30_000);

  it('refuses a PDF with more pages than a file may have', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i <= SCAN_LIMITS.maxPages; i++) pdf.addPage([100, 100]);
    await expect(openScan(Buffer.from(await pdf.save()))).rejects.toMatchObject({
      status: 400,
      code: 'too_many_pages',
    });
  });

  it('decodes every page of a multi-page TIFF', async () => {
    const page = (grey: number) =>
      sharp({ create: { width: 120, height: 160, channels: 3, background: { r: grey, g: grey, b: grey } } })
        .png()
        .toBuffer();
    const tiff = await sharp([await page(10), await page(200)], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const scan = await openScan(tiff);
    expect(scan.pageCount).toBe(2);
    const greys: number[] = [];
    for await (const { image } of scan.pages()) greys.push(image.data[0]!);
    expect(greys).toEqual([10, 200]);
  });
});
