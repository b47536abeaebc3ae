import { and, count, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { WorkerTestSortField } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  examWorks,
  participantTests,
  schools,
  subjectTests,
  workerPositions,
  workers,
  workerTests,
} from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf, type SortSpec } from '../../lib/list.js';

export type WorkerTestRow = typeof workerTests.$inferSelect;

// --- positions ---

export async function listPositions(
  db: DbOrTx,
  req: {
    page: number;
    pageSize: number;
    sort?: SortSpec<'id' | 'name'> | undefined;
    search?: string | undefined;
  },
) {
  const where = req.search ? ilike(workerPositions.name, containsPattern(req.search)) : undefined;
  const [items, [total]] = await Promise.all([
    db
      .select({ id: workerPositions.id, name: workerPositions.name })
      .from(workerPositions)
      .where(where)
      .orderBy(
        ...orderOf(
          req.sort ?? { field: 'name', dir: 'asc' },
          { id: workerPositions.id, name: workerPositions.name },
          workerPositions.id,
        ),
      )
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(workerPositions).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function positionExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: workerPositions.id })
    .from(workerPositions)
    .where(eq(workerPositions.id, id));
  return !!row;
}

// --- worker tests ---

const viewColumns = {
  id: workerTests.id,
  name: workerTests.name,
  subjectTestId: workerTests.subjectTestId,
  subjectTestName: subjectTests.name,
  diagnosticId: workerTests.diagnosticId,
  diagnosticCode: diagnostics.code,
  positionId: workerTests.positionId,
  positionName: workerPositions.name,
  schoolId: workerTests.schoolId,
  schoolName: schools.name,
  startsAt: workerTests.startsAt,
  endsAt: workerTests.endsAt,
  createdAt: workerTests.createdAt,
  participantCount: sql<number>`(select count(*)::int from ${participantTests}
    where ${participantTests.diagnosticId} = ${workerTests.diagnosticId} and ${participantTests.deletedAt} is null)`,
};
export type WorkerTestView = Awaited<ReturnType<typeof listWorkerTests>>['items'][number];

const sortColumns: Record<WorkerTestSortField, SQL | typeof workerTests.id> = {
  id: workerTests.id,
  name: sql`${workerTests.name}`,
  startsAt: sql`${workerTests.startsAt}`,
  createdAt: sql`${workerTests.createdAt}`,
};

export async function listWorkerTests(
  db: DbOrTx,
  where: SQL | undefined,
  req: {
    page: number;
    pageSize: number;
    sort?: SortSpec<WorkerTestSortField> | SortSpec<WorkerTestSortField>[] | undefined;
  },
) {
  const live = and(isNull(workerTests.deletedAt), where);
  const [items, [total]] = await Promise.all([
    db
      .select(viewColumns)
      .from(workerTests)
      .innerJoin(subjectTests, eq(subjectTests.id, workerTests.subjectTestId))
      .innerJoin(diagnostics, eq(diagnostics.id, workerTests.diagnosticId))
      .leftJoin(workerPositions, eq(workerPositions.id, workerTests.positionId))
      .leftJoin(schools, eq(schools.id, workerTests.schoolId))
      .where(live)
      .orderBy(...orderOf(req.sort, sortColumns, workerTests.id))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(workerTests).where(live),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Filter conditions of the list (search by name, position, school, subject test). */
export function workerTestFilter(f: {
  search?: string | undefined;
  positionId?: number | undefined;
  schoolId?: number | undefined;
  subjectTestId?: number | undefined;
}): (SQL | undefined)[] {
  return [
    f.search ? ilike(workerTests.name, containsPattern(f.search)) : undefined,
    f.positionId !== undefined ? eq(workerTests.positionId, f.positionId) : undefined,
    f.schoolId !== undefined ? eq(workerTests.schoolId, f.schoolId) : undefined,
    f.subjectTestId !== undefined ? eq(workerTests.subjectTestId, f.subjectTestId) : undefined,
  ];
}

/** A live worker test's school (null = global); undefined when there is no such test. */
export async function workerTestSchool(db: DbOrTx, id: number): Promise<number | null | undefined> {
  const [row] = await db
    .select({ schoolId: workerTests.schoolId })
    .from(workerTests)
    .where(and(eq(workerTests.id, id), isNull(workerTests.deletedAt)));
  return row ? row.schoolId : undefined;
}

export async function lockWorkerTest(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ wt: workerTests, startsAt: diagnostics.startsAt, endsAt: diagnostics.endsAt })
    .from(workerTests)
    .innerJoin(diagnostics, eq(diagnostics.id, workerTests.diagnosticId))
    .where(and(eq(workerTests.id, id), isNull(workerTests.deletedAt)))
    .for('update', { of: workerTests });
  return row ?? null;
}

export async function subjectTestExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: subjectTests.id })
    .from(subjectTests)
    .where(and(eq(subjectTests.id, id), eq(subjectTests.status, 'published')));
  return !!row;
}

