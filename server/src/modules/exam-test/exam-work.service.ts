import type {
  ActivationCodeCheck,
  AnswerMode,
  CurrentParticipantTest,
  ExamWorkState,
  PauseAllowance,
  SaveAnswerBody,
  SaveAnswersBody,
  SubjectTestSummary,
} from '@attesta/contract';
import { reserveCodeAttempt } from '../../auth/proof-of-work.js';
import { canReachParticipantTest, type ParticipantTestPlace } from '../../auth/shared.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { publish } from '../../events/domain-events.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { normalizeActivationCode } from '../../lib/tokens.js';
import { schoolDay } from '../../lib/calendar.js';
import { checkAnswerValue, sameJson, type AnswerTask } from './answer-value.js';
import {
  changeTime,
  computeDeadline,
  isPastDeadline,
  isPaused,
  resumeClock,
  secondsUntil,
} from './deadline.js';
import { cachedSubjectTest, cachedTaskCount, cachedTaskDef } from './content-cache.js';
import * as repo from './exam-work.repo.js';
import { saveBatcherOf } from './save-batcher.js';
import { checkUpload, taskFileLimit, taskFileTooLarge } from './upload.js';
import { quotaExceeded, uploadLimit, type ByteLimit, type IncomingFile } from '../../lib/multipart.js';
import { uploadAllowance } from '../files/files.service.js';
import { pickVariant } from './variant-spread.js';
import type { WorkRow } from './exam-work.repo.js';
import { toPauseState, toSavedAnswers, toTimeLeft, toWorkState } from './presenter.js';

/** Who asks: the session, the address (audit, throttling) and the runner's device id, if sent. */
export interface Actor {
  auth: AuthContext;
  ip: string | null;
  deviceId: string | null;
}

// ------------------------------------------------------------------ errors (stable codes)

const noExamWork = () => new AppError(404, 'no_exam_work', 'There is no exam work for this participant test');
const noSuchWork = () => notFound('No such exam work');
const notYourWork = () => forbidden('This exam work belongs to another participant');
const workFinished = () =>
  conflict('work_finished', 'This work is finished; answers can no longer be changed');
const workDeleted = () => conflict('work_deleted', 'This work has been deleted by the organizer');
const workPaused = () =>
  conflict('work_paused', 'The work is paused; answers are saved again after it resumes');
const deadlinePassed = () => conflict('deadline_passed', 'Time is up: the deadline of this work has passed');
const deviceMismatch = () =>
  conflict(
    'device_mismatch',
    'This work is open on another device; ask the organizer to reset the session to continue here',
  );
const staleSequence = (stored: number) =>
  conflict('stale_sequence', `A newer answer is already saved for this task (stored seq ${stored})`);
const invalidAnswer = (errors: { path: string; message: string }[]) =>
  badRequest(
    'invalid_answer',
    `The answer does not fit the task: ${errors[0]?.path} ${errors[0]?.message}`,
    errors,
  );
const taskNotInVariant = (path: string) =>
  badRequest('task_not_in_variant', 'This task is not part of the variant of the work', [
    { path, message: 'not a task of this work' },
  ]);

const STAFF_ROLES = ['organizator', 'coordinator', 'admin'] as const;
const FINISHED_TEST_STATUSES = ['finished', 'scored', 'published'];
const OPEN_TEST_STATUSES = ['planned', 'active', 'in_progress'];

// ------------------------------------------------------------------ shared guards

/** The participant test the session is bound to; a participant session without one may do nothing here. */
export function boundTestId(auth: AuthContext): number {
  if (auth.participantTestId === null)
    throw forbidden('This session is not bound to a participant test', 'no_participant_test');
  return auth.participantTestId;
}

/** A work named by id in a participant's call: it must be theirs (403 otherwise, 404 if absent). */
function ownWork(auth: AuthContext, w: WorkRow | null | undefined): WorkRow {
  if (!w) throw noSuchWork();
  if (auth.participantTestId === null || w.participantTestId !== auth.participantTestId) throw notYourWork();
  return w;
}

/** No header (API clients, scripts) means no binding check: the session itself is the credential. */
const isSameDevice = (w: WorkRow, deviceId: string | null) =>
  !deviceId || !w.deviceId || deviceId === w.deviceId;

