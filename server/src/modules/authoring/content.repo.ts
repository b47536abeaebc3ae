import { and, asc, count, eq, exists, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  examWorks,
  files,
  specificationElements,
  specifications,
  subjectExams,
  subjects,
  subjectTests,
  taskElements,
  tasks,
  testGroups,
  variants,
  variantTasks,
} from '../../db/schema/index.js';
import { countSubjectTests } from '../../db/fragments.js';
import { containsPattern, listPage, orderOf, type SortSpec } from '../../lib/list.js';

/* Queries of content authoring. Services decide; nothing here checks a rule. */

export type TaskRow = typeof tasks.$inferSelect;
export type VariantRow = typeof variants.$inferSelect;
export type SubjectTestRow = typeof subjectTests.$inferSelect;
export type ElementRow = typeof specificationElements.$inferSelect;

// ---------------------------------------------------------------- subjects, exams, groups

const examCount = sql<number>`(select count(*)::int from subject_exams e where e.subject_id = "subjects"."id")`;
const poolCount = sql<number>`(select count(*)::int from tasks t where t.subject_id = "subjects"."id" and t.superseded_at is null)`;

export const listSubjects = (db: DbOrTx) =>
  db
    .select({ id: subjects.id, name: subjects.name, code: subjects.code, examCount, taskCount: poolCount })
    .from(subjects)
    .orderBy(asc(subjects.name), asc(subjects.id));

export async function findSubject(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: subjects.id, name: subjects.name, code: subjects.code, examCount, taskCount: poolCount })
    .from(subjects)
    .where(eq(subjects.id, id));
  return row ?? null;
}

export async function lockSubject(tx: Tx, id: number) {
  const [row] = await tx.select().from(subjects).where(eq(subjects.id, id)).for('update');
  return row ?? null;
}

export async function subjectByCode(db: DbOrTx, code: string) {
  const [row] = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.code, code));
  return row ?? null;
}

export const examsOfSubject = (db: DbOrTx, subjectId: number) =>
  db.select().from(subjectExams).where(eq(subjectExams.subjectId, subjectId)).orderBy(asc(subjectExams.id));

export async function findSubjectExam(db: DbOrTx, id: number) {
  const [row] = await db.select().from(subjectExams).where(eq(subjectExams.id, id));
  return row ?? null;
}

export async function examOfKind(db: DbOrTx, subjectId: number, kind: string) {
  const [row] = await db
    .select({ id: subjectExams.id })
    .from(subjectExams)
    .where(and(eq(subjectExams.subjectId, subjectId), eq(subjectExams.kind, kind)));
  return row ?? null;
}

export const listTestGroups = (db: DbOrTx) =>
  db.select().from(testGroups).orderBy(asc(testGroups.name), asc(testGroups.id));

export async function testGroupExists(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: testGroups.id }).from(testGroups).where(eq(testGroups.id, id));
  return !!row;
}

// ---------------------------------------------------------------- subject tests

const variantCount = sql<number>`(select count(*)::int from variants v where v.subject_test_id = "subject_tests"."id" and v.superseded_at is null)`;

const subjectTestColumns = {
  test: subjectTests,
  subjectId: subjectExams.subjectId,
  subjectName: subjects.name,
  kind: subjectExams.kind,
  variantCount,
};

const subjectTestQuery = (db: DbOrTx) =>
  db
    .select(subjectTestColumns)
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId));

export type SubjectTestView = Awaited<ReturnType<typeof findSubjectTest>> & object;

export async function findSubjectTest(db: DbOrTx, id: number) {
  const [row] = await subjectTestQuery(db).where(eq(subjectTests.id, id));
  return row ?? null;
}

export async function lockSubjectTest(tx: Tx, id: number) {
  const [row] = await tx.select().from(subjectTests).where(eq(subjectTests.id, id)).for('update');
  return row ?? null;
}

