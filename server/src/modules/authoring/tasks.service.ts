import { eq } from 'drizzle-orm';
import {
  taskDefinitionSchema,
  type AuthoringTask,
  type FieldError,
  type TaskCreateBody,
  type TaskScoreResult,
  type TaskUpdateBody,
} from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { htmlContainers } from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { htmlToText, sanitizeHtml } from '../../lib/sanitize.js';
import { InvalidTaskError, scoreAnswer } from '../scoring/index.js';
import { fieldError, record } from './catalog.service.js';
import * as repo from './content.repo.js';
import type { Actor } from './pause-policy.service.js';
import { contentChanged, replaceVariant } from './variants.service.js';

/*
 * Tasks of a subject's pool (issue 11). A task is written whole: its definition (answer type,
 * content, reference, scoring, max score, criteria) must pass the contract's task model. A task a
 * started work has (through its variant) is never changed in place: an update makes a new row
 * (version + 1, previousVersionId; the same subject, category and source), the old row is
 * superseded, current variants no work uses are repointed to the new row, and a current variant a
 * work uses gets a new version holding it. Old works keep the rows they took, so their scores and
 * results do not change.
 */

type TaskRow = repo.TaskRow;

async function present(db: DbOrTx, row: TaskRow): Promise<AuthoringTask> {
  const [elementIds, files, used] = await Promise.all([
    repo.elementIdsOfTask(db, row.id),
    repo.filesOfTask(db, row.id),
    repo.isTaskUsedByWorks(db, row.id),
  ]);
  return {
    id: row.id,
    answerType: row.answerType,
    html: row.html,
    content: row.content,
    reference: row.reference ?? null,
    scoring: row.scoring,
    maxScore: Number(row.maxScore),
    solutionHtml: row.solutionHtml,
    criteria: row.criteria ?? null,
    htmlContainerId: row.htmlContainerId,
    subjectId: row.subjectId,
    category: row.category,
    title: row.title,
    sourceId: row.sourceId,
    sourceFormat: row.sourceFormat,
    version: row.version,
    previousVersionId: row.previousVersionId,
    supersededAt: row.supersededAt?.toISOString() ?? null,
    elementIds,
    files,
    usedByWorks: used,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt?.toISOString() ?? null,
  };
}

export async function task(db: Db, id: number): Promise<AuthoringTask> {
  const row = await repo.findTask(db, id);
  if (!row) throw notFound('No such task');
  return present(db, row);
}

export async function taskList(db: Db, q: Parameters<typeof repo.listTasks>[1]) {
  const { items, total } = await repo.listTasks(db, q);
  return {
    items: items.map((t) => ({
      id: t.id,
      answerType: t.answerType,
      subjectId: t.subjectId,
      category: t.category,
      title: t.title,
      text: htmlToText(t.html).slice(0, 200),
      maxScore: Number(t.maxScore),
      version: t.version,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt?.toISOString() ?? null,
    })),
    total,
  };
}

// ---------------------------------------------------------------- the definition

/**
 * The stored parts of a task from its body: the definition checked by the task model (400
 * `invalid_task` with every failing field), contract defaults applied; criteria keep their step.
 */
function definitionOf(body: TaskUpdateBody) {
  const criteria = body.criteria ?? null;
  const parsed = taskDefinitionSchema.safeParse({
    answerType: body.answerType,
    content: body.content,
    reference: body.reference ?? null,
    scoring: body.scoring,
    maxScore: body.maxScore,
    criteria: criteria?.map(({ step: _step, ...c }) => c),
  });
  const errors: FieldError[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({
        path: ['body', ...i.path].join('.'),
        message: i.message,
        code: i.code,
      }));
  criteria?.forEach((c, i) => {
    if (c.step !== undefined && Math.abs(c.maxScore / c.step - Math.round(c.maxScore / c.step)) > 1e-9)
      errors.push({
        path: `body.criteria.${i}.step`,
        message: 'maxScore must be a multiple of step',
        code: 'step',
      });
  });
  if (!parsed.success || errors.length)
    throw badRequest(
      'invalid_task',
      `The task does not follow the task model: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`.slice(
        0,
        500,
      ),
      errors,
    );
  const def = parsed.data;
  return {
    answerType: def.answerType,
    content: def.content as Record<string, unknown>,
    reference: def.reference as unknown,
    scoring: def.scoring as Record<string, unknown>,
    maxScore: def.maxScore,
    criteria,
  };
}