function assertSameDevice(w: WorkRow, deviceId: string | null) {
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
async function settleOverduePause(tx: Tx, w: WorkRow, now: Date): Promise<WorkRow> {
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

async function liveWorkOf(db: Db | Tx, auth: AuthContext): Promise<WorkRow> {
  const w = await repo.findLiveWork(db, boundTestId(auth));
  if (!w) throw noExamWork();
  return w;
}

async function boundTest(db: Db, auth: AuthContext) {
  const pt = await repo.findParticipantTest(db, { id: boundTestId(auth) });
  if (!pt) throw notFound('The participant test of this session no longer exists');
  return pt;
}

/** Whether a staff member may act on the participant test of a work (admin, own school, own rooms). */
export async function staffCanReach(db: Db | Tx, auth: AuthContext, place: ParticipantTestPlace) {
  return hasRole(auth, ...STAFF_ROLES) && canReachParticipantTest(db as Db, auth, place);
}

// ------------------------------------------------------------------ activation codes

/** The school calendar day of `now` (test dates are Moscow calendar dates), as the login uses it. */
const today = (now: Date) => schoolDay(now);

function codeReason(pt: repo.ParticipantTestRow, now: Date): ActivationCodeCheck['reason'] {
  if (pt.status === 'annulled') return 'annulled';
  if (FINISHED_TEST_STATUSES.includes(pt.status)) return 'finished';
  if (now >= pt.endsAt) return 'window_closed';
  if (pt.testDate > today(now) || now < pt.startsAt) return 'not_yet_active';
  return null;
}

async function describeCode(
  db: Db,
  pt: repo.ParticipantTestRow | null,
  now: Date,
): Promise<ActivationCodeCheck> {
  if (!pt) {
    return {
      valid: false,
      reason: 'unknown',
      subjectTest: null,
      testDate: null,
      windowStartsAt: null,
      windowEndsAt: null,
      serverTime: now.toISOString(),
    };
  }
  const st = await cachedSubjectTest(db, pt.subjectTestId);
  const reason = codeReason(pt, now);
  return {
    valid: reason === null,
    reason,
    subjectTest: st ? { id: st.id, name: st.name } : null,
    testDate: pt.testDate,
    windowStartsAt: pt.startsAt.toISOString(),
    windowEndsAt: pt.endsAt.toISOString(),
    serverTime: now.toISOString(),
  };
}

/**
 * Anonymous code check: an oracle for codes like the code login, so the same budgets guard it
 * (reserveCodeAttempt: taken before the lookup, a known code gives them back; beyond the free
 * budgets 428 until a proof of work comes in the `X-Proof-Of-Work` header).
 */
export async function checkActivationCode(ctx: AppContext, typed: string, ip: string, proof?: string) {
  const code = normalizeActivationCode(typed);
  const reservation = await reserveCodeAttempt(ctx, code, ip, proof);
  const pt = await repo.findParticipantTest(ctx.db, { activationCode: code });
  if (pt) void reservation.release();
  return describeCode(ctx.db, pt, new Date());
}

export async function checkOwnActivationCode(ctx: AppContext, auth: AuthContext) {
  const pt = await repo.findParticipantTest(ctx.db, { id: boundTestId(auth) });
  return describeCode(ctx.db, pt, new Date());
}

// ------------------------------------------------------------------ participant test, subject test

export async function subjectTestSummary(db: Db, subjectTestId: number): Promise<SubjectTestSummary> {
  const st = await cachedSubjectTest(db, subjectTestId);
  if (!st) throw notFound('No such subject test');
  return {
    id: st.id,
    name: st.name,
    subjectName: st.subjectName,
    parallels: st.parallels,
    durationMinutes: st.durationMinutes,
    description: st.description,
    taskCount: await cachedTaskCount(db, st.id),
    allowBlank: st.allowBlank,
    testGroupId: st.testGroupId,
    hasQuiz: st.quizId !== null,
  };
}

export async function ownSubjectTest(ctx: AppContext, auth: AuthContext) {
  const pt = await boundTest(ctx.db, auth);
  return subjectTestSummary(ctx.db, pt.subjectTestId);
}

const fullName = (p: { surname: string; name: string; patronymic: string | null } | null) =>
  p ? [p.surname, p.name, p.patronymic].filter(Boolean).join(' ') : null;

export async function currentParticipantTest(ctx: AppContext, actor: Actor): Promise<CurrentParticipantTest> {
  const { auth } = actor;
  const now = new Date();
  const pt = await boundTest(ctx.db, auth);
  const subjectTest = await subjectTestSummary(ctx.db, pt.subjectTestId);
  const { person, className, schoolName } = await repo.findParticipantPerson(ctx.db, pt);
  const quizDone = !subjectTest.hasQuiz || (await repo.findQuizAnswers(ctx.db, pt.id)) !== null;
  const work = await repo.findLiveWork(ctx.db, pt.id);
  return {
    id: pt.id,
    status: pt.status,
    testDate: pt.testDate,
    diagnostic: {
      id: pt.diagnosticId,
      name: pt.diagnosticName,
      startsAt: pt.startsAt.toISOString(),
      endsAt: pt.endsAt.toISOString(),
      resultsPublished: pt.resultsPublished,
    },
    subjectTest,
    participant: {
      displayName: fullName(person) ?? auth.displayName,
      className,
      schoolName,
      cardComplete: !!person?.surname?.trim() && !!person?.name?.trim(),
    },
    quizDone,
    examWork: work ? toWorkState(work, now) : null,
    // Told before the runner opens: a runner here would have every save refused.
    openElsewhere: !!work && !work.finishedAt && !isSameDevice(work, actor.deviceId),
    serverTime: now.toISOString(),
  };
}

export async function timeBefore(ctx: AppContext, auth: AuthContext) {
  const now = new Date();
  const pt = await boundTest(ctx.db, auth);
  return {
    seconds: secondsUntil(pt.startsAt, now),
    startsAt: pt.startsAt.toISOString(),
    endsAt: pt.endsAt.toISOString(),
    serverTime: now.toISOString(),
  };
}

// ------------------------------------------------------------------ start a work

/**
 * Starts the work of the session's participant test, or returns the live one: idempotent, also
 * when several tabs call at once (the partial unique index admits one live work; the losers read
 * the winner's row).
 */
export async function startWork(
  ctx: AppContext,
  actor: Actor,
  mode: AnswerMode | undefined,
): Promise<ExamWorkState> {
  const ptId = boundTestId(actor.auth);
  const found = await repo.findTestWithLiveWork(ctx.db, ptId);
  if (found?.work) return resumeExisting(ctx.db, found.work, actor);
  if (!found) throw notFound('The participant test of this session no longer exists');
  const { pt } = found;

  const now = new Date();
  if (pt.status === 'annulled')
    throw conflict('participant_test_annulled', 'This participant test has been annulled');
  if (FINISHED_TEST_STATUSES.includes(pt.status)) throw workFinished();
  if (now < pt.startsAt)
    throw conflict('window_not_open', 'The test has not started yet; wait for the start time');
  if (now >= pt.endsAt) throw conflict('window_closed', 'The time window of this test is over');
  const st = await cachedSubjectTest(ctx.db, pt.subjectTestId);
  if (!st) throw notFound('No such subject test');
  if (mode === 'blank' && !st.allowBlank) throw blankNotAllowed();
  const variantId = await pickVariant(ctx.db, pt);
  if (variantId === null) throw conflict('no_variant', 'This subject test has no variants yet');

  const clock = {
    startedAt: now,
    timeLimitSeconds: st.durationMinutes * 60,
    extraSeconds: 0,
    pausedSeconds: 0,
    windowEndsAt: pt.endsAt,
  };
  // One statement: the work, the participant test in progress, the audit entry.
  const created = await repo.startWorkOnce(
    ctx.db,
    {
      participantTestId: pt.id,
      variantId,
      answerMode: mode ?? 'online',
      startedAt: now,
      timeLimitSeconds: clock.timeLimitSeconds,
      windowEndsAt: pt.endsAt,
      deadlineAt: computeDeadline(clock),
      deviceId: actor.deviceId,
    },
    { userId: actor.auth.userId, ip: actor.ip },
  );
  if (created) {
    publishWorkEvent(ctx, pt.id, created.id, 'started');
    return toWorkState(created, now);
  }
  // Another request created it between our read and our insert.
  const winner = await repo.findLiveWork(ctx.db, ptId);
  if (!winner) throw noExamWork();
  return resumeExisting(ctx.db, winner, actor);
}

/** Reopening an existing work: same device (or bind a work started without one). */
async function resumeExisting(db: Db, w: WorkRow, actor: Actor): Promise<ExamWorkState> {
  assertSameDevice(w, actor.deviceId);
  const bound =
    actor.deviceId && !w.deviceId ? await repo.updateWork(db, w.id, { deviceId: actor.deviceId }) : w;
  return toWorkState(bound, new Date());
}

export async function workExists(ctx: AppContext, auth: AuthContext) {
  const w = await repo.findLiveWork(ctx.db, boundTestId(auth));
  return {
    exists: w !== null,
    examWorkId: w?.id ?? null,
    status: w ? toWorkState(w, new Date()).status : null,
  };
}

// ------------------------------------------------------------------ read a work

/** A work for its own participant, or for staff whose scope reaches its participant test. */
async function readableWork(ctx: AppContext, auth: AuthContext, id: number): Promise<WorkRow> {
  const w = await repo.findWork(ctx.db, id);
  if (!w) throw noSuchWork();
  if (auth.participantTestId !== null && w.participantTestId === auth.participantTestId) {
    if (w.deletedAt) throw noSuchWork();
    return w;
  }
  const place = await repo.workPlace(ctx.db, id);
  if (place && (await staffCanReach(ctx.db, auth, place))) return w;
  throw notYourWork();
}

export async function workState(ctx: AppContext, auth: AuthContext, id: number): Promise<ExamWorkState> {
  const w = await readableWork(ctx, auth, id);
  const { rows, attached } = await repo.answersOf(ctx.db, w.id);
  return toWorkState(w, new Date(), toSavedAnswers(rows, attached));
}

export async function timeLeft(ctx: AppContext, auth: AuthContext, id: number) {
  const w = ownWork(auth, await repo.findWork(ctx.db, id));
  if (w.deletedAt) throw noSuchWork();
  publishWorkEvent(ctx, w.participantTestId, w.id, 'heartbeat');
  return toTimeLeft(w, new Date());
}

// ------------------------------------------------------------------ save answers

/**
 * PUT saveanswer. The common case — a valid answer to a running work — is one statement
 * (saveAnswersFast), shared with the other saves of the same moment (save-batcher.ts). Anything
 * else (file answers, invalid values, stale seq, finished, paused, someone else's work...) takes
 * the fully checked transaction below, which gives the exact error.
 */
export async function saveAnswer(ctx: AppContext, actor: Actor, body: SaveAnswerBody) {
  const participantTestId = actor.auth.participantTestId;
  const def = await cachedTaskDef(ctx.db, body.variantTaskId);
  if (participantTestId !== null && def && def.answerType !== 'file') {
    const checked = checkAnswerValue(def as AnswerTask, body.value, 'body.value');
    if (checked.ok) {
      // Anything the batched statement could not apply (or a failed statement) takes the checked path.
      const applied = await saveBatcherOf(ctx.db)
        .save({
          workId: body.examWorkId,
          participantTestId,
          variantTaskId: body.variantTaskId,
          value: checked.value,
          seq: body.seq,
          userId: actor.auth.userId,
          deviceId: actor.deviceId,
          now: new Date(),
        })
        .catch(() => null);
      if (applied) {
        publishWorkEvent(ctx, participantTestId, body.examWorkId, 'answer_saved', {
          variantTaskId: body.variantTaskId,
        });
        return { seq: applied.seq, savedAt: applied.savedAt.toISOString() };
      }
    }
  }
  const saved = await saveAnswerChecked(ctx, actor, body);
  publishWorkEvent(ctx, participantTestId, body.examWorkId, 'answer_saved', {
    variantTaskId: body.variantTaskId,
  });
  return saved;
}

async function saveAnswerChecked(ctx: AppContext, actor: Actor, body: SaveAnswerBody) {
  return ctx.db.transaction(async (tx) => {
    const row = await repo.lockWorkWithTask(tx, body.examWorkId, body.variantTaskId);
    // The clock is read after the lock: a save that waited for a finish sees it finished.
    const now = new Date();
    const w = ownWork(actor.auth, row?.work);
    assertWritable(w, now, actor.deviceId);
    const task = row!.task;
    if (!task?.answerType) throw taskNotInVariant('body.variantTaskId');
    const checked = checkAnswerValue(task as AnswerTask, body.value, 'body.value');
    if (!checked.ok) throw invalidAnswer(checked.errors);
    if (task.answerType === 'file')
      await assertAttached(tx, w.id, [{ variantTaskId: body.variantTaskId, value: checked.value }]);

    const write = { variantTaskId: body.variantTaskId, value: checked.value, seq: body.seq };
    const meta = {
      examWorkId: w.id,
      answerMode: w.answerMode,
      source: 'participant' as const,
      savedBy: actor.auth.userId,
      forceMode: false,
    };
    const [applied] = await repo.upsertAnswers(tx, meta, [write]);
    if (applied) return { seq: applied.seq, savedAt: applied.savedAt.toISOString() };
    const [stored] = await repo.storedAnswers(tx, w.id, [write]);
    // A retry of the very save already stored is acknowledged again, with the original time.
    if (stored && stored.seq === body.seq && sameJson(stored.value, checked.value))
      return { seq: stored.seq, savedAt: stored.savedAt.toISOString() };
    throw staleSequence(stored?.seq ?? 0);
  });
}

/** A file answer may only name files uploaded to this very answer (never someone else's). */
async function assertAttached(tx: Tx, workId: number, list: { variantTaskId: number; value: unknown }[]) {
  const attached = await repo.attachedFileIds(
    tx,
    workId,
    list.map((a) => a.variantTaskId),
  );
  for (const a of list) {
    const own = new Set(attached.filter((x) => x.variantTaskId === a.variantTaskId).map((x) => x.fileId));
    const ids = (a.value as { fileIds: number[] }).fileIds;
    if (ids.some((id) => !own.has(id)))
      throw invalidAnswer([{ path: 'value.fileIds', message: 'not a file uploaded for this answer' }]);
  }
}

/** Who writes a batch: the participant online, or staff keying in a paper form. */
type Writer =
  | { kind: 'participant'; actor: Actor }
  | { kind: 'staff'; actor: Actor; participantTestId: number; registrationCode: string };

/** Resolves `registrationCode`: staff only, a live participant test within their scope. */
export async function writerFor(
  ctx: AppContext,
  actor: Actor,
  registrationCode: string | undefined,
): Promise<Writer> {
  if (registrationCode === undefined) {
    boundTestId(actor.auth);
    return { kind: 'participant', actor };
  }
  if (!hasRole(actor.auth, ...STAFF_ROLES))
    throw forbidden('Only staff may key in a paper form by registration code');
  const pt = await repo.findParticipantTest(ctx.db, { registrationCode });
  if (!pt) throw notFound('No participant test has this registration code');
  if (!(await staffCanReach(ctx.db, actor.auth, pt)))
    throw forbidden('This participant test is outside your scope');
  return { kind: 'staff', actor, participantTestId: pt.id, registrationCode };
}

/** The work a batch writes to, locked FOR SHARE and checked for the writer. */
async function lockForWriter(tx: Tx, writer: Writer, workId: number): Promise<WorkRow> {
  const found = await repo.lockWorkShared(tx, workId);
  if (writer.kind === 'participant') {
    // Saves hold a share lock and never write the work: an own pause past its end counts as over
    // (isPaused) though its row still says paused until the next write or the sweeper settles it.
    const w = ownWork(writer.actor.auth, found);
    assertWritable(w, new Date(), writer.actor.deviceId);
    return w;
  }
  // Paper forms arrive after the test: allowed after the deadline and after finish, never into a deleted work.
  if (!found || found.participantTestId !== writer.participantTestId)
    throw notFound('This exam work does not belong to the participant test of the registration code');
  if (found.deletedAt) throw workDeleted();
  return found;
}

/** Answer types and content of the batch's tasks; every task must be in the work's variant. */
async function tasksForBatch(tx: Tx, w: WorkRow, ids: number[]) {
  const found = await repo.answerTasksOf(tx, w.variantId, ids);
  const byId = new Map(found.map((t) => [t.variantTaskId, t]));
  ids.forEach((id, i) => {
    if (!byId.has(id)) throw taskNotInVariant(`body.answers.${i}.variantTaskId`);
  });
  return byId;
}

function validateBatch(list: SaveAnswersBody['answers'], tasks: Map<number, AnswerTask>) {
  const seen = new Set<number>();
  return list.map((a, i) => {
    if (seen.has(a.variantTaskId))
      throw badRequest('validation_failed', 'A task appears twice in one batch', [
        { path: `body.answers.${i}.variantTaskId`, message: 'duplicate task' },
      ]);
    seen.add(a.variantTaskId);
    const checked = checkAnswerValue(tasks.get(a.variantTaskId)!, a.value, `body.answers.${i}.value`);
    if (!checked.ok) throw invalidAnswer(checked.errors);
    return { variantTaskId: a.variantTaskId, value: checked.value, seq: a.seq };
  });
}

type BatchResult = {
  variantTaskId: number;
  status: 'saved' | 'duplicate' | 'stale';
  seq: number;
  savedAt: string;
};

/** Writes validated answers in one statement; the ones that did not apply are read back and classified. */
async function writeBatch(
  tx: Tx,
  writer: Writer,
  w: WorkRow,
  list: repo.AnswerWrite[],
): Promise<BatchResult[]> {
  const staff = writer.kind === 'staff';
  const meta = {
    examWorkId: w.id,
    answerMode: staff ? 'blank' : w.answerMode,
    source: staff ? ('staff' as const) : ('participant' as const),
    savedBy: writer.actor.auth.userId,
    forceMode: staff,
  };
  const applied = new Map((await repo.upsertAnswers(tx, meta, list)).map((r) => [r.variantTaskId, r]));
  const stored = new Map(
    (
      await repo.storedAnswers(
        tx,
        w.id,
        list.filter((a) => !applied.has(a.variantTaskId)),
      )
    ).map((r) => [r.variantTaskId, r]),
  );
  return list.map((a) => {
    const done = applied.get(a.variantTaskId);
    if (done)
      return {
        variantTaskId: a.variantTaskId,
        status: 'saved',
        seq: done.seq,
        savedAt: done.savedAt.toISOString(),
      };
    const s = stored.get(a.variantTaskId)!;
    const duplicate = s.seq === a.seq && sameJson(s.value, a.value);
    return {
      variantTaskId: a.variantTaskId,
      status: duplicate ? 'duplicate' : 'stale',
      seq: s.seq,
      savedAt: s.savedAt.toISOString(),
    };
  });
}

async function auditStaffBatch(tx: Tx, writer: Writer, w: WorkRow, results: BatchResult[], fileCount = 0) {
  if (writer.kind !== 'staff') return;
  await audit(tx, {
    userId: writer.actor.auth.userId,
    action: 'exam_work.answers_keyed_in',
    entity: 'exam_work',
    entityId: w.id,
    details: {
      participantTestId: writer.participantTestId,
      saved: results.filter((r) => r.status === 'saved').map((r) => r.variantTaskId),
      files: fileCount,
    },
    ip: writer.actor.ip,
  });
}

export async function saveAnswers(ctx: AppContext, writer: Writer, body: SaveAnswersBody) {
  const done = await ctx.db.transaction(async (tx) => {
    const w = await lockForWriter(tx, writer, body.examWorkId);
    const tasks = await tasksForBatch(
      tx,
      w,
      body.answers.map((a) => a.variantTaskId),
    );
    const list = validateBatch(body.answers, tasks);
    const fileAnswers = list.filter((a) => tasks.get(a.variantTaskId)!.answerType === 'file');
    if (fileAnswers.length) await assertAttached(tx, w.id, fileAnswers);
    const results = await writeBatch(tx, writer, w, list);
    await auditStaffBatch(tx, writer, w, results);
    return { results };
  });
  publishBatch(ctx, writer, body.examWorkId, done.results);
  return done;
}

/** One event for a batch (online or keyed in from a paper form), with what the batch knows. */
function publishBatch(ctx: AppContext, writer: Writer, workId: number, results: BatchResult[]) {
  const saved = results.filter((r) => r.status === 'saved').length;
  if (!saved) return;
  const ptId = writer.kind === 'staff' ? writer.participantTestId : writer.actor.auth.participantTestId;
  publishWorkEvent(ctx, ptId, workId, 'answer_saved', { saved, source: writer.kind });
}

// ------------------------------------------------------------------ answers with files

export interface UploadedFile {
  variantTaskId: number;
  file: IncomingFile;
}

/** What a request's files may be, settled from its `answers` before any file byte is read. */
export interface FileUploadPlan {
  /** The byte limit of the next file of a task (400 not a file task of the batch, 413 too many files). */
  limitOf(variantTaskId: number, spooledBytes: number): ByteLimit;
}

/**
 * The checks of saveanswers_with_files that need no file: the writer may write this work (404,
 * 403, 409 as the save would answer), every file's task is a file task of the batch, the number
 * of files and each file's size fit the task, and the uploader's storage quota holds them. Run
 * before the files are read, so a refused request costs nothing; the save checks all of it again.
 */
export async function planFileUploads(
  ctx: AppContext,
  writer: Writer,
  body: SaveAnswersBody,
): Promise<FileUploadPlan> {
  const { tasks, allowance, kept } = await ctx.db.transaction(async (tx) => {
    const w = await lockForWriter(tx, writer, body.examWorkId);
    const tasks = await tasksForBatch(
      tx,
      w,
      body.answers.map((a) => a.variantTaskId),
    );
    const allowance = await uploadAllowance(tx, writer.actor.auth, ctx.config.uploadQuotaBytes);
    const kept = new Map(
      body.answers.map((a) => [a.variantTaskId, (a.value as { fileIds?: unknown[] })?.fileIds?.length ?? 0]),
    );
    return { tasks, allowance, kept };
  });
  const counts = new Map<number, number>();
  return {
    limitOf(variantTaskId, spooledBytes) {
      const task = tasks.get(variantTaskId);
      if (!task)
        throw badRequest('validation_failed', 'Files need an answer entry for their task', [
          { path: `file:${variantTaskId}`, message: 'no answer with this variantTaskId in `answers`' },
        ]);
      if (task.answerType !== 'file') throw badRequest('validation_failed', 'This task does not take files');
      const n = (counts.get(variantTaskId) ?? 0) + 1;
      counts.set(variantTaskId, n);
      const max = typeof task.content.maxFiles === 'number' ? task.content.maxFiles : 1;
      if ((kept.get(variantTaskId) ?? 0) + n > max)
        throw new AppError(413, 'too_many_files', `At most ${max} files for this task`);
      const perFile = taskFileLimit(task);
      const limit = uploadLimit(allowance, spooledBytes, perFile);
      return limit.bytes === perFile ? { bytes: perFile, error: () => taskFileTooLarge(perFile) } : limit;
    },
  };
}

/**
 * Answers plus their files in one transaction: the files rows, the answer_files links and the
 * answers commit together or not at all. A file answer's value lists the already attached files
 * it keeps; the new uploads are appended to it. Files are read from their spool one at a time.
 */
export async function saveAnswersWithFiles(
  ctx: AppContext,
  writer: Writer,
  body: SaveAnswersBody,
  uploads: UploadedFile[],
) {
  const done = await ctx.db.transaction(async (tx) => {
    const w = await lockForWriter(tx, writer, body.examWorkId);
    const tasks = await tasksForBatch(
      tx,
      w,
      body.answers.map((a) => a.variantTaskId),
    );
    for (const f of uploads) {
      const task = tasks.get(f.variantTaskId);
      if (task?.answerType !== 'file')
        throw badRequest('validation_failed', 'Files need an answer entry of a file task', [
          { path: `file:${f.variantTaskId}`, message: 'no file task with this variantTaskId in `answers`' },
        ]);
    }
    const list = validateBatch(body.answers, tasks);
    const fileAnswers = list.filter((a) => tasks.get(a.variantTaskId)!.answerType === 'file');
    if (fileAnswers.length) await assertAttached(tx, w.id, fileAnswers);
    const allowance = await uploadAllowance(tx, writer.actor.auth, ctx.config.uploadQuotaBytes);
    const total = uploads.reduce((sum, f) => sum + f.file.size, 0);
    if (allowance.quotaBytes !== null && total > allowance.quotaBytes) throw quotaExceeded();

    const stored: { variantTaskId: number; id: number; name: string; mime: string; size: number }[] = [];
    for (const f of uploads) {
      const checked = await checkUpload(tasks.get(f.variantTaskId)!, f.file);
      const id = await repo.insertAnswerFile(tx, w.id, f.variantTaskId, {
        name: checked.name,
        mime: checked.mime,
        size: checked.data.length,
        sha256: f.file.sha256,
        data: checked.data,
        createdBy: writer.actor.auth.userId,
      });
      stored.push({
        variantTaskId: f.variantTaskId,
        id,
        name: checked.name,
        mime: checked.mime,
        size: f.file.size,
      });
    }
    const merged = list.map((a) => mergeFileIds(a, stored, tasks.get(a.variantTaskId)!));
    const results = await writeBatch(tx, writer, w, merged);
    // Files ride on their answer: if that answer did not apply, nothing of the request may stay.
    const lost = results.find(
      (r) => r.status !== 'saved' && stored.some((f) => f.variantTaskId === r.variantTaskId),
    );
    if (lost) throw staleSequence(lost.seq);
    await auditStaffBatch(tx, writer, w, results, stored.length);
    return { results, files: stored };
  });
  publishBatch(ctx, writer, body.examWorkId, done.results);
  return done;
}

function mergeFileIds(
  a: repo.AnswerWrite,
  stored: { variantTaskId: number; id: number }[],
  task: AnswerTask,
) {
  if (task.answerType !== 'file') return a;
  const kept = (a.value as { fileIds: number[] }).fileIds;
  const fileIds = [...kept, ...stored.filter((f) => f.variantTaskId === a.variantTaskId).map((f) => f.id)];
  const max = typeof task.content.maxFiles === 'number' ? task.content.maxFiles : 1;
  if (fileIds.length > max) throw new AppError(413, 'too_many_files', `At most ${max} files for this task`);
  return { ...a, value: { fileIds } };
}

// ------------------------------------------------------------------ answer mode

const blankNotAllowed = () =>
  conflict('blank_not_allowed', 'This subject test is answered online only (no paper answer form)');

async function writableOwnWork(tx: Tx, actor: Actor, id: number) {
  const now = new Date();
  const w = await settleOverduePause(tx, ownWork(actor.auth, await repo.lockWorkForUpdate(tx, id)), now);
  assertWritable(w, now, actor.deviceId);
  return w;
}

async function assertModeAllowed(db: Db | Tx, w: WorkRow, mode: AnswerMode) {
  if (mode !== 'blank') return;
  const pt = await repo.findParticipantTest(db, { id: w.participantTestId });
  const st = pt && (await cachedSubjectTest(db, pt.subjectTestId));
  if (!st?.allowBlank) throw blankNotAllowed();
}

/** The whole work switches mode: its default and every task's mode follow. */
export async function setWorkMode(ctx: AppContext, actor: Actor, id: number, mode: AnswerMode) {
  return ctx.db.transaction(async (tx) => {
    const w = await writableOwnWork(tx, actor, id);
    await assertModeAllowed(tx, w, mode);
    await repo.updateWork(tx, w.id, { answerMode: mode });
    await repo.setAllAnswerModes(tx, w.id, mode);
    return { examWorkId: w.id, variantTaskId: null, answerMode: mode };
  });
}

/** A participant's own writable work and one task of its variant; `missing()` is the refusal otherwise. */
async function writableWorkWithTask(
  tx: Tx,
  actor: Actor,
  id: number,
  variantTaskId: number,
  missing: () => Error,
) {
  const w = await writableOwnWork(tx, actor, id);
  const [task] = await repo.answerTasksOf(tx, w.variantId, [variantTaskId]);
  if (!task) throw missing();
  return w;
}

/** One task's mode, stored on its answer row (created empty with seq 0 when there is none yet). */
export async function setTaskMode(
  ctx: AppContext,
  actor: Actor,
  id: number,
  variantTaskId: number,
  mode: AnswerMode,
) {
  return ctx.db.transaction(async (tx) => {
    const w = await writableWorkWithTask(tx, actor, id, variantTaskId, () =>
      notFound('This task is not part of the variant of the work'),
    );
    await assertModeAllowed(tx, w, mode);
    await repo.setAnswerMode(tx, w.id, variantTaskId, mode);
    return { examWorkId: w.id, variantTaskId, answerMode: mode };
  });
}

// ------------------------------------------------------------------ flags

/** Flags or unflags a task of one's own running work; the flags follow the work to any device. */
export async function setFlag(
  ctx: AppContext,
  actor: Actor,
  id: number,
  variantTaskId: number,
  flagged: boolean,
) {
  return ctx.db.transaction(async (tx) => {
    const w = await writableWorkWithTask(tx, actor, id, variantTaskId, () =>
      taskNotInVariant('params.variantTaskId'),
    );
    const others = (w.flags ?? []).filter((f) => f !== variantTaskId);
    const flags = flagged ? [...others, variantTaskId].sort((a, b) => a - b) : others;
    const after = await repo.updateWork(tx, w.id, { flags });
    return { examWorkId: w.id, flags: after.flags };
  });
}

// ------------------------------------------------------------------ finish

/** Finishes own work. Idempotent; `timeout` only counts when the server's clock agrees. */
export async function finishWork(ctx: AppContext, actor: Actor, id: number, reason: 'manual' | 'timeout') {
  const state = await ctx.db.transaction(async (tx) => {
    const w = ownWork(actor.auth, await repo.lockWorkForUpdate(tx, id));
    // After the lock: saves that held it committed before this instant.
    const now = new Date();
    if (w.deletedAt) throw workDeleted();
    if (w.finishedAt) return toWorkState(w, now);
    assertSameDevice(w, actor.deviceId);
    const past = isPastDeadline(w, now);
    const finishedAt = past ? effectiveDeadlineOf(w, now) : now;
    const finishReason = reason === 'timeout' && past ? 'timeout' : 'manual';
    const done = await repo.updateWork(tx, w.id, {
      status: 'finished',
      finishedAt,
      finishReason,
      pausedAt: null,
      pausedUntil: null,
      pausedSeconds: resumeClock(w, finishedAt).pausedSeconds,
    });
    if (w.pausedAt) {
      // An own pause past its end ended then, not at the finish.
      const pauseEnded = isPaused(w, finishedAt) ? finishedAt : (w.pausedUntil ?? finishedAt);
      await repo.closePauses(tx, w.id, pauseEnded, actor.auth.userId);
    }
    await repo.setParticipantTestStatus(tx, w.participantTestId, 'finished', OPEN_TEST_STATUSES);
    await publish('worksFinished', { db: tx, examWorkIds: [w.id] });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'exam_work.finish',
      entity: 'exam_work',
      entityId: w.id,
      reason: finishReason,
      details: { requested: reason },
      ip: actor.ip,
    });
    return toWorkState(done, now);
  });
  publishWorkEvent(ctx, state.participantTestId, state.id, 'finished', { reason: state.finishReason });
  return state;
}

