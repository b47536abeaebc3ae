import { and, asc, count, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { UgnikDiagnosticListRequest, UgnikDiagnosticSortField } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  classes,
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  examWorks,
  participantTests,
  schools,
  students,
  subjectExams,
  subjectTests,
} from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf } from '../../lib/list.js';

export type DiagnosticRow = typeof diagnostics.$inferSelect;

/*
 * Subqueries name their tables explicitly: drizzle leaves columns unqualified in a select without
 * joins, which would make `id` ambiguous inside them.
 */
const participantCountSql = sql<number>`(select count(*)::int from participant_tests pt
  where pt.diagnostic_id = "diagnostics"."id" and pt.deleted_at is null)`;
/** Every exam work ever started in the diagnostic, deleted ones included: they are results history. */
const examWorkCountSql = sql<number>`(select count(*)::int from exam_works ew
  join participant_tests pt on pt.id = ew.participant_test_id
  where pt.diagnostic_id = "diagnostics"."id")`;

const summaryColumns = {
  id: diagnostics.id,
  code: diagnostics.code,
  name: diagnostics.name,
  kind: diagnostics.kind,
  startsAt: diagnostics.startsAt,
  endsAt: diagnostics.endsAt,
  parallels: diagnostics.parallels,
  createdBy: diagnostics.createdBy,
  resultsPublished: diagnostics.resultsPublished,
  createdAt: diagnostics.createdAt,
  participantCount: participantCountSql,
  examWorkCount: examWorkCountSql,
};

// --- content and schools the create call refers to ---

/** Subject tests of kind `diagnostic` among the ids, with their parallels. */
export function diagnosticSubjectTestsOf(db: DbOrTx, ids: number[]) {
  return db
    .select({ id: subjectTests.id, parallels: subjectTests.parallels })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .where(
      and(
        inArray(subjectTests.id, ids),
        eq(subjectExams.kind, 'diagnostic'),
        eq(subjectTests.status, 'published'),
      ),
    );
}

export async function existingSchoolIds(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  const rows = await db.select({ id: schools.id }).from(schools).where(inArray(schools.id, ids));
  return new Set(rows.map((r) => r.id));
}

export async function codeInUse(db: DbOrTx, code: string): Promise<boolean> {
  const [row] = await db.select({ id: diagnostics.id }).from(diagnostics).where(eq(diagnostics.code, code));
  return !!row;
}

export async function insertDiagnostic(
  db: DbOrTx,
  values: typeof diagnostics.$inferInsert,
  subjectTestIds: number[],
  schoolIds: number[],
): Promise<number> {
  const [row] = await db.insert(diagnostics).values(values).returning({ id: diagnostics.id });
  await db
    .insert(diagnosticSubjectTests)
    .values(subjectTestIds.map((subjectTestId) => ({ diagnosticId: row!.id, subjectTestId })));
  await db
    .insert(diagnosticSchools)
    .values(schoolIds.map((schoolId) => ({ diagnosticId: row!.id, schoolId })));
  return row!.id;
}

// --- reading diagnostics ---

export async function findDiagnostic(db: DbOrTx, id: number) {
  const [row] = await db
    .select(summaryColumns)
    .from(diagnostics)
    .where(and(eq(diagnostics.id, id), isNull(diagnostics.deletedAt)));
  if (!row) return null;
  const [tests, schoolRows] = await Promise.all([
    db
      .select({ id: subjectTests.id, name: subjectTests.name })
      .from(diagnosticSubjectTests)
      .innerJoin(subjectTests, eq(subjectTests.id, diagnosticSubjectTests.subjectTestId))
      .where(eq(diagnosticSubjectTests.diagnosticId, id))
      .orderBy(asc(subjectTests.name), asc(subjectTests.id)),
    db
      .select({ id: schools.id, name: schools.name })
      .from(diagnosticSchools)
      .innerJoin(schools, eq(schools.id, diagnosticSchools.schoolId))
      .where(eq(diagnosticSchools.diagnosticId, id))
      .orderBy(asc(schools.name), asc(schools.id)),
  ]);
  return { ...row, subjectTests: tests, schools: schoolRows };
}

const diagnosticSortColumns: Record<UgnikDiagnosticSortField, SQL | typeof diagnostics.id> = {
  id: diagnostics.id,
  name: sql`${diagnostics.name}`,
  code: sql`${diagnostics.code}`,
  startsAt: sql`${diagnostics.startsAt}`,
  createdAt: sql`${diagnostics.createdAt}`,
};

