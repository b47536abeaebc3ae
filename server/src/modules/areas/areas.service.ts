import type { Actor } from '../../auth/actor.js';
import type {
  Area,
  AreaCreateBody,
  AreaDiagnosticStatus,
  AreaList,
  UgnikAreaDiagnosticDetail,
  UgnikAreaDiagnostics,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import * as repo from './areas.repo.js';

/*
 * Areas of the region (docs/ugnik.md). The admin keeps the list; a school lies in an area; an ugnik
 * user bound to an area sees, read-only, the school diagnostics (whoever created them; guests'
 * open tests are not school diagnostics) of the schools there: a row per diagnostic and school, with its participants and
 * finished works. Another area's diagnostic answers 403.
 */

export async function listAreas(db: Db): Promise<AreaList> {
  const rows = await repo.listAreas(db);
  return { items: rows.map((r) => ({ ...r, schoolCount: Number(r.schoolCount) })) };
}

export async function createArea(db: Db, actor: Actor, body: AreaCreateBody): Promise<Area> {
  return db.transaction(async (tx) => {
    if (await repo.areaByName(tx, body.name)) throw conflict('area_name_taken', 'Another area has this name');
    const row = await repo.insertArea(tx, body.name);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'area.create',
      entity: 'area',
      entityId: row.id,
      ip: actor.ip,
    });
    return { ...row, schoolCount: 0 };
  });
}

/** The ugnik's own area with its school count; null when it is bound to none. */
export async function areaOfUgnik(db: Db, auth: AuthContext): Promise<{ area: Area | null }> {
  const own = await repo.areaOfUser(db, auth.userId);
  if (!own) return { area: null };
  const { items } = await listAreas(db);
  return { area: items.find((a) => a.id === own.id) ?? { ...own, schoolCount: 0 } };
}

/** Whether an area exists (for the admin's school and user forms). */
export async function areaExists(db: DbOrTx, id: number): Promise<boolean> {
  return (await repo.areaById(db, id)) !== null;
}

function statusOf(startsAt: Date, endsAt: Date, now: Date): AreaDiagnosticStatus {
  if (now < startsAt) return 'planned';
  return now > endsAt ? 'finished' : 'active';
}

function common(r: repo.AreaDiagnosticRow, now: Date) {
  const startsAt = new Date(r.startsAt);
  const endsAt = new Date(r.endsAt);
  return {
    diagnosticId: Number(r.diagnosticId),
    code: r.code,
    name: r.name,
    kind: r.kind,
    status: statusOf(startsAt, endsAt, now),
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
  };
}

const counts = (r: repo.AreaDiagnosticRow) => ({
  schoolId: Number(r.schoolId),
  schoolName: r.schoolName,
  participantCount: Number(r.participantCount),
  finishedCount: Number(r.finishedCount),
});

export async function areaDiagnostics(
  db: Db,
  auth: AuthContext,
  search: string | undefined,
): Promise<UgnikAreaDiagnostics> {
  const area = await repo.areaOfUser(db, auth.userId);
  if (!area) return { area: null, items: [] };
  const rows = await repo.areaDiagnosticRows(db, { areaId: area.id, ...(search ? { search } : {}) });
  const now = new Date();
  return { area, items: rows.map((r) => ({ ...common(r, now), ...counts(r) })) };
}

export async function areaDiagnostic(
  db: Db,
  auth: AuthContext,
  id: number,
): Promise<UgnikAreaDiagnosticDetail> {
  if (!(await repo.diagnosticExists(db, id))) throw notFound('No such diagnostic');
  const area = await repo.areaOfUser(db, auth.userId);
  const rows = await repo.areaDiagnosticRows(db, { diagnosticId: id });
  const mine = area ? rows.filter((r) => r.schoolAreaId !== null && Number(r.schoolAreaId) === area.id) : [];
  if (mine.length === 0)
    throw forbidden('This diagnostic is not a school diagnostic of your area', 'out_of_area');
  return { ...common(mine[0]!, new Date()), schools: mine.map(counts) };
}