async function checkContainer(db: DbOrTx, id: number | null | undefined) {
  if (id === null || id === undefined) return;
  const [row] = await db
    .select({ id: htmlContainers.id })
    .from(htmlContainers)
    .where(eq(htmlContainers.id, id));
  if (!row) throw fieldError('body.htmlContainerId', 'no such html container', 'not_found');
}

async function checkElements(db: DbOrTx, ids: readonly number[], path: string) {
  const found = new Set((await repo.findElements(db, ids)).map((e) => e.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0)
    throw fieldError(`${path}.${missing}`, `no specification element ${ids[missing]}`, 'not_found');
}

function valuesOf(body: TaskUpdateBody) {
  const html = sanitizeHtml(body.html);
  if (!html.trim()) throw fieldError('body.html', 'nothing is left of the task text once cleaned', 'empty');
  return {
    ...definitionOf(body),
    html,
    solutionHtml: body.solutionHtml ? sanitizeHtml(body.solutionHtml) || null : null,
    category: body.category ?? null,
    title: body.title ?? null,
    htmlContainerId: body.htmlContainerId ?? null,
  };
}

// ---------------------------------------------------------------- writes

export async function createTask(db: Db, actor: Actor, body: TaskCreateBody): Promise<AuthoringTask> {
  const values = valuesOf(body);
  return db.transaction(async (tx) => {
    if (!(await repo.findSubject(tx, body.subjectId)))
      throw fieldError('body.subjectId', 'no such subject', 'not_found');
    await checkContainer(tx, body.htmlContainerId);
    const elementIds = [...new Set(body.elementIds ?? [])];
    await checkElements(tx, elementIds, 'body.elementIds');
    const row = await repo.insertTask(tx, {
      ...values,
      subjectId: body.subjectId,
      sourceId: body.sourceId ?? null,
      sourceFormat: body.sourceFormat ?? null,
      createdBy: actor.auth.userId,
    });
    await repo.setTaskElements(tx, row.id, elementIds);
    await record(tx, actor, 'content.task.create', 'task', row.id, {
      subjectId: body.subjectId,
      answerType: row.answerType,
    });
    return present(tx, row);
  });
}

/** Variant positions that took the task's max score follow it to the new one. */
async function followScore(
  tx: Tx,
  rows: repo.VariantTaskRow[],
  at: { variantId: number; oldTaskId: number; taskId: number },
  oldMax: number,
  newMax: number,
) {
  if (oldMax === newMax) return;
  const held = rows.some(
    (r) => r.variantId === at.variantId && r.task.id === at.oldTaskId && Number(r.maxScore) === oldMax,
  );
  if (held) await repo.setVariantTaskScore(tx, at.variantId, at.taskId, newMax);
}

export async function updateTask(
  db: Db,
  actor: Actor,
  id: number,
  body: TaskUpdateBody,
): Promise<AuthoringTask> {
  const values = valuesOf(body);
  const result = await db.transaction(async (tx) => {
    const old = await repo.lockTask(tx, id);
    if (!old) throw notFound('No such task');
    if (old.supersededAt)
      throw conflict('conflict', 'This version was replaced or withdrawn: edit the current one');
    await checkContainer(tx, body.htmlContainerId);
    // Lock the current variants holding it first: a work starting on one waits for this change.
    const holders = await repo.currentVariantsWithTask(tx, id);
    const locked = await repo.lockVariants(tx, holders);
    const rows = await repo.tasksOfVariants(tx, holders);
    const oldMax = Number(old.maxScore);
    if (!(await repo.isTaskUsedByWorks(tx, id))) {
      const row = await repo.updateTask(tx, id, { ...values, updatedAt: new Date() });
      for (const v of holders)
        await followScore(tx, rows, { variantId: v, oldTaskId: id, taskId: id }, oldMax, values.maxScore);
      await record(tx, actor, 'content.task.update', 'task', id, { version: row.version });
      return present(tx, row);
    }
    const now = new Date();
    await repo.updateTask(tx, id, { supersededAt: now });
    const fresh = await repo.insertTask(tx, {
      ...values,
      subjectId: old.subjectId,
      sourceId: old.sourceId,
      sourceFormat: old.sourceFormat,
      version: old.version + 1,
      previousVersionId: old.id,
      createdBy: actor.auth.userId,
    });
    await repo.setTaskElements(tx, fresh.id, await repo.elementIdsOfTask(tx, id));
    await repo.copyTaskFiles(tx, id, fresh.id);
    const usedVariants = await repo.variantsUsedByWorks(tx, holders);
    const repointed: number[] = [];
    const versioned: { from: number; to: number }[] = [];
    for (const variant of locked) {
      if (!usedVariants.has(variant.id)) {
        await repo.repointVariantTask(tx, variant.id, id, fresh.id);
        await followScore(
          tx,
          rows,
          { variantId: variant.id, oldTaskId: id, taskId: fresh.id },
          oldMax,
          values.maxScore,
        );
        repointed.push(variant.id);
        continue;
      }
      const list = rows
        .filter((r) => r.variantId === variant.id)
        .map((r) =>
          r.task.id === id
            ? {
                taskId: fresh.id,
                maxScore: Number(r.maxScore) === oldMax ? values.maxScore : Number(r.maxScore),
              }
            : { taskId: r.task.id, maxScore: Number(r.maxScore) },
        );
      const next = await replaceVariant(tx, variant, list, now);
      versioned.push({ from: variant.id, to: next.id });
    }
    await record(tx, actor, 'content.task.version', 'task', fresh.id, {
      previousVersionId: id,
      version: fresh.version,
      repointedVariantIds: repointed,
      versionedVariants: versioned,
    });
    return present(tx, fresh);
  });
  contentChanged(db);
  return result;
}

export async function deleteTask(db: Db, actor: Actor, id: number) {
  await db.transaction(async (tx) => {
    const row = await repo.lockTask(tx, id);
    if (!row) throw notFound('No such task');
    if (row.supersededAt) throw conflict('conflict', 'This task was already replaced or withdrawn');
    const holders = await repo.currentVariantsWithTask(tx, id);
    if (holders.length)
      throw conflict('conflict', `The task is in ${holders.length} variant(s): take it out of them first`);
    await repo.updateTask(tx, id, { supersededAt: new Date() });
    await record(tx, actor, 'content.task.withdraw', 'task', id, { version: row.version });
  });
  return { ok: true as const };
}

export async function taskVersions(db: Db, id: number) {
  const chain = await repo.taskLineage(db, id);
  if (!chain.length) throw notFound('No such task');
  const used = await repo.tasksUsedByWorks(
    db,
    chain.map((t) => t.id),
  );
  return chain.map((t) => ({
    id: t.id,
    version: t.version,
    previousVersionId: t.previousVersionId,
    supersededAt: t.supersededAt?.toISOString() ?? null,
    createdBy: t.createdBy,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt?.toISOString() ?? null,
    usedByWorks: used.has(t.id),
  }));
}

export async function setTaskElements(db: Db, actor: Actor, id: number, elementIds: readonly number[]) {
  return db.transaction(async (tx) => {
    const row = await repo.lockTask(tx, id);
    if (!row) throw notFound('No such task');
    if (row.supersededAt)
      throw conflict('conflict', 'This version was replaced or withdrawn: classify the current one');
    await checkElements(tx, elementIds, 'body.elementIds');
    const before = await repo.elementIdsOfTask(tx, id);
    await repo.setTaskElements(tx, id, elementIds);
    await record(tx, actor, 'content.task.elements', 'task', id, { before, after: [...elementIds] });
    return present(tx, row);
  });
}

// ---------------------------------------------------------------- trying an answer

/** Scores a trial answer with the scoring engine, as a participant's answer would be scored. */
export async function scoreTrial(db: Db, id: number, value: unknown): Promise<TaskScoreResult> {
  const row = await repo.findTask(db, id);
  if (!row) throw notFound('No such task');
  let result: ReturnType<typeof scoreAnswer>;
  try {
    result = scoreAnswer(
      {
        answerType: row.answerType,
        content: row.content,
        reference: row.reference,
        scoring: row.scoring,
        maxScore: Number(row.maxScore),
      },
      value,
    );
  } catch (err) {
    if (err instanceof InvalidTaskError)
      throw conflict('content_invalid', `The task itself cannot be scored: ${err.message}`);
    throw err;
  }
  if (result.status === 'invalid')
    throw badRequest(
      'invalid_answer',
      result.reason === 'too_large'
        ? 'The answer is too large'
        : `The value is not an answer of a ${row.answerType} task`,
      [{ path: 'body.value', message: 'not an answer value of this task', code: result.reason }],
    );
  if (result.status === 'manual') return { score: null, maxScore: result.maxScore, status: 'manual' };
  if (result.status === 'empty') return { score: 0, maxScore: result.maxScore, status: 'empty' };
  return {
    score: result.score,
    maxScore: result.maxScore,
    status: 'scored',
    correct: result.correct,
    ...(result.mistakes !== undefined ? { mistakes: result.mistakes } : {}),
  };
}
