import type {
  ScanBatch,
  ScanBatchList,
  ScanBatchListQuery,
  ScanBatchSummary,
  ScanQueued,
} from '@attesta/contract';
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import type { IncomingFile, Spool } from '../../lib/multipart.js';
import { createHash } from 'node:crypto';
import type { BlankCode, WorkActor } from '../exam-test/index.js';
import { readUploadForm } from '../files/index.js';
import { openScan } from './decode.js';
import { recognizePage, type GreyImage, type PageForm } from './recognize.js';
import { pagePng } from './scans.crop.js';
import { ScanQueue } from './scans.queue.js';
import * as repo from './scans.repo.js';
import * as review from './scans.review.repo.js';
import { afterRead, formLoader, type ScanForm } from './scans.save.js';

/** One file of an upload may have this many bytes (a 300-page scan at 200 dpi, JPEG inside). */
export const SCAN_MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Files in one upload. */
export const SCAN_MAX_FILES = 20;

/** The process's queue of batches; a batch that fails is logged and marked failed. */
export function scanQueue(ctx: AppContext, log: (batchId: number, error: unknown) => void): ScanQueue {
  return new ScanQueue(async (batchId, error) => {
    log(batchId, error);
    await repo.setBatchStatus(ctx.db, batchId, 'failed').catch(() => undefined);
  });
}

/**
 * Takes an upload of scans: reads the form's files (streamed to disk, each within
 * SCAN_MAX_FILE_BYTES), opens each to check it is a scan it can read — its kind, its header's pixel
 * count, a PDF's structure and page count — and only then creates the batch and queues it. A file
 * refused answers 400 and creates nothing. The spool is handed to the queue, which removes it.
 */
export async function acceptScans(
  ctx: AppContext,
  queue: ScanQueue,
  auth: AuthContext,
  req: FastifyRequest,
  spool: Spool,
): Promise<ScanQueued> {
  const { files } = await readUploadForm(req, spool, async () => ({
    perFileBytes: SCAN_MAX_FILE_BYTES,
    quotaBytes: null,
  }));
  if (!files.length) throw badRequest('no_file', 'Send the scans as files of the form');
  for (const file of files) {
    if (file.size === 0) throw badRequest('no_file', `The file ${file.name || '(no name)'} is empty`);
    const opened = await openScan(await file.read());
    await opened.close();
  }
  const scanBatchId = await repo.insertBatch(ctx.db, auth.userId);
  queue.add(
    scanBatchId,
    () => readBatch(ctx, queue, auth, scanBatchId, files).finally(() => spool.cleanup()),
    () => repo.failUnfinished(ctx.db, [scanBatchId]).finally(() => spool.cleanup()),
  );
  return { scanBatchId };
}

/**
 * The form a page's code names, as the uploader may read it: the work must be live, the code's
 * registration code the work's own, and the work within the uploader's reach (a coordinator's
 * school, an organizator's classes); anything else is no form of theirs (the page is unidentified).
 */
export function formsFor(ctx: AppContext, auth: AuthContext) {
  const load = formLoader(ctx, auth);
  const found = new Map<number, ScanForm>();
  const reloaded = new Set<number>();
  const formOf = async (code: BlankCode): Promise<PageForm | null> => {
    let form = await load(code.examWorkId);
    // A version the form cached for this batch does not know may be a form printed after a page
    // of this batch saved answers (and so changed the form): the work's layouts are read again once.
    if (
      form &&
      code.layoutVersion &&
      !form.layouts.has(code.layoutVersion) &&
      !reloaded.has(code.examWorkId)
    ) {
      reloaded.add(code.examWorkId);
      form = await load(code.examWorkId, { fresh: true });
    }
    if (!form || form.registrationCode !== code.registrationCode) return null;
    // The layout the sheet was printed with, when the work could have printed it; else the layout
    // now, which the reader refuses (layout_changed) for a code of another version.
    const printed = code.layoutVersion ? form.layouts.get(code.layoutVersion) : undefined;
    const page = printed
      ? printed.pages[code.page - 1]
      : (form.layout.pages[code.page - 1] ?? form.layout.pages[0]);
    if (!page) return null;
    found.set(code.examWorkId, form);
    return {
      page,
      layoutVersion: printed ? code.layoutVersion! : form.layoutVersion,
      answerTypes: form.answerTypes,
    };
  };
  return {
    formOf,
    formFor: (code: BlankCode | null) => (code ? (found.get(code.examWorkId) ?? null) : null),
  };
}

/** Keeps the page as read (a grey PNG in the file storage): review crops are cut from it. */
export async function storePageImage(
  ctx: AppContext,
  batchId: number,
  userId: number,
  image: GreyImage,
): Promise<number> {
  const png = await pagePng(image);
  const sha256 = createHash('sha256').update(png).digest('hex');
  return ctx.files.staged((put) => review.insertPageImage(ctx.db, put, { batchId, png, sha256, userId }));
}

