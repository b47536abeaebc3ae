import { and, count, eq, gte, ilike, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminDiagnostic,
  AdminDiagnosticDetail,
  AdminDiagnosticListRequest,
  AdminDiagnosticSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { diagnostics, oo, schools, users } from '../../db/schema/index.js';
import { schoolDayEnd, schoolInstant } from '../../lib/calendar.js';
import { containsPattern, offsetOf, orderOf } from '../../lib/list.js';
import { outer } from '../../db/fragments.js';
import { diagnosticState, hasSubjectTest } from '../school-data/index.js';
import { paged } from '../../lib/list.js';
import { int } from './admin-org.repo.js';

/* Every diagnostic, whoever created it, with the counts the admin's table shows. */

const DIAGNOSTIC_ID = outer('diagnostics', 'id');
const SCHOOL_ID = outer('schools', 'id');

/** Live participant tests of a diagnostic (`narrow`: more conditions on `p`). */
const participantTestCount = (diagnosticId: SQL | number, narrow = sql``) =>
  int(sql`select count(*)::int from participant_tests p
    where p.diagnostic_id = ${diagnosticId} and p.deleted_at is null ${narrow}`);

/** Finished attempts: live exam works, finished or scored, of live participant tests. */
const finishedWorkCount = (diagnosticId: SQL | number, narrow = sql``) =>
  int(sql`select count(*)::int from exam_works w join participant_tests p on p.id = w.participant_test_id
    where p.diagnostic_id = ${diagnosticId} and p.deleted_at is null and w.deleted_at is null
    and w.status in ('finished', 'scored') ${narrow}`);

const liveParticipantTests = participantTestCount(DIAGNOSTIC_ID);

const columns = {
  id: diagnostics.id,
  code: diagnostics.code,
  name: diagnostics.name,
  kind: diagnostics.kind,
  createdByRole: diagnostics.createdByRole,
  createdByLogin: users.login,
  startsAt: diagnostics.startsAt,
  endsAt: diagnostics.endsAt,
  parallels: diagnostics.parallels,
  status: diagnosticState,
  resultsPublished: diagnostics.resultsPublished,
  publishedAt: diagnostics.publishedAt,
  subjectTests: sql<unknown>`coalesce((select json_agg(json_build_object('id', st.id, 'name', st.name)
      order by st.name, st.id)
    from diagnostic_subject_tests dst join subject_tests st on st.id = dst.subject_test_id
    where dst.diagnostic_id = ${DIAGNOSTIC_ID}), '[]'::json)`,
  schoolCount: int(
    sql`select count(*)::int from diagnostic_schools ds where ds.diagnostic_id = ${DIAGNOSTIC_ID}`,
  ),
  participantTestCount: liveParticipantTests,
  finishedWorkCount: finishedWorkCount(DIAGNOSTIC_ID),
};

type Row = Omit<AdminDiagnostic, 'startsAt' | 'endsAt' | 'publishedAt' | 'subjectTests'> & {
  startsAt: Date;
  endsAt: Date;
  publishedAt: Date | null;
  subjectTests: unknown;
};

const toDiagnostic = (r: Row): AdminDiagnostic => ({
  ...r,
  startsAt: r.startsAt.toISOString(),
  endsAt: r.endsAt.toISOString(),
  publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null,
  // node-postgres parses json; be tolerant of a driver handing back text.
  subjectTests: (typeof r.subjectTests === 'string'
    ? JSON.parse(r.subjectTests)
    : r.subjectTests) as AdminDiagnostic['subjectTests'],
});

const SORT = {
  startsAt: diagnostics.startsAt,
  endsAt: diagnostics.endsAt,
  name: diagnostics.name,
  code: diagnostics.code,
  participantTestCount: liveParticipantTests,
  id: diagnostics.id,
} satisfies Record<AdminDiagnosticSortField, unknown>;

function selectDiagnostics(db: DbOrTx) {
  return db.select(columns).from(diagnostics).leftJoin(users, eq(users.id, diagnostics.createdBy));
}

export async function listDiagnostics(db: DbOrTx, q: AdminDiagnosticListRequest) {
  const f = q.filter ?? {};
  const where = and(
    isNull(diagnostics.deletedAt),
    // The system diagnostics of guests' open tests are no event anyone runs (docs/open-tests.md).
    sql`${diagnostics.kind} <> 'open'`,
    // Calendar days are Moscow days: the window overlaps [dateFrom 00:00, dateTo 24:00) MSK.
    f.dateFrom ? gte(diagnostics.endsAt, schoolInstant(f.dateFrom)) : undefined,
    f.dateTo ? lt(diagnostics.startsAt, schoolDayEnd(f.dateTo)) : undefined,
    f.subjectTestId !== undefined ? hasSubjectTest(f.subjectTestId) : undefined,
    f.schoolId !== undefined
      ? sql`exists (select 1 from diagnostic_schools ds where ds.diagnostic_id = ${DIAGNOSTIC_ID} and ds.school_id = ${f.schoolId})`
      : undefined,
    f.kind ? eq(diagnostics.kind, f.kind) : undefined,
    f.createdByRole ? eq(diagnostics.createdByRole, f.createdByRole) : undefined,
    f.status ? sql`${diagnosticState} = ${f.status}` : undefined,
    f.search
      ? or(
          ilike(diagnostics.name, containsPattern(f.search)),
          ilike(diagnostics.code, containsPattern(f.search)),
        )
      : undefined,
  );
  const page = await paged(
    selectDiagnostics(db)
      .where(where)
      .orderBy(...orderOf(q.sort ?? { field: 'startsAt', dir: 'desc' }, SORT, diagnostics.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(diagnostics).where(where),
  );
  return { items: (page.items as Row[]).map(toDiagnostic), total: page.total };
}

/** One live diagnostic with its schools (by name) and their counts; null when there is none. */
export async function diagnosticDetail(db: DbOrTx, id: number): Promise<AdminDiagnosticDetail | null> {
  const [row] = await selectDiagnostics(db).where(
    and(eq(diagnostics.id, id), isNull(diagnostics.deletedAt), sql`${diagnostics.kind} <> 'open'`),
  );
  if (!row) return null;
  const ofSchool = sql`and p.school_id = ${SCHOOL_ID}`;
  const schoolRows = await db
    .select({
      id: schools.id,
      name: schools.name,
      code: schools.code,
      ooName: oo.name,
      participantTestCount: participantTestCount(id, ofSchool),
      finishedWorkCount: finishedWorkCount(id, ofSchool),
    })
    .from(schools)
    .innerJoin(oo, eq(oo.id, schools.ooId))
    .where(
      sql`exists (select 1 from diagnostic_schools ds where ds.diagnostic_id = ${id} and ds.school_id = ${SCHOOL_ID})`,
    )
    .orderBy(schools.name, schools.id);
  return { ...toDiagnostic(row as Row), schools: schoolRows };
}
