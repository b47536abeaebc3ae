import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { areas, users } from '../../db/schema/index.js';
import { outer } from '../../db/fragments.js';

/** Queries of the areas module: the areas, an ugnik's area and the school diagnostics of an area. */

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export async function listAreas(db: DbOrTx) {
  return db
    .select({
      id: areas.id,
      name: areas.name,
      schoolCount: sql<number>`(select count(*)::int from schools s where s.area_id = ${outer('areas', 'id')})`,
    })
    .from(areas)
    .orderBy(asc(areas.name));
}

export async function areaById(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: areas.id, name: areas.name }).from(areas).where(eq(areas.id, id));
  return row ?? null;
}

export async function areaByName(db: DbOrTx, name: string) {
  const [row] = await db
    .select({ id: areas.id })
    .from(areas)
    .where(sql`lower(${areas.name}) = lower(${name})`);
  return row ?? null;
}

export async function insertArea(db: DbOrTx, name: string) {
  const [row] = await db.insert(areas).values({ name }).returning({ id: areas.id, name: areas.name });
  return row!;
}

export async function areaOfUser(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ id: areas.id, name: areas.name })
    .from(users)
    .innerJoin(areas, eq(areas.id, users.areaId))
    .where(eq(users.id, userId));
  return row ?? null;
}

export interface AreaDiagnosticRow {
  diagnosticId: number;
  code: string;
  name: string;
  kind: string;
  startsAt: string | Date;
  endsAt: string | Date;
  schoolId: number;
  schoolName: string;
  schoolAreaId: number | null;
  participantCount: number | string;
  finishedCount: number | string;
}

/**
 * Diagnostics held in schools (not guests' open tests), per school they cover: of the schools in
 * `areaId`, or, with `diagnosticId`, every school of that one diagnostic (the caller checks the area).
 */
export async function areaDiagnosticRows(
  db: DbOrTx,
  where: { areaId: number; search?: string } | { diagnosticId: number },
): Promise<AreaDiagnosticRow[]> {
  const filter =
    'diagnosticId' in where
      ? sql`d.id = ${where.diagnosticId}`
      : sql`s.area_id = ${where.areaId}${
          where.search
            ? sql` and (d.name ilike ${`%${where.search}%`} or d.code ilike ${`%${where.search}%`}
                 or s.name ilike ${`%${where.search}%`})`
            : sql``
        }`;
  return rowsOf<AreaDiagnosticRow>(
    await db.execute(sql`
      select d.id as "diagnosticId", d.code, d.name, d.kind, d.starts_at as "startsAt", d.ends_at as "endsAt",
        s.id as "schoolId", coalesce(s.short_name, s.name) as "schoolName", s.area_id as "schoolAreaId",
        (select count(*) from participant_tests pt
          where pt.diagnostic_id = d.id and pt.school_id = s.id and pt.deleted_at is null) as "participantCount",
        (select count(*) from participant_tests pt
          where pt.diagnostic_id = d.id and pt.school_id = s.id and pt.deleted_at is null
            and exists (select 1 from exam_works w where w.participant_test_id = pt.id
              and w.deleted_at is null and w.finished_at is not null)) as "finishedCount"
      from diagnostics d
      join diagnostic_schools ds on ds.diagnostic_id = d.id
      join schools s on s.id = ds.school_id
      where d.deleted_at is null and d.kind <> 'open' and ${filter}
      order by d.starts_at desc, d.id desc, "schoolName"
      limit 1000`),
  );
}

export async function diagnosticExists(db: DbOrTx, id: number): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`select 1 from diagnostics where id = ${id} and deleted_at is null`),
  );
  return rows.length > 0;
}
