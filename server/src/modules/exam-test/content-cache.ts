import type { DbOrTx } from '../../db/client.js';
import { Memo } from '../../lib/memo.js';
import * as repo from './exam-work.repo.js';

/*
 * Content a running test reads again and again — the subject test, a variant with its tasks and
 * files, a task's answer definition — changes only between tests, so the exam's hot paths keep it
 * for a short while instead of asking the database for each of thousands of participants.
 */
const CONTENT_TTL_MS = 30_000;

const subjectTests = new Memo<number, Awaited<ReturnType<typeof repo.findSubjectTest>>>(CONTENT_TTL_MS);
const taskCounts = new Memo<number, number | null>(CONTENT_TTL_MS);
const taskDefs = new Memo<number, Awaited<ReturnType<typeof repo.variantTaskDef>>>(60_000, 20_000);

export const cachedSubjectTest = (db: DbOrTx, id: number) =>
  subjectTests.get(db, id, () => repo.findSubjectTest(db, id));

/** Variant task definitions change only between tests; a minute of caching spares the save a query. */
export const cachedTaskDef = (db: DbOrTx, variantTaskId: number) =>
  taskDefs.get(db, variantTaskId, () => repo.variantTaskDef(db, variantTaskId));

export const cachedTaskCount = (db: DbOrTx, subjectTestId: number) =>
  taskCounts.get(db, subjectTestId, () => repo.taskCountOf(db, subjectTestId));

/** A memo of whole variants (head, task rows, task files), filled by the variant reads. */
export const variantMemo = new Memo<number, unknown>(CONTENT_TTL_MS, 2_000);

/**
 * Forgets every cached piece of content of a database. No call of the API edits content during a
 * test; whatever edits it outside the API (a content import, the demo reset, a test) calls this.
 */
export function forgetContent(db: DbOrTx): void {
  subjectTests.forget(db);
  taskCounts.forget(db);
  taskDefs.forget(db);
  variantMemo.forget(db);
}
