import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from '../../auth/access.js';
import type { AuthContext } from '../../auth/types.js';

/**
 * Whose school data a call may touch (docs/design.md §1): a coordinator their own school, an
 * organizator the classes assigned to them plus every class of a building assigned to them.
 * The role comes from the route (`/api/coordinator/*` or `/api/organizator/*`), not from the
 * user's other roles, so one route never widens to another role's scope.
 */
export type StaffScope =
  { role: 'coordinator'; userId: number; schoolId: number } | { role: 'organizator'; userId: number };

export type StaffRole = StaffScope['role'];

export function scopeOf(role: StaffRole, auth: AuthContext): StaffScope {
  if (role === 'organizator') return { role, userId: auth.userId };
  // The route's scope rule refused a coordinator without a school already.
  return { role, userId: auth.userId, schoolId: auth.schoolId ?? -1 };
}

/** Route rule of every `/api/coordinator/*` call: a coordinator without a school has no scope. */
export const coordinatorHasSchool: ScopeRule = (_req: FastifyRequest, auth) => auth.schoolId !== null;

/*
 * An assignment row with a class is a class assignment (its building, if filled, only says where
 * the class sits); a row with a building and no class assigns the whole building.
 */

/** Ids of the classes an organizator conducts, as a subquery. */
export const assignedClassIds = (userId: number): SQL =>
  sql`(select a.class_id from organizator_assignments a where a.user_id = ${userId} and a.class_id is not null
       union select c.id from classes c join organizator_assignments a
         on a.building_id = c.building_id and a.class_id is null where a.user_id = ${userId})`;

/** Ids of the buildings assigned as a whole, as a subquery. */
export const assignedWholeBuildingIds = (userId: number): SQL =>
  sql`(select a.building_id from organizator_assignments a where a.user_id = ${userId} and a.class_id is null)`;

/** Ids of the buildings an organizator works in: whole buildings plus those of assigned classes. */
export const assignedBuildingIds = (userId: number): SQL =>
  sql`(select a.building_id from organizator_assignments a where a.user_id = ${userId} and a.building_id is not null
       union select c.building_id from classes c join organizator_assignments a on a.class_id = c.id
         where a.user_id = ${userId} and c.building_id is not null)`;

/** A row holding a class id (and the school of that class) is within scope. */
export function classInScope(scope: StaffScope, classId: AnyColumn | SQL, schoolId: AnyColumn | SQL): SQL {
  return scope.role === 'coordinator'
    ? sql`${schoolId} = ${scope.schoolId}`
    : sql`${classId} in ${assignedClassIds(scope.userId)}`;
}

export function buildingInScope(
  scope: StaffScope,
  buildingId: AnyColumn | SQL,
  schoolId: AnyColumn | SQL,
): SQL {
  return scope.role === 'coordinator'
    ? sql`${schoolId} = ${scope.schoolId}`
    : sql`${buildingId} in ${assignedBuildingIds(scope.userId)}`;
}

/**
 * A participant test is within scope: its school (coordinator); its class, or its room in a
 * building assigned as a whole (organizator).
 */
export function participantTestPlaceInScope(
  scope: StaffScope,
  place: { schoolId: AnyColumn | SQL; classId: AnyColumn | SQL; buildingId: AnyColumn | SQL },
): SQL {
  return scope.role === 'coordinator'
    ? sql`${place.schoolId} = ${scope.schoolId}`
    : sql`(${place.classId} in ${assignedClassIds(scope.userId)} or ${place.buildingId} in ${assignedWholeBuildingIds(scope.userId)})`;
}
