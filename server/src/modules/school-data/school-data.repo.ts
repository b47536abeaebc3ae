import { and, count, eq, ilike, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type {
  StaffBuilding,
  StaffBuildingSortField,
  StaffClass,
  StaffClassSortField,
  StaffDiagnostic,
  StaffDiagnosticListRequest,
  StaffDiagnosticSortField,
  StaffParallel,
  StaffParticipantTest,
  StaffParticipantTestListRequest,
  StaffParticipantTestSortField,
  StaffStudent,
  StaffStudentListRequest,
  StaffStudentSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  diagnostics,
  examWorks,
  parallels,
  participantTests,
  students,
  subjectTests,
} from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf, type SortSpec } from '../../lib/list.js';
import {
  outer,
  assignedClassIds,
  buildingInScope,
  classInScope,
  participantTestPlaceInScope,
  type StaffScope,
} from './school-data.access.js';

export interface Page {
  page: number;
  pageSize: number;
}
type Sort<F extends string> = SortSpec<F> | SortSpec<F>[] | undefined;

const DIAGNOSTIC_ID = outer('diagnostics', 'id');
const DIAGNOSTIC_PARALLELS = outer('diagnostics', 'parallels');
const BUILDING_ID = outer('buildings', 'id');
const CLASS_ID = outer('classes', 'id');
const PT_ID = outer('participant_tests', 'id');
const WORK_ID = outer('exam_works', 'id');

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/** Moscow calendar day of an instant (UTC+3 all year since 2014, so a fixed offset is exact). */
const moscowDay = (col: SQL | AnyColumn) => sql`((${col} at time zone 'UTC') + interval '3 hours')::date`;

// ---------------------------------------------------------------- students

const studentColumns = {
  id: students.id,
  surname: students.surname,
  name: students.name,
  patronymic: students.patronymic,
  birthDate: students.birthDate,
  gender: students.gender,
  schoolId: students.schoolId,
  classId: students.classId,
  className: classes.name,
  parallel: classes.parallelId,
  buildingId: classes.buildingId,
  buildingName: buildings.name,
  createdAt: students.createdAt,
};
type StudentRow = {
  [K in keyof typeof studentColumns]: K extends 'createdAt' ? Date : unknown;
};

function toStudent(r: StudentRow): StaffStudent {
  return {
    id: r.id as number,
    surname: r.surname as string,
    name: r.name as string,
    patronymic: r.patronymic as string | null,
    birthDate: r.birthDate as string | null,
    gender: r.gender === 'male' || r.gender === 'female' ? r.gender : null,
    schoolId: r.schoolId as number,
    classId: r.classId as number | null,
    className: r.className as string | null,
    parallel: r.parallel as number | null,
    buildingId: r.buildingId as number | null,
    buildingName: r.buildingName as string | null,
    createdAt: r.createdAt.toISOString(),
  };
}

const studentInScope = (scope: StaffScope) => classInScope(scope, students.classId, students.schoolId);

/** Classes in school order: by parallel, then letter (7 «А», 7 «Б», 8 «А»...); a sort key of lists. */
export const classOrder = sql`${classes.parallelId} * 100 + ascii(${classes.letter})`;

const STUDENT_SORT = {
  surname: students.surname,
  name: students.name,
  birthDate: students.birthDate,
  className: classOrder,
  createdAt: students.createdAt,
  id: students.id,
} satisfies Record<StaffStudentSortField, unknown>;

const personSearch = (pattern: string) =>
  or(
    ilike(students.surname, pattern),
    ilike(students.name, pattern),
    sql`(${students.surname} || ' ' || ${students.name}) ilike ${pattern}`,
  );

