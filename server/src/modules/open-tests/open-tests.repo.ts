import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import {
  diagnostics,
  diagnosticSubjectTests,
  examWorks,
  participantTests,
  results,
  subjectTests,
  users,
} from '../../db/schema/index.js';

/** Typed queries of guests' open tests; no rules here (docs/open-tests.md). */

/** The subject tests a guest sees: the published open ones, and those they have attempts at. */
export async function visibleTestIds(db: DbOrTx, guestUserId: number) {
  return db
    .select({ id: subjectTests.id, isOpen: sql<boolean>`${subjectTests.isOpen} and ${openable}` })
    .from(subjectTests)
    .where(
      or(
        and(eq(subjectTests.isOpen, true), openable),
        sql`exists (select 1 from ${participantTests} pt where pt.subject_test_id = ${subjectTests.id}
          and pt.guest_user_id = ${guestUserId} and pt.deleted_at is null)`,
      ),
    )
    .orderBy(subjectTests.name, subjectTests.id);
}

/** Only a published test is offered: a draft is not ready for anyone. */
const openable = sql`${subjectTests.status} = 'published'`;

/** A subject test a new attempt may be started at: open and published. */
export async function findOpenTest(db: DbOrTx, subjectTestId: number) {
  const [row] = await db
    .select({ id: subjectTests.id, name: subjectTests.name, parallels: subjectTests.parallels })
    .from(subjectTests)
    .where(and(eq(subjectTests.id, subjectTestId), eq(subjectTests.isOpen, true), openable))
    .limit(1);
  return row ?? null;
}

const attemptColumns = {
  id: participantTests.id,
  subjectTestId: participantTests.subjectTestId,
  guestUserId: participantTests.guestUserId,
  status: participantTests.status,
  workId: examWorks.id,
  startedAt: examWorks.startedAt,
  finishedAt: examWorks.finishedAt,
  resultId: results.id,
  primaryScore: results.primaryScore,
  maxScore: results.maxScore,
  percent: results.percent,
  mark: results.mark,
};

function attempts(db: DbOrTx) {
  return db
    .select(attemptColumns)
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .leftJoin(
      examWorks,
      and(eq(examWorks.participantTestId, participantTests.id), isNull(examWorks.deletedAt)),
    )
    .leftJoin(results, eq(results.examWorkId, examWorks.id));
}

export type AttemptRow = Awaited<ReturnType<typeof attemptsOf>>[number];

/** A guest's attempts (live ones), newest first. */
export async function attemptsOf(db: DbOrTx, guestUserId: number) {
  return attempts(db)
    .where(
      and(
        eq(participantTests.guestUserId, guestUserId),
        isNull(participantTests.deletedAt),
        isNull(diagnostics.deletedAt),
      ),
    )
    .orderBy(desc(participantTests.id));
}

/** One guest attempt by id (any guest's), or null: not an attempt at an open test, or deleted. */
export async function findAttempt(db: DbOrTx, id: number) {
  const [row] = await attempts(db)
    .where(
      and(
        eq(participantTests.id, id),
        sql`${participantTests.guestUserId} is not null`,
        isNull(participantTests.deletedAt),
        isNull(diagnostics.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Who owns a guest attempt (null: no such attempt). */
export async function attemptOwner(db: DbOrTx, id: number): Promise<number | null> {
  const [row] = await db
    .select({ guestUserId: participantTests.guestUserId })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.id, id),
        sql`${participantTests.guestUserId} is not null`,
        isNull(participantTests.deletedAt),
      ),
    )
    .limit(1);
  return row?.guestUserId ?? null;
}

/** Serialises one guest's starts (two tabs at once make one attempt). */
export async function lockGuest(tx: Tx, guestUserId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, guestUserId)).for('update');
}

/** The guest's live (not finished) attempt at a subject test, or null. */
export async function liveAttempt(tx: Tx, guestUserId: number, subjectTestId: number) {
  const [row] = await tx
    .select({ id: participantTests.id })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.guestUserId, guestUserId),
        eq(participantTests.subjectTestId, subjectTestId),
        isNull(participantTests.deletedAt),
        sql`${participantTests.status} in ('planned', 'active', 'in_progress')`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The `open` diagnostic a subject test is sat through, or null when none was made yet. */
export async function openDiagnosticOf(db: DbOrTx, subjectTestId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .innerJoin(diagnosticSubjectTests, eq(diagnosticSubjectTests.diagnosticId, diagnostics.id))
    .where(
      and(
        eq(diagnostics.kind, 'open'),
        eq(diagnosticSubjectTests.subjectTestId, subjectTestId),
        isNull(diagnostics.deletedAt),
      ),
    )
    .orderBy(diagnostics.id)
    .limit(1);
  return row?.id ?? null;
}

/** Holds the subject test's row while its open diagnostic is made (not against its readers). */
export async function lockSubjectTest(tx: Tx, subjectTestId: number): Promise<void> {
  await tx
    .select({ id: subjectTests.id })
    .from(subjectTests)
    .where(eq(subjectTests.id, subjectTestId))
    .for('no key update');
}

export async function insertOpenDiagnostic(
  tx: Tx,
  values: typeof diagnostics.$inferInsert,
  subjectTestId: number,
): Promise<number> {
  const [row] = await tx.insert(diagnostics).values(values).returning({ id: diagnostics.id });
  await tx.insert(diagnosticSubjectTests).values({ diagnosticId: row!.id, subjectTestId });
  return row!.id;
}