/** The type of a kept scan file, by what its first bytes say it is. */
const SCAN_MIME = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
} as const;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads a batch page by page, storing each page's reading as it goes. */
async function readBatch(
  ctx: AppContext,
  queue: ScanQueue,
  auth: AuthContext,
  batchId: number,
  files: IncomingFile[],
): Promise<void> {
  await repo.setBatchStatus(ctx.db, batchId, 'running');
  const { formOf, formFor } = formsFor(ctx, auth);
  const actor: WorkActor = { auth, ip: null, deviceId: null };
  for (const [i, file] of files.entries()) {
    const base = { batchId, file: file.name, fileIndex: i + 1, fileSha256: file.sha256 };
    const bytes = await file.read();
    const scan = await openScan(bytes);
    let page = 0;
    try {
      for await (const decoded of scan.pages()) {
        page = decoded.page;
        if (queue.stopping) throw new Error('the server is closing');
        if (
          await repo.pageReadBefore(
            ctx.db,
            { userId: auth.userId, batchId, fileIndex: i + 1 },
            file.sha256,
            page,
          )
        ) {
          await repo.insertPage(ctx.db, { ...base, page, status: 'duplicate' });
          continue;
        }
        const read = await recognizePage(decoded.image, formOf);
        const imageFileId = await storePageImage(ctx, batchId, auth.userId, decoded.image);
        const id = await repo.insertPage(ctx.db, {
          ...base,
          page,
          status: read.status,
          problem: read.problem,
          registrationCode: read.code?.registrationCode ?? null,
          examWorkId: read.code?.examWorkId ?? null,
          formPage: read.code?.page ?? null,
          layoutVersion: read.transform ? (read.code?.layoutVersion ?? null) : null,
          answers: read.tasks.map((t) => ({
            variantTaskId: t.variantTaskId,
            value: t.value,
            confidence: t.confidence,
          })),
          imageFileId,
          transform: read.transform ? [...read.transform] : null,
        });
        await afterRead(ctx, actor, { id, read, form: read.code ? formFor(read.code) : null });
        await nextTurn();
      }
    } catch (error) {
      // A page whose pixels cannot be decoded (a file damaged past its header): the rest of the file is lost.
      if (!(error instanceof AppError)) throw error;
      const id = await repo.insertPage(ctx.db, {
        ...base,
        page: page + 1,
        status: 'unidentified',
        problem: error.code,
      });
      // No image to crop: the file itself is kept, for a person to download and look at.
      await ctx.files.staged((put) =>
        review.insertSourceFile(ctx.db, put, {
          pageId: id,
          name: file.name,
          mime: SCAN_MIME[scan.kind],
          data: bytes,
          userId: auth.userId,
          sha256: file.sha256,
        }),
      );
      await review.insertItems(ctx.db, [{ kind: 'unidentified', pageId: id }]);
    }
  }
  await repo.setBatchStatus(ctx.db, batchId, 'done');
}

/** Scope of GET /api/scans/{id}: the uploader's own batches; an admin's, any. 404 for none. */
export const scanBatchScope: ScopeRule = async (req, auth) => {
  const { id } = req.params as { id: number };
  const batch = await repo.findBatch(req.server.ctx.db, id);
  if (!batch) throw notFound('No such scan batch');
  return batch.userId === auth.userId || hasRole(auth, 'admin');
};

export async function scanBatch(ctx: AppContext, id: number): Promise<ScanBatch> {
  const batch = await repo.findBatch(ctx.db, id);
  if (!batch) throw notFound('No such scan batch');
  const pages = await repo.pagesOf(ctx.db, id);
  return {
    status: batch.status as ScanBatch['status'],
    pages: pages.map((p) => ({
      file: p.file,
      page: p.page,
      status: p.status as ScanBatch['pages'][number]['status'],
      registrationCode: p.registrationCode,
      formPage: p.formPage,
      answers: p.answers as ScanBatch['pages'][number]['answers'],
    })),
  };
}

/**
 * GET /api/scans: the caller's own uploads, newest first (whatever the role: another person's
 * batch is read by its uploader, or by an admin who knows its id), each with its files, its pages
 * by status and its review items still open.
 */
export async function myBatches(
  ctx: AppContext,
  auth: AuthContext,
  q: ScanBatchListQuery,
): Promise<ScanBatchList> {
  const { rows, total } = await repo.batchesOf(ctx.db, auth.userId, q.page, q.pageSize);
  const ids = rows.map((r) => r.id);
  const [pages, open] = await Promise.all([repo.pageCountsOf(ctx.db, ids), repo.openReviewOf(ctx.db, ids)]);
  const openOf = new Map(open.map((o) => [o.batchId, Number(o.n)]));
  return {
    total,
    items: rows.map((r) => {
      const mine = pages.filter((p) => p.batchId === r.id);
      const counts: ScanBatchSummary['pages'] = {
        recognized: 0,
        needs_review: 0,
        unidentified: 0,
        duplicate: 0,
      };
      for (const p of mine) if (p.status in counts) counts[p.status as keyof typeof counts] += Number(p.n);
      return {
        id: r.id,
        status: r.status as ScanBatchSummary['status'],
        createdAt: r.createdAt.toISOString(),
        finishedAt: r.finishedAt?.toISOString() ?? null,
        files: [...new Set(mine.map((p) => p.file))],
        pages: counts,
        openReview: openOf.get(r.id) ?? 0,
      };
    }),
  };
}
