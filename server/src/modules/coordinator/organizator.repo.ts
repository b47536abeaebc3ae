import { and, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type {
  Role,
  StaffOrganizator,
  StaffOrganizatorListRequest,
  StaffOrganizatorSortField,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  organizatorAssignments,
  userRoles,
  users,
  workerPositions,
  workers,
} from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf } from '../../lib/list.js';
import { outer } from '../../db/fragments.js';

const USER_ID = outer('users', 'id');
const WORKER_ID = outer('workers', 'id');
const WORKER_POSITION_ID = outer('workers', 'position_id');

const isOrganizator = sql`exists (select 1 from user_roles r where r.user_id = ${USER_ID} and r.role = 'organizator')`;

/**
 * Columns of an organizator, with assignments and worker-test state computed in the same
 * statement. Worker tests: those of the organizator's position (or of every position) offered to
 * every school or to this one; the sitting is the latest live participant test of the worker for
 * that test's diagnostic and subject test, with its live exam work.
 */
function organizatorColumns(schoolId: number) {
  return {
    id: users.id,
    login: users.login,
    surname: users.surname,
    name: users.name,
    patronymic: users.patronymic,
    email: users.email,
    isBlocked: users.isBlocked,
    workerId: users.workerId,
    positionId: workers.positionId,
    positionName: workerPositions.name,
    classes: sql<unknown>`coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.parallel_id, c.letter)
      from organizator_assignments a join classes c on c.id = a.class_id where a.user_id = ${USER_ID}), '[]'::json)`,
    buildings: sql<unknown>`coalesce((select json_agg(json_build_object('id', b.id, 'name', b.name) order by b.name, b.id)
      from organizator_assignments a join buildings b on b.id = a.building_id
      where a.user_id = ${USER_ID} and a.class_id is null), '[]'::json)`,
    workerTests: sql<unknown>`coalesce((select json_agg(json_build_object(
        'workerTestId', wt.id, 'name', wt.name, 'participantTestId', p.id,
        'status', coalesce(p.status, 'not_registered'), 'testDate', p.test_date,
        'startedAt', ew.started_at, 'finishedAt', ew.finished_at) order by wt.starts_at, wt.id)
      from worker_tests wt
      left join lateral (select p.id, p.status, p.test_date from participant_tests p
        where p.worker_id = ${WORKER_ID} and p.diagnostic_id = wt.diagnostic_id
          and p.subject_test_id = wt.subject_test_id and p.deleted_at is null
        order by p.id desc limit 1) p on true
      left join exam_works ew on ew.participant_test_id = p.id and ew.deleted_at is null
      where ${WORKER_ID} is not null and wt.deleted_at is null
        and (wt.school_id is null or wt.school_id = ${schoolId})
        and (wt.position_id is null or wt.position_id = ${WORKER_POSITION_ID})), '[]'::json)`,
  };
}

const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const iso = (v: string | null | undefined) => (v ? new Date(v).toISOString() : null);

