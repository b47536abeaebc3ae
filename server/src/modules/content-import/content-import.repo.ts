import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { StoredBytes } from '../../lib/file-storage/index.js';
import {
  files,
  queueItems,
  subjectExams,
  subjects,
  subjectTests,
  tasks,
  variants,
  variantTasks,
} from '../../db/schema/index.js';

/* Queries of the content import and export. */

/** The owner type of an upload waiting for its import job (the queue item is the owner). */
export const UPLOAD_OWNER = 'content_import';

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function subjectExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.id, id)).limit(1);
  return !!row;
}

export async function storeUpload(
  tx: Tx,
  queueItemId: number,
  upload: {
    name: string;
    mime: string;
    size: number;
    sha256: string;
    bytes: StoredBytes;
    createdBy: number | null;
  },
): Promise<number> {
  const [row] = await tx
    .insert(files)
    .values({
      ownerType: UPLOAD_OWNER,
      ownerId: queueItemId,
      name: upload.name,
      mime: upload.mime,
      size: upload.size,
      sha256: upload.sha256,
      ...upload.bytes,
      createdBy: upload.createdBy,
    })
    .returning({ id: files.id });
  return row!.id;
}

export async function uploadOf(
  db: DbOrTx,
  queueItemId: number,
): Promise<{ id: number; name: string; size: number; storageKey: string | null } | null> {
  const [row] = await db
    .select({ id: files.id, name: files.name, size: files.size, storageKey: files.storageKey })
    .from(files)
    .where(and(eq(files.ownerType, UPLOAD_OWNER), eq(files.ownerId, queueItemId), isNull(files.deletedAt)))
    .orderBy(asc(files.id))
    .limit(1);
  return row ?? null;
}

/** Deletes the upload rows of an import; answers their blob keys (FileStorage.release them once committed). */
export async function dropUploads(db: DbOrTx, queueItemId: number): Promise<(string | null)[]> {
  const rows = await db
    .delete(files)
    .where(and(eq(files.ownerType, UPLOAD_OWNER), eq(files.ownerId, queueItemId)))
    .returning({ key: files.storageKey });
  return rows.map((r) => r.key);
}

/**
 * Locks the queue item for the transaction, if this worker still holds it; false when the lock went
 * to another worker (stale-lock recovery), so nothing may be written for it.
 */
export async function holdQueueItem(tx: Tx, id: number, lockedBy: string | null): Promise<boolean> {
  if (!lockedBy) return false;
  const rows = await tx
    .select({ id: queueItems.id })
    .from(queueItems)
    .where(and(eq(queueItems.id, id), eq(queueItems.status, 'running'), eq(queueItems.lockedBy, lockedBy)))
    .for('update');
  return rows.length > 0;
}

export async function importItem(db: DbOrTx, id: number) {
  const [row] = await db
    .select()
    .from(queueItems)
    .where(and(eq(queueItems.id, id), eq(queueItems.type, 'import')))
    .limit(1);
  return row ?? null;
}

/** The import's queue item, locked for a change of its report. */
export async function importItemForUpdate(tx: Tx, id: number) {
  const [row] = await tx
    .select()
    .from(queueItems)
    .where(and(eq(queueItems.id, id), eq(queueItems.type, 'import')))
    .for('update');
  return row ?? null;
}

export async function setImportReport(tx: Tx, id: number, result: Record<string, unknown>): Promise<void> {
  await tx.update(queueItems).set({ result }).where(eq(queueItems.id, id));
}

/** Sets a current task's full marks; false when the task is gone or was superseded by an edit. */
export async function setTaskMaxScore(tx: Tx, id: number, maxScore: number): Promise<boolean> {
  const rows = await tx
    .update(tasks)
    .set({ maxScore, updatedAt: new Date() })
    .where(and(eq(tasks.id, id), isNull(tasks.supersededAt)))
    .returning({ id: tasks.id });
  return rows.length > 0;
}

