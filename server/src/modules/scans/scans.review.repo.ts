import { and, asc, count, desc, eq, exists, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { ScanReviewQuery } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  classes,
  examWorks,
  files,
  organizatorAssignments,
  participantTests,
  scanBatches,
  scanPages,
  scanReviewItems,
  scanSavedAnswers,
  schools,
  students,
  tasks,
  variantTasks,
  workers,
} from '../../db/schema/index.js';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { PutBytes } from '../../lib/file-storage/index.js';

export type NewReviewItem = typeof scanReviewItems.$inferInsert;
export type ReviewRow = Awaited<ReturnType<typeof listItems>>['items'][number];

export async function insertItems(db: Db, items: NewReviewItem[]): Promise<void> {
  if (items.length) await db.insert(scanReviewItems).values(items);
}

/** Stores a page image as a files row (its bytes where the file storage puts them). */
export async function insertPageImage(
  db: Db,
  put: PutBytes,
  image: { batchId: number; png: Buffer; sha256: string; userId: number },
): Promise<number> {
  const [row] = await db
    .insert(files)
    .values({
      ownerType: 'scan_page',
      ownerId: image.batchId,
      name: 'page.png',
      mime: 'image/png',
      size: image.png.length,
      sha256: image.sha256,
      createdBy: image.userId,
      ...(await put(image.png)),
    })
    .returning({ id: files.id });
  return row!.id;
}

/**
 * Keeps the uploaded file of a page whose pixels could not be decoded (a `scan_file` row owned by
 * the page): the review shows no crop then, and offers the file for download instead.
 */
export async function insertSourceFile(
  db: Db,
  put: PutBytes,
  file: { pageId: number; name: string; mime: string; data: Buffer; userId: number; sha256: string },
): Promise<number> {
  const [row] = await db
    .insert(files)
    .values({
      ownerType: 'scan_file',
      ownerId: file.pageId,
      name: file.name,
      mime: file.mime,
      size: file.data.length,
      sha256: file.sha256,
      createdBy: file.userId,
      ...(await put(file.data)),
    })
    .returning({ id: files.id });
  return row!.id;
}