/** One page of live students in scope plus the total: two statements. */
export async function listStudents(db: DbOrTx, scope: StaffScope, q: StaffStudentListRequest) {
  const f = q.filter ?? {};
  const where = and(
    isNull(students.deletedAt),
    studentInScope(scope),
    f.search ? personSearch(containsPattern(f.search)) : undefined,
    f.classId !== undefined ? eq(students.classId, f.classId) : undefined,
    f.parallel !== undefined ? eq(classes.parallelId, f.parallel) : undefined,
    f.buildingId !== undefined ? eq(classes.buildingId, f.buildingId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(studentColumns)
      .from(students)
      .leftJoin(classes, eq(classes.id, students.classId))
      .leftJoin(buildings, eq(buildings.id, classes.buildingId))
      .where(where)
      .orderBy(...orderOf(q.sort, STUDENT_SORT, students.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(students).leftJoin(classes, eq(classes.id, students.classId)).where(where),
  ]);
  return { items: rows.map(toStudent), total: total?.n ?? 0 };
}

/** A live student by id, with whether it lies within scope (null: no such live student). */
export async function findStudent(
  db: DbOrTx,
  id: number,
  scope?: StaffScope,
): Promise<{ student: StaffStudent; inScope: boolean } | null> {
  const [row] = await db
    .select({
      ...studentColumns,
      inScope: scope ? sql<boolean>`${studentInScope(scope)}` : sql<boolean>`false`,
    })
    .from(students)
    .leftJoin(classes, eq(classes.id, students.classId))
    .leftJoin(buildings, eq(buildings.id, classes.buildingId))
    .where(and(eq(students.id, id), isNull(students.deletedAt)))
    .limit(1);
  return row ? { student: toStudent(row), inScope: Boolean(row.inScope) } : null;
}

export async function lockStudent(db: DbOrTx, id: number) {
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.id, id), isNull(students.deletedAt)))
    .for('update');
  return row ?? null;
}