export interface SubjectTestFilter {
  search?: string | undefined;
  subjectId?: number | undefined;
  subjectExamId?: number | undefined;
  kind?: string | undefined;
  testGroupId?: number | undefined;
  parallel?: number | undefined;
  status?: string | undefined;
}

export async function listSubjectTests(
  db: DbOrTx,
  q: {
    page: number;
    pageSize: number;
    sort?:
      | SortSpec<'id' | 'name' | 'createdAt' | 'updatedAt'>
      | SortSpec<'id' | 'name' | 'createdAt' | 'updatedAt'>[];
    filter?: SubjectTestFilter | undefined;
  },
) {
  const f = q.filter ?? {};
  const where = and(
    f.search ? ilike(subjectTests.name, containsPattern(f.search)) : undefined,
    f.subjectId !== undefined ? eq(subjectExams.subjectId, f.subjectId) : undefined,
    f.subjectExamId !== undefined ? eq(subjectTests.subjectExamId, f.subjectExamId) : undefined,
    f.kind !== undefined ? eq(subjectExams.kind, f.kind) : undefined,
    f.testGroupId !== undefined ? eq(subjectTests.testGroupId, f.testGroupId) : undefined,
    f.parallel !== undefined ? sql`${f.parallel} = any(${subjectTests.parallels})` : undefined,
    f.status !== undefined ? eq(subjectTests.status, f.status) : undefined,
  );
  const order = orderOf(
    q.sort,
    {
      id: subjectTests.id,
      name: subjectTests.name,
      createdAt: subjectTests.createdAt,
      updatedAt: subjectTests.updatedAt,
    },
    subjectTests.id,
  );
  return listPage(subjectTestQuery(db).where(where), order, q, countSubjectTests(db, where));
}

// ---------------------------------------------------------------- variants

/** Variants of a subject test, current ones only unless told. */
export const variantsOfTest = (db: DbOrTx, subjectTestId: number) =>
  db
    .select()
    .from(variants)
    .where(and(eq(variants.subjectTestId, subjectTestId), isNull(variants.supersededAt)))
    .orderBy(asc(variants.number), asc(variants.id));

export async function findVariant(db: DbOrTx, id: number) {
  const [row] = await db.select().from(variants).where(eq(variants.id, id));
  return row ?? null;
}

/** Locks variant rows against a work starting on them (its foreign key waits for the lock). */
export async function lockVariants(tx: Tx, ids: readonly number[]) {
  if (!ids.length) return [];
  return tx
    .select()
    .from(variants)
    .where(inArray(variants.id, [...ids]))
    .orderBy(asc(variants.id))
    .for('update');
}

