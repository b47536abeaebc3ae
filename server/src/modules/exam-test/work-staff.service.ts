/* What staff do to a work: delete it, change its time, read its participant's card. */
import { type AuthContext } from '../../auth/types.js';
import { findExamWorkPlace } from '../../auth/shared.access.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { conflict, notFound } from '../../lib/errors.js';
import { changeTime } from '../../lib/work-clock.js';
import * as repo from './exam-work.repo.js';
import { toWorkState } from './presenter.js';

import {
  noSuchWork,
  settleOverduePause,
  staffCanReach,
  assertAllReachable,
  fullName,
  type Actor,
} from './work-guards.js';

// ------------------------------------------------------------------ staff: delete, change time, card

export async function deleteWork(ctx: AppContext, actor: Actor, id: number, reason: string | null) {
  const ptId = await ctx.db.transaction(async (tx) => {
    const w = await repo.lockWorkForUpdate(tx, id);
    if (!w) throw noSuchWork();
    if (w.deletedAt) return null;
    await repo.updateWork(tx, w.id, {
      deletedAt: new Date(),
      deletedBy: actor.auth.userId,
      deletedReason: reason,
    });
    // The participant may start again; RestoreExamWork undoes this.
    await repo.setParticipantTestStatus(tx, w.participantTestId, 'active', ['in_progress', 'finished']);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'exam_work.delete',
      entity: 'exam_work',
      entityId: w.id,
      reason,
      details: { participantTestId: w.participantTestId, status: w.status },
      ip: actor.ip,
    });
    return w.participantTestId;
  });
  publishWorkEvent(ctx, ptId, id, 'deleted', { reason });
  return { ok: true as const };
}

/** ChangeTimeTill: all or nothing over the listed works, one audit event per work. */
export async function changeTimeOf(
  ctx: AppContext,
  actor: Actor,
  ids: number[],
  deltaSeconds: number,
  reason: string | null,
) {
  const touched: { ptId: number; id: number }[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const rows = await repo.lockWorksForUpdate(tx, ids);
    await assertAllReachable(tx, actor.auth, ids, rows);
    const changed = [];
    for (const row of rows) {
      const work = await settleOverduePause(tx, row.work, now);
      if (work.finishedAt) throw conflict('work_finished', `Exam work ${work.id} is already finished`);
      const after = await repo.updateWork(tx, work.id, changeTime(work, deltaSeconds));
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'exam_work.change_time',
        entity: 'exam_work',
        entityId: work.id,
        reason,
        details: {
          deltaSeconds,
          extraSeconds: after.extraSeconds,
          deadlineAt: after.deadlineAt.toISOString(),
        },
        ip: actor.ip,
      });
      const state = toWorkState(after, now);
      touched.push({ ptId: work.participantTestId, id: work.id });
      changed.push({
        id: after.id,
        extraSeconds: after.extraSeconds,
        deadlineAt: state.deadlineAt,
        secondsLeft: state.secondsLeft,
      });
    }
    return { changed };
  });
  for (const t of touched) publishWorkEvent(ctx, t.ptId, t.id, 'time_changed', { deltaSeconds, reason });
  return result;
}

/** Scope rule body for staff calls naming a work: 404 when absent, else the participant test's scope. */
export async function staffReachesWork(db: Db, auth: AuthContext, workId: number): Promise<boolean> {
  const place = await findExamWorkPlace(db, workId);
  if (!place) throw noSuchWork();
  return staffCanReach(db, auth, place);
}

/** The participant test card behind a result (for now a result id is its exam work id). */
export async function participantTestCard(ctx: AppContext, workId: number) {
  const place = await findExamWorkPlace(ctx.db, workId);
  if (!place) throw noSuchWork();
  const pt = await repo.findParticipantTest(ctx.db, { id: place.participantTestId });
  if (!pt) throw notFound('No such participant test');
  const { person } = await repo.findParticipantPerson(ctx.db, pt);
  return {
    id: pt.id,
    status: pt.status,
    testDate: pt.testDate,
    diagnosticId: pt.diagnosticId,
    subjectTestId: pt.subjectTestId,
    studentId: pt.studentId,
    schoolId: pt.schoolId,
    classId: pt.classId,
    participantName: fullName(person),
    activationCode: pt.activationCode,
    registrationCode: pt.registrationCode,
  };
}
