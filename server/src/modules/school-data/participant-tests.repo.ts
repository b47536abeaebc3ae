/* Participant tests (registrations) of the caller's places, and registering new ones. */
import { and, count, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import type {
  StaffParticipantTest,
  StaffParticipantTestListRequest,
  StaffParticipantTestSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  diagnostics,
  examWorks,
  participantTests,
  students,
  subjectTests,
} from '../../db/schema/index.js';
import { containsPattern, listPage, orderOf } from '../../lib/list.js';
import { participantTestPlaceInScope, type StaffScope } from './school-data.access.js';

import { PT_ID, WORK_ID, iso } from './repo-support.js';
import { studentInScope } from './students.repo.js';
import { classOrder } from '../../db/fragments.js';

// ---------------------------------------------------------------- participant tests

export const ptColumns = {
  id: participantTests.id,
  diagnosticId: participantTests.diagnosticId,
  diagnosticName: diagnostics.name,
  subjectTestId: participantTests.subjectTestId,
  subjectTestName: subjectTests.name,
  studentId: participantTests.studentId,
  surname: students.surname,
  name: students.name,
  patronymic: students.patronymic,
  classId: participantTests.classId,
  className: classes.name,
  parallel: classes.parallelId,
  buildingId: participantTests.buildingId,
  buildingName: buildings.name,
  testDate: participantTests.testDate,
  status: participantTests.status,
  isImpersonal: participantTests.isImpersonal,
  activationCode: participantTests.activationCode,
  registrationCode: participantTests.registrationCode,
  workId: examWorks.id,
  workStatus: examWorks.status,
  workAnswerMode: examWorks.answerMode,
  workStartedAt: examWorks.startedAt,
  workDeadlineAt: examWorks.deadlineAt,
  workFinishedAt: examWorks.finishedAt,
  answeredCount: sql<number>`(select count(*)::int from answers a where a.exam_work_id = ${WORK_ID})`,
};
export interface PtRow {
  id: number;
  diagnosticId: number;
  diagnosticName: string;
  subjectTestId: number;
  subjectTestName: string;
  studentId: number | null;
  surname: string | null;
  name: string | null;
  patronymic: string | null;
  classId: number | null;
  className: string | null;
  parallel: number | null;
  buildingId: number | null;
  buildingName: string | null;
  testDate: string;
  status: string;
  isImpersonal: boolean;
  activationCode: string;
  registrationCode: string;
  workId: number | null;
  workStatus: string | null;
  workAnswerMode: string | null;
  workStartedAt: Date | null;
  workDeadlineAt: Date | null;
  workFinishedAt: Date | null;
  answeredCount: number | null;
}

export function toParticipantTest(r: PtRow): StaffParticipantTest {
  const {
    workId,
    workStatus,
    workAnswerMode,
    workStartedAt,
    workDeadlineAt,
    workFinishedAt,
    answeredCount,
    ...pt
  } = r;
  return {
    ...pt,
    status: pt.status as StaffParticipantTest['status'],
    examWork:
      workId === null
        ? null
        : {
            id: workId,
            status: workStatus as NonNullable<StaffParticipantTest['examWork']>['status'],
            answerMode: workAnswerMode ?? 'online',
            startedAt: iso(workStartedAt)!,
            deadlineAt: iso(workDeadlineAt)!,
            finishedAt: iso(workFinishedAt),
            answeredCount: Number(answeredCount ?? 0),
          },
  };
}

export const ptInScope = (scope: StaffScope) =>
  participantTestPlaceInScope(scope, {
    schoolId: participantTests.schoolId,
    classId: participantTests.classId,
    buildingId: participantTests.buildingId,
  });

/** Live participant tests of students (worker-test sittings excluded) of live diagnostics. */
export const livePt = and(
  isNull(participantTests.deletedAt),
  isNull(participantTests.workerId),
  isNull(diagnostics.deletedAt),
);

export const PT_SORT = {
  surname: students.surname,
  className: classOrder,
  testDate: participantTests.testDate,
  status: participantTests.status,
  subjectTest: subjectTests.name,
  id: participantTests.id,
} satisfies Record<StaffParticipantTestSortField, unknown>;

export function selectParticipantTests(db: DbOrTx) {
  return db
    .select(ptColumns)
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(buildings, eq(buildings.id, participantTests.buildingId))
    .leftJoin(
      examWorks,
      and(eq(examWorks.participantTestId, participantTests.id), isNull(examWorks.deletedAt)),
    );
}

export async function listParticipantTests(
  db: DbOrTx,
  scope: StaffScope,
  q: StaffParticipantTestListRequest,
) {
  const f = q.filter ?? {};
  const where = and(
    livePt,
    ptInScope(scope),
    f.diagnosticId !== undefined ? eq(participantTests.diagnosticId, f.diagnosticId) : undefined,
    f.subjectTestId !== undefined ? eq(participantTests.subjectTestId, f.subjectTestId) : undefined,
    f.classId !== undefined ? eq(participantTests.classId, f.classId) : undefined,
    f.buildingId !== undefined ? eq(participantTests.buildingId, f.buildingId) : undefined,
    f.status !== undefined ? eq(participantTests.status, f.status) : undefined,
    f.date !== undefined ? eq(participantTests.testDate, f.date) : undefined,
    f.search ? ilike(students.surname, containsPattern(f.search)) : undefined,
  );
  const page = await listPage(
    selectParticipantTests(db).where(where),
    orderOf(q.sort, PT_SORT, participantTests.id),
    q,
    db
      .select({ n: count() })
      .from(participantTests)
      .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
      .leftJoin(students, eq(students.id, participantTests.studentId))
      .where(where),
  );
  return { items: (page.items as PtRow[]).map(toParticipantTest), total: page.total };
}

export async function participantTestsByIds(db: DbOrTx, ids: number[]): Promise<StaffParticipantTest[]> {
  if (!ids.length) return [];
  const rows = await selectParticipantTests(db)
    .where(inArray(participantTests.id, ids))
    .orderBy(students.surname, students.name, participantTests.id);
  return (rows as PtRow[]).map(toParticipantTest);
}

/** A live participant test with whether it lies within scope (null: none such). */
export async function findParticipantTest(db: DbOrTx, id: number, scope: StaffScope) {
  const [row] = await db
    .select({
      id: participantTests.id,
      inScope: sql<boolean>`${ptInScope(scope)}`,
    })
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .where(and(eq(participantTests.id, id), livePt));
  return row ? { id: row.id, inScope: Boolean(row.inScope) } : null;
}

export async function lockParticipantTest(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: participantTests.id,
      diagnosticId: participantTests.diagnosticId,
      schoolId: participantTests.schoolId,
      classId: participantTests.classId,
      buildingId: participantTests.buildingId,
      studentId: participantTests.studentId,
      testDate: participantTests.testDate,
      status: participantTests.status,
      hasWork: sql<boolean>`exists (select 1 from exam_works w where w.participant_test_id = ${PT_ID} and w.deleted_at is null)`,
    })
    .from(participantTests)
    .where(eq(participantTests.id, id))
    .for('update', { of: participantTests });
  return row ? { ...row, hasWork: Boolean(row.hasWork) } : null;
}

