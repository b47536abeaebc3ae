import { eq } from 'drizzle-orm';
import {
  isManualAnswerType,
  type AuthoringSubject,
  type AuthoringSubjectExam,
  type AuthoringSubjectTest,
  type AuthoringSubjectTestDetail,
  type ContentValidation,
  type SubjectTestBody,
} from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { subjectExams, subjects, subjectTests, testGroups } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { forgetContent } from '../exam-test/index.js';
import { subjectTestCoverage } from '../expert/index.js';
import * as repo from './content.repo.js';
import type { Actor } from './pause-policy.service.js';
import { validateContent, type VariantUnderCheck } from './validation.js';
import { assertNoSecureItems, openTestConflicts } from './open-exposure.js';

/*
 * Subjects, subject exams, test groups and subject tests as the admin authors them (issue 11).
 * Writes are audited and run in one transaction; bad input (400) and refusals (409) change nothing.
 */

export const fieldError = (path: string, message: string, code = 'invalid') =>
  badRequest('validation_failed', `${path} ${message}`, [{ path, message, code }]);

const isUniqueViolation = (err: unknown) =>
  [err, (err as { cause?: unknown } | null)?.cause].some(
    (e) => (e as { code?: string } | null)?.code === '23505',
  );

/** Runs a write; a unique index refusing it (a concurrent twin) becomes the same 409 as the check. */
export async function writing<T>(work: () => Promise<T>, onDuplicate: () => AppError): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw onDuplicate();
    throw err;
  }
}

export const record = (
  tx: Tx,
  actor: Actor,
  action: string,
  entity: string,
  entityId: number,
  details: object,
) =>
  audit(tx, {
    userId: actor.auth.userId,
    action,
    entity,
    entityId,
    details: details as Record<string, unknown>,
    ip: actor.ip,
  });

// ---------------------------------------------------------------- subjects

const codeTaken = () => conflict('code_taken', 'Another subject has this code');

export const subjectList = (db: Db): Promise<AuthoringSubject[]> => repo.listSubjects(db);

export async function createSubject(db: Db, actor: Actor, body: { name: string; code?: string | null }) {
  return writing(
    () =>
      db.transaction(async (tx) => {
        if (body.code && (await repo.subjectByCode(tx, body.code))) throw codeTaken();
        const [row] = await tx
          .insert(subjects)
          .values({ name: body.name, code: body.code ?? null })
          .returning();
        await record(tx, actor, 'content.subject.create', 'subject', row!.id, {
          name: row!.name,
          code: row!.code,
        });
        return (await repo.findSubject(tx, row!.id))!;
      }),
    codeTaken,
  );
}

export async function updateSubject(
  db: Db,
  actor: Actor,
  id: number,
  body: { name: string; code?: string | null },
) {
  return writing(
    () =>
      db.transaction(async (tx) => {
        const before = await repo.lockSubject(tx, id);
        if (!before) throw notFound('No such subject');
        const code = body.code === undefined ? before.code : body.code;
        const other = code ? await repo.subjectByCode(tx, code) : null;
        if (other && other.id !== id) throw codeTaken();
        await tx.update(subjects).set({ name: body.name, code }).where(eq(subjects.id, id));
        await record(tx, actor, 'content.subject.update', 'subject', id, {
          before: { name: before.name, code: before.code },
          after: { name: body.name, code },
        });
        return (await repo.findSubject(tx, id))!;
      }),
    codeTaken,
  );
}

// ---------------------------------------------------------------- subject exams

const examTaken = () => conflict('conflict', 'The subject already has an exam of this kind');
const toExam = (row: typeof subjectExams.$inferSelect): AuthoringSubjectExam => ({
  id: row.id,
  subjectId: row.subjectId,
  kind: row.kind,
  name: row.name,
});

export async function subjectExamList(db: Db, subjectId: number): Promise<AuthoringSubjectExam[]> {
  if (!(await repo.findSubject(db, subjectId))) throw notFound('No such subject');
  return (await repo.examsOfSubject(db, subjectId)).map(toExam);
}

