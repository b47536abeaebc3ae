import type { Actor } from '../../auth/actor.js';
import type { ParticipantTestInfo, ParticipantTestInfoUpdateBody } from '@attesta/contract';
import { canReachParticipantTest } from '../../auth/shared.access.js';
import { hasRole } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { audit } from '../../lib/audit.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { assertDateInWindow, fieldError } from '../../lib/participant-tests.js';
import * as repo from './info.repo.js';

/** Who asks, for audit. */
export type { Actor };

export async function getInfo(ctx: AppContext, id: number): Promise<ParticipantTestInfo> {
  const row = await repo.findCardRow(ctx.db, id);
  if (!row) throw notFound('No such participant test');
  const [live, deleted] = await Promise.all([
    repo.liveWorkSummary(ctx.db, id),
    repo.deletedWorks(ctx.db, id),
  ]);
  const { pt } = row;
  return {
    id: pt.id,
    diagnostic: row.diagnostic,
    subjectTest: row.subjectTest,
    student: row.student,
    workerId: pt.workerId,
    school:
      pt.schoolId !== null && row.schoolName !== null ? { id: pt.schoolId, name: row.schoolName } : null,
    class: pt.classId !== null && row.className !== null ? { id: pt.classId, name: row.className } : null,
    building:
      pt.buildingId !== null && row.buildingName !== null
        ? { id: pt.buildingId, name: row.buildingName }
        : null,
    testDate: pt.testDate,
    status: pt.status,
    isImpersonal: pt.isImpersonal,
    activationCode: pt.activationCode,
    registrationCode: pt.registrationCode,
    examWork: live
      ? {
          id: live.work.id,
          status: live.work.status,
          answerMode: live.work.answerMode,
          startedAt: live.work.startedAt.toISOString(),
          deadlineAt: live.work.deadlineAt.toISOString(),
          finishedAt: live.work.finishedAt?.toISOString() ?? null,
          finishReason: live.work.finishReason,
          deviceBound: live.work.deviceId !== null,
          answerCount: Number(live.answerCount),
        }
      : null,
    deletedExamWorks: deleted.map((w) => ({
      id: w.id,
      status: w.status,
      deletedAt: w.deletedAt!.toISOString(),
      deletedReason: w.deletedReason,
    })),
    updatedAt: pt.updatedAt.toISOString(),
  };
}

/** Statuses that cannot coexist with a live exam work: the participant did start. */
const NEEDS_NO_WORK = new Set(['planned', 'absent']);

/**
 * Updates the card: test date (inside the window), class and building (of the same school, and
 * within the caller's reach), status planned / absent / annulled with a reason. Audited with
 * every change as from → to.
 */
export async function updateInfo(
  ctx: AppContext,
  actor: Actor,
  body: ParticipantTestInfoUpdateBody,
): Promise<ParticipantTestInfo> {
  await ctx.db.transaction(async (tx) => {
    const row = await repo.lockParticipantTest(tx, body.id);
    if (!row) throw notFound('No such participant test');
    const { pt } = row;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const next: Parameters<typeof repo.updateParticipantTest>[2] = {};

    if (body.testDate !== undefined && body.testDate !== pt.testDate) {
      assertDateInWindow(body.testDate, row);
      next.testDate = body.testDate;
    }
    if (body.classId !== undefined && body.classId !== pt.classId) {
      if (body.classId !== null && (await repo.schoolOfClass(tx, body.classId)) !== pt.schoolId)
        throw fieldError('body.classId', "must be a class of the participant test's school");
      next.classId = body.classId;
    }
    if (body.buildingId !== undefined && body.buildingId !== pt.buildingId) {
      if (body.buildingId !== null && (await repo.schoolOfBuilding(tx, body.buildingId)) !== pt.schoolId)
        throw fieldError('body.buildingId', "must be a building of the participant test's school");
      next.buildingId = body.buildingId;
    }
    if (body.status !== undefined && body.status !== pt.status) {
      if (!body.reason) throw fieldError('body.reason', 'is required when the status changes');
      if (NEEDS_NO_WORK.has(body.status) && (await repo.lockLiveWork(tx, pt.id)))
        throw conflict('has_exam_work', `The participant has an exam work; it cannot be "${body.status}"`);
      next.status = body.status;
    }
    // An organizator may not move a participant out of the rooms they conduct.
    if ((next.classId !== undefined || next.buildingId !== undefined) && !hasRole(actor.auth, 'admin')) {
      const place = {
        schoolId: pt.schoolId,
        classId: next.classId !== undefined ? next.classId : pt.classId,
        buildingId: next.buildingId !== undefined ? next.buildingId : pt.buildingId,
      };
      if (!(await canReachParticipantTest(tx, actor.auth, place)))
        throw forbidden('The new class or building is outside your scope');
    }

    for (const [key, to] of Object.entries(next)) changes[key] = { from: pt[key as keyof typeof next], to };
    if (!Object.keys(changes).length) return;
    await repo.updateParticipantTest(tx, pt.id, next);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.update',
      entity: 'participant_test',
      entityId: pt.id,
      reason: body.reason ?? null,
      ip: actor.ip,
      details: { changes },
    });
  });
  return getInfo(ctx, body.id);
}
