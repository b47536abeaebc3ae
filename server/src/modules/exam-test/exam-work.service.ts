/*
 * The exam work lifecycle: activation codes, the participant test, starting, reading and finishing a
 * work. The other services of a work live beside it (work-answers, work-pause, work-staff, quiz)
 * and are re-exported here, so the routes see one service.
 */
import type {
  ActivationCodeCheck,
  AnswerMode,
  CurrentParticipantTest,
  ExamWorkState,
  SubjectTestSummary,
} from '@attesta/contract';
import { reserveCodeAttempt } from '../../auth/proof-of-work.js';
import { type AuthContext } from '../../auth/types.js';
import { findExamWorkPlace } from '../../auth/shared.access.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { metrics } from '../../lib/metrics.js';
import { publish } from '../../events/domain-events.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { conflict, notFound } from '../../lib/errors.js';
import { normalizeActivationCode } from '../../lib/tokens.js';
import { schoolDay } from '../../lib/calendar.js';
import {
  accommodatedExtraSeconds,
  computeDeadline,
  isPastDeadline,
  isPaused,
  resumeClock,
  secondsUntil,
} from '../../lib/work-clock.js';
import { cachedSubjectTest, cachedTaskCount } from './content-cache.js';
import * as repo from './exam-work.repo.js';
import { pickVariant } from './variant-spread.js';
import { takePrimedStart, type PrimedStart } from '../../lib/start-prime.js';
import type { WorkRow } from './exam-work.repo.js';
import { toSavedAnswers, toTimeLeft, toWorkState } from './presenter.js';

import {
  noExamWork,
  noSuchWork,
  notYourWork,
  workFinished,
  workDeleted,
  FINISHED_TEST_STATUSES,
  OPEN_TEST_STATUSES,
  boundTestId,
  ownWork,
  isSameDevice,
  assertSameDevice,
  deviceMismatch,
  boundTest,
  staffCanReach,
  blankNotAllowed,
  fullName,
  resultsPublished,
  type Actor,
} from './work-guards.js';

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
    allowCalculator: st.allowCalculator,
    testGroupId: st.testGroupId,
    hasQuiz: st.quizId !== null,
  };
}

export async function ownSubjectTest(ctx: AppContext, auth: AuthContext) {
  const pt = await boundTest(ctx.db, auth);
  return subjectTestSummary(ctx.db, pt.subjectTestId);
}

export async function currentParticipantTest(ctx: AppContext, actor: Actor): Promise<CurrentParticipantTest> {
  const { auth } = actor;
  const now = new Date();
  const pt = await boundTest(ctx.db, auth);
  const subjectTest = await subjectTestSummary(ctx.db, pt.subjectTestId);
  const { person, className, schoolName } = await repo.findParticipantPerson(ctx.db, pt);
  const quizDone = !subjectTest.hasQuiz || (await repo.findQuizAnswers(ctx.db, pt.id)) !== null;
  const work = await repo.findLiveWork(ctx.db, pt.id);
  // Told before the runner opens: a runner here would have every save refused.
  const openElsewhere = !!work && !work.finishedAt && !isSameDevice(work, actor.deviceId);
  if (openElsewhere) await repo.noteSecondDevice(ctx.db, work.id, now);
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
      closedByPublication: pt.firstPublishedAt !== null,
    },
    subjectTest,
    participant: {
      displayName: fullName(person) ?? auth.displayName,
      className,
      schoolName,
      cardComplete: !!person?.surname?.trim() && !!person?.name?.trim(),
      accommodations: person?.accommodations ?? null,
    },
    quizDone,
    examWork: work ? toWorkState(work, now) : null,
    openElsewhere,
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
 * the winner's row). Right after a code login in this process the start decides on what the login
 * read (lib/start-prime.ts) and sends one statement, which starts nothing if any of that changed;
 * then, and otherwise, it reads the participant test and its live work afresh.
 */
