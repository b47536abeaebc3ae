import type { AuthoringVariant, GenerateVariantsBody, VariantBody } from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { forgetContent, forgetVariantUse } from '../exam-test/index.js';
import { assertOpenable, fieldError, record } from './catalog.service.js';
import * as repo from './content.repo.js';
import { drawVariants } from './generate.js';
import { assertNoSecureItems } from './open-exposure.js';
import type { Actor } from './pause-policy.service.js';

/*
 * Variants of a subject test (issue 11). A variant a work was started on is never changed: an edit
 * makes a new variant row with the same number (previousVersionId) and supersedes the old one,
 * which keeps its works and is offered to no new work (exam-test's variant spread reads current
 * variants only). A variant no work uses is edited in place, or deleted.
 */

export type VariantTaskInput = { taskId: number; maxScore: number };

export async function presentVariants(
  db: DbOrTx,
  list: readonly repo.VariantRow[],
): Promise<AuthoringVariant[]> {
  const ids = list.map((v) => v.id);
  const [rows, used] = await Promise.all([repo.tasksOfVariants(db, ids), repo.variantsUsedByWorks(db, ids)]);
  return list.map((v) => {
    const tasks = rows
      .filter((r) => r.variantId === v.id)
      .map((r) => ({
        variantTaskId: r.variantTaskId,
        position: r.position,
        taskId: r.task.id,
        answerType: r.task.answerType,
        title: r.task.title,
        maxScore: Number(r.maxScore),
        taskVersion: r.task.version,
      }));
    return {
      id: v.id,
      subjectTestId: v.subjectTestId,
      number: v.number,
      previousVersionId: v.previousVersionId,
      supersededAt: v.supersededAt?.toISOString() ?? null,
      usedByWorks: used.has(v.id),
      maxScore: Math.round(tasks.reduce((s, t) => s + t.maxScore, 0) * 1e6) / 1e6,
      tasks,
    };
  });
}

const presentOne = async (db: DbOrTx, variant: repo.VariantRow) => (await presentVariants(db, [variant]))[0]!;

/** Content changed: the exam forgets what it cached and counts its rooms again. */
export function contentChanged(db: Db) {
  forgetContent(db);
  forgetVariantUse(db);
}

export async function variantList(db: Db, subjectTestId: number): Promise<AuthoringVariant[]> {
  if (!(await repo.findSubjectTest(db, subjectTestId))) throw notFound('No such subject test');
  return presentVariants(db, await repo.variantsOfTest(db, subjectTestId));
}

/**
 * The tasks of a variant as asked: current tasks of the test's subject (or of no subject), each
 * position's max score defaulting to the task's. 400 names the offending position.
 */
async function resolveTasks(
  tx: DbOrTx,
  subjectId: number,
  list: readonly { taskId: number; maxScore?: number | undefined }[],
  path = 'body.tasks',
): Promise<VariantTaskInput[]> {
  const found = new Map(
    (
      await repo.findTasks(
        tx,
        list.map((t) => t.taskId),
      )
    ).map((t) => [t.id, t]),
  );
  return list.map((t, i) => {
    const task = found.get(t.taskId);
    if (!task) throw fieldError(`${path}.${i}.taskId`, `no task ${t.taskId}`, 'not_found');
    if (task.supersededAt)
      throw fieldError(`${path}.${i}.taskId`, `task ${t.taskId} was replaced or withdrawn`, 'superseded');
    if (task.subjectId !== null && task.subjectId !== subjectId)
      throw fieldError(`${path}.${i}.taskId`, `task ${t.taskId} is of another subject`, 'other_subject');
    return { taskId: task.id, maxScore: t.maxScore ?? Number(task.maxScore) };
  });
}

async function lockedTest(tx: Tx, subjectTestId: number) {
  const test = await repo.lockSubjectTest(tx, subjectTestId);
  if (!test) throw notFound('No such subject test');
  const view = (await repo.findSubjectTest(tx, subjectTestId))!;
  /** After the variants changed: a test open to guests keeps every task scored automatically. */
  const stillOpenable = async (path = 'body.tasks') => {
    if (!test.isOpen) return;
    await assertOpenable(tx, subjectTestId, path);
    // Nor may it take an item a secure test still uses (open-exposure.ts).
    await assertNoSecureItems(tx, subjectTestId, path);
  };
  return { test, subjectId: view.subjectId, stillOpenable };
}

export async function createVariant(
  db: Db,
  actor: Actor,
  subjectTestId: number,
  body: VariantBody,
): Promise<AuthoringVariant> {
  const result = await db.transaction(async (tx) => {
    const { subjectId, stillOpenable } = await lockedTest(tx, subjectTestId);
    const list = await resolveTasks(tx, subjectId, body.tasks);
    const number = body.number ?? (await repo.nextVariantNumber(tx, subjectTestId));
    if (await repo.currentVariantNumbered(tx, subjectTestId, number))
      throw conflict('conflict', `The test already has a variant ${number}`);
    const variant = await repo.insertVariant(tx, { subjectTestId, number });
    await repo.insertVariantTasks(tx, variant.id, list);
    await stillOpenable();
    await record(tx, actor, 'content.variant.create', 'variant', variant.id, {
      subjectTestId,
      number,
      taskIds: list.map((t) => t.taskId),
    });
    return presentOne(tx, variant);
  });
  contentChanged(db);
  return result;
}

