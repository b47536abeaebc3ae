import type { AnswerType, BlankLayout, ScanReviewList } from '@attesta/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerFiles,
  auditEvents,
  files,
  scanBatches,
  scanPages,
  scanReviewItems,
} from '../../db/schema/index.js';
import { enqueue } from '../../jobs/queue.js';
import { fillForm, markBubble, scannedPdf } from '../../../test/omr.js';
import { rasterizePdf, type PageImage } from '../../../test/pdf.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  tasksOfEveryType,
  type ExamWorkOptions,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';
import { SCAN_CLEANUP_JOB, cleanUpScanImages } from './scans.cleanup.js';
import { uploadAndWait } from './test-support.js';

/*
 * Page images of settled batches are deleted after the retention (SCAN_IMAGE_RETENTION_DAYS), by
 * the job queue; a batch a person or a work still needs keeps them, and so do the crops answers hold.
 */

let t: TestApp;
let org: OrgFixture;
let coordinator: Awaited<ReturnType<typeof signedIn>>;
const TASKS = tasksOfEveryType();
const FILE = 9;
const ESSAY = 8;

interface Form {
  workId: number;
  taskIds: number[];
  layout: BlankLayout;
  answerTypes: Map<number, AnswerType>;
  blankPages: PageImage[];
}

async function sitting(work: ExamWorkOptions): Promise<Form> {
  const pt = await createParticipantTest(t.app, org);
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, TASKS);
  const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId, work);
  const url = `/api/exam/test/examwork/${workId}/blanks`;
  const headers = { cookie: coordinator.session.cookie };
  return {
    workId,
    taskIds: variant.variantTaskIds,
    layout: (await t.app.inject({ method: 'GET', url: `${url}?format=layout`, headers })).json<BlankLayout>(),
    answerTypes: new Map(variant.variantTaskIds.map((id, i) => [id, TASKS[i]!.answerType as AnswerType])),
    blankPages: await rasterizePdf((await t.app.inject({ method: 'GET', url, headers })).rawPayload, 150),
  };
}

/** The form filled, with writing in the answer areas of the file and extended-text tasks. */
async function scanOf(form: Form): Promise<Buffer> {
  const filled = fillForm(form.blankPages, form.layout, form.answerTypes, false);
  const areas = new Set([form.taskIds[FILE], form.taskIds[ESSAY]]);
  form.layout.pages.forEach((page, p) => {
    for (const box of page.boxes.filter((b) => areas.has(b.variantTaskId)))
      for (let k = 1; k <= 6; k++)
        markBubble(
          filled.pages[p]!,
          {
            variantTaskId: box.variantTaskId,
            value: '',
            x: box.x + (k * box.w) / 7,
            y: box.y + box.h / 2,
            r: 5,
          },
          { kind: 'disc', grey: 40 },
        );
  });
  return scannedPdf(filled.pages, { rotate: 1.5, noise: 4 });
}

async function batchIdOf(form: Form): Promise<number> {
  const [row] = await t.app.ctx.db
    .select({ batchId: scanPages.batchId })
    .from(scanPages)
    .where(eq(scanPages.examWorkId, form.workId))
    .limit(1);
  return row!.batchId;
}

const imagesOf = (batchId: number) =>
  t.app.ctx.db
    .select({ pageId: scanPages.id, fileId: scanPages.imageFileId })
    .from(scanPages)
    .where(and(eq(scanPages.batchId, batchId), isNotNull(scanPages.imageFileId)));

const openItemsOf = async (workId: number) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/scans/review?pageSize=200',
    headers: coordinator.session.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json<ScanReviewList>().items;
  const [work] = await t.database.query<{ registration_code: string }>(
    'select pt.registration_code from exam_works w join participant_tests pt on pt.id = w.participant_test_id where w.id = $1',
    [workId],
  );
  return items.filter((i) => i.registrationCode === work!.registration_code);
};

