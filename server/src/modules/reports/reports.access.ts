import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import { ugnikDiagnosticCondition, ugnikOwnsDiagnostic } from '../../auth/ugnik.access.js';
import type { Db } from '../../db/client.js';
import {
  buildings,
  classes,
  diagnostics,
  participantTests,
  schools,
  specifications,
  subjectTests,
} from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import { coordinatorReaches, includesSchool, liveDiagnostic } from '../create-diagnostic/index.js';
import { assignedClassIds, assignedWholeBuildingIds } from '../school-data/index.js';

/*
 * Whose rows a report shows (docs/reports.md, "Filters and scope"; docs/design.md §1): an admin
 * every row; a coordinator the registrations of their own school (in any diagnostic); an ugnik the
 * registrations of the diagnostics of its supervision body (every school in them); an organizator —
 * on the protocol only — the participants seated in the classes and buildings assigned to them.
 * Several roles of one user add up, but only the roles the call lists count.
 *
 * Ids named in the query are checked first: an unknown id is 404 for everyone, a known one outside
 * every counted role's scope 403. Subject tests and specifications are content every staff role
 * reads (the catalog), so they are only checked to exist.
 */

export type ReportRole = 'admin' | 'coordinator' | 'ugnik' | 'organizator';

/** The roles of the screen reports (common, cons, control, detailed, specification). */
export const STAFF_REPORT_ROLES = ['admin', 'coordinator', 'ugnik'] as const satisfies readonly ReportRole[];
/** The protocol adds the organizator (their rooms). */
export const PROTOCOL_ROLES = [...STAFF_REPORT_ROLES, 'organizator'] as const satisfies readonly ReportRole[];

/** The ids a report query may name. */
export interface ReportIds {
  diagnosticId?: number;
  subjectTestId?: number;
  schoolId?: number;
  classId?: number;
  buildingId?: number;
  specId?: number;
}

const rolesOf = (auth: AuthContext, allowed: readonly ReportRole[]) =>
  allowed.filter((r) => hasRole(auth, r));

/** SQL over `participant_tests` (joined with `diagnostics`): the rows the caller's counted roles reach. */
export function reportRowScope(auth: AuthContext, allowed: readonly ReportRole[]): SQL | undefined {
  const roles = rolesOf(auth, allowed);
  if (roles.includes('admin')) return undefined;
  const parts: SQL[] = [];
  if (roles.includes('coordinator') && auth.schoolId !== null)
    parts.push(eq(participantTests.schoolId, auth.schoolId));
  if (roles.includes('ugnik')) parts.push(ugnikDiagnosticCondition(auth));
  if (roles.includes('organizator'))
    parts.push(
      sql`(${participantTests.classId} in ${assignedClassIds(auth.userId)} or ${participantTests.buildingId} in ${assignedWholeBuildingIds(auth.userId)})`,
    );
  return parts.length ? or(...parts) : sql`false`;
}

/** Whether some diagnostic of the ugnik's supervision body includes the school. */
async function ugnikReachesSchool(db: Db, auth: AuthContext, schoolId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .where(
      and(
        isNull(diagnostics.deletedAt),
        ugnikDiagnosticCondition(auth),
        sql`exists (select 1 from diagnostic_schools ds where ds.diagnostic_id = ${diagnostics.id} and ds.school_id = ${schoolId})`,
      ),
    )
    .limit(1);
  return !!row;
}

async function diagnosticInScope(db: Db, auth: AuthContext, roles: ReportRole[], id: number) {
  const d = await liveDiagnostic(db, { id });
  if (roles.includes('admin')) return true;
  if (roles.includes('coordinator') && (await coordinatorReaches(db, auth, d))) return true;
  if (roles.includes('ugnik') && (await ugnikOwnsDiagnostic(db, auth, id))) return true;
  if (roles.includes('organizator')) {
    if (await includesSchool(db, id, auth.schoolId)) return true;
    const [own] = await db
      .select({ id: participantTests.id })
      .from(participantTests)
      .where(and(eq(participantTests.diagnosticId, id), reportRowScope(auth, ['organizator'])))
      .limit(1);
    if (own) return true;
  }
  return false;
}

