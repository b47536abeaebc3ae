import type { Actor } from '../../auth/actor.js';
import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { WorkerTest, WorkerTestListRequest, WorkerTestSaveBody } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { workerTests } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import {
  dayOf,
  fieldError,
  insertParticipantTests,
  isUniqueViolation,
  lockDiagnosticRegistrations,
  randomDiagnosticCode,
} from '../../lib/participant-tests.js';
import * as repo from './worker.repo.js';

/*
 * Worker tests: an admin's are global (schoolId null, every school sees them), a coordinator's
 * belong to their school. A coordinator sees their school's and the global ones, and changes only
 * their school's. Each worker test owns a diagnostic of kind `worker` kept in step with it.
 */

export type { Actor };

/** Which worker tests the caller sees: undefined = all (admin). */
export function visibleCondition(auth: AuthContext): SQL | undefined {
  if (hasRole(auth, 'admin')) return undefined;
  return auth.schoolId === null
    ? isNull(workerTests.schoolId)
    : or(isNull(workerTests.schoolId), eq(workerTests.schoolId, auth.schoolId));
}

export const canSee = (auth: AuthContext, schoolId: number | null) =>
  hasRole(auth, 'admin') || schoolId === null || schoolId === auth.schoolId;
export const canEdit = (auth: AuthContext, schoolId: number | null) =>
  hasRole(auth, 'admin') || (schoolId !== null && schoolId === auth.schoolId);

function toWorkerTest(auth: AuthContext, row: repo.WorkerTestView): WorkerTest {
  return {
    ...row,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    participantCount: Number(row.participantCount),
    editable: canEdit(auth, row.schoolId),
  };
}

export async function listPositions(ctx: AppContext, req: Parameters<typeof repo.listPositions>[1]) {
  return repo.listPositions(ctx.db, req);
}

export async function listWorkerTests(ctx: AppContext, auth: AuthContext, req: WorkerTestListRequest) {
  const f = req.filter ?? {};
  // A coordinator's schoolId filter can only narrow what they may see anyway.
  const { items, total } = await repo.listWorkerTests(
    ctx.db,
    and(visibleCondition(auth), ...repo.workerTestFilter(f)),
    req,
  );
  return { items: items.map((row) => toWorkerTest(auth, row)), total };
}

export async function getWorkerTest(ctx: AppContext, auth: AuthContext, id: number): Promise<WorkerTest> {
  const { items } = await repo.listWorkerTests(ctx.db, eq(workerTests.id, id), { page: 1, pageSize: 1 });
  if (!items[0]) throw notFound('No such worker test');
  return toWorkerTest(auth, items[0]);
}

/** The school a save writes: a coordinator's own (403 for another); an admin's choice (null = global). */
function schoolOfSave(auth: AuthContext, body: WorkerTestSaveBody, current: number | null | undefined) {
  if (hasRole(auth, 'admin')) return body.schoolId !== undefined ? body.schoolId : (current ?? null);
  if (auth.schoolId === null) throw forbidden('Your account is not bound to a school');
  if (body.schoolId !== undefined && body.schoolId !== auth.schoolId)
    throw forbidden('A coordinator saves worker tests of their own school only');
  return auth.schoolId;
}

async function checkReferences(tx: Tx, body: WorkerTestSaveBody, schoolId: number | null) {
  if (new Date(body.endsAt) <= new Date(body.startsAt))
    throw fieldError('body.endsAt', 'must be after startsAt');
  if (!(await repo.subjectTestExists(tx, body.subjectTestId)))
    throw fieldError('body.subjectTestId', 'no such subject test');
  if (body.positionId != null && !(await repo.positionExists(tx, body.positionId)))
    throw fieldError('body.positionId', 'no such worker position');
  if (schoolId !== null && !(await repo.schoolExists(tx, schoolId)))
    throw fieldError('body.schoolId', 'no such school');
}

async function createInTx(tx: Tx, actor: Actor, body: WorkerTestSaveBody): Promise<number> {
  const schoolId = schoolOfSave(actor.auth, body, undefined);
  await checkReferences(tx, body, schoolId);
  const startsAt = new Date(body.startsAt);
  const endsAt = new Date(body.endsAt);
  let diagnosticId: number | undefined;
  for (let attempt = 1; diagnosticId === undefined; attempt++) {
    const code = randomDiagnosticCode('W', startsAt);
    try {
      diagnosticId = await tx.transaction((sp) =>
        repo.insertWorkerDiagnostic(
          sp,
          {
            code,
            name: body.name,
            kind: 'worker',
            startsAt,
            endsAt,
            createdBy: actor.auth.userId,
            createdByRole: hasRole(actor.auth, 'admin') ? 'admin' : 'coordinator',
          },
          body.subjectTestId,
          schoolId,
        ),
      );
    } catch (err) {
      if (attempt >= 5 || !isUniqueViolation(err, 'diagnostics_code_index')) throw err;
    }
  }
  const id = await repo.insertWorkerTest(tx, {
    name: body.name,
    subjectTestId: body.subjectTestId,
    diagnosticId,
    positionId: body.positionId ?? null,
    schoolId,
    startsAt,
    endsAt,
    createdBy: actor.auth.userId,
  });
  await audit(tx, {
    userId: actor.auth.userId,
    action: 'worker_test.create',
    entity: 'worker_test',
    entityId: id,
    ip: actor.ip,
    details: {
      name: body.name,
      subjectTestId: body.subjectTestId,
      diagnosticId,
      schoolId,
      positionId: body.positionId ?? null,
    },
  });
  return id;
}

