import type { AnswerType, BlankLayout, ScanReviewList } from '@attesta/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizatorAssignments } from '../../db/schema/index.js';
import { fillForm, scannedPdf, spoil, type Plan } from '../../../test/omr.js';
import { rasterizePdf, type PageImage } from '../../../test/pdf.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  tasksOfEveryType,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';
import { batchWhenRead, uploadScans, type ScanFile } from './test-support.js';

let t: TestApp;
let org: OrgFixture;
let workId: number;
let registrationCode: string;
let layout: BlankLayout;
let answerTypes: Map<number, AnswerType>;
let blankPages: PageImage[];
let coordinator: Awaited<ReturnType<typeof signedIn>>;
/** The filled form as a scanner's PDF, and what each task was filled with. */
let scan: Buffer;
let plan: Plan;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
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
  coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
  const url = `/api/exam/test/examwork/${workId}/blanks`;
  const headers = { cookie: coordinator.session.cookie };
  const pdf = await t.app.inject({ method: 'GET', url, headers });
  layout = (await t.app.inject({ method: 'GET', url: `${url}?format=layout`, headers })).json<BlankLayout>();
  blankPages = await rasterizePdf(pdf.rawPayload, 200);
  const filled = fillForm(blankPages, layout, answerTypes, false);
  plan = filled.plan;
  scan = await scannedPdf(filled.pages, { rotate: 3, blur: 0.7, noise: 6 });
}, 60_000);
afterAll(async () => t?.close());