function effectiveDeadlineOf(w: WorkRow, now: Date): Date {
  return w.pausedAt ? resumeClock(w, now).deadlineAt : w.deadlineAt;
}

// ------------------------------------------------------------------ pause

const pauseLimit = (message: string) => conflict('pause_limit', message);

/** What is left of a work's own pause allowance under its subject test's policy. */
async function allowanceOf(db: Db | Tx, w: WorkRow, now: Date): Promise<PauseAllowance> {
  const policy = await repo.pausePolicyOf(db, w.participantTestId);
  const used = await repo.ownPauseUsage(db, w.id, now);
  if (!policy?.allowed) return { allowed: false, pausesLeft: 0, secondsLeft: 0 };
  return {
    allowed: true,
    pausesLeft: Math.max(0, policy.maxCount - used.count),
    secondsLeft: Math.max(0, policy.maxMinutes * 60 - used.seconds),
  };
}

async function pauseStateOf(db: Db | Tx, w: WorkRow, now: Date) {
  const open = isPaused(w, now) ? await repo.openPauseOf(db, w.id) : null;
  return toPauseState(
    w,
    now,
    open && { reason: open.reason, byStaff: open.byStaff },
    await allowanceOf(db, w, now),
  );
}

export async function ownPauseState(ctx: AppContext, auth: AuthContext) {
  const w = await liveWorkOf(ctx.db, auth);
  return pauseStateOf(ctx.db, w, new Date());
}