/** A subject by its exact name, created when there is none (serialised per name within the transaction). */
export async function subjectNamed(tx: Tx, name: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`content-import subject ${name}`}))`);
  const [found] = await tx
    .select({ id: subjects.id })
    .from(subjects)
    .where(eq(subjects.name, name))
    .orderBy(asc(subjects.id))
    .limit(1);
  if (found) return found.id;
  const [created] = await tx.insert(subjects).values({ name }).returning({ id: subjects.id });
  return created!.id;
}

/** The subject's `diagnostic` exam, created when missing. */
export async function diagnosticExamOf(tx: Tx, subjectId: number): Promise<number> {
  await tx
    .insert(subjectExams)
    .values({ subjectId, kind: 'diagnostic', name: 'Диагностика' })
    .onConflictDoNothing({ target: [subjectExams.subjectId, subjectExams.kind] });
  const [row] = await tx
    .select({ id: subjectExams.id })
    .from(subjectExams)
    .where(and(eq(subjectExams.subjectId, subjectId), eq(subjectExams.kind, 'diagnostic')))
    .limit(1);
  return row!.id;
}

export type NewTask = typeof tasks.$inferInsert;

export async function insertTask(tx: Tx, task: NewTask): Promise<number> {
  const [row] = await tx.insert(tasks).values(task).returning({ id: tasks.id });
  return row!.id;
}

export async function updateTaskHtml(
  tx: Tx,
  id: number,
  parts: { html: string; solutionHtml: string | null; content: Record<string, unknown> },
): Promise<void> {
  await tx.update(tasks).set(parts).where(eq(tasks.id, id));
}

export async function insertTaskFile(
  tx: Tx,
  taskId: number,
  file: { name: string; mime: string; data: Buffer },
  bytes: StoredBytes,
  createdBy: number | null,
): Promise<number> {
  const [row] = await tx
    .insert(files)
    .values({
      ownerType: 'task',
      ownerId: taskId,
      name: file.name,
      mime: file.mime,
      size: file.data.length,
      sha256: sha256(file.data),
      ...bytes,
      createdBy,
    })
    .returning({ id: files.id });
  return row!.id;
}

/** A draft subject test with one variant holding the tasks in order. */
export async function insertDraftTest(
  tx: Tx,
  test: { subjectExamId: number; name: string; sourceId: string; tasks: { id: number; maxScore: number }[] },
): Promise<number> {
  const [st] = await tx
    .insert(subjectTests)
    .values({
      subjectExamId: test.subjectExamId,
      name: test.name,
      durationMinutes: 45,
      status: 'draft',
      sourceId: test.sourceId,
    })
    .returning({ id: subjectTests.id });
  const [variant] = await tx
    .insert(variants)
    .values({ subjectTestId: st!.id, number: 1 })
    .returning({ id: variants.id });
  if (test.tasks.length)
    await tx.insert(variantTasks).values(
      test.tasks.map((t, i) => ({
        variantId: variant!.id,
        taskId: t.id,
        position: i + 1,
        maxScore: t.maxScore,
      })),
    );
  return st!.id;
}

// ---------------------------------------------------------------- export

export async function subjectTestForExport(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: subjectTests.id, name: subjectTests.name, sourceId: subjectTests.sourceId })
    .from(subjectTests)
    .where(eq(subjectTests.id, id))
    .limit(1);
  return row ?? null;
}

/** The current variants of a subject test with their tasks, in order. */
export async function variantTasksForExport(db: DbOrTx, subjectTestId: number) {
  return db
    .select({
      variantId: variants.id,
      number: variants.number,
      position: variantTasks.position,
      maxScore: variantTasks.maxScore,
      task: tasks,
    })
    .from(variants)
    .innerJoin(variantTasks, eq(variantTasks.variantId, variants.id))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(and(eq(variants.subjectTestId, subjectTestId), isNull(variants.supersededAt)))
    .orderBy(asc(variants.number), asc(variantTasks.position));
}

/** Files of tasks (their media), not deleted; their bytes are read with FileStorage.read. */
export async function taskFiles(db: DbOrTx, taskIds: number[]) {
  if (!taskIds.length) return [];
  return db
    .select({
      id: files.id,
      ownerId: files.ownerId,
      name: files.name,
      mime: files.mime,
      size: files.size,
      storageKey: files.storageKey,
    })
    .from(files)
    .where(and(eq(files.ownerType, 'task'), inArray(files.ownerId, taskIds), isNull(files.deletedAt)))
    .orderBy(asc(files.id));
}