export async function createSubjectExam(
  db: Db,
  actor: Actor,
  subjectId: number,
  body: { kind: string; name: string },
): Promise<AuthoringSubjectExam> {
  return writing(
    () =>
      db.transaction(async (tx) => {
        if (!(await repo.lockSubject(tx, subjectId))) throw notFound('No such subject');
        if (await repo.examOfKind(tx, subjectId, body.kind)) throw examTaken();
        const [row] = await tx
          .insert(subjectExams)
          .values({ subjectId, ...body })
          .returning();
        await record(tx, actor, 'content.subject_exam.create', 'subject_exam', row!.id, {
          subjectId,
          ...body,
        });
        return toExam(row!);
      }),
    examTaken,
  );
}

export async function updateSubjectExam(
  db: Db,
  actor: Actor,
  id: number,
  body: { kind: string; name: string },
): Promise<AuthoringSubjectExam> {
  return writing(
    () =>
      db.transaction(async (tx) => {
        const [before] = await tx.select().from(subjectExams).where(eq(subjectExams.id, id)).for('update');
        if (!before) throw notFound('No such subject exam');
        const twin = await repo.examOfKind(tx, before.subjectId, body.kind);
        if (twin && twin.id !== id) throw examTaken();
        const [row] = await tx.update(subjectExams).set(body).where(eq(subjectExams.id, id)).returning();
        await record(tx, actor, 'content.subject_exam.update', 'subject_exam', id, {
          before: { kind: before.kind, name: before.name },
          after: body,
        });
        return toExam(row!);
      }),
    examTaken,
  );
}

// ---------------------------------------------------------------- test groups

export const testGroupList = (db: Db) => repo.listTestGroups(db);

export async function createTestGroup(db: Db, actor: Actor, body: { name: string }) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(testGroups).values({ name: body.name }).returning();
    await record(tx, actor, 'content.test_group.create', 'test_group', row!.id, { name: body.name });
    return row!;
  });
}

// ---------------------------------------------------------------- subject tests

type SubjectTestView = NonNullable<Awaited<ReturnType<typeof repo.findSubjectTest>>>;

export function toSubjectTest(view: SubjectTestView): AuthoringSubjectTest {
  const t = view.test;
  return {
    id: t.id,
    subjectId: view.subjectId,
    subjectName: view.subjectName,
    subjectExamId: t.subjectExamId,
    kind: view.kind,
    name: t.name,
    status: t.status,
    parallels: t.parallels,
    durationMinutes: t.durationMinutes,
    testGroupId: t.testGroupId,
    description: t.description,
    procedureHtml: t.procedureHtml,
    instructionHtml: t.instructionHtml,
    markScale: t.markScale,
    levelBands: t.levelBands,
    specificationId: t.specificationId,
    sourceId: t.sourceId,
    isOpen: t.isOpen,
    allowCalculator: t.allowCalculator,
    variantCount: view.variantCount,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt?.toISOString() ?? null,
  };
}

export async function subjectTestList(
  db: Db,
  q: Parameters<typeof repo.listSubjectTests>[1],
): Promise<{ items: AuthoringSubjectTest[]; total: number }> {
  const { items, total } = await repo.listSubjectTests(db, q);
  return { items: items.map(toSubjectTest), total };
}

/** One subject test as its page reads it, with the secure tests that keep it from being opened. */
export async function subjectTest(db: DbOrTx, id: number): Promise<AuthoringSubjectTestDetail> {
  const view = await repo.findSubjectTest(db, id);
  if (!view) throw notFound('No such subject test');
  return { ...toSubjectTest(view), openConflicts: await openTestConflicts(db, id, new Date()) };
}

const cleanHtml = (html: string | null | undefined) => {
  if (html === undefined) return undefined;
  const clean = sanitizeHtml(html);
  return clean.trim() ? clean : null;
};

