import { NO_ACCOMMODATIONS, blankLayoutSchema, type BlankLayout } from '@attesta/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, organizatorAssignments, students } from '../../db/schema/index.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type OrgFixture,
  type ParticipantTestFixture,
  type TestApp,
} from '../../../test/helpers.js';
import {
  decodeQrOf,
  decodeQrOnPage,
  greyAt,
  rasterizePdf,
  readPdf,
  type PageImage,
} from '../../../test/pdf.js';
import { formatBlankCode, parseBlankCode } from './blanks.code.js';
import { digitColumns, tasksForBlank } from './blanks.service.js';
import { MARK_OFFSET, MARK_SIZE, layoutVersionOf } from './blanks.sheet.js';

let t: TestApp;
let org: OrgFixture;
let pt: ParticipantTestFixture;
let workId: number;
let variantTaskIds: number[];
let registrationCode: string;

const SECRET = 'SECRETKEY';
const url = (id: number | string) => `/api/exam/test/examwork/${id}/blanks`;
const get = (id: number | string, headers: Record<string, string> = {}, query = '') =>
  t.app.inject({ method: 'GET', url: `${url(id)}${query}`, headers });
const getLayout = async (id: number, cookie: string): Promise<BlankLayout> => {
  const res = await get(id, { cookie }, '?format=layout');
  expect(res.statusCode).toBe(200);
  return res.json<BlankLayout>();
};
/** The code each page of a work's form must print: its layout's version, computed here again. */
const codeOf = (registration: string, id: number, page: number, layout: BlankLayout) =>
  formatBlankCode({
    registrationCode: registration,
    examWorkId: id,
    page,
    layoutVersion: layoutVersionOf(layout),
  });

/** A participant test with a variant of every answer type and a work on it. */
async function workFixture(options: { impersonal?: boolean; answerMode?: string; deleted?: boolean } = {}) {
  const fixture = await createParticipantTest(t.app, org, { impersonal: options.impersonal });
  const variant = await createVariantWithTasks(t.app, fixture.subjectTestId, tasksOfEveryType(SECRET));
  const id = await createExamWork(t.app, fixture.participantTestId, variant.variantId, options);
  return { fixture, variant, workId: id };
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  const made = await workFixture();
  pt = made.fixture;
  workId = made.workId;
  variantTaskIds = made.variant.variantTaskIds;
  const [row] = await t.database.query<{ registration_code: string }>(
    'select registration_code from participant_tests where id = $1',
    [pt.participantTestId],
  );
  registrationCode = row!.registration_code;
});
afterAll(async () => t.close());

describe('blank codes', () => {
  it('round-trips through parseBlankCode and an independent QR decoder', () => {
    const code = { registrationCode: '012345678901', examWorkId: 4711, page: 3, layoutVersion: '09AF3C1E' };
    const text = formatBlankCode(code);
    expect(text).toBe('ATTESTA:B2:012345678901:4711:3:09AF3C1E');
    expect(parseBlankCode(text)).toEqual(code);
    expect(parseBlankCode(`  ${text.toLowerCase()}\n`)).toEqual(code);
    expect(parseBlankCode(decodeQrOf(text)!)).toEqual(code);
  });

  it('still reads the codes of forms printed before layouts (B1)', () => {
    expect(parseBlankCode('ATTESTA:B1:012345678901:4711:3')).toEqual({
      registrationCode: '012345678901',
      examWorkId: 4711,
      page: 3,
      layoutVersion: null,
    });
  });

  it('refuses to print a code with a malformed layout version', () => {
    expect(() =>
      formatBlankCode({ registrationCode: '0123', examWorkId: 1, page: 1, layoutVersion: 'XYZ' }),
    ).toThrow();
  });

  it('rejects what is not a blank code', () => {
    for (const bad of [
      '',
      'ATTESTA:B2:0123:1:1',
      'ATTESTA:B3:0123:1:1:09AF3C1E',
      'ATTESTA:B2:0123:1:1:09AF3C1',
      'ATTESTA:B2:0123:1:1:09AF3C1G',
      'ATTESTA:B1:0123:1:1:09AF3C1E',
      'ATTESTA:B1:0123:0:1',
      'ATTESTA:B1:0123:1:0',
      'ATTESTA:B1::1:1',
      'ATTESTA:B1:0123:1:1:9',
      'ATTESTA:B1:0123:99999999999:1',
      'ATTESTA:B1:0123:4294967296:1',
    ])
      expect(parseBlankCode(bad), bad).toBeNull();
  });
});

