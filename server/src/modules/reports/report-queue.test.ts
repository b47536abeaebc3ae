import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueueItem, ReportDetailed, ReportQueued } from '@attesta/contract';
import { auditEvents, diagnostics, queueItems, userRoles } from '../../db/schema/index.js';
import { JobRunner, type JobHandler } from '../../jobs/runner.js';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { EXPORT_JOB, MAX_QUEUED_REPORTS_PER_USER, REPORT_JOB, runReportJob } from './report-queue.js';
import { createReportWorld, FORMULA_SURNAME, type ReportWorld } from './test-support.js';

/*
 * Big downloads go to the queue (docs/reports.md, "Large reports"). The threshold is lowered to 3
 * rows, so the hand-computed world of test-support.ts is "big"; with it raised the same request
 * answers the file at once, and the queued file must hold the very same rows.
 */

let t: TestApp;
let w: ReportWorld;
/** Progress reported by the jobs, by queue item. */
const progress = new Map<number, { percent: number; text: string | null | undefined }[]>();
let runner: JobRunner;

const get = (url: string, session: Session) => t.app.inject({ method: 'GET', url, headers: session.headers });

beforeAll(async () => {
  t = await createTestApp();
  w = await createReportWorld(t.app);
  // A runner of report and export jobs only, recording the progress each job reports.
  const recording: JobHandler = (ctx) =>
    runReportJob({
      ...ctx,
      progress: async (percent, text) => {
        const seen = progress.get(ctx.item.id) ?? [];
        seen.push({ percent, text });
        progress.set(ctx.item.id, seen);
        await ctx.progress(percent, text);
      },
    });
  runner = new JobRunner(t.app.ctx.db, t.app.log, {
    handlers: new Map([
      [REPORT_JOB, recording],
      [EXPORT_JOB, recording],
    ]),
  });
});
afterAll(async () => t.close());
afterEach(() => {
  vi.unstubAllEnvs();
});

const small = () => vi.stubEnv('REPORT_QUEUE_THRESHOLD', '1000');
const big = () => vi.stubEnv('REPORT_QUEUE_THRESHOLD', '3');

/** The file at once (threshold raised). */
async function atOnce(url: string, session: Session): Promise<Buffer> {
  small();
  const res = await get(url, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
}

/** The queued request: 202 and its queue item id (threshold lowered). */
async function queued(url: string, session: Session): Promise<number> {
  big();
  const res = await get(url, session);
  expect(res.statusCode, res.body).toBe(202);
  const body = res.json() as ReportQueued;
  expect(Object.keys(body)).toEqual(['queueItemId']);
  return body.queueItemId;
}

async function itemOf(id: number, session: Session): Promise<QueueItem> {
  const res = await get(`/api/reports/queue/${id}`, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QueueItem;
}

/** Runs the queued jobs; the item must end done with a file, which is downloaded. */
async function finished(id: number, session: Session): Promise<{ item: QueueItem; file: Buffer }> {
  await runner.drain();
  const item = await itemOf(id, session);
  expect(item, JSON.stringify(item)).toMatchObject({ status: 'done', progress: 100 });
  expect(item.resultFileId).toEqual(expect.any(Number));
  const file = await get(`/api/files/${item.resultFileId}`, session);
  expect(file.statusCode, file.body).toBe(200);
  return { item, file: file.rawPayload };
}

/** Every sheet's name and rows as plain values. */
async function workbook(bytes: Buffer): Promise<{ name: string; rows: unknown[][] }[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => {
      row.eachCell((cell) => expect(cell.formula).toBeUndefined());
      rows.push((row.values as unknown[]).slice(1));
    });
    return { name: ws.name, rows };
  });
}

const queueCount = async () => (await t.app.ctx.db.select({ id: queueItems.id }).from(queueItems)).length;