/** Checks the records a subject test names (400 `validation_failed` for a missing one). */
async function checkTestRefs(tx: DbOrTx, body: SubjectTestBody) {
  const exam = await repo.findSubjectExam(tx, body.subjectExamId);
  if (!exam) throw fieldError('body.subjectExamId', 'no such subject exam', 'not_found');
  if (body.testGroupId && !(await repo.testGroupExists(tx, body.testGroupId)))
    throw fieldError('body.testGroupId', 'no such test group', 'not_found');
  if (body.specificationId) {
    const spec = await repo.findSpecification(tx, body.specificationId);
    if (!spec) throw fieldError('body.specificationId', 'no such specification', 'not_found');
    if (spec.subjectId !== null && spec.subjectId !== exam.subjectId)
      throw fieldError('body.specificationId', 'the specification is of another subject', 'other_subject');
  }
  return exam;
}

function testValues(body: SubjectTestBody) {
  return {
    subjectExamId: body.subjectExamId,
    name: body.name,
    parallels: [...body.parallels].sort((a, b) => a - b),
    durationMinutes: body.durationMinutes,
    ...(body.testGroupId !== undefined ? { testGroupId: body.testGroupId } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.procedureHtml !== undefined ? { procedureHtml: cleanHtml(body.procedureHtml) } : {}),
    ...(body.instructionHtml !== undefined ? { instructionHtml: cleanHtml(body.instructionHtml) } : {}),
    ...(body.markScale !== undefined
      ? { markScale: [...body.markScale].sort((a, b) => b.minScore - a.minScore) }
      : {}),
    ...(body.levelBands !== undefined
      ? { levelBands: [...body.levelBands].sort((a, b) => b.minPercent - a.minPercent) }
      : {}),
    ...(body.specificationId !== undefined ? { specificationId: body.specificationId } : {}),
    ...(body.isOpen !== undefined ? { isOpen: body.isOpen } : {}),
    ...(body.allowCalculator !== undefined ? { allowCalculator: body.allowCalculator } : {}),
  };
}

/**
 * A test open to guests shows the result as soon as an attempt is finished, so no task of its
 * current variants may wait for experts (docs/open-tests.md): 400 `open_test_needs_auto_scoring`.
 */
export async function assertOpenable(tx: DbOrTx, subjectTestId: number, path = 'body.isOpen') {
  const manual = (await variantsUnderCheck(tx, subjectTestId))
    .flatMap((v) => v.tasks.map((t) => ({ variant: v.number, position: t.position, task: t.task })))
    .filter(({ task }) => needsExperts(task.answerType, task.content));
  if (!manual.length) return;
  const first = manual[0]!;
  throw badRequest(
    'open_test_needs_auto_scoring',
    `Only a test whose every task is scored automatically can be open: variant ${first.variant}, ` +
      `task ${first.position} is graded by experts`,
    [{ path, message: 'a task is graded by experts', code: 'open_test_needs_auto_scoring' }],
  );
}

/** Whether a task (or a part of a composite task) is graded by experts rather than the engine. */
function needsExperts(answerType: string, content: unknown): boolean {
  if (isManualAnswerType(answerType)) return true;
  const parts = (content as { parts?: unknown } | null)?.parts;
  return (
    Array.isArray(parts) &&
    parts.some(
      (p) =>
        typeof (p as { answerType?: unknown } | null)?.answerType === 'string' &&
        isManualAnswerType((p as { answerType: string }).answerType),
    )
  );
}

export async function createSubjectTest(
  db: Db,
  actor: Actor,
  body: SubjectTestBody,
): Promise<AuthoringSubjectTest> {
  return db.transaction(async (tx) => {
    await checkTestRefs(tx, body);
    const [row] = await tx
      .insert(subjectTests)
      .values({ ...testValues(body), status: 'draft' })
      .returning({ id: subjectTests.id });
    if (body.isOpen) await assertOpenable(tx, row!.id);
    await record(tx, actor, 'content.subject_test.create', 'subject_test', row!.id, { name: body.name });
    return subjectTest(tx, row!.id);
  });
}

