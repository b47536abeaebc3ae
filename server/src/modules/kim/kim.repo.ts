import { and, asc, count, desc, eq, ilike, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  MANUAL_ANSWER_TYPES,
  type SubjectExam,
  type SubjectListFilter,
  type SubjectListItem,
  type SubjectListRequest,
  type SubjectTestListFilter,
  type SubjectTestListItem,
  type SubjectTestListRequest,
  type VariantListFilter,
  type VariantListItem,
  type VariantListRequest,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  examWorks,
  files,
  htmlContainerResources,
  htmlContainers,
  htmlContainerVersions,
  kimTemplates,
  parallels,
  specificationElements,
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
import { containsPattern, listPage, orderOf } from '../../lib/list.js';

// ---------------------------------------------------------------- subjects

// Correlated subqueries name the outer table explicitly: drizzle leaves columns unqualified in
// single-table selects, which would make `id` ambiguous inside the subquery.
const subjectTestCount = sql<number>`(select count(*)::int from subject_tests st
  join subject_exams se on se.id = st.subject_exam_id where se.subject_id = "subjects"."id")`;

function subjectConditions(filter: SubjectListFilter | undefined): SQL | undefined {
  if (!filter?.search) return undefined;
  const pattern = containsPattern(filter.search);
  return or(ilike(subjects.name, pattern), ilike(subjects.code, pattern));
}

export async function listSubjects(
  db: DbOrTx,
  q: SubjectListRequest,
): Promise<{ items: SubjectListItem[]; total: number }> {
  const where = subjectConditions(q.filter);
  const order = orderOf(q.sort, { id: subjects.id, name: subjects.name, code: subjects.code }, subjects.id);
  return listPage(
    db
      .select({ id: subjects.id, name: subjects.name, code: subjects.code, subjectTestCount })
      .from(subjects)
      .where(where),
    order,
    q,
    db.select({ n: count() }).from(subjects).where(where),
  );
}

// ---------------------------------------------------------------- subject tests

const variantCount = sql<number>`(select count(*)::int from variants v where v.subject_test_id = "subject_tests"."id")`;

function subjectTestConditions(filter: SubjectTestListFilter | undefined): SQL | undefined {
  if (!filter) return undefined;
  return and(
    filter.search ? ilike(subjectTests.name, containsPattern(filter.search)) : undefined,
    filter.subjectId !== undefined ? eq(subjectExams.subjectId, filter.subjectId) : undefined,
    filter.subjectExamId !== undefined ? eq(subjectTests.subjectExamId, filter.subjectExamId) : undefined,
    filter.kind !== undefined ? eq(subjectExams.kind, filter.kind) : undefined,
    filter.testGroupId !== undefined ? eq(subjectTests.testGroupId, filter.testGroupId) : undefined,
    filter.parallel !== undefined ? sql`${filter.parallel} = any(${subjectTests.parallels})` : undefined,
  );
}

export async function listSubjectTests(
  db: DbOrTx,
  q: SubjectTestListRequest,
): Promise<{ items: SubjectTestListItem[]; total: number }> {
  const where = subjectTestConditions(q.filter);
  const order = orderOf(
    q.sort,
    {
      id: subjectTests.id,
      name: subjectTests.name,
      subjectName: subjects.name,
      durationMinutes: subjectTests.durationMinutes,
      createdAt: subjectTests.createdAt,
    },
    subjectTests.id,
  );
  const page = await listPage(
    db
      .select({
        id: subjectTests.id,
        name: subjectTests.name,
        subjectId: subjects.id,
        subjectName: subjects.name,
        subjectExamId: subjectTests.subjectExamId,
        kind: subjectExams.kind,
        testGroupId: subjectTests.testGroupId,
        testGroupName: testGroups.name,
        parallels: subjectTests.parallels,
        durationMinutes: subjectTests.durationMinutes,
        variantCount,
        createdAt: subjectTests.createdAt,
      })
      .from(subjectTests)
      .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
      .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
      .leftJoin(testGroups, eq(testGroups.id, subjectTests.testGroupId))
      .where(where),
    order,
    q,
    countSubjectTests(db, where),
  );
  return {
    items: page.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total: page.total,
  };
}

// ---------------------------------------------------------------- variants with content status

const manualTypes = sql.join(
  MANUAL_ANSWER_TYPES.map((t) => sql`${t}`),
  sql`, `,
);

/**
 * A task that cannot be scored yet: an automatically scored one without a reference answer, or an
 * expert-graded one without rubric criteria. Written against the aliases `t` (tasks) and `vt`.
 */
const MISSING_KEY = sql`case when t.answer_type in (${manualTypes})
  then (t.criteria is null or t.criteria = 'null'::jsonb or t.criteria = '[]'::jsonb)
  else (t.reference is null or t.reference = 'null'::jsonb) end`;

const tasksOfVariant = sql`from variant_tasks vt join tasks t on t.id = vt.task_id where vt.variant_id = "variants"."id"`;

const variantStatus = {
  taskCount: sql<number>`(select count(*)::int ${tasksOfVariant})`,
  maxScore: sql<number>`(select coalesce(sum(vt.max_score), 0)::float8 ${tasksOfVariant})`,
  answerTypes: sql<string[]>`array(select distinct t.answer_type ${tasksOfVariant} order by 1)`,
  manualTaskCount: sql<number>`(select count(*)::int ${tasksOfVariant} and t.answer_type in (${manualTypes}))`,
  missingKeyPositions: sql<
    number[]
  >`array(select vt.position ${tasksOfVariant} and ${MISSING_KEY} order by 1)`,
};

function variantConditions(filter: VariantListFilter | undefined): SQL | undefined {
  if (!filter) return undefined;
  return and(
    filter.search ? ilike(subjectTests.name, containsPattern(filter.search)) : undefined,
    filter.subjectId !== undefined ? eq(subjectExams.subjectId, filter.subjectId) : undefined,
    filter.subjectTestId !== undefined ? eq(variants.subjectTestId, filter.subjectTestId) : undefined,
    filter.incomplete === true ? sql`exists(select 1 ${tasksOfVariant} and ${MISSING_KEY})` : undefined,
    filter.incomplete === false ? sql`not exists(select 1 ${tasksOfVariant} and ${MISSING_KEY})` : undefined,
  );
}

export async function listVariants(
  db: DbOrTx,
  q: VariantListRequest,
): Promise<{ items: VariantListItem[]; total: number }> {
  const where = variantConditions(q.filter);
  const order = orderOf(
    q.sort,
    {
      id: variants.id,
      number: variants.number,
      subjectTestName: subjectTests.name,
      taskCount: variantStatus.taskCount,
    },
    variants.id,
  );
  return listPage(
    db
      .select({
        id: variants.id,
        number: variants.number,
        subjectTestId: variants.subjectTestId,
        subjectTestName: subjectTests.name,
        subjectName: subjects.name,
        ...variantStatus,
      })
      .from(variants)
      .innerJoin(subjectTests, eq(subjectTests.id, variants.subjectTestId))
      .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
      .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
      .where(where),
    order,
    q,
    db
      .select({ n: count() })
      .from(variants)
      .innerJoin(subjectTests, eq(subjectTests.id, variants.subjectTestId))
      .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
      .where(where),
  );
}

// ---------------------------------------------------------------- reference lists

export const listParallels = (db: DbOrTx) =>
  db.select({ id: parallels.id, name: parallels.name }).from(parallels).orderBy(asc(parallels.id));

export const listSubjectExams = (db: DbOrTx): Promise<SubjectExam[]> =>
  db
    .select({
      id: subjectExams.id,
      subjectId: subjectExams.subjectId,
      subjectName: subjects.name,
      kind: subjectExams.kind,
      name: subjectExams.name,
    })
    .from(subjectExams)
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .orderBy(asc(subjects.name), asc(subjectExams.kind), asc(subjectExams.id));

// ---------------------------------------------------------------- tasks

export type TaskRow = typeof tasks.$inferSelect;

export async function findTask(db: DbOrTx, id: number): Promise<TaskRow | null> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row ?? null;
}