describe('tasksForBlank', () => {
  const all = [{ variantTaskId: 1 }, { variantTaskId: 2 }, { variantTaskId: 3 }];
  it('takes every task of a work in blank mode', () => {
    expect(tasksForBlank(all, 'blank', new Set([2]))).toEqual(all);
  });
  it('takes the tasks switched to paper, or all when none is', () => {
    expect(tasksForBlank(all, 'online', new Set([2, 3]))).toEqual([
      { variantTaskId: 2 },
      { variantTaskId: 3 },
    ]);
    expect(tasksForBlank(all, 'online', new Set())).toEqual(all);
  });
});

describe('GET /api/exam/test/examwork/{id}/blanks', () => {
  it('should require authentication', async () => {
    const res = await get(workId);
    expect(res.statusCode).toBe(401);
  });

  it('answers the participant their own forms as a PDF: header, every task, a code on every page, no key', async () => {
    const { session } = await signedInParticipant(t.app, pt);
    const res = await get(workId, { cookie: session.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="blank-${registrationCode}.pdf"`);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const { pageCount, pages } = await readPdf(bytes);
    expect(pageCount).toBeGreaterThanOrEqual(2);
    const all = pages.join('\n');
    for (const words of [
      'БЛАНК ОТВЕТОВ',
      'Независимая диагностика',
      'Математика, 7 класс',
      'Иванов Иван',
      '7 «А»',
      'Регистрационный код',
      registrationCode,
      'Инструкция',
      'Закрасьте кружок одного верного ответа',
      'Закрасьте кружки всех верных ответов',
      'закрасьте номер места',
      'закрасьте номер соответствующего ответа',
      'вариант 1',
      'см',
      'Пропуск 2',
      'Москва',
      'Отдельный лист прикрепите к бланку',
    ])
      expect(all).toContain(words);
    for (let n = 1; n <= variantTaskIds.length; n++) expect(all).toContain(`Задание ${n}`);
    const layout = await getLayout(workId, session.cookie);
    expect(layout.pages).toHaveLength(pageCount);
    pages.forEach((text, i) => {
      expect(text).toContain(codeOf(registrationCode, workId, i + 1, layout));
      expect(text).toContain(`стр. ${i + 1} из ${pageCount}`);
    });
    expect(all).not.toContain(SECRET);
  });

  it('prints the large-print form for a student whose accommodations profile has large text', async () => {
    // Two students of the class sitting the same variant: one with large text in the profile.
    const studentId = org.studentIds[1]!;
    await t.app.ctx.db
      .update(students)
      .set({ accommodations: { ...NO_ACCOMMODATIONS, largeText: true } })
      .where(eq(students.id, studentId));
    const large = await createParticipantTest(t.app, org, { studentId });
    const variant = await createVariantWithTasks(t.app, large.subjectTestId, tasksOfEveryType(SECRET));
    const largeWork = await createExamWork(t.app, large.participantTestId, variant.variantId);
    const regular = await createParticipantTest(t.app, org, { studentId: org.studentIds[0]! });
    const regularVariant = await createVariantWithTasks(
      t.app,
      regular.subjectTestId,
      tasksOfEveryType(SECRET),
    );
    const regularWork = await createExamWork(t.app, regular.participantTestId, regularVariant.variantId);

    const pdfOf = async (fixture: ParticipantTestFixture, id: number) => {
      const { session } = await signedInParticipant(t.app, fixture);
      const res = await get(id, { cookie: session.cookie });
      expect(res.statusCode).toBe(200);
      return { ...(await readPdf(res.rawPayload)), layout: await getLayout(id, session.cookie) };
    };
    const big = await pdfOf(large, largeWork);
    const usual = await pdfOf(regular, regularWork);
    // The same bubbles, drawn bigger.
    const bubblesOf = (layout: BlankLayout) => layout.pages.flatMap((p) => p.bubbles);
    expect(bubblesOf(big.layout).length).toBe(bubblesOf(usual.layout).length);
    expect(bubblesOf(big.layout)[0]!.r).toBeGreaterThan(bubblesOf(usual.layout)[0]!.r * 1.3);
    expect(big.pages[0]).toContain('Крупный шрифт');
    expect(usual.pages.join('\n')).not.toContain('Крупный шрифт');
    // Bigger type and cells for the same tasks: more pages, every task and page code still there.
    expect(big.pageCount).toBeGreaterThan(usual.pageCount);
    const all = big.pages.join('\n');
    for (let n = 1; n <= variant.variantTaskIds.length; n++) expect(all).toContain(`Задание ${n}`);
    big.pages.forEach((text, i) =>
      expect(text).toContain(codeOf(text.match(/Рег\. код (\S+)/)![1]!, largeWork, i + 1, big.layout)),
    );
    expect(all).not.toContain(SECRET);
  });

  it('prints «Участник» for an impersonal participant test', async () => {
    const made = await workFixture({ impersonal: true });
    const { session } = await signedInParticipant(t.app, made.fixture);
    const res = await get(made.workId, { cookie: session.cookie });
    expect(res.statusCode).toBe(200);
    const { pages } = await readPdf(res.rawPayload);
    expect(pages[0]).toMatch(/Участник\s+Участник/);
    expect(pages[0]).not.toContain('Иванов');
  });

  it('prints only the tasks switched to paper when the work is online', async () => {
    const made = await workFixture();
    const [, second, third] = made.variant.variantTaskIds;
    await t.app.ctx.db.insert(answers).values([
      { examWorkId: made.workId, variantTaskId: second!, value: null, seq: 0, answerMode: 'blank' },
      { examWorkId: made.workId, variantTaskId: third!, value: null, seq: 0, answerMode: 'online' },
    ]);
    const { session } = await signedInParticipant(t.app, made.fixture);
    const { pages } = await readPdf((await get(made.workId, { cookie: session.cookie })).rawPayload);
    const all = pages.join('\n');
    expect(all).toContain('Задание 2');
    expect(all).not.toMatch(/Задание (1|3|4|10)\b/);
  });

  it("refuses another participant's work (403)", async () => {
    const other = await createParticipantTest(t.app, org);
    const { session } = await signedInParticipant(t.app, other);
    const res = await get(workId, { cookie: session.cookie });
    expect(res.statusCode).toBe(403);
  });

  it('lets an organizator assigned to the class in, and refuses one who is not (403)', async () => {
    const assigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: assigned.user.id, classId: org.classId });
    const ok = await get(workId, { cookie: assigned.session.cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');

    const stranger = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    const res = await get(workId, { cookie: stranger.session.cookie });
    expect(res.statusCode).toBe(403);
  });

  it('lets the coordinator of the school in, not one of another school', async () => {
    const own = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await get(workId, { cookie: own.session.cookie })).statusCode).toBe(200);
    const otherOrg = await createOrg(t.app);
    const other = await signedIn(t.app, ['coordinator'], { schoolId: otherOrg.schoolId });
    expect((await get(workId, { cookie: other.session.cookie })).statusCode).toBe(403);
  });

  it('refuses other roles (403)', async () => {
    const { session } = await signedIn(t.app, ['expert']);
    expect((await get(workId, { cookie: session.cookie })).statusCode).toBe(403);
  });

  it('answers 404 for a deleted or unknown work, 400 for a bad id', async () => {
    const made = await workFixture({ deleted: true });
    const { session } = await signedInParticipant(t.app, made.fixture);
    const deleted = await get(made.workId, { cookie: session.cookie });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json()).toMatchObject({ code: 'not_found' });
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await get(99_999_999, { cookie: coordinator.session.cookie })).statusCode).toBe(404);
    expect((await get('abc', { cookie: coordinator.session.cookie })).statusCode).toBe(400);
  });
});

describe('digitColumns', () => {
  it('gives a number as many columns as its longest accepted number needs, one spare, 4 to 12', () => {
    expect(digitColumns('number', {}, { value: 12.5, tolerance: 0 })).toBe(4);
    // 1234.74 … 1234.76: four whole digits, two decimals, one spare.
    expect(digitColumns('number', {}, { value: -1234.75, tolerance: 0.01 })).toBe(7);
    expect(digitColumns('number', {}, { value: 200, tolerance: 0.05, toleranceMode: 'relative' })).toBe(4);
    expect(digitColumns('number', {}, { min: 0, max: 100_000 })).toBe(7);
    expect(digitColumns('number', {}, { value: 3, answers: [{ value: 3.14159, points: 1 }] })).toBe(7);
    expect(digitColumns('number', {}, { value: 1e15 })).toBe(12);
    expect(digitColumns('number', {}, null)).toBe(8);
  });

  it("gives a digit sequence its length, or its key's", () => {
    expect(digitColumns('digit_sequence', { length: 3 }, { digits: '12' })).toBe(3);
    expect(digitColumns('digit_sequence', {}, { digits: '12345' })).toBe(5);
    expect(digitColumns('digit_sequence', {}, null)).toBe(12);
  });
});

describe('GET …/blanks?format=layout', () => {
  it('should require authentication', async () => {
    expect((await get(workId, {}, '?format=layout')).statusCode).toBe(401);
  });

  it('refuses other roles and other participants (403)', async () => {
    const expert = await signedIn(t.app, ['expert']);
    expect((await get(workId, { cookie: expert.session.cookie }, '?format=layout')).statusCode).toBe(403);
    const other = await signedInParticipant(t.app, await createParticipantTest(t.app, org));
    expect((await get(workId, { cookie: other.session.cookie }, '?format=layout')).statusCode).toBe(403);
  });

  it('answers 400 validation_failed for a format it does not know', async () => {
    const { session } = await signedInParticipant(t.app, pt);
    for (const query of ['?format=docx', '?format=', '?format=LAYOUT', '?other=1']) {
      const res = await get(workId, { cookie: session.cookie }, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 'validation_failed' });
    }
    const pdf = await get(workId, { cookie: session.cookie }, '?format=pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('lays out marks on every page and a bubble for every choice of every automatically scored task', async () => {
    const { session } = await signedInParticipant(t.app, pt);
    const res = await get(workId, { cookie: session.cookie }, '?format=layout');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).not.toContain(SECRET);
    const layout = res.json<BlankLayout>();
    expect(blankLayoutSchema.parse(layout)).toEqual(layout);
    expect(Object.keys(layout)).toEqual(['pages']);

    layout.pages.forEach((page, i) => {
      expect(Object.keys(page).sort()).toEqual(['boxes', 'bubbles', 'heightPt', 'marks', 'page', 'widthPt']);
      expect(page.page).toBe(i + 1);
      // A4 in points.
      expect(page.widthPt).toBeCloseTo(595.28, 1);
      expect(page.heightPt).toBeCloseTo(841.89, 1);
      const near = MARK_OFFSET + MARK_SIZE / 2;
      const corners = [
        [near, near],
        [page.widthPt - near, near],
        [near, page.heightPt - near],
        [page.widthPt - near, page.heightPt - near],
      ];
      expect(page.marks).toHaveLength(4);
      page.marks.forEach((mark, k) => {
        expect(mark.x).toBeCloseTo(corners[k]![0]!, 1);
        expect(mark.y).toBeCloseTo(corners[k]![1]!, 1);
        expect(mark.size).toBeCloseTo(MARK_SIZE, 1);
      });
      // Everything machine-read lies inside the marks, and no two bubbles touch.
      const inside = (x: number, y: number) =>
        x > near && x < page.widthPt - near && y > near && y < page.heightPt - near;
      for (const b of page.bubbles) {
        expect(Object.keys(b).sort()).toEqual(['r', 'value', 'variantTaskId', 'x', 'y']);
        expect(inside(b.x - b.r, b.y - b.r) && inside(b.x + b.r, b.y + b.r)).toBe(true);
      }
      for (const box of page.boxes)
        expect(inside(box.x, box.y) && inside(box.x + box.w, box.y + box.h)).toBe(true);
      for (const [k, a] of page.bubbles.entries())
        for (const b of page.bubbles.slice(k + 1))
          expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(a.r + b.r + 2);
    });

    const bubbles = layout.pages.flatMap((p) => p.bubbles);
    const boxes = layout.pages.flatMap((p) => p.boxes);
    const valuesOf = (n: number) =>
      bubbles.filter((b) => b.variantTaskId === variantTaskIds[n - 1]).map((b) => b.value);
    const boxesOf = (n: number) =>
      boxes
        .filter((b) => b.variantTaskId === variantTaskIds[n - 1])
        .map(({ kind, part }) => (part ? { kind, part } : { kind }));
    const grid = (rows: string[], cols: string[]) => rows.flatMap((r) => cols.map((c) => `${r}:${c}`));
    const digits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
    // Every task of tasksOfEveryType, in its order.
    expect(valuesOf(1)).toEqual(['o1', 'o2', 'o3', 'o4']);
    expect(valuesOf(2)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    expect(valuesOf(3)).toEqual([]);
    expect(boxesOf(3)).toEqual([{ kind: 'text' }]);
    // The number (key 12.5): 4 columns, the sign and a comma between each two columns.
    expect(valuesOf(4).sort()).toEqual(
      ['sign:-', ...grid(['1', '2', '3', '4'], digits), 'comma:1', 'comma:2', 'comma:3'].sort(),
    );
    // The digit sequence of length 3: no sign, no comma.
    expect(valuesOf(5).sort()).toEqual(grid(['1', '2', '3'], digits).sort());
    // Ordering: items × positions; matching: left × right.
    expect(valuesOf(6)).toEqual(grid(['o1', 'o2', 'o3', 'o4'], ['1', '2', '3', '4']));
    expect(valuesOf(7)).toEqual(grid(['a', 'b'], ['o1', 'o2', 'o3']));
    // Cloze: a framed box for the typed gap, bubbles for the choice gap.
    expect(valuesOf(8)).toEqual(['b2:c1', 'b2:c2']);
    expect(boxesOf(8)).toEqual([{ kind: 'text', part: 'b1' }]);
    // Expert-graded answers: an area of their own, no bubbles.
    expect(boxesOf(9)).toEqual([{ kind: 'essay' }]);
    expect(boxesOf(10)).toEqual([{ kind: 'essay' }]);
    expect(valuesOf(9).length + valuesOf(10).length).toBe(0);
  });

  it('goes on to the next page with a task taller than a page, never putting a bubble off a page', async () => {
    // A large-print form of a 50-digit sequence and a 20 × 26 matching: each taller than a page.
    await t.app.ctx.db
      .update(students)
      .set({ accommodations: { ...NO_ACCOMMODATIONS, largeText: true } })
      .where(eq(students.id, org.studentIds[2]!));
    const fixture = await createParticipantTest(t.app, org, { studentId: org.studentIds[2]! });
    const labelled = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, html: `${prefix} ${i + 1}` }));
    const variant = await createVariantWithTasks(t.app, fixture.subjectTestId, [
      {
        answerType: 'digit_sequence',
        content: { length: 50 },
        reference: { digits: '1'.repeat(50) },
        scoring: { method: 'all_or_nothing' },
      },
      {
        answerType: 'matching',
        content: { left: labelled('l', 20), right: labelled('r', 26), shuffle: false },
        reference: { pairs: { l1: 'r1' } },
        scoring: { method: 'per_pair' },
      },
    ]);
    const id = await createExamWork(t.app, fixture.participantTestId, variant.variantId);
    const { session } = await signedInParticipant(t.app, fixture);
    const layout = await getLayout(id, session.cookie);
    const [digits, matching] = variant.variantTaskIds;
    const all = layout.pages.flatMap((page) => page.bubbles.map((b) => ({ ...b, page })));
    expect(all.filter((b) => b.variantTaskId === digits)).toHaveLength(500);
    expect(all.filter((b) => b.variantTaskId === matching)).toHaveLength(20 * 26);
    // Each task spans pages, and every bubble lies inside its page's marks.
    for (const task of [digits, matching])
      expect(
        new Set(all.filter((b) => b.variantTaskId === task).map((b) => b.page.page)).size,
      ).toBeGreaterThan(1);
    for (const b of all) {
      const [topLeft, , , bottomRight] = b.page.marks;
      expect(b.x - b.r).toBeGreaterThan(topLeft!.x + topLeft!.size);
      expect(b.y - b.r).toBeGreaterThan(topLeft!.y + topLeft!.size);
      expect(b.x + b.r).toBeLessThan(bottomRight!.x - bottomRight!.size);
      expect(b.y + b.r).toBeLessThan(bottomRight!.y - bottomRight!.size);
    }
  });

  it('draws the PDF exactly where the layout says: marks, bubble rings, box frames; each page QR reads back', async () => {
    const assigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: assigned.user.id, classId: org.classId });
    const cookie = assigned.session.cookie;
    const layout = await getLayout(workId, cookie);
    const pdf = await get(workId, { cookie });
    expect(pdf.statusCode).toBe(200);
    const images = await rasterizePdf(pdf.rawPayload, 150);
    expect(images).toHaveLength(layout.pages.length);

    /** The darkest pixel within a pixel of a point: a thin line sampled at its middle. */
    const darkest = (img: PageImage, x: number, y: number) => {
      const step = 1 / img.pxPerPt;
      let min = 255;
      for (const dx of [-step, 0, step])
        for (const dy of [-step, 0, step]) min = Math.min(min, greyAt(img, x + dx, y + dy));
      return min;
    };
    const around = (n: number) => Array.from({ length: n }, (_, k) => (2 * Math.PI * k) / n);
    /** A printed ring of radius r at (x, y): dark on the circle, light well inside and just outside. */
    const ringAt = (img: PageImage, x: number, y: number, r: number) => {
      const onRing = around(24).filter((a) => darkest(img, x + r * Math.cos(a), y + r * Math.sin(a)) < 110);
      const outside = around(8).filter(
        (a) => greyAt(img, x + 1.3 * r * Math.cos(a), y + 1.3 * r * Math.sin(a)) > 180,
      );
      let sum = 0;
      let count = 0;
      for (let dx = -0.55 * r; dx <= 0.55 * r; dx += 0.5)
        for (let dy = -0.55 * r; dy <= 0.55 * r; dy += 0.5)
          if (Math.hypot(dx, dy) <= 0.55 * r) {
            sum += greyAt(img, x + dx, y + dy);
            count++;
          }
      return onRing.length >= 22 && outside.length >= 7 && sum / count > 150;
    };

    let bubbleCount = 0;
    for (const [i, page] of layout.pages.entries()) {
      const img = images[i]!;
      expect(img.width).toBe(Math.round(page.widthPt * img.pxPerPt));
      for (const mark of page.marks) {
        const half = mark.size / 2;
        for (const [fx, fy] of [
          [0, 0],
          [-0.6, -0.6],
          [0.6, 0.6],
          [-0.6, 0.6],
          [0.6, -0.6],
        ] as const)
          expect(greyAt(img, mark.x + fx * half, mark.y + fy * half)).toBeLessThan(40);
        // Its edges where the layout puts them, within half a pixel or so: dark 1.2 pt inside each
        // side, white 1.2 pt beyond it.
        for (const [fx, fy] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          expect(greyAt(img, mark.x + fx * (half - 1.2), mark.y + fy * (half - 1.2))).toBeLessThan(60);
          expect(greyAt(img, mark.x + fx * (half + 1.2), mark.y + fy * (half + 1.2))).toBeGreaterThan(200);
        }
      }
      for (const b of page.bubbles)
        expect(ringAt(img, b.x, b.y, b.r), `${b.variantTaskId} ${b.value}`).toBe(true);
      bubbleCount += page.bubbles.length;
      // The check tells a ring from its surroundings: 2 mm off, (almost) no bubble passes.
      const shifted = page.bubbles.filter((b) => ringAt(img, b.x + 5.67, b.y, b.r));
      expect(shifted.length).toBeLessThanOrEqual(page.bubbles.length * 0.05);
      for (const box of page.boxes) {
        for (let k = 0; k <= 10; k++) {
          const fx = box.x + (box.w * k) / 10;
          const fy = box.y + (box.h * k) / 10;
          expect(darkest(img, fx, box.y)).toBeLessThan(110);
          expect(darkest(img, fx, box.y + box.h)).toBeLessThan(110);
          expect(darkest(img, box.x, fy)).toBeLessThan(110);
          expect(darkest(img, box.x + box.w, fy)).toBeLessThan(110);
        }
        // A frame, not a filled area: white just outside its left and right sides.
        expect(greyAt(img, box.x - 2.5, box.y + box.h / 2)).toBeGreaterThan(200);
        expect(greyAt(img, box.x + box.w + 2.5, box.y + box.h / 2)).toBeGreaterThan(200);
      }
      const code = decodeQrOnPage(img);
      expect(code, `QR of page ${i + 1}`).toBe(codeOf(registrationCode, workId, i + 1, layout));
      expect(parseBlankCode(code!)).toEqual({
        registrationCode,
        examWorkId: workId,
        page: i + 1,
        layoutVersion: layoutVersionOf(layout),
      });
    }
    expect(bubbleCount).toBeGreaterThan(100);
  });
});
