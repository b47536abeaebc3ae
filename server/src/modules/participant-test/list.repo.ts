import { and, count, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type {
  ParticipantTestListFilter,
  ParticipantTestListItem,
  ParticipantTestListRequest,
  ParticipantTestSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  diagnostics,
  examWorks,
  participantTests,
  schools,
  students,
  subjectTests,
  workers,
} from '../../db/schema/index.js';
import { containsPattern, listPage, orderOf } from '../../lib/list.js';

/** "Surname Name Patronymic" of the student, or of the worker for a worker test. */
export const participantNameSql = sql<string | null>`nullif(concat_ws(' ',
  coalesce(${students.surname}, ${workers.surname}),
  coalesce(${students.name}, ${workers.name}),
  coalesce(${students.patronymic}, ${workers.patronymic})), '')`;

/** Status of the live exam work of the row's participant test, if any. */
const liveWorkStatusSql = sql<string | null>`(select ${examWorks.status} from ${examWorks}
  where ${examWorks.participantTestId} = ${participantTests.id} and ${examWorks.deletedAt} is null limit 1)`;

/** Allowlisted columns of a list row. */
const columns = {
  id: participantTests.id,
  diagnosticId: participantTests.diagnosticId,
  diagnosticName: diagnostics.name,
  subjectTestId: participantTests.subjectTestId,
  subjectTestName: subjectTests.name,
  studentId: participantTests.studentId,
  workerId: participantTests.workerId,
  participantName: participantNameSql,
  schoolId: participantTests.schoolId,
  schoolName: schools.name,
  classId: participantTests.classId,
  className: classes.name,
  buildingId: participantTests.buildingId,
  buildingName: buildings.name,
  testDate: participantTests.testDate,
  status: participantTests.status,
  isImpersonal: participantTests.isImpersonal,
  activationCode: participantTests.activationCode,
  registrationCode: participantTests.registrationCode,
  examWorkStatus: liveWorkStatusSql,
};

const sortColumns: Record<ParticipantTestSortField, SQL | typeof participantTests.id> = {
  id: participantTests.id,
  testDate: sql`${participantTests.testDate}`,
  participantName: participantNameSql,
  className: sql`${classes.name}`,
  schoolName: sql`${schools.name}`,
  status: sql`${participantTests.status}`,
};

function filterConditions(filter: ParticipantTestListFilter | undefined): (SQL | undefined)[] {
  if (!filter) return [];
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  return [
    filter.diagnosticId !== undefined ? eq(participantTests.diagnosticId, filter.diagnosticId) : undefined,
    filter.subjectTestId !== undefined ? eq(participantTests.subjectTestId, filter.subjectTestId) : undefined,
    filter.schoolId !== undefined ? eq(participantTests.schoolId, filter.schoolId) : undefined,
    filter.classId !== undefined ? eq(participantTests.classId, filter.classId) : undefined,
    filter.buildingId !== undefined ? eq(participantTests.buildingId, filter.buildingId) : undefined,
    filter.testDate !== undefined ? eq(participantTests.testDate, filter.testDate) : undefined,
    filter.status !== undefined ? eq(participantTests.status, filter.status) : undefined,
    filter.isImpersonal !== undefined ? eq(participantTests.isImpersonal, filter.isImpersonal) : undefined,
    pattern
      ? or(
          sql`${participantNameSql} ilike ${pattern}`,
          ilike(participantTests.activationCode, pattern),
          ilike(participantTests.registrationCode, pattern),
        )
      : undefined,
  ];
}

/**
 * A page of live participant tests (neither they nor their diagnostic deleted) within `scope`
 * (a condition over participant_tests/diagnostics, undefined for everything).
 */
export async function listParticipantTests(
  db: DbOrTx,
  scope: SQL | undefined,
  request: ParticipantTestListRequest,
): Promise<{ items: ParticipantTestListItem[]; total: number }> {
  const where = and(
    isNull(participantTests.deletedAt),
    isNull(diagnostics.deletedAt),
    scope,
    ...filterConditions(request.filter),
  );
  return listPage(
    db
      .select(columns)
      .from(participantTests)
      .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
      .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
      .leftJoin(students, eq(students.id, participantTests.studentId))
      .leftJoin(workers, eq(workers.id, participantTests.workerId))
      .leftJoin(schools, eq(schools.id, participantTests.schoolId))
      .leftJoin(classes, eq(classes.id, participantTests.classId))
      .leftJoin(buildings, eq(buildings.id, participantTests.buildingId))
      .where(where),
    orderOf(request.sort, sortColumns, participantTests.id),
    request,
    db
      .select({ n: count() })
      .from(participantTests)
      .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
      .leftJoin(students, eq(students.id, participantTests.studentId))
      .leftJoin(workers, eq(workers.id, participantTests.workerId))
      .where(where),
  );
}