export async function findVariantTask(db: DbOrTx, variantId: number, position: number) {
  const [row] = await db
    .select({ variantTaskId: variantTasks.id, maxScore: variantTasks.maxScore, task: tasks })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(and(eq(variantTasks.variantId, variantId), eq(variantTasks.position, position)))
    .limit(1);
  return row ?? null;
}

/** Live files attached to tasks (images, attachments shown with the task text). */
export const taskFiles = (db: DbOrTx, taskId: number) =>
  db
    .select({ id: files.id, name: files.name, mime: files.mime })
    .from(files)
    .where(and(eq(files.ownerType, 'task'), eq(files.ownerId, taskId), isNull(files.deletedAt)))
    .orderBy(asc(files.id));

export const taskClassifiers = (db: DbOrTx, taskId: number) =>
  db
    .select({
      id: specificationElements.id,
      code: specificationElements.code,
      name: specificationElements.name,
      kind: specificationElements.kind,
    })
    .from(taskElements)
    .innerJoin(specificationElements, eq(specificationElements.id, taskElements.elementId))
    .where(eq(taskElements.taskId, taskId))
    .orderBy(asc(specificationElements.code));

// ---------------------------------------------------------------- templates, procedure

export async function findKimTemplate(db: DbOrTx, id: number) {
  const [row] = await db.select().from(kimTemplates).where(eq(kimTemplates.id, id)).limit(1);
  return row ?? null;
}