async function updateInTx(tx: Tx, actor: Actor, id: number, body: WorkerTestSaveBody): Promise<number> {
  const row = await repo.lockWorkerTest(tx, id);
  if (!row) throw notFound('No such worker test');
  const { wt } = row;
  if (!canEdit(actor.auth, wt.schoolId)) throw forbidden('You can change only your school’s worker tests');
  const schoolId = schoolOfSave(actor.auth, body, wt.schoolId);
  await checkReferences(tx, body, schoolId);
  if (
    body.subjectTestId !== wt.subjectTestId &&
    (await repo.diagnosticUsage(tx, wt.diagnosticId)).participantTests > 0
  )
    throw conflict(
      'has_participant_tests',
      'Workers are registered; the subject test cannot change any more',
    );
  const next = {
    name: body.name,
    subjectTestId: body.subjectTestId,
    positionId: body.positionId !== undefined ? body.positionId : wt.positionId,
    schoolId,
    startsAt: new Date(body.startsAt),
    endsAt: new Date(body.endsAt),
  };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, to] of Object.entries(next)) {
    const from = wt[key as keyof typeof next];
    if (
      String(from instanceof Date ? from.toISOString() : from) !==
      String(to instanceof Date ? to.toISOString() : to)
    )
      changes[key] = { from, to };
  }
  if (!Object.keys(changes).length) return id;
  await repo.updateWorkerTest(tx, id, next);
  await repo.updateWorkerDiagnostic(tx, wt.diagnosticId, next);
  await audit(tx, {
    userId: actor.auth.userId,
    action: 'worker_test.update',
    entity: 'worker_test',
    entityId: id,
    ip: actor.ip,
    details: { changes },
  });
  return id;
}

/** Creates (no id) or updates a worker test and its diagnostic in one transaction. */
export async function saveWorkerTest(
  ctx: AppContext,
  actor: Actor,
  body: WorkerTestSaveBody,
): Promise<WorkerTest> {
  const id = await ctx.db.transaction((tx) =>
    body.id === undefined ? createInTx(tx, actor, body) : updateInTx(tx, actor, body.id, body),
  );
  return getWorkerTest(ctx, actor.auth, id);
}

/** Soft-deletes a worker test nobody has started (409 `has_exam_works`), with its diagnostic. */
export async function deleteWorkerTest(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const participantTestIds = await ctx.db.transaction(async (tx) => {
    const row = await repo.lockWorkerTest(tx, id);
    if (!row) throw notFound('No such worker test');
    if (!canEdit(actor.auth, row.wt.schoolId))
      throw forbidden('You can delete only your school’s worker tests');
    await lockDiagnosticRegistrations(tx, row.wt.diagnosticId);
    const usage = await repo.diagnosticUsage(tx, row.wt.diagnosticId);
    if (usage.examWorks > 0)
      throw conflict(
        'has_exam_works',
        `Workers have taken it (${usage.examWorks} exam work(s)); it cannot be deleted`,
      );
    const ids = await repo.softDeleteWorkerTest(tx, row.wt, new Date());
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'worker_test.delete',
      entity: 'worker_test',
      entityId: id,
      ip: actor.ip,
      details: { name: row.wt.name, diagnosticId: row.wt.diagnosticId, participantTests: ids.length },
    });
    return ids;
  });
  for (const participantTestId of participantTestIds)
    await ctx.sessions.revokeWhere({ participantTestId }, 'participant_test_deleted');
}

/**
 * The worker's sitting of a worker test: created with a new unique activation code, or — when the
 * worker already has one — that one, so a repeated (state-changing) GET never multiplies sittings.
 */
export async function generateActivationCode(
  ctx: AppContext,
  actor: Actor,
  workerTestId: number,
  workerId: number,
): Promise<{ activationCode: string; participantTestId: number; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const row = await repo.lockWorkerTest(tx, workerTestId);
    if (!row) throw notFound('No such worker test');
    const worker = await repo.findWorker(tx, workerId);
    if (!worker) throw notFound('No such worker');
    if (worker.isBlocked) throw conflict('worker_blocked', 'The worker is blocked');
    if (row.wt.schoolId !== null && worker.schoolId !== row.wt.schoolId)
      throw fieldError('query.workerId', 'is not a worker of the worker test’s school');

    await lockDiagnosticRegistrations(tx, row.wt.diagnosticId);
    const existing = await repo.liveSittingOf(tx, row.wt.diagnosticId, workerId);
    if (existing)
      return { activationCode: existing.activationCode, participantTestId: existing.id, created: false };

    // Today, kept inside the window (a code made before it opens is dated its first day).
    const first = dayOf(row.startsAt);
    const last = dayOf(row.endsAt);
    const today = dayOf(new Date());
    const testDate = today < first ? first : today > last ? last : today;
    const [pt] = await insertParticipantTests(tx, [
      {
        diagnosticId: row.wt.diagnosticId,
        subjectTestId: row.wt.subjectTestId,
        workerId,
        schoolId: worker.schoolId,
        testDate,
        status: 'planned',
      },
    ]);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'worker_test.activation_code',
      entity: 'participant_test',
      entityId: pt!.id,
      ip: actor.ip,
      details: { workerTestId, workerId, diagnosticId: row.wt.diagnosticId },
    });
    return { activationCode: pt!.activationCode, participantTestId: pt!.id, created: true };
  });
}