/** Whether the student has an attempt that is running or paused right now. */
export async function hasWorkInProgress(db: DbOrTx, studentId: number): Promise<boolean> {
  const rows = await db
    .select({ id: examWorks.id })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        eq(participantTests.studentId, studentId),
        isNull(examWorks.deletedAt),
        isNull(examWorks.finishedAt),
        inArray(examWorks.status, ['new', 'in_progress', 'paused']),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type StudentWrite = Pick<
  typeof students.$inferInsert,
  'surname' | 'name' | 'patronymic' | 'birthDate' | 'gender' | 'classId'
>;

export async function insertStudent(db: DbOrTx, schoolId: number, values: StudentWrite): Promise<number> {
  const [row] = await db
    .insert(students)
    .values({ schoolId, ...values })
    .returning({ id: students.id });
  return row!.id;
}

export async function updateStudent(db: DbOrTx, id: number, values: Partial<StudentWrite>) {
  await db.update(students).set(values).where(eq(students.id, id));
}

export async function softDeleteStudent(db: DbOrTx, id: number, at: Date) {
  await db.update(students).set({ deletedAt: at }).where(eq(students.id, id));
}

/** Another live student of the school with the same full name and birth date. */
export async function findTwin(
  db: DbOrTx,
  schoolId: number,
  person: { surname: string; name: string; patronymic: string | null; birthDate: string },
  exceptId?: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: students.id })
    .from(students)
    .where(
      and(
        eq(students.schoolId, schoolId),
        isNull(students.deletedAt),
        sql`lower(${students.surname}) = lower(${person.surname})`,
        sql`lower(${students.name}) = lower(${person.name})`,
        sql`lower(coalesce(${students.patronymic}, '')) = lower(${person.patronymic ?? ''})`,
        eq(students.birthDate, person.birthDate),
        exceptId ? sql`${students.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/** Participant tests of a student that have not started (no live work): they go with the student. */
export async function unstartedParticipantTestIds(db: DbOrTx, studentId: number): Promise<number[]> {
  const rows = await db
    .select({ id: participantTests.id })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.studentId, studentId),
        isNull(participantTests.deletedAt),
        inArray(participantTests.status, ['planned', 'active', 'absent']),
        sql`not exists (select 1 from exam_works w where w.participant_test_id = ${PT_ID} and w.deleted_at is null)`,
      ),
    );
  return rows.map((r) => r.id);
}

export async function softDeleteParticipantTests(db: DbOrTx, ids: number[], at: Date) {
  if (ids.length)
    await db
      .update(participantTests)
      .set({ deletedAt: at, updatedAt: at })
      .where(inArray(participantTests.id, ids));
}

// ---------------------------------------------------------------- classes and buildings

export interface ClassRef {
  id: number;
  schoolId: number;
  buildingId: number | null;
  parallel: number;
  name: string;
  inScope: boolean;
}

/** Classes by id with whether each lies within scope; ids that do not exist are absent. */
export async function classesByIds(db: DbOrTx, scope: StaffScope, ids: number[]): Promise<ClassRef[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({
      id: classes.id,
      schoolId: classes.schoolId,
      buildingId: classes.buildingId,
      parallel: classes.parallelId,
      name: classes.name,
      inScope: sql<boolean>`${classInScope(scope, classes.id, classes.schoolId)}`,
    })
    .from(classes)
    .where(inArray(classes.id, ids));
  return rows.map((r) => ({ ...r, inScope: Boolean(r.inScope) }));
}

export async function buildingById(db: DbOrTx, scope: StaffScope, id: number) {
  const [row] = await db
    .select({
      id: buildings.id,
      schoolId: buildings.schoolId,
      inScope: sql<boolean>`${buildingInScope(scope, buildings.id, buildings.schoolId)}`,
    })
    .from(buildings)
    .where(eq(buildings.id, id));
  return row ? { ...row, inScope: Boolean(row.inScope) } : null;
}

const liveStudentsOfClass = (classId: SQL) =>
  sql<number>`(select count(*)::int from students s where s.class_id = ${classId} and s.deleted_at is null)`;

const BUILDING_SORT = { name: buildings.name, id: buildings.id } satisfies Record<
  StaffBuildingSortField,
  unknown
>;

export async function listBuildings(
  db: DbOrTx,
  scope: StaffScope,
  q: Page & { sort?: Sort<StaffBuildingSortField>; filter?: { search?: string } },
): Promise<{ items: StaffBuilding[]; total: number }> {
  const search = q.filter?.search;
  const where = and(
    buildingInScope(scope, buildings.id, buildings.schoolId),
    search ? ilike(buildings.name, containsPattern(search)) : undefined,
  );
  const classScope = classInScope(scope, sql`c.id`, sql`c.school_id`);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: buildings.id,
        name: buildings.name,
        address: buildings.address,
        classCount: sql<number>`(select count(*)::int from classes c where c.building_id = ${BUILDING_ID} and ${classScope})`,
        studentCount: sql<number>`(select count(*)::int from students s join classes c on c.id = s.class_id
          where c.building_id = ${BUILDING_ID} and s.deleted_at is null and ${classScope})`,
      })
      .from(buildings)
      .where(where)
      .orderBy(...orderOf(q.sort, BUILDING_SORT, buildings.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(buildings).where(where),
  ]);
  return { items: rows, total: total?.n ?? 0 };
}

const CLASS_SORT = {
  name: classOrder,
  parallel: classes.parallelId,
  studentCount: liveStudentsOfClass(CLASS_ID),
  id: classes.id,
} satisfies Record<StaffClassSortField, unknown>;

export async function listClasses(
  db: DbOrTx,
  scope: StaffScope,
  q: Page & {
    sort?: Sort<StaffClassSortField>;
    filter?: { search?: string; parallel?: number; buildingId?: number };
  },
): Promise<{ items: StaffClass[]; total: number }> {
  const f = q.filter ?? {};
  const where = and(
    classInScope(scope, classes.id, classes.schoolId),
    f.search ? ilike(classes.name, containsPattern(f.search)) : undefined,
    f.parallel !== undefined ? eq(classes.parallelId, f.parallel) : undefined,
    f.buildingId !== undefined ? eq(classes.buildingId, f.buildingId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: classes.id,
        name: classes.name,
        letter: classes.letter,
        parallel: classes.parallelId,
        buildingId: classes.buildingId,
        buildingName: buildings.name,
        studentCount: liveStudentsOfClass(CLASS_ID),
      })
      .from(classes)
      .leftJoin(buildings, eq(buildings.id, classes.buildingId))
      .where(where)
      .orderBy(...orderOf(q.sort, CLASS_SORT, classes.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(classes).where(where),
  ]);
  return { items: rows, total: total?.n ?? 0 };
}

export async function listParallels(
  db: DbOrTx,
  scope: StaffScope,
  q: Page & { sort?: Sort<'id'>; filter?: { buildingId?: number } },
): Promise<{ items: StaffParallel[]; total: number }> {
  const where = and(
    classInScope(scope, classes.id, classes.schoolId),
    q.filter?.buildingId !== undefined ? eq(classes.buildingId, q.filter.buildingId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: parallels.id,
        name: parallels.name,
        classCount: sql<number>`count(distinct ${classes.id})::int`,
        studentCount: sql<number>`count(${students.id})::int`,
      })
      .from(classes)
      .innerJoin(parallels, eq(parallels.id, classes.parallelId))
      .leftJoin(students, and(eq(students.classId, classes.id), isNull(students.deletedAt)))
      .where(where)
      .groupBy(parallels.id, parallels.name)
      .orderBy(...orderOf(q.sort, { id: parallels.id }, parallels.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db
      .select({ n: sql<number>`count(distinct ${classes.parallelId})::int` })
      .from(classes)
      .where(where),
  ]);
  return { items: rows, total: total?.n ?? 0 };
}

// ---------------------------------------------------------------- diagnostics

/**
 * Which diagnostics a caller sees: those that include the coordinator's school; for an
 * organizator, `conducts` — those with participant tests in their rooms, `open` — those that
 * include a school of their classes (what they may register participants for).
 */
export function diagnosticInScope(scope: StaffScope, mode: 'conducts' | 'open'): SQL {
  if (scope.role === 'coordinator')
    return sql`exists (select 1 from diagnostic_schools ds where ds.diagnostic_id = ${DIAGNOSTIC_ID} and ds.school_id = ${scope.schoolId})`;
  if (mode === 'open')
    return sql`exists (select 1 from diagnostic_schools ds join classes c on c.school_id = ds.school_id
      where ds.diagnostic_id = ${DIAGNOSTIC_ID} and c.id in ${assignedClassIds(scope.userId)})`;
  return sql`exists (select 1 from participant_tests p where p.diagnostic_id = ${DIAGNOSTIC_ID}
    and p.deleted_at is null and ${participantTestPlaceInScope(scope, { schoolId: sql`p.school_id`, classId: sql`p.class_id`, buildingId: sql`p.building_id` })})`;
}

/** Where a diagnostic stands now (STAFF_DIAGNOSTIC_STATES), as SQL over the diagnostics row. */
export const diagnosticState = sql<StaffDiagnostic['status']>`case
  when ${diagnostics.resultsPublished} then 'published'
  when now() < ${diagnostics.startsAt} then 'planned'
  when now() > ${diagnostics.endsAt} then 'finished'
  else 'running' end`;

function diagnosticColumns(scope: StaffScope) {
  const place = { schoolId: sql`p.school_id`, classId: sql`p.class_id`, buildingId: sql`p.building_id` };
  return {
    id: diagnostics.id,
    code: diagnostics.code,
    name: diagnostics.name,
    kind: diagnostics.kind,
    startsAt: diagnostics.startsAt,
    endsAt: diagnostics.endsAt,
    parallels: diagnostics.parallels,
    status: diagnosticState,
    resultsPublished: diagnostics.resultsPublished,
    subjectTests: sql<StaffDiagnostic['subjectTests']>`coalesce((select json_agg(json_build_object(
        'id', st.id, 'name', st.name, 'parallels', st.parallels) order by st.name, st.id)
      from diagnostic_subject_tests dst join subject_tests st on st.id = dst.subject_test_id
      where dst.diagnostic_id = ${DIAGNOSTIC_ID}), '[]'::json)`,
    participantCount: sql<number>`(select count(*)::int from participant_tests p
      where p.diagnostic_id = ${DIAGNOSTIC_ID} and p.deleted_at is null and p.worker_id is null
      and ${participantTestPlaceInScope(scope, place)})`,
  };
}

type DiagnosticRow = Omit<StaffDiagnostic, 'startsAt' | 'endsAt' | 'subjectTests'> & {
  startsAt: Date;
  endsAt: Date;
  subjectTests: unknown;
};
const toDiagnostic = (r: DiagnosticRow): StaffDiagnostic => ({
  ...r,
  startsAt: r.startsAt.toISOString(),
  endsAt: r.endsAt.toISOString(),
  // node-postgres parses json; be tolerant of a driver handing back text.
  subjectTests: (typeof r.subjectTests === 'string'
    ? JSON.parse(r.subjectTests)
    : r.subjectTests) as StaffDiagnostic['subjectTests'],
});

export const hasSubjectTest = (subjectTestId: number) =>
  sql`exists (select 1 from diagnostic_subject_tests dst where dst.diagnostic_id = ${DIAGNOSTIC_ID} and dst.subject_test_id = ${subjectTestId})`;
const hasParallel = (grade: number) =>
  sql`(${grade} = any(${DIAGNOSTIC_PARALLELS}) or exists (select 1 from diagnostic_subject_tests dst
    join subject_tests st on st.id = dst.subject_test_id
    where dst.diagnostic_id = ${DIAGNOSTIC_ID} and ${grade} = any(st.parallels)))`;

/** Staff see event diagnostics; worker-test sittings have their own screens. */
const liveEventDiagnostic = and(isNull(diagnostics.deletedAt), sql`${diagnostics.kind} <> 'worker'`);

const DIAGNOSTIC_SORT = {
  startsAt: diagnostics.startsAt,
  name: diagnostics.name,
  code: diagnostics.code,
  id: diagnostics.id,
} satisfies Record<StaffDiagnosticSortField, unknown>;

export async function listDiagnostics(db: DbOrTx, scope: StaffScope, q: StaffDiagnosticListRequest) {
  const f = q.filter ?? {};
  const where = and(
    liveEventDiagnostic,
    diagnosticInScope(scope, 'conducts'),
    f.dateFrom ? sql`${moscowDay(diagnostics.endsAt)} >= ${f.dateFrom}::date` : undefined,
    f.dateTo ? sql`${moscowDay(diagnostics.startsAt)} <= ${f.dateTo}::date` : undefined,
    f.status ? sql`${diagnosticState} = ${f.status}` : undefined,
    f.search
      ? or(
          ilike(diagnostics.name, containsPattern(f.search)),
          ilike(diagnostics.code, containsPattern(f.search)),
        )
      : undefined,
    f.subjectTestId !== undefined ? hasSubjectTest(f.subjectTestId) : undefined,
    f.parallel !== undefined ? hasParallel(f.parallel) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(diagnosticColumns(scope))
      .from(diagnostics)
      .where(where)
      .orderBy(...orderOf(q.sort ?? { field: 'startsAt', dir: 'desc' }, DIAGNOSTIC_SORT, diagnostics.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(diagnostics).where(where),
  ]);
  return { items: rows.map(toDiagnostic), total: total?.n ?? 0 };
}

export const BY_PARAM_LIMIT = 200;

/** Diagnostics open to the caller whose window covers the date, with the subject test and grade. */
export async function diagnosticsByParam(
  db: DbOrTx,
  scope: StaffScope,
  p: { date?: string; subjectTestId?: number; parallel?: number },
): Promise<StaffDiagnostic[]> {
  const rows = await db
    .select(diagnosticColumns(scope))
    .from(diagnostics)
    .where(
      and(
        liveEventDiagnostic,
        diagnosticInScope(scope, 'open'),
        p.date
          ? sql`${p.date}::date between ${moscowDay(diagnostics.startsAt)} and ${moscowDay(diagnostics.endsAt)}`
          : undefined,
        p.subjectTestId !== undefined ? hasSubjectTest(p.subjectTestId) : undefined,
        p.parallel !== undefined ? hasParallel(p.parallel) : undefined,
      ),
    )
    .orderBy(diagnostics.startsAt, diagnostics.id)
    .limit(BY_PARAM_LIMIT);
  return rows.map(toDiagnostic);
}

/** What registration needs to know about a diagnostic and one of its subject tests. */
export async function registrationTarget(db: DbOrTx, diagnosticId: number, subjectTestId: number) {
  const [row] = await db
    .select({
      id: diagnostics.id,
      kind: diagnostics.kind,
      parallels: diagnostics.parallels,
      firstDay: sql<string>`${moscowDay(diagnostics.startsAt)}::text`,
      lastDay: sql<string>`${moscowDay(diagnostics.endsAt)}::text`,
      schoolIds: sql<
        number[]
      >`array(select ds.school_id from diagnostic_schools ds where ds.diagnostic_id = ${DIAGNOSTIC_ID})`,
      subjectTest: sql<{
        id: number;
        parallels: number[];
      } | null>`(select json_build_object('id', st.id, 'parallels', st.parallels)
        from diagnostic_subject_tests dst join subject_tests st on st.id = dst.subject_test_id
        where dst.diagnostic_id = ${DIAGNOSTIC_ID} and dst.subject_test_id = ${subjectTestId})`,
    })
    .from(diagnostics)
    .where(and(eq(diagnostics.id, diagnosticId), isNull(diagnostics.deletedAt)));
  if (!row) return null;
  const subjectTest = typeof row.subjectTest === 'string' ? JSON.parse(row.subjectTest) : row.subjectTest;
  return { ...row, schoolIds: row.schoolIds.map(Number), subjectTest } as typeof row;
}

// ---------------------------------------------------------------- participant tests

const ptColumns = {
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
interface PtRow {
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

function toParticipantTest(r: PtRow): StaffParticipantTest {
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

const ptInScope = (scope: StaffScope) =>
  participantTestPlaceInScope(scope, {
    schoolId: participantTests.schoolId,
    classId: participantTests.classId,
    buildingId: participantTests.buildingId,
  });

/** Live participant tests of students (worker-test sittings excluded) of live diagnostics. */
const livePt = and(
  isNull(participantTests.deletedAt),
  isNull(participantTests.workerId),
  isNull(diagnostics.deletedAt),
);

const PT_SORT = {
  surname: students.surname,
  className: classOrder,
  testDate: participantTests.testDate,
  status: participantTests.status,
  subjectTest: subjectTests.name,
  id: participantTests.id,
} satisfies Record<StaffParticipantTestSortField, unknown>;

function selectParticipantTests(db: DbOrTx) {
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
  const [rows, [total]] = await Promise.all([
    selectParticipantTests(db)
      .where(where)
      .orderBy(...orderOf(q.sort, PT_SORT, participantTests.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db
      .select({ n: count() })
      .from(participantTests)
      .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
      .leftJoin(students, eq(students.id, participantTests.studentId))
      .where(where),
  ]);
  return { items: (rows as PtRow[]).map(toParticipantTest), total: total?.n ?? 0 };
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