/** The template of a variant's subject test; undefined when the variant does not exist. */
export async function variantTemplateId(db: DbOrTx, variantId: number): Promise<number | null | undefined> {
  const [row] = await db
    .select({ templateId: subjectTests.kimTemplateId })
    .from(variants)
    .innerJoin(subjectTests, eq(subjectTests.id, variants.subjectTestId))
    .where(eq(variants.id, variantId))
    .limit(1);
  return row === undefined ? undefined : row.templateId;
}

export async function findProcedureHtml(db: DbOrTx, subjectTestId: number) {
  const [row] = await db
    .select({ html: subjectTests.procedureHtml })
    .from(subjectTests)
    .where(eq(subjectTests.id, subjectTestId))
    .limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------- html containers

export async function findContainer(db: DbOrTx, id: number) {
  const [row] = await db.select().from(htmlContainers).where(eq(htmlContainers.id, id)).limit(1);
  return row ?? null;
}

export async function containerPaths(db: DbOrTx, containerId: number, version: number): Promise<string[]> {
  const rows = await db
    .select({ path: htmlContainerResources.path })
    .from(htmlContainerResources)
    .where(
      and(eq(htmlContainerResources.containerId, containerId), eq(htmlContainerResources.version, version)),
    )
    .orderBy(asc(htmlContainerResources.path));
  return rows.map((r) => r.path);
}

/** A resource by its exact stored path: no path arithmetic, so `..` can never escape anything. */
export async function findContainerResource(db: DbOrTx, containerId: number, version: number, path: string) {
  const [row] = await db
    .select({ mime: htmlContainerResources.mime, data: htmlContainerResources.data })
    .from(htmlContainerResources)
    .where(
      and(
        eq(htmlContainerResources.containerId, containerId),
        eq(htmlContainerResources.version, version),
        eq(htmlContainerResources.path, path),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The entry page of one version (each version names its own); null for a version without a row. */
export async function containerVersionEntry(db: DbOrTx, containerId: number, version: number) {
  const [row] = await db
    .select({ entry: htmlContainerVersions.entry })
    .from(htmlContainerVersions)
    .where(
      and(eq(htmlContainerVersions.containerId, containerId), eq(htmlContainerVersions.version, version)),
    )
    .limit(1);
  return row?.entry ?? null;
}

/**
 * The version a participant test's live work uses: the newest version uploaded before the work
 * started (a version uploaded during the work is for the next works). Null when the work has not
 * started, or no version row is that old (the container was made or attached later).
 */
export async function containerVersionOfWork(
  db: DbOrTx,
  containerId: number,
  participantTestId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ version: htmlContainerVersions.version })
    .from(examWorks)
    .innerJoin(
      htmlContainerVersions,
      and(
        eq(htmlContainerVersions.containerId, containerId),
        lte(htmlContainerVersions.createdAt, examWorks.startedAt),
      ),
    )
    .where(and(eq(examWorks.participantTestId, participantTestId), isNull(examWorks.deletedAt)))
    .orderBy(desc(htmlContainerVersions.version))
    .limit(1);
  return row?.version ?? null;
}