/**
 * Pauses or resumes the session's own work. A participant's pause follows the subject test's
 * policy (allowed at all, at most N pauses and M minutes in all: 409 `pause_limit` beyond it, and
 * the clock runs on) and ends by itself when the allowance runs out. A pause made by staff is
 * lifted by staff only.
 */
export async function pauseOwn(ctx: AppContext, actor: Actor, pause: boolean, reason: string | null) {
  const ptId = boundTestId(actor.auth);
  const result = await ctx.db.transaction(async (tx) => {
    const live = await repo.findLiveWork(tx, ptId);
    if (!live) throw noExamWork();
    const now = new Date();
    const w = await settleOverduePause(tx, (await repo.lockWorkForUpdate(tx, live.id))!, now);
    if (w.finishedAt) throw workFinished();
    assertSameDevice(w, actor.deviceId);
    const open = w.pausedAt ? await repo.openPauseOf(tx, w.id) : null;
    if (!pause && open && open.byStaff)
      throw forbidden('The organizer paused this work; only the organizer can resume it', 'paused_by_staff');
    let until: Date | null = null;
    if (pause && !w.pausedAt) {
      const allowance = await allowanceOf(tx, w, now);
      if (!allowance.allowed) throw pauseLimit('Pausing is not allowed in this test');
      if (allowance.pausesLeft <= 0) throw pauseLimit('All the pauses this test allows have been used');
      if (allowance.secondsLeft <= 0) throw pauseLimit('All the pause time this test allows has been used');
      until = new Date(now.getTime() + allowance.secondsLeft * 1000);
    }
    const after = await applyPause(tx, actor, w, pause, reason, false, until, now);
    return { works: [await pauseStateOf(tx, after, new Date())] };
  });
  for (const w of result.works) publishWorkEvent(ctx, ptId, w.examWorkId, w.paused ? 'paused' : 'resumed');
  return result;
}