describe('big downloads are queued', () => {
  it('detailed xlsx: 202, progress, then the file with the rows of the file answered at once', async () => {
    const url = `/api/reports/detailed?diagnosticId=${w.diagnosticId}&format=xlsx`;
    const direct = await workbook(await atOnce(url, w.admin));
    const id = await queued(url, w.admin);
    // Asking again while it waits gives the same item.
    expect(await queued(url, w.admin)).toBe(id);
    expect(await itemOf(id, w.admin)).toMatchObject({ id, type: 'report', status: 'queued', progress: 0 });

    const { item, file } = await finished(id, w.admin);
    expect(item.result).toEqual({
      report: 'detailed',
      format: 'xlsx',
      rows: 7,
      fileName: 'Детальный отчёт.xlsx',
    });
    const streamed = await workbook(file);
    expect(streamed.map((s) => s.name)).toEqual(['Математика', 'Физика']);
    expect(streamed).toEqual(direct);
    const math = streamed[0]!.rows;
    const header = math.find((row) => row[0] === 'Код участника')!;
    expect(header).toContain('Задание 4 (макс. 2)');
    expect(math.find((row) => row[0] === w.p.p4.code)![header.indexOf('Первичный балл')]).toBe(2);

    // The progress rose from 0 to the end; the text says how far.
    const seen = progress.get(id)!;
    // A code the screens put in the reader's words (never Russian text in an English screen).
    expect(seen[0]).toEqual({ percent: 0, text: 'rows:0:7' });
    expect(seen.at(-1)).toEqual({ percent: 99, text: 'rows:7:7' });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.percent).toBeGreaterThan(seen[i - 1]!.percent);
  });

  it('formulas stay text in the streamed xlsx; the JSON screen stays synchronous and paged', async () => {
    const url = `/api/reports/detailed?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}&format=xlsx`;
    const { file } = await finished(await queued(url, w.admin), w.admin);
    const values = (await workbook(file)).flatMap((s) => s.rows.flat());
    expect(values).toContain(`'${FORMULA_SURNAME}`);
    expect(values).not.toContain(FORMULA_SURNAME);
    expect(values.filter((v) => typeof v === 'string' && /^[=+\-@]/.test(v))).toEqual([]);

    big();
    const res = await get(`/api/reports/detailed?diagnosticId=${w.diagnosticId}&pageSize=2`, w.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      total: 7,
      page: 1,
      pageSize: 2,
      rows: [{}, {}],
    } as Partial<ReportDetailed>);
  });

  it('a coordinator’s queued file holds their school only, and is theirs alone', async () => {
    const url = `/api/reports/detailed?format=xlsx`;
    const direct = await workbook(await atOnce(url, w.coordA));
    const id = await queued(url, w.coordA);
    const { item, file } = await finished(id, w.coordA);
    expect(await workbook(file)).toEqual(direct);
    const codes = (await workbook(file)).flatMap((s) => s.rows.map((r) => r[0]));
    expect(codes).toContain(w.p.p1.code);
    expect(codes).not.toContain(w.p.p6.code); // school B
    // Another coordinator sees neither the item nor the file; the admin sees both.
    expect((await get(`/api/reports/queue/${id}`, w.coordB)).statusCode).toBe(403);
    expect((await get(`/api/files/${item.resultFileId}`, w.coordB)).statusCode).toBe(403);
    expect((await get(`/api/reports/queue/${id}`, w.admin)).statusCode).toBe(200);
    expect((await get(`/api/reports/queue/999999`, w.admin)).statusCode).toBe(404);
  });

  it('scope and filters are checked before anything is queued', async () => {
    big();
    const before = await queueCount();
    const status = async (q: string, s: Session = w.coordA) =>
      (await get(`/api/reports/detailed?format=xlsx&${q}`, s)).statusCode;
    expect(await status(`schoolId=${w.b.schoolId}`)).toBe(403);
    expect(await status(`classId=${w.b.classId}`)).toBe(403);
    expect(await status('diagnosticId=999999')).toBe(404);
    expect(await status('startDate=2026-02-30')).toBe(400);
    expect(
      (await get(`/api/reports/specification?format=xlsx&diagnosticId=${w.diagnosticId}`, w.admin))
        .statusCode,
    ).toBe(400); // no specification named or implied
    expect(await queueCount()).toBe(before);
  });

  it('the other reports too: common, cons, control and specification files from the queue', async () => {
    const q = `diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`;
    for (const [report, format] of [
      ['common', 'xlsx'],
      ['cons', 'pdf'],
      ['control', 'xlsx'],
      ['specification', 'xlsx'],
    ] as const) {
      const url = `/api/reports/${report}?${q}&format=${format}`;
      const direct = await atOnce(url, w.admin);
      const id = await queued(url, w.admin);
      const { item, file } = await finished(id, w.admin);
      expect(item.result).toMatchObject({ report, format, rows: 10 });
      if (format === 'xlsx') {
        // The xlsx files match but for the time they were made, if they say it.
        const clean = (books: { name: string; rows: unknown[][] }[]) =>
          books.map((b) => b.rows.filter((r) => !String(r[0]).startsWith('Сформировано')));
        expect(clean(await workbook(file))).toEqual(clean(await workbook(direct)));
      } else expect(file.subarray(0, 5).toString()).toBe('%PDF-');
      expect(progress.get(id)!.at(-1)!.percent).toBe(99);
    }
  });

  it('exports: queued as `export`, the same CSV and xlsx, audited with the queue item', async () => {
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, w.diagnosticId));
    for (const format of ['csv', 'xlsx'] as const) {
      const url = `/api/reports/mrko?diagnosticId=${w.diagnosticId}&format=${format}`;
      const direct = await atOnce(url, w.admin);
      const id = await queued(url, w.admin);
      expect((await itemOf(id, w.admin)).type).toBe('export');
      const { item, file } = await finished(id, w.admin);
      expect(item.result).toMatchObject({ report: 'mrko', format, fileName: `mrko-marks.${format}` });
      if (format === 'csv') {
        expect(file.equals(direct)).toBe(true);
        const rows = parse(file, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
        expect(rows.map((r) => r.participantCode).sort()).toEqual(
          [w.p.p1, w.p.p2, w.p.p4, w.p.p6, w.p.p7, w.p.q1, w.p.q2].map((r) => r.code).sort(),
        );
        expect(rows.find((r) => r.participantCode === w.p.p7.code)!.surname).toBe(`'${FORMULA_SURNAME}`);
        expect(item.result).toMatchObject({ rows: 7 });
      } else expect(await workbook(file)).toEqual(await workbook(direct));
      const events = await t.app.ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'reports.export'), eq(auditEvents.entityId, 'mrko')));
      expect(events.map((e) => e.details)).toContainEqual(
        expect.objectContaining({ format, rows: 7, queueItemId: id }),
      );
    }
  });

  it(`a user has at most ${MAX_QUEUED_REPORTS_PER_USER} queued or running: one more is 429 too_many_queued_reports, the same one answers its item`, async () => {
    const admin = (await signedIn(t.app, ['admin'])).session;
    const other = (await signedIn(t.app, ['admin'])).session;
    const q = `diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`;
    const urls = [
      `/api/reports/common?${q}&format=xlsx`,
      `/api/reports/common?${q}&format=pdf`,
      `/api/reports/cons?${q}&format=xlsx`,
      `/api/reports/cons?${q}&format=pdf`,
      `/api/reports/control?${q}&format=xlsx`,
      `/api/reports/control?${q}&format=pdf`,
      `/api/reports/detailed?${q}&format=xlsx`,
    ];
    expect(urls.length).toBeGreaterThan(MAX_QUEUED_REPORTS_PER_USER);
    const ids = await Promise.all(
      urls.slice(0, MAX_QUEUED_REPORTS_PER_USER).map((url) => queued(url, admin)),
    );
    expect(new Set(ids).size).toBe(MAX_QUEUED_REPORTS_PER_USER);
    const before = await queueCount();
    big();
    // Many more at once: each is refused, none slips in beside another.
    const refused = await Promise.all(urls.slice(MAX_QUEUED_REPORTS_PER_USER).map((url) => get(url, admin)));
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toMatchObject({ status: 429, code: 'too_many_queued_reports' });
    }
    expect(await queueCount()).toBe(before);
    // Asking again for one already queued answers its item; another user is not held back.
    expect(await queued(urls[0]!, admin)).toBe(ids[0]);
    const theirs = await queued(urls.at(-1)!, other);
    // Once built, the places are free again.
    await runner.drain();
    expect((await itemOf(ids[0]!, admin)).status).toBe('done');
    expect(await queued(urls.at(-1)!, admin)).not.toBe(theirs);
  });

  it('a requester who lost the role gets no file: the item fails with forbidden, without retries', async () => {
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: w.a.schoolId });
    const id = await queued('/api/reports/detailed?format=xlsx', coordinator.session);
    await t.app.ctx.db.delete(userRoles).where(eq(userRoles.userId, coordinator.user.id));
    await runner.drain();
    const [row] = await t.app.ctx.db.select().from(queueItems).where(eq(queueItems.id, id));
    expect(row).toMatchObject({ status: 'failed', errorCode: 'forbidden', resultFileId: null, attempts: 1 });
  });
});
