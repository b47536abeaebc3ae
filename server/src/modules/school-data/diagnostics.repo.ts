/* Diagnostics staff conduct or may register for, with their state. */
import { and, count, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type {
  StaffDiagnostic,
  StaffDiagnosticListRequest,
  StaffDiagnosticSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { diagnostics } from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf } from '../../lib/list.js';
import { assignedClassIds, participantTestPlaceInScope, type StaffScope } from './school-data.access.js';

import { DIAGNOSTIC_ID, DIAGNOSTIC_PARALLELS, moscowDay } from './repo-support.js';

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

export function diagnosticColumns(scope: StaffScope) {
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

export type DiagnosticRow = Omit<StaffDiagnostic, 'startsAt' | 'endsAt' | 'subjectTests'> & {
  startsAt: Date;
  endsAt: Date;
  subjectTests: unknown;
};
export const toDiagnostic = (r: DiagnosticRow): StaffDiagnostic => ({
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
export const hasParallel = (grade: number) =>
  sql`(${grade} = any(${DIAGNOSTIC_PARALLELS}) or exists (select 1 from diagnostic_subject_tests dst
    join subject_tests st on st.id = dst.subject_test_id
    where dst.diagnostic_id = ${DIAGNOSTIC_ID} and ${grade} = any(st.parallels)))`;

/** Staff see event diagnostics; worker-test sittings have their own screens. */
export const liveEventDiagnostic = and(
  isNull(diagnostics.deletedAt),
  // Worker tests have their own pages; guests' open tests are no school's event (docs/open-tests.md).
  sql`${diagnostics.kind} not in ('worker', 'open')`,
);

export const DIAGNOSTIC_SORT = {
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