export async function schoolExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: schools.id }).from(schools).where(eq(schools.id, id));
  return !!row;
}

export async function codeInUse(db: DbOrTx, code: string): Promise<boolean> {
  const [row] = await db.select({ id: diagnostics.id }).from(diagnostics).where(eq(diagnostics.code, code));
  return !!row;
}

/** The worker test's own diagnostic: kind `worker`, same window, its subject test and school. */
export async function insertWorkerDiagnostic(
  db: DbOrTx,
  values: typeof diagnostics.$inferInsert,
  subjectTestId: number,
  schoolId: number | null,
): Promise<number> {
  const [row] = await db.insert(diagnostics).values(values).returning({ id: diagnostics.id });
  await db.insert(diagnosticSubjectTests).values({ diagnosticId: row!.id, subjectTestId });
  if (schoolId !== null) await db.insert(diagnosticSchools).values({ diagnosticId: row!.id, schoolId });
  return row!.id;
}

export async function updateWorkerDiagnostic(
  db: DbOrTx,
  id: number,
  values: { name: string; startsAt: Date; endsAt: Date; subjectTestId: number; schoolId: number | null },
): Promise<void> {
  await db
    .update(diagnostics)
    .set({ name: values.name, startsAt: values.startsAt, endsAt: values.endsAt })
    .where(eq(diagnostics.id, id));
  await db.delete(diagnosticSubjectTests).where(eq(diagnosticSubjectTests.diagnosticId, id));
  await db.insert(diagnosticSubjectTests).values({ diagnosticId: id, subjectTestId: values.subjectTestId });
  await db.delete(diagnosticSchools).where(eq(diagnosticSchools.diagnosticId, id));
  if (values.schoolId !== null)
    await db.insert(diagnosticSchools).values({ diagnosticId: id, schoolId: values.schoolId });
}

export async function insertWorkerTest(db: DbOrTx, values: typeof workerTests.$inferInsert): Promise<number> {
  const [row] = await db.insert(workerTests).values(values).returning({ id: workerTests.id });
  return row!.id;
}

export async function updateWorkerTest(
  db: DbOrTx,
  id: number,
  values: Pick<WorkerTestRow, 'name' | 'subjectTestId' | 'positionId' | 'schoolId' | 'startsAt' | 'endsAt'>,
): Promise<void> {
  await db.update(workerTests).set(values).where(eq(workerTests.id, id));
}

/** Live participant tests and all exam works (deleted ones too) of a diagnostic. */
export async function diagnosticUsage(db: DbOrTx, diagnosticId: number) {
  const [row] = await db
    .select({
      participantTests: sql<number>`count(distinct ${participantTests.id}) filter (where ${participantTests.deletedAt} is null)`,
      examWorks: sql<number>`count(${examWorks.id})`,
    })
    .from(participantTests)
    .leftJoin(examWorks, eq(examWorks.participantTestId, participantTests.id))
    .where(eq(participantTests.diagnosticId, diagnosticId));
  return { participantTests: Number(row?.participantTests ?? 0), examWorks: Number(row?.examWorks ?? 0) };
}

/** Soft-deletes the worker test, its diagnostic and its participant tests; answers those ids. */
export async function softDeleteWorkerTest(db: DbOrTx, wt: WorkerTestRow, at: Date): Promise<number[]> {
  await db.update(workerTests).set({ deletedAt: at }).where(eq(workerTests.id, wt.id));
  await db.update(diagnostics).set({ deletedAt: at }).where(eq(diagnostics.id, wt.diagnosticId));
  const rows = await db
    .update(participantTests)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(participantTests.diagnosticId, wt.diagnosticId), isNull(participantTests.deletedAt)))
    .returning({ id: participantTests.id });
  return rows.map((r) => r.id);
}

// --- workers and their sittings ---

export async function findWorker(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: workers.id, schoolId: workers.schoolId, isBlocked: workers.isBlocked })
    .from(workers)
    .where(eq(workers.id, id));
  return row ?? null;
}

export async function liveSittingOf(db: DbOrTx, diagnosticId: number, workerId: number) {
  const [row] = await db
    .select({ id: participantTests.id, activationCode: participantTests.activationCode })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.diagnosticId, diagnosticId),
        eq(participantTests.workerId, workerId),
        isNull(participantTests.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}