export async function updateSubjectTest(
  db: Db,
  actor: Actor,
  id: number,
  body: SubjectTestBody,
): Promise<AuthoringSubjectTest> {
  const result = await db.transaction(async (tx) => {
    const before = await repo.lockSubjectTest(tx, id);
    if (!before) throw notFound('No such subject test');
    const exam = await checkTestRefs(tx, body);
    const was = await repo.findSubjectExam(tx, before.subjectExamId);
    if (was && was.subjectId !== exam.subjectId)
      throw fieldError('body.subjectExamId', 'a subject test stays with its subject', 'other_subject');
    const values = testValues(body);
    if (body.isOpen) await assertOpenable(tx, id);
    // Being opened: none of its items may be one a secure test still uses (open-exposure.ts).
    if (body.isOpen && !before.isOpen) await assertNoSecureItems(tx, id);
    await tx
      .update(subjectTests)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(subjectTests.id, id));
    const changed = Object.fromEntries(
      Object.entries(values).filter(
        ([k, v]) =>
          JSON.stringify((before as Record<string, unknown>)[k] ?? null) !== JSON.stringify(v ?? null),
      ),
    );
    await record(tx, actor, 'content.subject_test.update', 'subject_test', id, {
      changed: Object.keys(changed),
    });
    return subjectTest(tx, id);
  });
  forgetContent(db);
  return result;
}

// ---------------------------------------------------------------- validation and publication

/** The current variants of a test with their tasks, as the validation reads them. */
export async function variantsUnderCheck(db: DbOrTx, subjectTestId: number): Promise<VariantUnderCheck[]> {
  const list = await repo.variantsOfTest(db, subjectTestId);
  const rows = await repo.tasksOfVariants(
    db,
    list.map((v) => v.id),
  );
  return list.map((v) => ({
    id: v.id,
    number: v.number,
    tasks: rows
      .filter((r) => r.variantId === v.id)
      .map((r) => ({
        position: r.position,
        maxScore: Number(r.maxScore),
        task: {
          id: r.task.id,
          answerType: r.task.answerType,
          content: r.task.content,
          reference: r.task.reference,
          scoring: r.task.scoring,
          maxScore: Number(r.task.maxScore),
          criteria: r.task.criteria,
        },
      })),
  }));
}

async function validationOf(
  db: DbOrTx,
  test: { id: number; markScale: { mark: string; minScore: number }[] },
) {
  const result = validateContent({
    markScale: test.markScale,
    variants: await variantsUnderCheck(db, test.id),
  });
  return { valid: result.problems.length === 0, maxScore: result.maxScore, problems: result.problems };
}

/**
 * The check before publication: what stops it, and — a warning that does not — whether experts can
 * grade its expert-graded tasks (two for blind double marking in every grade).
 */
export async function validation(db: Db, id: number): Promise<ContentValidation> {
  const view = await repo.findSubjectTest(db, id);
  if (!view) throw notFound('No such subject test');
  return { ...(await validationOf(db, view.test)), expertCoverage: await subjectTestCoverage(db, id) };
}

export async function publish(db: Db, actor: Actor, id: number): Promise<AuthoringSubjectTest> {
  return db.transaction(async (tx) => {
    const test = await repo.lockSubjectTest(tx, id);
    if (!test) throw notFound('No such subject test');
    const checked = await validationOf(tx, test);
    if (!checked.valid)
      throw new AppError(
        409,
        'content_invalid',
        `The subject test cannot be published: ${checked.problems.length} problem(s). First: ${checked.problems[0]!.message}`,
        checked.problems.slice(0, 500).map((p) => ({
          path: [
            p.variantId !== undefined ? `variants[${p.variantId}]` : 'subjectTest',
            p.position !== undefined ? `tasks[${p.position}]` : null,
          ]
            .filter(Boolean)
            .join('.'),
          message: p.message,
          code: p.code,
          params: {
            ...(p.variantId !== undefined ? { variantId: p.variantId } : {}),
            ...(p.taskId !== undefined ? { taskId: p.taskId } : {}),
            ...(p.position !== undefined ? { position: p.position } : {}),
          },
        })),
      );
    await tx
      .update(subjectTests)
      .set({ status: 'published', updatedAt: new Date() })
      .where(eq(subjectTests.id, id));
    await record(tx, actor, 'content.subject_test.publish', 'subject_test', id, {
      from: test.status,
      maxScore: checked.maxScore,
    });
    return subjectTest(tx, id);
  });
}