const upload = (headers: Record<string, string>, files: ScanFile[]) => uploadScans(t.app, headers, files);
const getBatch = (id: number | string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/scans/${id}`, headers });
const finished = (id: number, headers: Record<string, string>) => batchWhenRead(t.app, id, headers, 60_000);

const batchCount = async () =>
  Number((await t.database.query<{ n: string }>('select count(*) as n from scan_batches'))[0]!.n);

/** A photo that is no answer sheet. */
const foreignPng = async () => {
  const pixels = Buffer.alloc(600 * 400);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width: 600, height: 400, channels: 1 } })
    .png()
    .toBuffer();
};

describe('POST /api/scans and GET /api/scans/{id}', () => {
  it('should require authentication', async () => {
    const res = await upload({ 'x-requested-with': 'XMLHttpRequest' }, [{ filename: 'a.pdf', data: scan }]);
    expect(res.statusCode).toBe(401);
    expect((await getBatch(1, {})).statusCode).toBe(401);
  });

  it('refuses a cookie upload without the anti-CSRF header (403), and a body that is not multipart (415)', async () => {
    const before = await batchCount();
    const csrf = await upload({ cookie: coordinator.session.cookie }, [{ filename: 'a.pdf', data: scan }]);
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json().code).toBe('csrf');
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/scans',
      headers: coordinator.session.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('unsupported_media_type');
    expect(await batchCount()).toBe(before);
  });

  it('refuses other roles (403)', async () => {
    for (const role of ['expert', 'participant'] as const) {
      const { session } = await signedIn(t.app, [role]);
      expect((await upload(session.headers, [{ filename: 'a.pdf', data: scan }])).statusCode).toBe(403);
    }
  });

  it('reads a scanned PDF of a filled form: every page recognized, every task as filled; a foreign photo unidentified', async () => {
    const res = await upload(coordinator.session.headers, [
      { filename: 'class-7a.pdf', data: scan, type: 'application/pdf' },
      { filename: 'photo.png', data: await foreignPng(), type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(202);
    const { scanBatchId } = res.json<{ scanBatchId: number }>();
    expect(Object.keys(res.json())).toEqual(['scanBatchId']);
    const batch = await finished(scanBatchId, coordinator.session.headers);
    expect(batch.status).toBe('done');
    expect(batch.pages).toHaveLength(layout.pages.length + 1);
    const formPages = batch.pages.slice(0, layout.pages.length);
    formPages.forEach((page, i) => {
      expect(Object.keys(page).sort()).toEqual([
        'answers',
        'file',
        'formPage',
        'page',
        'registrationCode',
        'status',
      ]);
      expect(page).toMatchObject({
        file: 'class-7a.pdf',
        page: i + 1,
        status: 'recognized',
        registrationCode,
        formPage: i + 1,
      });
      for (const answer of page.answers) {
        expect(Object.keys(answer).sort()).toEqual(['confidence', 'value', 'variantTaskId']);
        expect(answer.value).toEqual(plan.expected.get(answer.variantTaskId));
        expect(answer.confidence).toBeGreaterThanOrEqual(0.5);
      }
    });
    expect(formPages.flatMap((p) => p.answers.map((a) => a.variantTaskId)).sort()).toEqual(
      [...plan.expected.keys()].sort(),
    );
    expect(batch.pages[layout.pages.length]).toEqual({
      file: 'photo.png',
      page: 1,
      status: 'unidentified',
      registrationCode: null,
      formPage: null,
      answers: [],
    });

    // The same file again changes nothing: its pages are duplicates, read no more.
    const again = await upload(coordinator.session.headers, [{ filename: 'again.pdf', data: scan }]);
    expect(again.statusCode).toBe(202);
    const second = await finished(
      again.json<{ scanBatchId: number }>().scanBatchId,
      coordinator.session.headers,
    );
    expect(second.pages.map((p) => p.status)).toEqual(layout.pages.map(() => 'duplicate'));
    expect(second.pages.every((p) => p.answers.length === 0)).toBe(true);
  }, 120_000);

  it('reads a page for an organizator assigned to the class; for one who is not, it is unidentified', async () => {
    const page = await spoil(fillForm(blankPages, layout, answerTypes, false).pages[0]!, {
      rotate: -2,
      jpegQuality: 80,
    });
    const assigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: assigned.user.id, classId: org.classId });
    const stranger = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    const otherSchool = await signedIn(t.app, ['coordinator'], {
      schoolId: (await createOrg(t.app)).schoolId,
    });

    const mine = await upload(assigned.session.headers, [{ filename: 'p1.jpg', data: page }]);
    expect(mine.statusCode).toBe(202);
    const read = await finished(mine.json<{ scanBatchId: number }>().scanBatchId, assigned.session.headers);
    expect(read.pages[0]).toMatchObject({ status: 'recognized', registrationCode, formPage: 1 });

    for (const who of [stranger, otherSchool]) {
      // Other bytes of the same page (another JPEG quality), so it is not a duplicate.
      const res = await upload(who.session.headers, [
        { filename: 'p1.jpg', data: await sharp(page).jpeg({ quality: 90 }).toBuffer() },
      ]);
      expect(res.statusCode).toBe(202);
      const batch = await finished(res.json<{ scanBatchId: number }>().scanBatchId, who.session.headers);
      expect(batch.pages[0]).toMatchObject({ status: 'unidentified', answers: [] });
      // Nor may they see the batch of another.
      expect(
        (await getBatch(mine.json<{ scanBatchId: number }>().scanBatchId, who.session.headers)).statusCode,
      ).toBe(403);
    }
    const admin = await signedIn(t.app, ['admin']);
    expect(
      (await getBatch(mine.json<{ scanBatchId: number }>().scanBatchId, admin.session.headers)).statusCode,
    ).toBe(200);
  }, 120_000);

  it('refuses bad files with clear codes and creates nothing', async () => {
    const before = await batchCount();
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
      .greyscale()
      .tiff({ compression: 'deflate' })
      .toBuffer();
    const cases: [ScanFile[], string][] = [
      [[{ filename: 'notes.txt', data: Buffer.from('not a scan at all') }], 'unsupported_file_type'],
      [[{ filename: 'scan.pdf', data: Buffer.from('%PDF-1.7\n1 0 obj garbage') }], 'invalid_pdf'],
      [[{ filename: 'scan.png', data: png.subarray(0, 40) }], 'invalid_image'],
      [[{ filename: 'bomb.tiff', data: bomb }], 'image_too_large'],
      // A good file beside a bad one: the whole upload is refused.
      [
        [
          { filename: 'good.pdf', data: scan },
          { filename: 'bad.txt', data: Buffer.from('x') },
        ],
        'unsupported_file_type',
      ],
      [[{ filename: 'empty.pdf', data: Buffer.alloc(0) }], 'no_file'],
      [[], 'no_file'],
    ];
    for (const [files, code] of cases) {
      const res = await upload(coordinator.session.headers, files);
      expect(res.statusCode, code).toBe(400);
      expect(res.json().code).toBe(code);
    }
    expect(await batchCount()).toBe(before);
  }, 60_000);

  it('takes a JPEG damaged past its header, and reports its page unidentified', async () => {
    const jpeg = await spoil(blankPages[0]!, { jpegQuality: 80 });
    const cut = jpeg.subarray(0, Math.floor(jpeg.length / 3));
    const res = await upload(coordinator.session.headers, [{ filename: 'cut.jpg', data: cut }]);
    expect(res.statusCode).toBe(202);
    const batch = await finished(
      res.json<{ scanBatchId: number }>().scanBatchId,
      coordinator.session.headers,
    );
    expect(batch).toEqual({
      status: 'done',
      pages: [
        {
          file: 'cut.jpg',
          page: 1,
          status: 'unidentified',
          registrationCode: null,
          formPage: null,
          answers: [],
        },
      ],
    });
    // It waits for a person with the reason in words and no crop, and its file is kept to download.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/scans/review?kind=unidentified&pageSize=200',
      headers: coordinator.session.headers,
    });
    expect(list.statusCode, list.body).toBe(200);
    const item = list
      .json<ScanReviewList>()
      .items.find((i) => i.scanBatchId === res.json<{ scanBatchId: number }>().scanBatchId);
    expect(item).toMatchObject({
      kind: 'unidentified',
      file: 'cut.jpg',
      page: 1,
      problem: 'invalid_image',
      crop: false,
      sourceFile: true,
    });
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/scans/review/${item!.id}/file`,
      headers: coordinator.session.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(file.rawPayload.equals(cut)).toBe(true);
    // Another school's coordinator does not reach it; an unknown item is 404, a bad id 400.
    const other = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    const url = (id: number | string) => `/api/scans/review/${id}/file`;
    expect(
      (await t.app.inject({ method: 'GET', url: url(item!.id), headers: other.session.headers })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url(item!.id) })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: url(999_999), headers: coordinator.session.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: url('abc'), headers: coordinator.session.headers }))
        .statusCode,
    ).toBe(400);
  }, 30_000);

  it('answers 404 for an unknown batch, 400 for a bad id', async () => {
    expect((await getBatch(999_999, coordinator.session.headers)).statusCode).toBe(404);
    const bad = await getBatch('abc', coordinator.session.headers);
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/scans: the caller’s own batches', () => {
  const mine = (headers: Record<string, string>, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/scans${query}`, headers });

  it('401 without a session, 403 for other roles, 400 for bad paging', async () => {
    expect((await mine({})).statusCode).toBe(401);
    for (const role of ['expert', 'participant'] as const) {
      const other = await signedIn(t.app, [role]);
      expect((await mine(other.session.headers)).statusCode, role).toBe(403);
    }
    for (const query of ['?pageSize=101', '?page=0', '?pageSize=x', '?userId=1']) {
      const res = await mine(coordinator.session.headers, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('lists the uploader’s batches newest first with their files, pages by status and open review items, paged; another’s are not listed', async () => {
    const uploader = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    const someoneElse = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await mine(uploader.session.headers)).json()).toEqual({ items: [], total: 0 });
    const photo = await foreignPng();
    const ids: number[] = [];
    for (const name of ['first.png', 'again.png']) {
      const res = await upload(uploader.session.headers, [{ filename: name, data: photo }]);
      expect(res.statusCode, res.body).toBe(202);
      ids.push(res.json<{ scanBatchId: number }>().scanBatchId);
      await finished(ids.at(-1)!, uploader.session.headers);
    }
    const theirs = await upload(someoneElse.session.headers, [{ filename: 'theirs.png', data: photo }]);
    await finished(theirs.json<{ scanBatchId: number }>().scanBatchId, someoneElse.session.headers);

    const res = await mine(uploader.session.headers);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.total).toBe(2);
    expect(list.items).toMatchObject([
      {
        id: ids[1],
        status: 'done',
        files: ['again.png'],
        pages: { recognized: 0, needs_review: 0, unidentified: 0, duplicate: 1 },
        openReview: 0,
      },
      {
        id: ids[0],
        status: 'done',
        files: ['first.png'],
        pages: { recognized: 0, needs_review: 0, unidentified: 1, duplicate: 0 },
        openReview: 1,
      },
    ]);
    expect(Date.parse(list.items[0].createdAt)).not.toBeNaN();
    expect(Date.parse(list.items[0].finishedAt)).not.toBeNaN();

    const second = (await mine(uploader.session.headers, '?page=2&pageSize=1')).json();
    expect(second).toMatchObject({ total: 2, items: [{ id: ids[0] }] });
    const other = (await mine(someoneElse.session.headers)).json();
    expect(other.items.map((b: { id: number }) => b.id)).not.toContain(ids[0]);
    expect(other.total).toBe(1);
  });
});
