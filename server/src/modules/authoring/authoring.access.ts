import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './content.repo.js';

/*
 * Who may write content (docs/design.md §1: the admin keeps content). Every authoring call names a
 * record; its scope rule finds the subject the record belongs to and asks `canEditContent`. Today
 * that means the admin, whatever the subject; a content-author role limited to their subjects is
 * added here (and to the calls' contract rows) without touching the routes.
 */

/** Whether the caller may edit content of every subject (no lookup needed). */
export const canEditAnyContent = (auth: AuthContext): boolean => hasRole(auth, 'admin');

/**
 * Whether the caller may edit content of a subject (`null`: content of no subject yet — seeded
 * tasks, specifications without a subject).
 */
export function canEditContent(auth: AuthContext, subjectId: number | null): boolean {
  void subjectId; // a content author's subjects will be checked here
  return canEditAnyContent(auth);
}

/**
 * The scope rule of a call naming a record: `subjectOf` finds the record's subject (undefined when
 * there is no such record: 404). Admins pass without the lookup.
 */
export function contentScope(
  subjectOf: (req: FastifyRequest) => Promise<number | null | undefined>,
): ScopeRule {
  return async (req, auth) => {
    if (canEditAnyContent(auth)) return true;
    const subjectId = await subjectOf(req);
    if (subjectId === undefined) throw notFound();
    return canEditContent(auth, subjectId);
  };
}

/** The scope rule of a call that names no record of a subject (lists, new subjects, test groups). */
export const anyContentScope: ScopeRule = (_req, auth) => canEditAnyContent(auth);

// ---------------------------------------------------------------- the subject of a record

const idOf = (req: FastifyRequest, name = 'id') => (req.params as Record<string, number>)[name]!;
const subjectOfRow = (row: { subjectId: number | null } | null) => (row ? row.subjectId : undefined);

/** Scope rules of calls naming a subject, subject exam, subject test, variant, task, specification or element. */
export const scopeOf = {
  subject: contentScope(async (req) =>
    (await repo.findSubject(req.server.ctx.db, idOf(req))) ? idOf(req) : undefined,
  ),
  subjectExam: contentScope(async (req) =>
    subjectOfRow(await repo.findSubjectExam(req.server.ctx.db, idOf(req))),
  ),
  subjectTest: contentScope(async (req) =>
    subjectOfRow(await repo.findSubjectTest(req.server.ctx.db, idOf(req))),
  ),
  variant: contentScope(async (req) => {
    const variant = await repo.findVariant(req.server.ctx.db, idOf(req));
    return variant
      ? subjectOfRow(await repo.findSubjectTest(req.server.ctx.db, variant.subjectTestId))
      : undefined;
  }),
  task: contentScope(async (req) =>
    subjectOfRow(await repo.findTask(req.server.ctx.db, idOf(req, 'taskId'))),
  ),
  specification: contentScope(async (req) =>
    subjectOfRow(await repo.findSpecification(req.server.ctx.db, idOf(req))),
  ),
  element: contentScope(async (req) => {
    const element = await repo.findElement(req.server.ctx.db, idOf(req));
    return element
      ? subjectOfRow(await repo.findSpecification(req.server.ctx.db, element.specificationId))
      : undefined;
  }),
};

/** Scope rules of creating calls: the subject named by the body. */
export const scopeOfNew = {
  task: contentScope(async (req) => (req.body as { subjectId: number }).subjectId),
  subjectTest: contentScope(async (req) =>
    subjectOfRow(
      await repo.findSubjectExam(req.server.ctx.db, (req.body as { subjectExamId: number }).subjectExamId),
    ),
  ),
};