export interface WorkerTestState {
  workerTestId: number;
  name: string;
  participantTestId: number | null;
  status: string;
  testDate: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export type OrganizatorRow = StaffOrganizator & { workerTests: WorkerTestState[] };

function toOrganizator(r: Record<string, unknown>): OrganizatorRow {
  const tests = parseJson<WorkerTestState[]>(r.workerTests).map((t) => ({
    ...t,
    startedAt: iso(t.startedAt),
    finishedAt: iso(t.finishedAt),
  }));
  return {
    id: r.id as number,
    login: r.login as string,
    surname: r.surname as string | null,
    name: r.name as string | null,
    patronymic: r.patronymic as string | null,
    email: r.email as string | null,
    isBlocked: r.isBlocked as boolean,
    workerId: r.workerId as number | null,
    positionId: r.positionId as number | null,
    positionName: r.positionName as string | null,
    classes: parseJson(r.classes),
    buildings: parseJson(r.buildings),
    workerTests: tests,
  };
}

const SORT = {
  surname: sql`lower(coalesce(${users.surname}, ''))`,
  login: sql`lower(${users.login})`,
  id: users.id,
} satisfies Record<StaffOrganizatorSortField, unknown>;

function conditions(schoolId: number, filter: StaffOrganizatorListRequest['filter']): SQL | undefined {
  const f = filter ?? {};
  const pattern = f.search ? containsPattern(f.search) : null;
  return and(
    eq(users.schoolId, schoolId),
    isOrganizator,
    pattern
      ? or(
          ilike(users.login, pattern),
          ilike(users.surname, pattern),
          ilike(users.name, pattern),
          sql`(coalesce(${users.surname}, '') || ' ' || coalesce(${users.name}, '')) ilike ${pattern}`,
        )
      : undefined,
    f.blocked !== undefined ? eq(users.isBlocked, f.blocked) : undefined,
    f.classId !== undefined
      ? sql`exists (select 1 from organizator_assignments a where a.user_id = ${USER_ID} and a.class_id = ${f.classId})`
      : undefined,
    f.buildingId !== undefined
      ? sql`exists (select 1 from organizator_assignments a left join classes c on c.id = a.class_id
          where a.user_id = ${USER_ID} and (a.building_id = ${f.buildingId} or c.building_id = ${f.buildingId}))`
      : undefined,
  );
}

function selectOrganizators(db: DbOrTx, schoolId: number) {
  return db
    .select(organizatorColumns(schoolId))
    .from(users)
    .leftJoin(workers, eq(workers.id, users.workerId))
    .leftJoin(workerPositions, eq(workerPositions.id, workers.positionId));
}

/** One page of the school's organizators plus the total: two statements. */
export async function listOrganizators(db: DbOrTx, schoolId: number, q: StaffOrganizatorListRequest) {
  const where = conditions(schoolId, q.filter);
  const [rows, [total]] = await Promise.all([
    selectOrganizators(db, schoolId)
      .where(where)
      .orderBy(...orderOf(q.sort ?? { field: 'surname', dir: 'asc' }, SORT, users.id))
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { items: rows.map(toOrganizator), total: total?.n ?? 0 };
}

/** Every organizator of the school, for the worker-test report. */
export async function allOrganizators(db: DbOrTx, schoolId: number): Promise<OrganizatorRow[]> {
  const rows = await selectOrganizators(db, schoolId)
    .where(conditions(schoolId, undefined))
    .orderBy(SORT.surname, users.name, users.id);
  return rows.map(toOrganizator);
}

export async function findOrganizator(
  db: DbOrTx,
  schoolId: number,
  id: number,
): Promise<OrganizatorRow | null> {
  const [row] = await selectOrganizators(db, schoolId)
    .where(and(eq(users.id, id)))
    .limit(1);
  return row ? toOrganizator(row) : null;
}

/** Who a user is, for the scope check: school, roles, worker. */
export async function userTarget(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: users.id,
      schoolId: users.schoolId,
      workerId: users.workerId,
      isBlocked: users.isBlocked,
      roles: sql<Role[]>`array(select r.role from user_roles r where r.user_id = ${USER_ID})`,
    })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}

export async function lockUser(db: DbOrTx, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

export async function positionExists(db: DbOrTx, id: number) {
  return (
    (await db.select({ id: workerPositions.id }).from(workerPositions).where(eq(workerPositions.id, id)))
      .length > 0
  );
}

export async function classSchools(db: DbOrTx, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: classes.id, schoolId: classes.schoolId })
    .from(classes)
    .where(inArray(classes.id, ids));
}

export async function buildingSchools(db: DbOrTx, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: buildings.id, schoolId: buildings.schoolId })
    .from(buildings)
    .where(inArray(buildings.id, ids));
}

export type UserInsert = typeof users.$inferInsert;
export async function insertUser(db: DbOrTx, values: UserInsert): Promise<number> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!.id;
}

export async function updateUser(db: DbOrTx, id: number, values: Partial<UserInsert>) {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id));
}

export async function addRole(db: DbOrTx, userId: number, role: Role) {
  await db.insert(userRoles).values({ userId, role }).onConflictDoNothing();
}

export type WorkerInsert = typeof workers.$inferInsert;
export async function insertWorker(db: DbOrTx, values: WorkerInsert): Promise<number> {
  const [row] = await db.insert(workers).values(values).returning({ id: workers.id });
  return row!.id;
}

export async function workerPosition(db: DbOrTx, id: number): Promise<number | null> {
  const [row] = await db.select({ positionId: workers.positionId }).from(workers).where(eq(workers.id, id));
  return row?.positionId ?? null;
}

export async function updateWorker(db: DbOrTx, id: number, values: Partial<WorkerInsert>) {
  await db.update(workers).set(values).where(eq(workers.id, id));
}

export async function assignmentsOf(db: DbOrTx, userId: number) {
  return db
    .select({ classId: organizatorAssignments.classId, buildingId: organizatorAssignments.buildingId })
    .from(organizatorAssignments)
    .where(eq(organizatorAssignments.userId, userId));
}

export async function replaceAssignments(
  db: DbOrTx,
  userId: number,
  classIds: number[],
  buildingIds: number[],
) {
  await db.delete(organizatorAssignments).where(eq(organizatorAssignments.userId, userId));
  const rows = [
    ...classIds.map((classId) => ({ userId, classId })),
    ...buildingIds.map((buildingId) => ({ userId, buildingId })),
  ];
  if (rows.length) await db.insert(organizatorAssignments).values(rows);
}
