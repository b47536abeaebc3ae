import { and, eq, isNull, sql } from 'drizzle-orm';
import { canReachParticipantTest } from '../../auth/shared.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  diagnostics,
  examWorks,
  expertAssignments,
  participantTests,
  subjectExams,
  subjectTests,
} from '../../db/schema/index.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { ugnikOwnsDiagnostic } from '../../auth/ugnik.access.js';

/*
 * Who may read a result (docs/design.md §1, §3, §6): the participant their own participant test, and only
 * once the diagnostic's results are published (403 `results_not_published` before); staff in scope —
 * admin any, a coordinator their school, an organizator the classes/buildings assigned, an ugnik the
 * diagnostics of its supervision body; an expert only the works they are assigned (see the variant call).
 */

/**
 * Published for this participant test: its diagnostic's results are published, or — a guest's
 * attempt at an open test (diagnostic of kind `open`, docs/open-tests.md) — its own work is finished:
 * an attempt's finish publishes that attempt alone, never another's and never before.
 */
const publishedForTest = sql<boolean>`(${diagnostics.resultsPublished} or (${diagnostics.kind} = 'open'
  and exists (select 1 from ${examWorks} w where w.participant_test_id = ${participantTests.id}
    and w.deleted_at is null and w.finished_at is not null)))`;

export const resultsNotPublished = () =>
  forbidden('Results are shown after the diagnostic’s results are published', 'results_not_published');

export type PtRow = NonNullable<Awaited<ReturnType<typeof findPt>>>;

/** A live participant test with what result calls need of its diagnostic and subject test. */
export async function findPt(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: participantTests.id,
      status: participantTests.status,
      diagnosticId: participantTests.diagnosticId,
      subjectTestId: participantTests.subjectTestId,
      studentId: participantTests.studentId,
      workerId: participantTests.workerId,
      guestUserId: participantTests.guestUserId,
      schoolId: participantTests.schoolId,
      classId: participantTests.classId,
      buildingId: participantTests.buildingId,
      testDate: participantTests.testDate,
      registrationCode: participantTests.registrationCode,
      diagnosticCode: diagnostics.code,
      diagnosticName: diagnostics.name,
      diagnosticKind: diagnostics.kind,
      endsAt: diagnostics.endsAt,
      published: publishedForTest,
      publishedAt: diagnostics.publishedAt,
      subjectTestName: subjectTests.name,
      markScale: subjectTests.markScale,
      examKind: subjectExams.kind,
    })
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .where(
      and(eq(participantTests.id, id), isNull(participantTests.deletedAt), isNull(diagnostics.deletedAt)),
    )
    .limit(1);
  return row ?? null;
}

/** Staff scope over a participant test (several roles add up). */
export async function staffReaches(db: Db, auth: AuthContext, pt: PtRow): Promise<boolean> {
  if (hasRole(auth, 'admin', 'coordinator', 'organizator') && (await canReachParticipantTest(db, auth, pt)))
    return true;
  return hasRole(auth, 'ugnik') && (await ugnikOwnsDiagnostic(db, auth, pt.diagnosticId)) === true;
}

/** The caller's own participant test: the one their session sits, or a guest's own attempt. */
export const isOwn = (auth: AuthContext, pt: { id: number; guestUserId: number | null }) =>
  (hasRole(auth, 'participant') && auth.participantTestId === pt.id) ||
  (hasRole(auth, 'guest') && pt.guestUserId !== null && pt.guestUserId === auth.userId);

/**
 * The caller's access to a participant test's result: 'own' (published only) or 'staff'.
 * 404 for an unknown id, 403 outside the scope, 403 `results_not_published` for the participant before publication.
 */
export async function resultAccess(
  db: Db,
  auth: AuthContext,
  ptId: number,
): Promise<{ kind: 'own' | 'staff'; pt: PtRow }> {
  const pt = await findPt(db, ptId);
  if (!pt) throw notFound('No such participant test');
  if (isOwn(auth, pt)) {
    if (!pt.published) throw resultsNotPublished();
    return { kind: 'own', pt };
  }
  if (await staffReaches(db, auth, pt)) return { kind: 'staff', pt };
  throw forbidden('This participant test is outside your scope');
}

/** The expert's assignments in a work (empty when none). */
export async function expertAssignmentsIn(db: DbOrTx, expertId: number, examWorkId: number) {
  return db
    .select({ variantTaskId: expertAssignments.variantTaskId, anonCode: expertAssignments.anonCode })
    .from(expertAssignments)
    .where(and(eq(expertAssignments.examWorkId, examWorkId), eq(expertAssignments.expertId, expertId)));
}
