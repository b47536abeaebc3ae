import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  isErrorCode,
  QUEUE_PUBLIC_PAYLOAD_KEYS,
  type QueueItem,
  type QueueItemStatus,
  type QueueListRequest,
} from '@attesta/contract';
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { DbOrTx } from '../../db/client.js';
import { diagnostics, queueItems } from '../../db/schema/index.js';
import { forbidden } from '../../lib/errors.js';
import { offsetOf, orderOf } from '../../lib/list.js';
import type { QueueItemRow } from '../../jobs/queue.js';
import { coordinatorReaches, diagnosticIncludesSchool, liveDiagnostic } from '../create-diagnostic/index.js';

/*
 * Queue items as staff see them (POST queuelist, GET getqueuelistbytype): admin every item; a
 * coordinator the items of diagnostics that include their school or that they created, and the
 * items they queued themselves.
 */

/** SQL condition on queue_items for the caller; undefined = everything (admin). */
export function queueScopeCondition(auth: AuthContext): SQL | undefined {
  if (hasRole(auth, 'admin')) return undefined;
  const ofDiagnostic = [
    sql`${queueItems.diagnosticId} in (select d.id from diagnostics d where d.created_by = ${auth.userId})`,
    ...(auth.schoolId !== null ? [diagnosticIncludesSchool(queueItems.diagnosticId, auth.schoolId)] : []),
  ];
  return or(eq(queueItems.createdBy, auth.userId), ...ofDiagnostic);
}

/** Whether the caller reaches a diagnostic's queue: admin any, a coordinator per coordinatorReaches. 404 unknown. */
export async function canSeeDiagnosticQueue(db: DbOrTx, auth: AuthContext, diagnosticId: number) {
  const diagnostic = await liveDiagnostic(db, { id: diagnosticId });
  return hasRole(auth, 'admin') || coordinatorReaches(db, auth, diagnostic);
}

/** Scope rule of calls naming a diagnostic's queue by id: 404 unknown, 403 out of scope. */
export const diagnosticQueueInScope =
  (getId: (req: FastifyRequest) => number): ScopeRule =>
  (req, auth) =>
    canSeeDiagnosticQueue(req.server.ctx.db, auth, getId(req));

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What leaves the server of a queue item: its own fields, and only the public part of its payload. */
export function presentQueueItem(
  row: QueueItemRow,
  diagnostic: { code: string | null; name: string | null } = { code: null, name: null },
): QueueItem {
  const payload = row.payload ?? {};
  const params = Object.fromEntries(
    QUEUE_PUBLIC_PAYLOAD_KEYS.filter((k) => k in payload).map((k) => [k, payload[k]]),
  );
  return {
    id: row.id,
    type: row.type,
    status: row.status as QueueItemStatus,
    diagnosticId: row.diagnosticId,
    diagnosticCode: diagnostic.code,
    diagnosticName: diagnostic.name,
    params,
    progress: row.progress,
    progressText: row.progressText,
    result: row.result ?? null,
    resultFileId: row.resultFileId,
    error: row.error,
    // A code a later version no longer knows reads as the generic one.
    errorCode: row.errorCode === null ? null : isErrorCode(row.errorCode) ? row.errorCode : 'job_failed',
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAfter: row.runAfter.toISOString(),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

const withDiagnostic = (db: DbOrTx) =>
  db
    .select({ item: queueItems, code: diagnostics.code, name: diagnostics.name })
    .from(queueItems)
    .leftJoin(diagnostics, eq(diagnostics.id, queueItems.diagnosticId));

/** A page of queue items in the caller's scope; naming a diagnostic outside it is a 403. */
export async function listQueue(db: DbOrTx, auth: AuthContext, q: QueueListRequest) {
  const f = q.filter ?? {};
  if (f.diagnosticId !== undefined && !(await canSeeDiagnosticQueue(db, auth, f.diagnosticId)))
    throw forbidden('This diagnostic is outside your scope');
  const where = and(
    queueScopeCondition(auth),
    f.type !== undefined ? eq(queueItems.type, f.type) : undefined,
    f.status !== undefined ? eq(queueItems.status, f.status) : undefined,
    f.diagnosticId !== undefined ? eq(queueItems.diagnosticId, f.diagnosticId) : undefined,
  );
  const order = q.sort
    ? orderOf(
        q.sort,
        {
          id: queueItems.id,
          createdAt: queueItems.createdAt,
          type: queueItems.type,
          status: queueItems.status,
          progress: queueItems.progress,
          finishedAt: queueItems.finishedAt,
        },
        queueItems.id,
      )
    : [desc(queueItems.createdAt), desc(queueItems.id)];
  const [rows, [total]] = await Promise.all([
    withDiagnostic(db)
      .where(where)
      .orderBy(...order)
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(queueItems).where(where),
  ]);
  return { items: rows.map((r) => presentQueueItem(r.item, r)), total: total?.n ?? 0 };
}

/** Every item of one type for a diagnostic (the route's scope rule checked the diagnostic), newest first. */
export async function queueOfDiagnostic(
  db: DbOrTx,
  type: string,
  diagnosticId: number,
): Promise<QueueItem[]> {
  const rows = await withDiagnostic(db)
    .where(and(eq(queueItems.type, type), eq(queueItems.diagnosticId, diagnosticId)))
    .orderBy(desc(queueItems.createdAt), desc(queueItems.id))
    .limit(500);
  return rows.map((r) => presentQueueItem(r.item, r));
}