export type ParticipantTestPatch = Partial<
  Pick<typeof participantTests.$inferInsert, 'testDate' | 'classId' | 'buildingId' | 'status'>
>;
export async function updateParticipantTest(db: DbOrTx, id: number, patch: ParticipantTestPatch) {
  await db
    .update(participantTests)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(participantTests.id, id));
}

// ---------------------------------------------------------------- registration

export interface RegistrationCandidate {
  id: number;
  surname: string;
  name: string;
  schoolId: number;
  classId: number | null;
  parallel: number | null;
  buildingId: number | null;
  inScope: boolean;
}

/** Live students by id, or every live student of the classes, with class, grade and scope. */
export async function registrationCandidates(
  db: DbOrTx,
  scope: StaffScope,
  by: { studentIds: number[] } | { classIds: number[] },
): Promise<RegistrationCandidate[]> {
  const rows = await db
    .select({
      id: students.id,
      surname: students.surname,
      name: students.name,
      schoolId: students.schoolId,
      classId: students.classId,
      parallel: classes.parallelId,
      buildingId: classes.buildingId,
      inScope: sql<boolean>`${studentInScope(scope)}`,
    })
    .from(students)
    .leftJoin(classes, eq(classes.id, students.classId))
    .where(
      and(
        isNull(students.deletedAt),
        'studentIds' in by ? inArray(students.id, by.studentIds) : inArray(students.classId, by.classIds),
      ),
    )
    .orderBy(students.id);
  return rows.map((r) => ({ ...r, inScope: Boolean(r.inScope) }));
}

/** Serialises registrations for one (diagnostic, subject test), so "skip already registered" holds. */
export async function lockRegistration(db: DbOrTx, diagnosticId: number, subjectTestId: number) {
  await db.execute(sql`select pg_advisory_xact_lock(${diagnosticId}::int, ${subjectTestId}::int)`);
}

export async function registeredStudentIds(
  db: DbOrTx,
  diagnosticId: number,
  subjectTestId: number,
  studentIds: number[],
): Promise<Set<number>> {
  if (!studentIds.length) return new Set();
  const rows = await db
    .select({ id: participantTests.studentId })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.diagnosticId, diagnosticId),
        eq(participantTests.subjectTestId, subjectTestId),
        isNull(participantTests.deletedAt),
        inArray(participantTests.studentId, studentIds),
      ),
    );
  return new Set(rows.map((r) => r.id!));
}

/** Which of the codes are already used (activation codes compared case-insensitively). */
export async function takenCodes(db: DbOrTx, activation: string[], registration: string[]) {
  const [a, r] = await Promise.all([
    db
      .select({ code: participantTests.activationCode })
      .from(participantTests)
      .where(
        inArray(
          sql`upper(${participantTests.activationCode})`,
          activation.map((c) => c.toUpperCase()),
        ),
      ),
    db
      .select({ code: participantTests.registrationCode })
      .from(participantTests)
      .where(inArray(participantTests.registrationCode, registration)),
  ]);
  return {
    activation: new Set(a.map((x) => x.code.toUpperCase())),
    registration: new Set(r.map((x) => x.code)),
  };
}

export type ParticipantTestInsert = typeof participantTests.$inferInsert;
export async function insertParticipantTests(db: DbOrTx, rows: ParticipantTestInsert[]): Promise<number[]> {
  if (!rows.length) return [];
  const out = await db.insert(participantTests).values(rows).returning({ id: participantTests.id });
  return out.map((r) => r.id);
}