/** The kept file of a page not decoded (scan_file), or null. */
export async function sourceFileOf(db: Db, pageId: number) {
  const [row] = await db
    .select({
      id: files.id,
      name: files.name,
      mime: files.mime,
      size: files.size,
      storageKey: files.storageKey,
    })
    .from(files)
    .where(and(eq(files.ownerType, 'scan_file'), eq(files.ownerId, pageId), isNull(files.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Which items a caller reaches: an admin every one; others the items of sittings in their reach (a
 * coordinator their school's, an organizator their assigned classes and buildings) and the pages
 * not tied to a sitting that they uploaded themselves.
 */
function reach(auth: AuthContext): SQL | undefined {
  if (hasRole(auth, 'admin')) return undefined;
  const parts: (SQL | undefined)[] = [
    and(isNull(scanReviewItems.participantTestId), eq(scanBatches.userId, auth.userId)),
  ];
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null)
    parts.push(eq(participantTests.schoolId, auth.schoolId));
  if (hasRole(auth, 'organizator'))
    parts.push(
      exists(
        sql`(select 1 from ${organizatorAssignments} where ${organizatorAssignments.userId} = ${auth.userId}
          and (${organizatorAssignments.classId} = ${participantTests.classId}
            or ${organizatorAssignments.buildingId} = ${participantTests.buildingId}))`,
      ),
    );
  return or(...parts);
}

const itemColumns = {
  id: scanReviewItems.id,
  kind: scanReviewItems.kind,
  status: scanReviewItems.status,
  scanBatchId: scanPages.batchId,
  uploaderId: scanBatches.userId,
  pageId: scanPages.id,
  file: scanPages.file,
  page: scanPages.page,
  createdAt: scanReviewItems.createdAt,
  registrationCode: scanPages.registrationCode,
  formPage: scanPages.formPage,
  examWorkId: scanReviewItems.examWorkId,
  participantTestId: scanReviewItems.participantTestId,
  schoolId: participantTests.schoolId,
  buildingId: participantTests.buildingId,
  classId: participantTests.classId,
  className: classes.name,
  schoolName: schools.name,
  student: { surname: students.surname, name: students.name, patronymic: students.patronymic },
  worker: { surname: workers.surname, name: workers.name, patronymic: workers.patronymic },
  variantTaskId: scanReviewItems.variantTaskId,
  part: scanReviewItems.part,
  taskNumber: scanReviewItems.taskNumber,
  answerType: scanReviewItems.answerType,
  choices: scanReviewItems.choices,
  digitColumns: scanReviewItems.digitColumns,
  recognized: scanReviewItems.recognized,
  confidence: scanReviewItems.confidence,
  doubleMark: scanReviewItems.doubleMark,
  savedValue: scanReviewItems.savedValue,
  resolution: scanReviewItems.resolution,
  region: scanReviewItems.region,
  imageFileId: scanPages.imageFileId,
  transform: scanPages.transform,
  problem: scanPages.problem,
  sourceFile: sql<boolean>`exists (select 1 from ${files} f where f.owner_type = 'scan_file'
    and f.owner_id = ${scanPages.id} and f.deleted_at is null)`,
  // The task's content for a grid's legend: only of matching and ordering tasks.
  gridContent: sql<Record<string, unknown> | null>`(select t.content from ${variantTasks} vt
    join ${tasks} t on t.id = vt.task_id
    where vt.id = ${scanReviewItems.variantTaskId}
      and ${scanReviewItems.answerType} in ('matching', 'ordering'))`,
};

const joined = <T extends PgSelect>(q: T) =>
  q
    .innerJoin(scanPages, eq(scanPages.id, scanReviewItems.pageId))
    .innerJoin(scanBatches, eq(scanBatches.id, scanPages.batchId))
    .leftJoin(participantTests, eq(participantTests.id, scanReviewItems.participantTestId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId));

export async function listItems(db: Db, auth: AuthContext, q: ScanReviewQuery) {
  const where = and(
    reach(auth),
    eq(scanReviewItems.status, q.status),
    q.kind ? eq(scanReviewItems.kind, q.kind) : undefined,
    q.classId !== undefined ? eq(participantTests.classId, q.classId) : undefined,
  );
  const [items, [total], counts] = await Promise.all([
    joined(db.select(itemColumns).from(scanReviewItems).$dynamic())
      .where(where)
      .orderBy(asc(scanReviewItems.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    joined(db.select({ n: count() }).from(scanReviewItems).$dynamic()).where(where),
    joined(
      db
        .select({
          classId: participantTests.classId,
          className: classes.name,
          schoolName: schools.name,
          open: count(),
        })
        .from(scanReviewItems)
        .$dynamic(),
    )
      .where(and(reach(auth), eq(scanReviewItems.status, 'open')))
      .groupBy(participantTests.classId, classes.name, schools.name)
      .orderBy(desc(count())),
  ]);
  return { items, total: total?.n ?? 0, counts };
}

export async function findItem(db: Db, id: number) {
  const [row] = await joined(db.select(itemColumns).from(scanReviewItems).$dynamic()).where(
    eq(scanReviewItems.id, id),
  );
  return row ?? null;
}

/** Marks an open item resolved; false when it was not open any more (someone resolved it first). */
export async function resolveItem(
  db: Db,
  id: number,
  resolution: 'accepted' | 'set' | 'keyed' | 'identified' | 'dismissed',
  userId: number,
): Promise<boolean> {
  const rows = await db
    .update(scanReviewItems)
    .set({ status: 'resolved', resolution, resolvedBy: userId, resolvedAt: new Date() })
    .where(and(eq(scanReviewItems.id, id), eq(scanReviewItems.status, 'open')))
    .returning({ id: scanReviewItems.id });
  return rows.length === 1;
}

/** Reopens an item whose save failed after it was claimed. */
export async function reopenItem(db: Db, id: number): Promise<void> {
  await db
    .update(scanReviewItems)
    .set({ status: 'open', resolution: null, resolvedBy: null, resolvedAt: null })
    .where(eq(scanReviewItems.id, id));
}

// ------------------------------------------------------------------ what scans saved

export async function scanSavedOf(db: Db, examWorkId: number): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ variantTaskId: scanSavedAnswers.variantTaskId, value: scanSavedAnswers.value })
    .from(scanSavedAnswers)
    .where(eq(scanSavedAnswers.examWorkId, examWorkId));
  return new Map(rows.map((r) => [r.variantTaskId, r.value]));
}

export async function recordScanSaved(
  db: Db,
  examWorkId: number,
  pageId: number,
  list: { variantTaskId: number; value: string[] }[],
): Promise<void> {
  if (!list.length) return;
  await db
    .insert(scanSavedAnswers)
    .values(list.map((a) => ({ examWorkId, pageId, variantTaskId: a.variantTaskId, value: a.value })))
    .onConflictDoUpdate({
      target: [scanSavedAnswers.examWorkId, scanSavedAnswers.variantTaskId],
      set: { value: sql`excluded.value`, pageId: sql`excluded.page_id`, savedAt: new Date() },
    });
}

// ------------------------------------------------------------------ pages of a work

/** Pages of a work read off scans (its bubbles read, doubtful or not), oldest first. */
export async function readPagesOf(db: Db, examWorkId: number) {
  return db
    .select({
      id: scanPages.id,
      formPage: scanPages.formPage,
      layoutVersion: scanPages.layoutVersion,
      applied: scanPages.applied,
      answers: scanPages.answers,
      imageFileId: scanPages.imageFileId,
      transform: scanPages.transform,
    })
    .from(scanPages)
    .where(
      and(
        eq(scanPages.examWorkId, examWorkId),
        or(eq(scanPages.status, 'recognized'), eq(scanPages.problem, 'doubtful_marks')),
      ),
    )
    .orderBy(asc(scanPages.id));
}

export async function markApplied(db: Db, pageId: number): Promise<void> {
  await db.update(scanPages).set({ applied: true }).where(eq(scanPages.id, pageId));
}

/** A live work of the sitting of a registration code (for a page a person identifies). */
export async function workOfRegistration(db: Db, registrationCode: string) {
  const [row] = await db
    .select({ examWorkId: examWorks.id })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        eq(participantTests.registrationCode, registrationCode),
        isNull(examWorks.deletedAt),
        isNull(participantTests.deletedAt),
      ),
    )
    .orderBy(desc(examWorks.id))
    .limit(1);
  return row ?? null;
}

export async function updatePage(db: Db, id: number, values: Partial<typeof scanPages.$inferInsert>) {
  await db.update(scanPages).set(values).where(eq(scanPages.id, id));
}

// ------------------------------------------------------------------ pages waiting for their work

/** Of these works, those with scanned pages read but not applied yet (waiting for the work to end). */
export async function worksWithWaitingPages(db: DbOrTx, examWorkIds: readonly number[]): Promise<number[]> {
  if (!examWorkIds.length) return [];
  const rows = await db
    .selectDistinct({ examWorkId: scanPages.examWorkId })
    .from(scanPages)
    .where(
      and(
        inArray(scanPages.examWorkId, [...examWorkIds]),
        eq(scanPages.applied, false),
        or(eq(scanPages.status, 'recognized'), eq(scanPages.problem, 'doubtful_marks')),
      ),
    );
  return rows.map((r) => r.examWorkId).filter((id) => id !== null);
}

/** Who uploaded the oldest waiting page of a work: its pages are applied as that person keyed them. */
export async function waitingUploaderOf(db: Db, examWorkId: number): Promise<number | null> {
  const [row] = await db
    .select({ userId: scanBatches.userId })
    .from(scanPages)
    .innerJoin(scanBatches, eq(scanBatches.id, scanPages.batchId))
    .where(
      and(
        eq(scanPages.examWorkId, examWorkId),
        eq(scanPages.applied, false),
        or(eq(scanPages.status, 'recognized'), eq(scanPages.problem, 'doubtful_marks')),
      ),
    )
    .orderBy(asc(scanPages.id))
    .limit(1);
  return row?.userId ?? null;
}

/**
 * Closes the open doubtful items of these tasks left by earlier scans of the same page of a work
 * (pages read before `pageId`): a newer scan read the task clearly and saved it, or asked to
 * replace what was saved, so the older doubt is settled (`dismissed`, by whoever's scan it was).
 */
export async function closeOlderDoubtful(
  db: Db,
  page: { id: number; examWorkId: number; formPage: number | null },
  variantTaskIds: readonly number[],
  userId: number,
): Promise<void> {
  if (!variantTaskIds.length || page.formPage === null) return;
  const earlier = db
    .select({ id: scanPages.id })
    .from(scanPages)
    .where(
      and(
        eq(scanPages.examWorkId, page.examWorkId),
        eq(scanPages.formPage, page.formPage),
        sql`${scanPages.id} < ${page.id}`,
      ),
    );
  await db
    .update(scanReviewItems)
    .set({ status: 'resolved', resolution: 'dismissed', resolvedBy: userId, resolvedAt: new Date() })
    .where(
      and(
        eq(scanReviewItems.kind, 'doubtful'),
        eq(scanReviewItems.status, 'open'),
        eq(scanReviewItems.examWorkId, page.examWorkId),
        inArray(scanReviewItems.variantTaskId, [...variantTaskIds]),
        inArray(scanReviewItems.pageId, earlier),
      ),
    );
}
