/* Classes, buildings and parallels in the caller's reach. */
import { and, count, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type {
  StaffBuilding,
  StaffBuildingSortField,
  StaffClass,
  StaffClassSortField,
  StaffParallel,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { buildings, classes, parallels, students } from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf } from '../../lib/list.js';
import { buildingInScope, classInScope, type StaffScope } from './school-data.access.js';

import { type Page, type Sort, BUILDING_ID, CLASS_ID } from './repo-support.js';
import { classOrder } from '../../db/fragments.js';

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

export const liveStudentsOfClass = (classId: SQL) =>
  sql<number>`(select count(*)::int from students s where s.class_id = ${classId} and s.deleted_at is null)`;

export const BUILDING_SORT = { name: buildings.name, id: buildings.id } satisfies Record<
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

export const CLASS_SORT = {
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