/** An organizer pauses or resumes works of their rooms; one out of scope and nothing changes. */
export async function pauseByStaff(
  ctx: AppContext,
  actor: Actor,
  ids: number[],
  pause: boolean,
  reason: string | null,
) {
  const touched: { ptId: number; id: number }[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const rows = await repo.lockWorksForUpdate(tx, [...new Set(ids)]);
    await assertAllReachable(tx, actor.auth, ids, rows);
    const works = [];
    for (const { work } of rows) {
      const now = new Date();
      const current = await settleOverduePause(tx, work, now);
      const after = current.finishedAt
        ? current
        : await applyPause(tx, actor, current, pause, reason, true, null, now);
      const open = after.pausedAt ? await repo.openPauseOf(tx, after.id) : null;
      works.push(toPauseState(after, now, open && { reason: open.reason, byStaff: open.byStaff }));
      if (after !== current) touched.push({ ptId: work.participantTestId, id: work.id });
    }
    return { works };
  });
  for (const t of touched) publishWorkEvent(ctx, t.ptId, t.id, pause ? 'paused' : 'resumed', { reason });
  return result;
}

async function assertAllReachable(
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

/**
 * One pause or resume of a locked, unfinished work (an overdue own pause already settled);
 * already in the asked state → unchanged, except that staff freezing a work in the participant's
 * own pause turn it into a staff pause: it no longer ends by itself, and only staff lift it.
 */
async function applyPause(
  tx: Tx,
  actor: Actor,
  w: WorkRow,
  pause: boolean,
  reason: string | null,
  byStaff: boolean,
  until: Date | null,
  now: Date,
): Promise<WorkRow> {
  const paused = w.pausedAt !== null;
  if (pause && paused && byStaff && w.pausedUntil) {
    await repo.closePauses(tx, w.id, now, actor.auth.userId);
    await repo.insertPause(tx, {
      examWorkId: w.id,
      startedAt: now,
      pausedBy: actor.auth.userId,
      byStaff,
      reason,
    });
    const after = await repo.updateWork(tx, w.id, { pausedUntil: null });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'exam_work.pause',
      entity: 'exam_work',
      entityId: w.id,
      reason,
      details: { over: 'own_pause' },
      ip: actor.ip,
    });
    return after;
  }
  if (pause === paused) return w;
  if (pause && isPastDeadline(w, now)) throw deadlinePassed();
  const after = pause
    ? await repo.updateWork(tx, w.id, { status: 'paused', pausedAt: now, pausedUntil: until })
    : await repo.updateWork(tx, w.id, {
        status: 'in_progress',
        pausedAt: null,
        pausedUntil: null,
        ...resumeClock(w, now),
      });
  if (pause)
    await repo.insertPause(tx, {
      examWorkId: w.id,
      startedAt: now,
      pausedBy: actor.auth.userId,
      byStaff,
      reason,
    });
  else await repo.closePauses(tx, w.id, now, actor.auth.userId);
  await audit(tx, {
    userId: actor.auth.userId,
    action: pause ? 'exam_work.pause' : 'exam_work.resume',
    entity: 'exam_work',
    entityId: w.id,
    reason,
    details: pause
      ? until
        ? { until: until.toISOString() }
        : undefined
      : { pausedSeconds: after.pausedSeconds, deadlineAt: after.deadlineAt.toISOString() },
    ip: actor.ip,
  });
  return after;
}

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
  const place = await repo.workPlace(db, workId);
  if (!place) throw noSuchWork();
  return staffCanReach(db, auth, place);
}

