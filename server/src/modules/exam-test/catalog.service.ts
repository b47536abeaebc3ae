import type { FastifyRequest } from 'fastify';
import type { IdName, Parallel, SubjectTestHtml, SubjectTestSummary } from '@attesta/contract';
import type { ScopeRule } from '../../auth/access.js';
import { currentVariantId, isContentStaff } from '../../auth/content.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import * as repo from './catalog.repo.js';
import { renderVariantDocument } from './catalog.render.js';

/*
 * The subject test catalogue of the exam runner: what a test is, its texts, the groups and grades
 * it is offered for, and the printable variant. Html leaves the server sanitized.
 */

const toSummary = (row: repo.SummaryRow): SubjectTestSummary => ({
  ...row,
  description: row.description === null ? null : sanitizeHtml(row.description),
});

export async function subjectTest(db: Db, id: number): Promise<SubjectTestSummary> {
  const row = await repo.findSummary(db, id);
  if (!row) throw notFound('No such subject test');
  return toSummary(row);
}

async function texts(db: Db, id: number) {
  const row = await repo.findSubjectTestTexts(db, id);
  if (!row) throw notFound('No such subject test');
  return row;
}

export async function description(db: Db, id: number): Promise<SubjectTestHtml> {
  return { subjectTestId: id, html: sanitizeHtml((await texts(db, id)).description) };
}

export async function instruction(db: Db, id: number): Promise<SubjectTestHtml> {
  return { subjectTestId: id, html: sanitizeHtml((await texts(db, id)).instructionHtml) };
}

export const testGroups = (db: Db): Promise<IdName[]> => repo.listTestGroups(db);

export async function subjectTestsOfGroup(
  db: Db,
  testGroupId: number,
  parallel: number,
): Promise<SubjectTestSummary[]> {
  return (await repo.summariesOfGroup(db, testGroupId, parallel)).map(toSummary);
}

export async function parallelsOf(db: Db, subjectTestId: number): Promise<Parallel[]> {
  return repo.parallelsByIds(db, (await texts(db, subjectTestId)).parallels);
}

// ---------------------------------------------------------------- printable variant

/**
 * Who may print a variant: admins and experts any; a participant their own current variant;
 * a coordinator or organizator the variants of tests of a diagnostic of their school once that
 * diagnostic has started — nobody outside content staff sees a test before the exam.
 */
export async function canPrintVariant(
  db: Db,
  auth: AuthContext,
  variant: { id: number; subjectTestId: number },
  now = new Date(),
): Promise<boolean> {
  if (isContentStaff(auth)) return true;
  if (hasRole(auth, 'participant') && (await currentVariantId(db, auth)) === variant.id) return true;
  if (hasRole(auth, 'coordinator', 'organizator') && auth.schoolId !== null)
    return repo.schoolHasStartedDiagnostic(db, auth.schoolId, variant.subjectTestId, now);
  return false;
}

/** Scope rule of taskTextHtml: an unknown variant is 404 for everybody, a foreign one 403. */
export function printableVariantInScope(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    const db = req.server.ctx.db;
    const variant = await repo.findVariant(db, getId(req));
    if (!variant) throw notFound('No such variant');
    return canPrintVariant(db, auth, variant);
  };
}

export async function variantDocument(db: Db, variantId: number): Promise<string> {
  const variant = await repo.findVariant(db, variantId);
  if (!variant) throw notFound('No such variant');
  const tasks = await repo.printableTasks(db, variantId);
  return renderVariantDocument({
    title: `${variant.subjectTestName}. Вариант ${variant.number}`,
    instructionHtml: variant.instructionHtml,
    tasks,
  });
}