export async function listDiagnostics(db: DbOrTx, scope: SQL, request: UgnikDiagnosticListRequest) {
  const f = request.filter;
  const pattern = f?.search ? containsPattern(f.search) : undefined;
  const where = and(
    isNull(diagnostics.deletedAt),
    scope,
    pattern ? or(ilike(diagnostics.name, pattern), ilike(diagnostics.code, pattern)) : undefined,
    f?.schoolId !== undefined
      ? sql`exists (select 1 from diagnostic_schools ds where ds.diagnostic_id = "diagnostics"."id"
          and ds.school_id = ${f.schoolId})`
      : undefined,
    f?.from !== undefined ? gte(diagnostics.endsAt, new Date(`${f.from}T00:00:00Z`)) : undefined,
    f?.till !== undefined ? lte(diagnostics.startsAt, new Date(`${f.till}T23:59:59.999Z`)) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select({
        ...summaryColumns,
        subjectTestCount: sql<number>`(select count(*)::int from diagnostic_subject_tests dst
          where dst.diagnostic_id = "diagnostics"."id")`,
        schoolCount: sql<number>`(select count(*)::int from diagnostic_schools ds
          where ds.diagnostic_id = "diagnostics"."id")`,
      })
      .from(diagnostics)
      .where(where)
      .orderBy(...orderOf(request.sort, diagnosticSortColumns, diagnostics.id))
      .limit(request.pageSize)
      .offset(offsetOf(request)),
    db.select({ n: count() }).from(diagnostics).where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

// --- changes ---

export async function lockDiagnostic(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: diagnostics.id, code: diagnostics.code, name: diagnostics.name })
    .from(diagnostics)
    .where(and(eq(diagnostics.id, id), isNull(diagnostics.deletedAt)))
    .for('update');
  return row ?? null;
}

export async function diagnosticExamWorkCount(db: DbOrTx, diagnosticId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(eq(participantTests.diagnosticId, diagnosticId));
  return row?.n ?? 0;
}

/** Soft-deletes the diagnostic and its participant tests; answers the participant test ids. */
export async function softDeleteDiagnostic(db: DbOrTx, id: number, at: Date): Promise<number[]> {
  await db.update(diagnostics).set({ deletedAt: at }).where(eq(diagnostics.id, id));
  const rows = await db
    .update(participantTests)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(participantTests.diagnosticId, id), isNull(participantTests.deletedAt)))
    .returning({ id: participantTests.id });
  return rows.map((r) => r.id);
}

// --- participants ---

/** Live students among the ids, with where they study. */
export function studentsWithPlace(db: DbOrTx, ids: number[]) {
  return db
    .select({
      id: students.id,
      surname: students.surname,
      name: students.name,
      schoolId: students.schoolId,
      classId: students.classId,
      buildingId: classes.buildingId,
    })
    .from(students)
    .leftJoin(classes, eq(classes.id, students.classId))
    .where(and(inArray(students.id, ids), isNull(students.deletedAt)));
}

/** Live registrations of these students for one subject test of the diagnostic. */
export function liveRegistrations(
  db: DbOrTx,
  key: { diagnosticId: number; subjectTestId: number; studentIds: number[] },
) {
  return db
    .select({
      id: participantTests.id,
      studentId: participantTests.studentId,
      activationCode: participantTests.activationCode,
      registrationCode: participantTests.registrationCode,
    })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.diagnosticId, key.diagnosticId),
        eq(participantTests.subjectTestId, key.subjectTestId),
        inArray(participantTests.studentId, key.studentIds),
        isNull(participantTests.deletedAt),
      ),
    );
}

export async function lockParticipantTest(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: participantTests.id,
      diagnosticId: participantTests.diagnosticId,
      studentId: participantTests.studentId,
    })
    .from(participantTests)
    .where(and(eq(participantTests.id, id), isNull(participantTests.deletedAt)))
    .for('update');
  return row ?? null;
}

export async function participantExamWorkCount(db: DbOrTx, participantTestId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(examWorks)
    .where(eq(examWorks.participantTestId, participantTestId));
  return row?.n ?? 0;
}

export async function softDeleteParticipantTest(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db.update(participantTests).set({ deletedAt: at, updatedAt: at }).where(eq(participantTests.id, id));
}

// --- reports ---

/** Every live participant of a diagnostic, ordered for printing: school, class, surname. */
export function reportRows(db: DbOrTx, diagnosticId: number) {
  return db
    .select({
      participantTestId: participantTests.id,
      surname: students.surname,
      name: students.name,
      patronymic: students.patronymic,
      schoolName: schools.name,
      className: classes.name,
      subjectTestName: subjectTests.name,
      testDate: participantTests.testDate,
      status: participantTests.status,
      activationCode: participantTests.activationCode,
      registrationCode: participantTests.registrationCode,
    })
    .from(participantTests)
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .where(and(eq(participantTests.diagnosticId, diagnosticId), isNull(participantTests.deletedAt)))
    .orderBy(
      asc(schools.name),
      asc(classes.parallelId),
      asc(classes.name),
      asc(students.surname),
      asc(students.name),
      asc(subjectTests.name),
      asc(participantTests.id),
    );
}
export type ReportRow = Awaited<ReturnType<typeof reportRows>>[number];