/** Keys every open text box of the work: its batch is settled then. */
async function settle(workId: number) {
  for (const item of await openItemsOf(workId)) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/scans/review/${item.id}`,
      headers: coordinator.session.headers,
      payload: { action: 'key', text: 'seven' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  expect(await openItemsOf(workId)).toEqual([]);
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
}, 60_000);
afterAll(async () => t?.close());

describe('page images of settled batches after the retention', () => {
  it('are deleted by the clean-up job (audited); an unsettled batch, a waiting one and the crops answers hold keep theirs', async () => {
    const headers = coordinator.session.headers;
    // Settled: a paper work read whole, its text boxes keyed.
    const settled = await sitting({ answerMode: 'blank' });
    await uploadAndWait(t.app, headers, [{ filename: 'settled.pdf', data: await scanOf(settled) }]);
    await settle(settled.workId);
    // Unsettled: its text boxes still wait for a person.
    const open = await sitting({ answerMode: 'blank' });
    await uploadAndWait(t.app, headers, [{ filename: 'open.pdf', data: await scanOf(open) }]);
    expect((await openItemsOf(open.workId)).length).toBeGreaterThan(0);
    // Waiting: a work still written online, its pages not applied yet (no open item left).
    const online = await sitting({});
    await uploadAndWait(t.app, headers, [{ filename: 'online.pdf', data: await scanOf(online) }]);
    // Its text boxes cannot be keyed while it runs (409): closed here, so only its waiting pages hold it.
    await t.app.ctx.db
      .update(scanReviewItems)
      .set({ status: 'resolved', resolution: 'dismissed' })
      .where(eq(scanReviewItems.examWorkId, online.workId));
    expect(await openItemsOf(online.workId)).toEqual([]);

    const [settledBatch, openBatch, onlineBatch] = (await Promise.all(
      [settled, open, online].map(batchIdOf),
    )) as [number, number, number];
    const settledImages = await imagesOf(settledBatch);
    expect(settledImages.length).toBe(settled.layout.pages.length);
    // The crops attached to the file and extended-text answers: files of their own.
    const held = await t.app.ctx.db
      .select({ fileId: answerFiles.fileId })
      .from(answerFiles)
      .where(eq(answerFiles.examWorkId, settled.workId));
    expect(held).toHaveLength(2);

    // Within the retention (90 days by default) nothing is deleted.
    const soon = await cleanUpScanImages(t.app.ctx, t.app.ctx.config.scanImageRetentionDays);
    expect(soon.batches).toBe(0);
    expect(await imagesOf(settledBatch)).toHaveLength(settledImages.length);

    // 100 days later: the job deletes the settled batch's page images only.
    await t.app.ctx.db
      .update(scanBatches)
      .set({ finishedAt: new Date(Date.now() - 100 * 24 * 3_600_000) })
      .where(inArray(scanBatches.id, [settledBatch, openBatch, onlineBatch]));
    await enqueue(t.app.ctx.db, { type: SCAN_CLEANUP_JOB, dedupeKey: SCAN_CLEANUP_JOB });
    await t.app.jobs.drain();

    expect(await imagesOf(settledBatch)).toEqual([]);
    const gone = await t.app.ctx.db
      .select({ id: files.id })
      .from(files)
      .where(
        inArray(
          files.id,
          settledImages.map((i) => i.fileId!),
        ),
      );
    expect(gone).toEqual([]);
    expect((await imagesOf(openBatch)).length).toBe(open.layout.pages.length);
    expect((await imagesOf(onlineBatch)).length).toBe(online.layout.pages.length);
    // An open item's crop is still there.
    const [item] = await openItemsOf(open.workId);
    const crop = await t.app.inject({ method: 'GET', url: `/api/scans/review/${item!.id}/crop`, headers });
    expect(crop.statusCode).toBe(200);
    // The answers' crops are kept and still download.
    for (const { fileId } of held) {
      const res = await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers });
      expect(res.statusCode, `answer file ${fileId}`).toBe(200);
    }
    const [audited] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'scan_batch.images_deleted'),
          eq(auditEvents.entityId, String(settledBatch)),
        ),
      );
    expect(audited).toMatchObject({ entity: 'scan_batch', reason: 'retention', userId: null });
    expect(audited!.details).toMatchObject({ retentionDays: 90, files: settledImages.length });
    expect(
      await t.app.ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'scan_batch.images_deleted')),
    ).toHaveLength(1);

    // A second pass deletes nothing more.
    expect((await cleanUpScanImages(t.app.ctx, 90)).batches).toBe(0);
  }, 240_000);

  it('keeps everything when the retention is 0 (kept for ever)', async () => {
    expect(await cleanUpScanImages(t.app.ctx, 0)).toEqual({ batches: 0, files: 0, bytes: 0 });
  });
});