/** Supersedes a used variant by a new row of the same number holding `list`. */
export async function replaceVariant(
  tx: Tx,
  old: repo.VariantRow,
  list: readonly VariantTaskInput[],
  at: Date,
) {
  await repo.supersedeVariant(tx, old.id, at);
  const fresh = await repo.insertVariant(tx, {
    subjectTestId: old.subjectTestId,
    number: old.number,
    previousVersionId: old.id,
  });
  await repo.insertVariantTasks(tx, fresh.id, list);
  return fresh;
}

export async function updateVariant(
  db: Db,
  actor: Actor,
  id: number,
  body: { tasks: VariantBody['tasks'] },
): Promise<AuthoringVariant> {
  const result = await db.transaction(async (tx) => {
    const [variant] = await repo.lockVariants(tx, [id]);
    if (!variant) throw notFound('No such variant');
    if (variant.supersededAt)
      throw conflict('conflict', 'This variant was replaced by a newer version: edit that one');
    const { subjectId, stillOpenable } = await lockedTest(tx, variant.subjectTestId);
    const list = await resolveTasks(tx, subjectId, body.tasks);
    const used = (await repo.variantsUsedByWorks(tx, [id])).has(id);
    let current = variant;
    if (used) current = await replaceVariant(tx, variant, list, new Date());
    else {
      await repo.deleteVariantTasks(tx, id);
      await repo.insertVariantTasks(tx, id, list);
    }
    await stillOpenable();
    await record(
      tx,
      actor,
      used ? 'content.variant.version' : 'content.variant.update',
      'variant',
      current.id,
      {
        ...(used ? { previousVersionId: id } : {}),
        taskIds: list.map((t) => t.taskId),
      },
    );
    return presentOne(tx, current);
  });
  contentChanged(db);
  return result;
}

export async function deleteVariant(db: Db, actor: Actor, id: number) {
  await db.transaction(async (tx) => {
    const [variant] = await repo.lockVariants(tx, [id]);
    if (!variant) throw notFound('No such variant');
    if ((await repo.variantsUsedByWorks(tx, [id])).has(id))
      throw conflict('has_exam_works', 'Works were started on this variant: it cannot be deleted');
    await repo.deleteVariantTasks(tx, id);
    await repo.deleteVariant(tx, id);
    await record(tx, actor, 'content.variant.delete', 'variant', id, {
      subjectTestId: variant.subjectTestId,
      number: variant.number,
    });
  });
  contentChanged(db);
  return { ok: true as const };
}

export async function generateVariants(
  db: Db,
  actor: Actor,
  subjectTestId: number,
  body: GenerateVariantsBody,
): Promise<AuthoringVariant[]> {
  const result = await db.transaction(async (tx) => {
    const { subjectId, stillOpenable } = await lockedTest(tx, subjectTestId);
    const elementIds = body.blueprint.flatMap((r) => (r.elementId !== undefined ? [r.elementId] : []));
    const known = new Set((await repo.findElements(tx, elementIds)).map((e) => e.id));
    body.blueprint.forEach((r, i) => {
      if (r.elementId !== undefined && !known.has(r.elementId))
        throw fieldError(
          `body.blueprint.${i}.elementId`,
          `no specification element ${r.elementId}`,
          'not_found',
        );
    });
    const pool = (await repo.poolOf(tx, subjectId)).map((t) => ({ ...t, maxScore: Number(t.maxScore) }));
    const drawn = drawVariants(pool, body.blueprint, body.count, body.seed);
    if (!drawn.ok) {
      const f = drawn.failure;
      if (f.kind === 'mixed_max_score')
        throw fieldError(
          `body.blueprint.${f.row}.maxScore`,
          `the tasks of this row are worth ${f.scores.join(', ')} points: give maxScore`,
          'mixed_max_score',
        );
      throw new AppError(
        409,
        'pool_too_small',
        `Blueprint row ${f.row + 1} needs ${f.needed} distinct task(s) per variant, the pool has ${f.available}`,
        [
          {
            path: `body.blueprint.${f.row}`,
            message: `needs ${f.needed}, the pool has ${f.available}`,
            code: 'pool_too_small',
            params: { row: f.row, needed: f.needed, available: f.available },
          },
        ],
      );
    }
    let number = await repo.nextVariantNumber(tx, subjectTestId);
    const created: repo.VariantRow[] = [];
    for (const list of drawn.variants) {
      const variant = await repo.insertVariant(tx, { subjectTestId, number: number++ });
      await repo.insertVariantTasks(tx, variant.id, list);
      created.push(variant);
    }
    await stillOpenable('body.blueprint');
    await record(tx, actor, 'content.variant.generate', 'subject_test', subjectTestId, {
      seed: body.seed,
      count: body.count,
      blueprint: body.blueprint,
      variantIds: created.map((v) => v.id),
    });
    return presentVariants(tx, created);
  });
  contentChanged(db);
  return result;
}
