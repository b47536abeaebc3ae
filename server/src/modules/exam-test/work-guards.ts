/*
 * What every exam work service shares: the stable error codes of the runner's calls and the guards
 * (own work, same device, writable, bound test, staff reach). Internal to the exam-test module.
 */
import { canReachParticipantTest, type ParticipantTestPlace } from '../../auth/shared.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, Tx } from '../../db/client.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { isPastDeadline, isPaused, resumeClock } from '../../lib/work-clock.js';
import * as repo from './exam-work.repo.js';
import type { WorkRow } from './exam-work.repo.js';

/** Who asks: the session, the address (throttling) and the runner's device id, if sent. */
export interface Actor {
  auth: AuthContext;
  ip: string | null;
  deviceId: string | null;
}

// ------------------------------------------------------------------ errors (stable codes)

export const noExamWork = () =>
  new AppError(404, 'no_exam_work', 'There is no exam work for this participant test');
export const noSuchWork = () => notFound('No such exam work');
export const notYourWork = () => forbidden('This exam work belongs to another participant');
export const workFinished = () =>
  conflict('work_finished', 'This work is finished; answers can no longer be changed');
/** From the first publication of a diagnostic's results no work of it starts (docs/design.md §3). */
export const resultsPublished = () =>
  conflict(
    'results_published',
    'The results of this diagnostic have been published; the work can no longer be started',
  );
export const workDeleted = () => conflict('work_deleted', 'This work has been deleted by the organizer');
export const workPaused = () =>
  conflict('work_paused', 'The work is paused; answers are saved again after it resumes');
export const deadlinePassed = () =>
  conflict('deadline_passed', 'Time is up: the deadline of this work has passed');
export const deviceMismatch = () =>
  conflict(
    'device_mismatch',
    'This work is open on another device; ask the organizer to reset the session to continue here',
  );
export const staleSequence = (stored: number) =>
  conflict('stale_sequence', `A newer answer is already saved for this task (stored seq ${stored})`);
export const invalidAnswer = (errors: { path: string; message: string }[]) =>
  badRequest(
    'invalid_answer',
    `The answer does not fit the task: ${errors[0]?.path} ${errors[0]?.message}`,
    errors,
  );
export const taskNotInVariant = (path: string) =>
  badRequest('task_not_in_variant', 'This task is not part of the variant of the work', [
    { path, message: 'not a task of this work' },
  ]);

export const STAFF_ROLES = ['organizator', 'coordinator', 'admin'] as const;
export const FINISHED_TEST_STATUSES = ['finished', 'scored', 'published'];
export const OPEN_TEST_STATUSES = ['planned', 'active', 'in_progress'];

// ------------------------------------------------------------------ shared guards

/** The participant test the session is bound to; a participant session without one may do nothing here. */
export function boundTestId(auth: AuthContext): number {
  if (auth.participantTestId === null)
    throw forbidden('This session is not bound to a participant test', 'no_participant_test');
  return auth.participantTestId;
}

/** A work named by id in a participant's call: it must be theirs (403 otherwise, 404 if absent). */
export function ownWork(auth: AuthContext, w: WorkRow | null | undefined): WorkRow {
  if (!w) throw noSuchWork();
  if (auth.participantTestId === null || w.participantTestId !== auth.participantTestId) throw notYourWork();
  return w;
}

/** No header (API clients, scripts) means no binding check: the session itself is the credential. */
export const isSameDevice = (w: WorkRow, deviceId: string | null) =>
  !deviceId || !w.deviceId || deviceId === w.deviceId;

export function assertSameDevice(w: WorkRow, deviceId: string | null) {
  if (!isSameDevice(w, deviceId)) throw deviceMismatch();
}

/**
 * What a participant's write needs: a live, running work on this device before its deadline —
 * when may a participant write to a work: the one rule. The hot save statement
 * (exam-work.repo.ts saveAnswersFast) says the same in SQL; writable.test.ts feeds both the same
 * cases. Exported for that test.
 */
export function assertWritable(w: WorkRow, now: Date, deviceId: string | null) {
  if (w.deletedAt) throw workDeleted();
  assertSameDevice(w, deviceId);
  if (w.finishedAt || w.status === 'finished' || w.status === 'scored') throw workFinished();
  if (isPaused(w, now)) throw workPaused();
  if (isPastDeadline(w, now)) throw deadlinePassed();
}

/**
 * A participant's own pause that reached its end, settled on the locked row: the work runs again
 * as from that end, with exactly the allowance credited (the sweeper does the same for all works).
 */
export async function settleOverduePause(tx: Tx, w: WorkRow, now: Date): Promise<WorkRow> {
  if (!w.pausedAt || !w.pausedUntil || w.finishedAt || isPaused(w, now)) return w;
  const endedAt = w.pausedUntil;
  const after = await repo.updateWork(tx, w.id, {
    status: 'in_progress',
    pausedAt: null,
    pausedUntil: null,
    ...resumeClock(w, endedAt),
  });
  await repo.closePauses(tx, w.id, endedAt, null);
  return after;
}

export async function liveWorkOf(db: Db | Tx, auth: AuthContext): Promise<WorkRow> {
  const w = await repo.findLiveWork(db, boundTestId(auth));
  if (!w) throw noExamWork();
  return w;
}

export async function boundTest(db: Db, auth: AuthContext) {
  const pt = await repo.findParticipantTest(db, { id: boundTestId(auth) });
  if (!pt) throw notFound('The participant test of this session no longer exists');
  return pt;
}

/** Whether a staff member may act on the participant test of a work (admin, own school, own rooms). */
export async function staffCanReach(db: Db | Tx, auth: AuthContext, place: ParticipantTestPlace) {
  return hasRole(auth, ...STAFF_ROLES) && canReachParticipantTest(db as Db, auth, place);
}

export const blankNotAllowed = () =>
  conflict('blank_not_allowed', 'This subject test is answered online only (no paper answer form)');

export async function assertAllReachable(
  tx: Tx,
  auth: AuthContext,
  ids: number[],
  rows: { work: WorkRow; place: ParticipantTestPlace }[],
) {
  const found = new Set(rows.filter((r) => !r.work.deletedAt).map((r) => r.work.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw notFound(`No such exam work: ${missing.join(', ')}`);
  for (const r of rows) {
    if (!(await staffCanReach(tx, auth, r.place)))
      throw forbidden(`Exam work ${r.work.id} is outside your scope`);
  }
}

export const fullName = (p: { surname: string; name: string; patronymic: string | null } | null) =>
  p ? [p.surname, p.name, p.patronymic].filter(Boolean).join(' ') : null;