/** The participant test card behind a result (for now a result id is its exam work id). */
export async function participantTestCard(ctx: AppContext, workId: number) {
  const place = await repo.workPlace(ctx.db, workId);
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

// ------------------------------------------------------------------ quiz

type QuizQuestion = {
  id: string;
  kind: 'single' | 'multiple' | 'text';
  options?: { id: string }[];
  required?: boolean;
};

async function quizOfSession(ctx: AppContext, auth: AuthContext) {
  const pt = await boundTest(ctx.db, auth);
  const st = await cachedSubjectTest(ctx.db, pt.subjectTestId);
  const quiz = st?.quizId ? await repo.findQuiz(ctx.db, st.quizId) : null;
  return { pt, quiz };
}

export async function getQuiz(ctx: AppContext, auth: AuthContext) {
  const { pt, quiz } = await quizOfSession(ctx, auth);
  if (!quiz) return { quiz: null, answers: null };
  const saved = await repo.findQuizAnswers(ctx.db, pt.id);
  return {
    quiz: {
      id: quiz.id,
      name: quiz.name,
      questions: quiz.questions.map((q) => ({
        id: q.id,
        text: q.text,
        kind: q.kind,
        ...(q.options ? { options: q.options.map((o) => ({ id: o.id, text: o.text })) } : {}),
        ...(q.required !== undefined ? { required: q.required } : {}),
      })),
    },
    answers: saved?.answers ?? null,
  };
}

export async function saveQuiz(ctx: AppContext, actor: Actor, answers: Record<string, string | string[]>) {
  const { pt, quiz } = await quizOfSession(ctx, actor.auth);
  if (!quiz) throw notFound('This test has no questionnaire');
  const errors = quizProblems(quiz.questions, answers);
  if (errors.length)
    throw badRequest(
      'invalid_quiz_answer',
      `The questionnaire answers are invalid: ${errors[0]!.path} ${errors[0]!.message}`,
      errors,
    );
  const savedAt = await repo.upsertQuizAnswers(ctx.db, {
    participantTestId: pt.id,
    quizId: quiz.id,
    answers,
  });
  return { savedAt: savedAt.toISOString() };
}

export function quizProblems(questions: QuizQuestion[], answers: Record<string, string | string[]>) {
  const errors: { path: string; message: string }[] = [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  for (const [id, a] of Object.entries(answers)) {
    const q = byId.get(id);
    const path = `body.answers.${id}`;
    const options = new Set((q?.options ?? []).map((o) => o.id));
    if (!q) errors.push({ path, message: 'no such question' });
    else if (
      q.kind === 'multiple' &&
      (!Array.isArray(a) || a.some((x) => !options.has(x)) || new Set(a).size !== a.length)
    )
      errors.push({ path, message: 'expected distinct option ids' });
    else if (q.kind === 'single' && (typeof a !== 'string' || (a !== '' && !options.has(a))))
      errors.push({ path, message: 'expected one option id' });
    else if (q.kind === 'text' && typeof a !== 'string') errors.push({ path, message: 'expected text' });
  }
  for (const q of questions) {
    const a = answers[q.id];
    const empty = a === undefined || (typeof a === 'string' ? a.trim() === '' : a.length === 0);
    if (q.required && empty) errors.push({ path: `body.answers.${q.id}`, message: 'required' });
  }
  return errors;
}