/** Whether the school (of a class or building, or named) is within one of the counted roles' scope. */
async function schoolInScope(
  db: Db,
  auth: AuthContext,
  roles: ReportRole[],
  schoolId: number,
  place?: { classId?: number; buildingId?: number },
): Promise<boolean> {
  if (roles.includes('admin')) return true;
  if (roles.includes('coordinator') && auth.schoolId === schoolId) return true;
  if (roles.includes('ugnik') && (await ugnikReachesSchool(db, auth, schoolId))) return true;
  if (roles.includes('organizator') && place) {
    if (place.classId !== undefined) {
      const [hit] = await db
        .select({ id: classes.id })
        .from(classes)
        .where(and(eq(classes.id, place.classId), sql`${classes.id} in ${assignedClassIds(auth.userId)}`));
      if (hit) return true;
    }
    if (place.buildingId !== undefined) {
      const [hit] = await db
        .select({ id: buildings.id })
        .from(buildings)
        .where(
          and(
            eq(buildings.id, place.buildingId),
            sql`${buildings.id} in ${assignedWholeBuildingIds(auth.userId)}`,
          ),
        );
      if (hit) return true;
    }
  }
  return false;
}

async function existing<T>(rows: Promise<T[]>, what: string): Promise<T> {
  const [row] = await rows;
  if (!row) throw notFound(`No such ${what}`);
  return row;
}

/**
 * Whether every id of the query is within the caller's scope: 404 for an unknown id, false (403)
 * for one no counted role reaches. A class and a building together must be of one school.
 */
export async function reportIdsReachable(
  db: Db,
  auth: AuthContext,
  allowed: readonly ReportRole[],
  ids: ReportIds,
): Promise<boolean> {
  const roles = rolesOf(auth, allowed);
  if (!roles.length) return false;
  let ok = true;
  if (ids.subjectTestId !== undefined)
    await existing(
      db.select({ id: subjectTests.id }).from(subjectTests).where(eq(subjectTests.id, ids.subjectTestId)),
      'subject test',
    );
  if (ids.specId !== undefined)
    await existing(
      db.select({ id: specifications.id }).from(specifications).where(eq(specifications.id, ids.specId)),
      'specification',
    );
  if (ids.diagnosticId !== undefined) ok &&= await diagnosticInScope(db, auth, roles, ids.diagnosticId);
  if (ids.schoolId !== undefined) {
    await existing(db.select({ id: schools.id }).from(schools).where(eq(schools.id, ids.schoolId)), 'school');
    ok &&= await schoolInScope(
      db,
      auth,
      roles.filter((r) => r !== 'organizator'),
      ids.schoolId,
    );
  }
  const cls =
    ids.classId !== undefined
      ? await existing(
          db.select({ schoolId: classes.schoolId }).from(classes).where(eq(classes.id, ids.classId)),
          'class',
        )
      : null;
  const building =
    ids.buildingId !== undefined
      ? await existing(
          db.select({ schoolId: buildings.schoolId }).from(buildings).where(eq(buildings.id, ids.buildingId)),
          'building',
        )
      : null;
  if (cls && building && cls.schoolId !== building.schoolId) return false;
  const school = cls?.schoolId ?? building?.schoolId;
  if (school !== undefined)
    ok &&= await schoolInScope(db, auth, roles, school, {
      ...(ids.classId !== undefined ? { classId: ids.classId } : {}),
      ...(ids.buildingId !== undefined ? { buildingId: ids.buildingId } : {}),
    });
  return ok;
}

/** The route rule of a report call: the ids of its query, for the roles the call lists. */
export function reportQueryInScope(allowed: readonly ReportRole[]): ScopeRule {
  return (req: FastifyRequest, auth) =>
    reportIdsReachable(req.server.ctx.db, auth, allowed, req.query as ReportIds);
}