export async function startWork(
  ctx: AppContext,
  actor: Actor,
  mode: AnswerMode | undefined,
): Promise<ExamWorkState> {
  const ptId = boundTestId(actor.auth);
  const primed = takePrimedStart(ctx.db, ptId);
  if (primed) {
    const started = await createWork(ctx, actor, mode, primed.pt, primed.extraTimePercent, new Date());
    if (started) return started;
  }
  const found = await repo.findTestWithLiveWork(ctx.db, ptId);
  if (found?.work) return resumeExisting(ctx.db, found.work, actor);
  if (!found) throw notFound('The participant test of this session no longer exists');
  const { pt } = found;

  const now = new Date();
  if (pt.status === 'annulled')
    throw conflict('participant_test_annulled', 'This participant test has been annulled');
  if (FINISHED_TEST_STATUSES.includes(pt.status)) throw workFinished();
  if (pt.firstPublishedAt) throw resultsPublished();
  if (now < pt.startsAt)
    throw conflict('window_not_open', 'The test has not started yet; wait for the start time');
  if (now >= pt.endsAt) throw conflict('window_closed', 'The time window of this test is over');
  const st = await cachedSubjectTest(ctx.db, pt.subjectTestId);
  if (!st) throw notFound('No such subject test');
  if (mode === 'blank' && !st.allowBlank) throw blankNotAllowed();
  const created = await createWork(ctx, actor, mode, pt, found.extraTimePercent, now);
  if (created) return created;
  // Another request created it between our read and our insert, or the results were published,
  // or the participant test changed meanwhile.
  const winner = await repo.findLiveWork(ctx.db, ptId);
  if (!winner)
    throw (await repo.findParticipantTest(ctx.db, { id: ptId }))?.firstPublishedAt
      ? resultsPublished()
      : noExamWork();
  return resumeExisting(ctx.db, winner, actor);
}

/**
 * The work of a participant test that may start now, inserted in one statement with the test in
 * progress and the start audited; null when it does not start (a live work exists, the results
 * are published, or the participant test or its diagnostic is no longer as `pt` says: the caller
 * reads afresh). Throws only `no_variant`.
 */
async function createWork(
  ctx: AppContext,
  actor: Actor,
  mode: AnswerMode | undefined,
  pt: PrimedStart['pt'],
  extraTimePercent: number | null,
  now: Date,
): Promise<ExamWorkState | null> {
  if (!startable(pt, now)) return null;
  const st = await cachedSubjectTest(ctx.db, pt.subjectTestId);
  if (!st || (mode === 'blank' && !st.allowBlank)) return null;
  const variantId = await pickVariant(ctx.db, pt);
  if (variantId === null) throw conflict('no_variant', 'This subject test has no variants yet');

  const timeLimitSeconds = st.durationMinutes * 60;
  const clock = {
    startedAt: now,
    timeLimitSeconds,
    // An accommodated student's extra time (docs/accommodations.md); the window end still caps it.
    extraSeconds: accommodatedExtraSeconds(timeLimitSeconds, extraTimePercent),
    pausedSeconds: 0,
    windowEndsAt: pt.endsAt,
  };
  // One statement: the work, the participant test in progress, the audit entry.
  const created = await repo.startWorkOnce(
    ctx.db,
    {
      participantTestId: pt.id,
      subjectTestId: pt.subjectTestId,
      extraTimePercent,
      variantId,
      answerMode: mode ?? 'online',
      startedAt: now,
      timeLimitSeconds: clock.timeLimitSeconds,
      extraSeconds: clock.extraSeconds,
      windowEndsAt: pt.endsAt,
      deadlineAt: computeDeadline(clock),
      deviceId: actor.deviceId,
    },
    { userId: actor.auth.userId, ip: actor.ip },
  );
  if (!created) return null;
  metrics.workStarted();
  publishWorkEvent(ctx, pt.id, created.id, 'started');
  return toWorkState(created, now);
}

/** Whether a participant test as read may start a work at `now` (the fresh path says why not). */
function startable(pt: PrimedStart['pt'], now: Date): boolean {
  return (
    pt.status !== 'annulled' &&
    !FINISHED_TEST_STATUSES.includes(pt.status) &&
    !pt.firstPublishedAt &&
    now >= pt.startsAt &&
    now < pt.endsAt
  );
}

/** Reopening an existing work: same device (or bind a work started without one). */
async function resumeExisting(db: Db, w: WorkRow, actor: Actor): Promise<ExamWorkState> {
  if (!isSameDevice(w, actor.deviceId)) {
    if (!w.finishedAt) await repo.noteSecondDevice(db, w.id, new Date());
    throw deviceMismatch();
  }
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
  const place = await findExamWorkPlace(ctx.db, id);
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

// ------------------------------------------------------------------ finish

/** Finishes own work. Idempotent; `timeout` only counts when the server's clock agrees. */
export async function finishWork(ctx: AppContext, actor: Actor, id: number, reason: 'manual' | 'timeout') {
  let finishedNow: 'manual' | 'timeout' | null = null;
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
    finishedNow = finishReason;
    return toWorkState(done, now);
  });
  if (finishedNow) metrics.worksFinished(finishedNow);
  publishWorkEvent(ctx, state.participantTestId, state.id, 'finished', { reason: state.finishReason });
  return state;
}

function effectiveDeadlineOf(w: WorkRow, now: Date): Date {
  return w.pausedAt ? resumeClock(w, now).deadlineAt : w.deadlineAt;
}

export type { Actor } from './work-guards.js';
export { assertWritable, boundTestId, staffCanReach } from './work-guards.js';
export * from './work-answers.service.js';
export * from './work-pause.service.js';
export * from './work-staff.service.js';
export * from './quiz.service.js';
