import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { scanBatches, scanPages, scanReviewItems } from '../../db/schema/index.js';

export type ScanBatchStatus = 'queued' | 'running' | 'done' | 'failed';
export type NewScanPage = typeof scanPages.$inferInsert;

export async function insertBatch(db: Db, userId: number): Promise<number> {
  const [row] = await db.insert(scanBatches).values({ userId }).returning({ id: scanBatches.id });
  return row!.id;
}

export async function setBatchStatus(db: Db, id: number, status: ScanBatchStatus): Promise<void> {
  const finished = status === 'done' || status === 'failed';
  await db
    .update(scanBatches)
    .set({ status, ...(finished ? { finishedAt: new Date() } : {}) })
    .where(eq(scanBatches.id, id));
}

export async function insertPage(db: Db, page: NewScanPage): Promise<number> {
  const [row] = await db.insert(scanPages).values(page).returning({ id: scanPages.id });
  return row!.id;
}

/**
 * Whether the uploader had a page of these bytes read before, in another batch or earlier in this
 * one (another person's upload of the same file is theirs, and is not looked at).
 */
export async function pageReadBefore(
  db: Db,
  by: { userId: number; batchId: number; fileIndex: number },
  fileSha256: string,
  page: number,
): Promise<boolean> {
  const rows = await db
    .select({ batchId: scanPages.batchId, fileIndex: scanPages.fileIndex })
    .from(scanPages)
    .innerJoin(scanBatches, eq(scanBatches.id, scanPages.batchId))
    .where(
      and(
        eq(scanPages.fileSha256, fileSha256),
        eq(scanPages.page, page),
        eq(scanBatches.userId, by.userId),
        ne(scanPages.status, 'duplicate'),
      ),
    )
    .limit(5);
  return rows.some((r) => r.batchId !== by.batchId || r.fileIndex !== by.fileIndex);
}

export async function findBatch(db: Db, id: number) {
  const [row] = await db
    .select({ id: scanBatches.id, userId: scanBatches.userId, status: scanBatches.status })
    .from(scanBatches)
    .where(eq(scanBatches.id, id));
  return row ?? null;
}

export async function pagesOf(db: Db, batchId: number) {
  return db
    .select({
      file: scanPages.file,
      page: scanPages.page,
      status: scanPages.status,
      registrationCode: scanPages.registrationCode,
      formPage: scanPages.formPage,
      answers: scanPages.answers,
    })
    .from(scanPages)
    .where(eq(scanPages.batchId, batchId))
    .orderBy(asc(scanPages.fileIndex), asc(scanPages.page));
}

/** Batches left queued or running by a process that stopped: their files went with it. */
export async function failUnfinished(db: Db, ids: number[]): Promise<void> {
  if (ids.length)
    await db
      .update(scanBatches)
      .set({ status: 'failed', finishedAt: new Date() })
      .where(and(inArray(scanBatches.id, ids), inArray(scanBatches.status, ['queued', 'running'])));
}

/** A page of an uploader's batches, newest first, and how many they have. */
export async function batchesOf(db: Db, userId: number, page: number, pageSize: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: scanBatches.id,
        status: scanBatches.status,
        createdAt: scanBatches.createdAt,
        finishedAt: scanBatches.finishedAt,
      })
      .from(scanBatches)
      .where(eq(scanBatches.userId, userId))
      .orderBy(desc(scanBatches.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(scanBatches).where(eq(scanBatches.userId, userId)),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Per batch: its files (upload order) and its pages by status. */
export async function pageCountsOf(db: Db, batchIds: number[]) {
  if (!batchIds.length) return [];
  return db
    .select({
      batchId: scanPages.batchId,
      fileIndex: scanPages.fileIndex,
      file: scanPages.file,
      status: scanPages.status,
      n: count(),
    })
    .from(scanPages)
    .where(inArray(scanPages.batchId, batchIds))
    .groupBy(scanPages.batchId, scanPages.fileIndex, scanPages.file, scanPages.status)
    .orderBy(asc(scanPages.batchId), asc(scanPages.fileIndex));
}

/** Per batch: the review items of its pages still open. */
export async function openReviewOf(db: Db, batchIds: number[]) {
  if (!batchIds.length) return [];
  return db
    .select({ batchId: scanPages.batchId, n: sql<number>`count(*)::int` })
    .from(scanReviewItems)
    .innerJoin(scanPages, eq(scanPages.id, scanReviewItems.pageId))
    .where(and(inArray(scanPages.batchId, batchIds), eq(scanReviewItems.status, 'open')))
    .groupBy(scanPages.batchId);
}
