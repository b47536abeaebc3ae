import type { OpenTest, OpenTestAttempt, OpenTestAttemptResult, OpenTestStart } from '@attesta/contract';
import { sittingRoles } from '../../auth/session-store.js';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import {
  dayOf,
  insertParticipantTests,
  isUniqueViolation,
  randomDiagnosticCode,
} from '../../lib/participant-tests.js';
import { assertNoSecureItems } from '../authoring/index.js';
import { getResult, resultVariant, scoreWork, toExamResult } from '../exam-results/index.js';
import { startWork, subjectTestSummary } from '../exam-test/index.js';
import * as repo from './open-tests.repo.js';

/*
 * Open tests for guests (issue 13, item 7; docs/open-tests.md). An admin marks a subject test open;
 * a registered guest then takes it whenever they like, as often as they like. Each attempt is a
 * participant test of the subject test's `open` diagnostic bound to the guest (guestUserId): the
 * guest's session is bound to it while they sit it, so the runner's calls take it unchanged, and
 * its finish publishes that attempt's result (and keys) to its guest alone.
 */

export interface Actor {
  auth: AuthContext;
  ip: string | null;
  deviceId: string | null;
}

/** The open diagnostic's window: always open in practice; a work's own time limit is what counts. */
const OPEN_FROM = new Date('2000-01-01T00:00:00Z');
const OPEN_UNTIL = new Date('2100-01-01T00:00:00Z');

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const testNotOpen = () =>
  badRequest('test_not_open', 'This subject test is not open to guests', [
    { path: 'params.subjectTestId', message: 'not an open test', code: 'test_not_open' },
  ]);

function toAttempt(row: repo.AttemptRow): OpenTestAttempt {
  return {
    id: row.id,
    state: row.finishedAt ? 'finished' : 'in_progress',
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    primaryScore: row.primaryScore ?? null,
    maxScore: row.maxScore ?? null,
    percent: row.percent ?? null,
    mark: row.mark ?? null,
  };
}

/**
 * A finished attempt is scored at once rather than when its queued job runs: the guest is waiting
 * for the result. Idempotent (scoreWork), so the job finding it scored changes nothing.
 */
async function scoreIfMissing(db: Db, row: repo.AttemptRow): Promise<boolean> {
  if (!row.workId || !row.finishedAt || row.resultId !== null) return false;
  await db.transaction((tx) => scoreWork(tx, row.workId!));
  return true;
}

/** The open tests with the caller's attempts; tests no longer open stay while they have attempts. */
export async function listOpenTests(ctx: AppContext, auth: AuthContext): Promise<OpenTest[]> {
  const tests = await repo.visibleTestIds(ctx.db, auth.userId);
  let rows = await repo.attemptsOf(ctx.db, auth.userId);
  let scored = false;
  for (const row of rows) scored = (await scoreIfMissing(ctx.db, row)) || scored;
  if (scored) rows = await repo.attemptsOf(ctx.db, auth.userId);
  const out: OpenTest[] = [];
  for (const test of tests) {
    const summary = await subjectTestSummary(ctx.db, test.id);
    out.push({
      id: summary.id,
      name: summary.name,
      subjectName: summary.subjectName,
      parallels: summary.parallels,
      durationMinutes: summary.durationMinutes,
      taskCount: summary.taskCount,
      description: summary.description,
      isOpen: test.isOpen,
      attempts: rows.filter((r) => r.subjectTestId === test.id).map(toAttempt),
    });
  }
  return out;
}

/** The subject test's `open` diagnostic, made the first time a guest starts it. */
async function openDiagnostic(tx: Tx, test: { id: number; name: string; parallels: number[] }) {
  const found = await repo.openDiagnosticOf(tx, test.id);
  if (found !== null) return found;
  await repo.lockSubjectTest(tx, test.id);
  const again = await repo.openDiagnosticOf(tx, test.id);
  if (again !== null) return again;
  for (let attempt = 1; ; attempt++) {
    try {
      return await tx.transaction((sp) =>
        repo.insertOpenDiagnostic(
          sp,
          {
            code: randomDiagnosticCode('O'),
            name: test.name,
            kind: 'open',
            startsAt: OPEN_FROM,
            endsAt: OPEN_UNTIL,
            parallels: test.parallels,
            createdBy: null,
            createdByRole: 'system',
            // Not the diagnostic: each attempt is published by its own finish (results.access.ts).
            resultsPublished: false,
          },
          test.id,
        ),
      );
    } catch (err) {
      if (attempt >= 5 || !isUniqueViolation(err, 'diagnostics_code_index')) throw err;
    }
  }
}

/**
 * Starts the caller's attempt at an open test, or resumes the one running: binds the session to it
 * and starts (or reopens) its work through the runner's own start, so the runner opens it as is.
 * A running attempt may be resumed after the test was closed; a new one needs it open (400).
 */
export async function startAttempt(
  ctx: AppContext,
  actor: Actor,
  subjectTestId: number,
): Promise<OpenTestStart> {
  const { auth } = actor;
  // The binding lives in the session row: an API key has none to bind.
  if (auth.via === 'api_key') throw forbidden('Open tests are taken in a signed-in session');
  const { attemptId, resumed } = await ctx.db.transaction(async (tx) => {
    await repo.lockGuest(tx, auth.userId);
    const live = await repo.liveAttempt(tx, auth.userId, subjectTestId);
    if (live) return { attemptId: live.id, resumed: true };
    const test = await repo.findOpenTest(tx, subjectTestId);
    if (!test) throw testNotOpen();
    // Opened before a secure test took its items (or before this rule): no new attempt shows them.
    await assertNoSecureItems(tx, subjectTestId, 'subjectTestId');
    const diagnosticId = await openDiagnostic(tx, test);
    const [pt] = await insertParticipantTests(tx, [
      {
        diagnosticId,
        subjectTestId,
        guestUserId: auth.userId,
        testDate: dayOf(new Date()),
        status: 'active',
      },
    ]);
    await audit(tx, {
      userId: auth.userId,
      action: 'open_test.attempt',
      entity: 'participant_test',
      entityId: pt!.id,
      ip: actor.ip,
      details: { subjectTestId, diagnosticId },
    });
    return { attemptId: pt!.id, resumed: false };
  });
  await ctx.sessions.bindParticipantTest(auth.sessionId, attemptId);
  const sitting: AuthContext = {
    ...auth,
    participantTestId: attemptId,
    roles: sittingRoles(auth.roles, attemptId),
  };
  const work = await startWork(ctx, { auth: sitting, ip: actor.ip, deviceId: actor.deviceId }, undefined);
  return { attemptId, examWorkId: work.id, resumed };
}

/** A finished attempt of the caller with its result, answers and correct answers (scope: the route). */
export async function attemptResult(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<OpenTestAttemptResult> {
  let row = await repo.findAttempt(ctx.db, id);
  if (!row) throw notFound('No such attempt');
  if (row.guestUserId !== auth.userId) throw forbidden('This attempt is another guest’s');
  if (!row.workId || !row.finishedAt)
    throw new AppError(409, 'work_not_finished', 'The attempt is not finished yet');
  if (await scoreIfMissing(ctx.db, row)) row = (await repo.findAttempt(ctx.db, id))!;
  const result = toExamResult(await getResult(ctx.db, auth, id));
  const variant = await resultVariant(ctx.db, auth, row.workId!);
  return {
    attempt: toAttempt(row),
    subjectTestId: row.subjectTestId,
    subjectTestName: result.subjectTestName,
    result,
    variant,
  };
}