export async function nextVariantNumber(db: DbOrTx, subjectTestId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${variants.number}), 0)::int` })
    .from(variants)
    .where(eq(variants.subjectTestId, subjectTestId));
  return (row?.n ?? 0) + 1;
}

export async function currentVariantNumbered(db: DbOrTx, subjectTestId: number, number: number) {
  const [row] = await db
    .select({ id: variants.id })
    .from(variants)
    .where(
      and(
        eq(variants.subjectTestId, subjectTestId),
        eq(variants.number, number),
        isNull(variants.supersededAt),
      ),
    );
  return row ?? null;
}

/** Ids among `variantIds` that an exam work (started, finished or deleted) uses. */
export async function variantsUsedByWorks(db: DbOrTx, variantIds: readonly number[]): Promise<Set<number>> {
  if (!variantIds.length) return new Set();
  const rows = await db
    .selectDistinct({ id: examWorks.variantId })
    .from(examWorks)
    .where(inArray(examWorks.variantId, [...variantIds]));
  return new Set(rows.map((r) => r.id));
}

export interface VariantTaskRow {
  variantTaskId: number;
  variantId: number;
  position: number;
  maxScore: number;
  task: TaskRow;
}

/** Task rows of variants, by variant then position. */
export const tasksOfVariants = (db: DbOrTx, variantIds: readonly number[]): Promise<VariantTaskRow[]> =>
  variantIds.length
    ? db
        .select({
          variantTaskId: variantTasks.id,
          variantId: variantTasks.variantId,
          position: variantTasks.position,
          maxScore: variantTasks.maxScore,
          task: tasks,
        })
        .from(variantTasks)
        .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
        .where(inArray(variantTasks.variantId, [...variantIds]))
        .orderBy(asc(variantTasks.variantId), asc(variantTasks.position))
    : Promise.resolve([]);

export async function insertVariant(
  tx: Tx,
  values: { subjectTestId: number; number: number; previousVersionId?: number | null },
) {
  const [row] = await tx.insert(variants).values(values).returning();
  return row!;
}

export async function insertVariantTasks(
  tx: Tx,
  variantId: number,
  list: readonly { taskId: number; maxScore: number }[],
) {
  if (!list.length) return;
  await tx
    .insert(variantTasks)
    .values(list.map((t, i) => ({ variantId, taskId: t.taskId, position: i + 1, maxScore: t.maxScore })));
}

export const deleteVariantTasks = (tx: Tx, variantId: number) =>
  tx.delete(variantTasks).where(eq(variantTasks.variantId, variantId));

export const deleteVariant = (tx: Tx, variantId: number) =>
  tx.delete(variants).where(eq(variants.id, variantId));

export const supersedeVariant = (tx: Tx, variantId: number, at: Date) =>
  tx.update(variants).set({ supersededAt: at }).where(eq(variants.id, variantId));

/** Current variants holding a task. */
export async function currentVariantsWithTask(db: DbOrTx, taskId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: variantTasks.variantId })
    .from(variantTasks)
    .innerJoin(variants, eq(variants.id, variantTasks.variantId))
    .where(and(eq(variantTasks.taskId, taskId), isNull(variants.supersededAt)));
  return rows.map((r) => r.id);
}

export const repointVariantTask = (tx: Tx, variantId: number, fromTaskId: number, toTaskId: number) =>
  tx
    .update(variantTasks)
    .set({ taskId: toTaskId })
    .where(and(eq(variantTasks.variantId, variantId), eq(variantTasks.taskId, fromTaskId)));

export const setVariantTaskScore = (tx: Tx, variantId: number, taskId: number, maxScore: number) =>
  tx
    .update(variantTasks)
    .set({ maxScore })
    .where(and(eq(variantTasks.variantId, variantId), eq(variantTasks.taskId, taskId)));

// ---------------------------------------------------------------- tasks

export async function findTask(db: DbOrTx, id: number) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id));
  return row ?? null;
}

export async function lockTask(tx: Tx, id: number) {
  const [row] = await tx.select().from(tasks).where(eq(tasks.id, id)).for('update');
  return row ?? null;
}

export const findTasks = (db: DbOrTx, ids: readonly number[]) =>
  ids.length
    ? db
        .select()
        .from(tasks)
        .where(inArray(tasks.id, [...ids]))
    : Promise.resolve([]);

/** Whether a work was started on a variant that holds the task. */
export async function isTaskUsedByWorks(db: DbOrTx, taskId: number): Promise<boolean> {
  const [hit] = await db
    .select({ one: sql<number>`1` })
    .from(variantTasks)
    .innerJoin(examWorks, eq(examWorks.variantId, variantTasks.variantId))
    .where(eq(variantTasks.taskId, taskId))
    .limit(1);
  return !!hit;
}

/** Of these tasks, those a started work has. */
export async function tasksUsedByWorks(db: DbOrTx, taskIds: readonly number[]): Promise<Set<number>> {
  if (!taskIds.length) return new Set();
  const rows = await db
    .selectDistinct({ id: variantTasks.taskId })
    .from(variantTasks)
    .innerJoin(examWorks, eq(examWorks.variantId, variantTasks.variantId))
    .where(inArray(variantTasks.taskId, [...taskIds]));
  return new Set(rows.map((r) => r.id));
}

export async function insertTask(tx: Tx, values: typeof tasks.$inferInsert) {
  const [row] = await tx.insert(tasks).values(values).returning();
  return row!;
}

export async function updateTask(tx: Tx, id: number, values: Partial<typeof tasks.$inferInsert>) {
  const [row] = await tx.update(tasks).set(values).where(eq(tasks.id, id)).returning();
  return row!;
}

export const elementIdsOfTask = async (db: DbOrTx, taskId: number) =>
  (
    await db
      .select({ id: taskElements.elementId })
      .from(taskElements)
      .where(eq(taskElements.taskId, taskId))
      .orderBy(asc(taskElements.elementId))
  ).map((r) => r.id);

export async function setTaskElements(tx: Tx, taskId: number, elementIds: readonly number[]) {
  await tx.delete(taskElements).where(eq(taskElements.taskId, taskId));
  if (elementIds.length)
    await tx.insert(taskElements).values(elementIds.map((elementId) => ({ taskId, elementId })));
}

export const filesOfTask = (db: DbOrTx, taskId: number) =>
  db
    .select({ id: files.id, name: files.name, mime: files.mime })
    .from(files)
    .where(and(eq(files.ownerType, 'task'), eq(files.ownerId, taskId), isNull(files.deletedAt)))
    .orderBy(asc(files.id));

/**
 * A new version sees the files of the one it replaces: copies of their rows, owned by it. A file
 * kept in a blob store is not copied: both rows name the same blob (lib/file-storage).
 */
export async function copyTaskFiles(tx: Tx, fromTaskId: number, toTaskId: number) {
  await tx.execute(sql`
    insert into files (owner_type, owner_id, name, mime, size, sha256, data, storage_key, text, created_by)
    select owner_type, ${toTaskId}, name, mime, size, sha256, data, storage_key, text, created_by
    from files where owner_type = 'task' and owner_id = ${fromTaskId} and deleted_at is null
    order by id`);
}

/** Every version of a task: the chain through previousVersionId, both ways, oldest first. */
export async function taskLineage(db: DbOrTx, taskId: number): Promise<TaskRow[]> {
  const first = await findTask(db, taskId);
  if (!first) return [];
  const chain: TaskRow[] = [first];
  const seen = new Set([first.id]);
  for (let prev = first.previousVersionId; prev !== null && !seen.has(prev);) {
    const row = await findTask(db, prev);
    if (!row) break;
    seen.add(row.id);
    chain.unshift(row);
    prev = row.previousVersionId;
  }
  for (let last = first.id; ;) {
    const [next] = await db
      .select()
      .from(tasks)
      .where(eq(tasks.previousVersionId, last))
      .orderBy(asc(tasks.id));
    if (!next || seen.has(next.id)) break;
    seen.add(next.id);
    chain.push(next);
    last = next.id;
  }
  return chain;
}

export interface TaskFilter {
  subjectId?: number | undefined;
  category?: string | undefined;
  answerType?: string | undefined;
  search?: string | undefined;
  elementId?: number | undefined;
}

const categoryWhere = (category: string): SQL =>
  or(
    eq(tasks.category, category),
    ilike(tasks.category, `${category.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`),
  )!;

export async function listTasks(
  db: DbOrTx,
  q: {
    page: number;
    pageSize: number;
    sort?:
      | SortSpec<'id' | 'title' | 'category' | 'createdAt' | 'updatedAt'>
      | SortSpec<'id' | 'title' | 'category' | 'createdAt' | 'updatedAt'>[];
    filter?: TaskFilter | undefined;
  },
) {
  const f = q.filter ?? {};
  const where = and(
    isNull(tasks.supersededAt),
    f.subjectId !== undefined ? eq(tasks.subjectId, f.subjectId) : undefined,
    f.category ? categoryWhere(f.category) : undefined,
    f.answerType ? eq(tasks.answerType, f.answerType) : undefined,
    f.search
      ? or(
          ilike(tasks.title, containsPattern(f.search)),
          ilike(tasks.html, containsPattern(f.search)),
          ilike(tasks.sourceId, containsPattern(f.search)),
        )
      : undefined,
    f.elementId !== undefined
      ? exists(
          db
            .select({ one: sql`1` })
            .from(taskElements)
            .where(and(eq(taskElements.taskId, tasks.id), eq(taskElements.elementId, f.elementId))),
        )
      : undefined,
  );
  const order = orderOf(
    q.sort,
    {
      id: tasks.id,
      title: tasks.title,
      category: tasks.category,
      createdAt: tasks.createdAt,
      updatedAt: tasks.updatedAt,
    },
    tasks.id,
  );
  return listPage(
    db.select().from(tasks).where(where),
    order,
    q,
    db.select({ n: count() }).from(tasks).where(where),
  );
}

/** The current tasks of a subject's pool, with their classifiers, in id order (the draw is seeded over it). */
export async function poolOf(db: DbOrTx, subjectId: number) {
  const rows = await db
    .select({ id: tasks.id, category: tasks.category, maxScore: tasks.maxScore })
    .from(tasks)
    .where(and(eq(tasks.subjectId, subjectId), isNull(tasks.supersededAt)))
    .orderBy(asc(tasks.id));
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db
        .select({ taskId: taskElements.taskId, elementId: taskElements.elementId })
        .from(taskElements)
        .where(inArray(taskElements.taskId, ids))
    : [];
  const elements = new Map<number, Set<number>>();
  for (const l of links) {
    let set = elements.get(l.taskId);
    if (!set) elements.set(l.taskId, (set = new Set()));
    set.add(l.elementId);
  }
  return rows.map((r) => ({ ...r, elementIds: elements.get(r.id) ?? new Set<number>() }));
}

// ---------------------------------------------------------------- specifications

const elementCount = sql<number>`(select count(*)::int from specification_elements se where se.specification_id = "specifications"."id")`;

const specificationColumns = {
  id: specifications.id,
  name: specifications.name,
  subjectId: specifications.subjectId,
  parallel: specifications.parallel,
  description: specifications.description,
  elementCount,
};

export const listSpecifications = (db: DbOrTx, subjectId?: number) =>
  db
    .select(specificationColumns)
    .from(specifications)
    .where(subjectId !== undefined ? eq(specifications.subjectId, subjectId) : undefined)
    .orderBy(asc(specifications.name), asc(specifications.id));

export async function findSpecification(db: DbOrTx, id: number) {
  const [row] = await db.select(specificationColumns).from(specifications).where(eq(specifications.id, id));
  return row ?? null;
}

export async function lockSpecification(tx: Tx, id: number) {
  const [row] = await tx.select().from(specifications).where(eq(specifications.id, id)).for('update');
  return row ?? null;
}

export const elementsOf = (db: DbOrTx, specificationId: number) =>
  db
    .select()
    .from(specificationElements)
    .where(eq(specificationElements.specificationId, specificationId))
    .orderBy(asc(specificationElements.position), asc(specificationElements.id));

export async function findElement(db: DbOrTx, id: number) {
  const [row] = await db.select().from(specificationElements).where(eq(specificationElements.id, id));
  return row ?? null;
}

export const findElements = (db: DbOrTx, ids: readonly number[]) =>
  ids.length
    ? db
        .select()
        .from(specificationElements)
        .where(inArray(specificationElements.id, [...ids]))
    : Promise.resolve([]);

export async function subjectTestsUsingSpecification(db: DbOrTx, specificationId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(subjectTests)
    .where(eq(subjectTests.specificationId, specificationId));
  return row?.n ?? 0;
}

/** Tasks classified by any of these elements. */
export async function tasksClassifiedBy(db: DbOrTx, elementIds: readonly number[]) {
  if (!elementIds.length) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(taskElements)
    .where(inArray(taskElements.elementId, [...elementIds]));
  return row?.n ?? 0;
}
