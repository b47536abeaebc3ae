import { and, asc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client.js';
import type { StoredBytes } from '../../lib/file-storage/index.js';
import { answerFiles, examWorks, expertAssignments, files, htmlTexts, tasks } from '../../db/schema/index.js';

/** Everything about a file except its bytes: what access rules and listings need. */
const metaColumns = {
  id: files.id,
  ownerType: files.ownerType,
  ownerId: files.ownerId,
  name: files.name,
  mime: files.mime,
  size: files.size,
  storageKey: files.storageKey,
  createdBy: files.createdBy,
};
export type FileMeta = {
  id: number;
  ownerType: string;
  ownerId: number | null;
  name: string;
  mime: string;
  size: number;
  /** Where the bytes are (lib/file-storage): a blob key, or null when they are in the row. */
  storageKey: string | null;
  createdBy: number | null;
};

export async function findFileMeta(db: DbOrTx, id: number): Promise<FileMeta | null> {
  const [row] = await db
    .select(metaColumns)
    .from(files)
    .where(and(eq(files.id, id), isNull(files.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** The stored text of a file (extracted, or given with it), if any. */
export async function findFileText(db: DbOrTx, id: number): Promise<string | null> {
  const [row] = await db
    .select({ text: files.text })
    .from(files)
    .where(and(eq(files.id, id), isNull(files.deletedAt)))
    .limit(1);
  return row?.text ?? null;
}

export const filesOfOwner = (db: DbOrTx, ownerType: string, ownerId: number): Promise<FileMeta[]> =>
  db
    .select(metaColumns)
    .from(files)
    .where(and(eq(files.ownerType, ownerType), eq(files.ownerId, ownerId), isNull(files.deletedAt)))
    .orderBy(asc(files.id));

export interface NewFile {
  ownerType: string;
  ownerId: number | null;
  name: string;
  mime: string;
  size: number;
  /** Where the bytes went (FileStorage.put). */
  bytes: StoredBytes;
  sha256: string;
  text: string | null;
  createdBy: number | null;
}

export async function insertFile(db: DbOrTx, { bytes, ...file }: NewFile) {
  const [row] = await db
    .insert(files)
    .values({ ...file, ...bytes })
    .returning({ id: files.id, name: files.name, mime: files.mime, size: files.size });
  return row!;
}

/** Bytes of the files a user uploaded and has not deleted (their storage quota counts these). */
export async function storageUsedBy(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(and(eq(files.createdBy, userId), isNull(files.deletedAt)));
  return Number(row?.used ?? 0);
}

/** Key space of the per-user storage lock (pg_advisory_xact_lock(key, userId)). */
const STORAGE_LOCK = 0x0f11e5;

/**
 * Takes the storage lock of one user until the transaction ends: whoever checks that user's quota
 * and then stores files holds it, so concurrent uploads are counted one after the other.
 */
export async function lockStorageOf(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STORAGE_LOCK}::int, ${userId}::int)`);
}

export async function softDeleteFile(db: DbOrTx, id: number): Promise<void> {
  await db.update(files).set({ deletedAt: new Date() }).where(eq(files.id, id));
}

// ---------------------------------------------------------------- owners

export async function htmlTextState(db: DbOrTx, id: number): Promise<{ isPublished: boolean } | null> {
  const [row] = await db
    .select({ isPublished: htmlTexts.isPublished })
    .from(htmlTexts)
    .where(eq(htmlTexts.id, id))
    .limit(1);
  return row ?? null;
}

export async function taskExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, id)).limit(1);
  return !!row;
}

/** Whether an expert has an assignment on an answer to this task (any round, graded or not). */
export async function isTaskOfExpertAssignment(
  db: DbOrTx,
  taskId: number,
  expertId: number,
): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`select 1 as ok from expert_assignments ea
      join variant_tasks vt on vt.id = ea.variant_task_id
      where ea.expert_id = ${expertId} and vt.task_id = ${taskId} limit 1`),
  );
  return rows.length > 0;
}

/**
 * Whether the task is in the variant of a finished, live exam work whose sitting matches `scope`
 * (a condition on \`pt\`, the participant test, and \`diagnostics\`): the works whose variant staff
 * open with the answers given (GET /api/examresults/variant/{id}, the paper form).
 */
export async function isTaskOfFinishedSitting(db: DbOrTx, taskId: number, scope: SQL): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`select 1 as ok from variant_tasks vt
      join exam_works w on w.variant_id = vt.variant_id and w.deleted_at is null and w.finished_at is not null
      join participant_tests pt on pt.id = w.participant_test_id and pt.deleted_at is null
      join diagnostics on diagnostics.id = pt.diagnostic_id and diagnostics.deleted_at is null
      where vt.task_id = ${taskId} and (${scope}) limit 1`),
  );
  return rows.length > 0;
}

/**
 * Whether the task is in a current variant of the subject test of a sitting in scope whose
 * diagnostic has opened: the booklet staff key a paper-only form from
 * (GET /api/exam/test/participantTest/{id}/paper, which shows those tasks from the same moment).
 */
export async function isTaskOfOpenedSittingVariant(db: DbOrTx, taskId: number, scope: SQL): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`select 1 as ok from variant_tasks vt
      join variants v on v.id = vt.variant_id and v.superseded_at is null
      join participant_tests pt on pt.subject_test_id = v.subject_test_id and pt.deleted_at is null
      join diagnostics on diagnostics.id = pt.diagnostic_id and diagnostics.deleted_at is null
        and diagnostics.starts_at <= now()
      where vt.task_id = ${taskId} and (${scope}) limit 1`),
  );
  return rows.length > 0;
}

/**
 * Whether the task is in a variant of a subject test the school sat in a diagnostic whose window
 * has closed or whose results are published: the tasks whose reference a coordinator reads.
 */
export async function isTaskOfSchoolClosedTest(
  db: DbOrTx,
  taskId: number,
  schoolId: number,
): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`select 1 as ok from variant_tasks vt
      join variants v on v.id = vt.variant_id
      join participant_tests pt on pt.subject_test_id = v.subject_test_id and pt.school_id = ${schoolId}
        and pt.deleted_at is null
      join diagnostics d on d.id = pt.diagnostic_id and d.deleted_at is null
        and (d.results_published or d.ends_at <= now())
      where vt.task_id = ${taskId} limit 1`),
  );
  return rows.length > 0;
}

/**
 * Whether a file belongs to an exam work that is finished: as the work's own file (`answer` owner)
 * or attached to one of its answers. Such files are evidence of what was handed in.
 */
export async function isInFinishedWork(db: DbOrTx, file: FileMeta): Promise<boolean> {
  const finished = or(isNotNull(examWorks.finishedAt), inArray(examWorks.status, ['finished', 'scored']));
  const ownWork =
    file.ownerType === 'answer' && file.ownerId !== null ? eq(examWorks.id, file.ownerId) : sql`false`;
  const attached = sql`exists (select 1 from ${answerFiles} af where af.exam_work_id = ${examWorks.id} and af.file_id = ${file.id})`;
  const [hit] = await db
    .select({ id: examWorks.id })
    .from(examWorks)
    .where(and(finished, or(ownWork, attached)))
    .limit(1);
  return !!hit;
}

/** Whether the file is attached to an answer (work + task) the expert is assigned to grade. */
export async function isAttachedToExpertAssignment(
  db: DbOrTx,
  fileId: number,
  expertId: number,
): Promise<boolean> {
  const [hit] = await db
    .select({ id: expertAssignments.id })
    .from(expertAssignments)
    .innerJoin(
      answerFiles,
      and(
        eq(answerFiles.examWorkId, expertAssignments.examWorkId),
        eq(answerFiles.variantTaskId, expertAssignments.variantTaskId),
      ),
    )
    .where(and(eq(answerFiles.fileId, fileId), eq(expertAssignments.expertId, expertId)))
    .limit(1);
  return !!hit;
}
