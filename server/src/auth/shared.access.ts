import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';
import {
  diagnostics,
  examWorks,
  organizatorAssignments,
  participantTests,
  students,
  users,
} from '../db/schema/index.js';
import { notFound } from '../lib/errors.js';
import { normalizeActivationCode } from '../lib/tokens.js';
import type { ScopeRule } from './access.js';
import { hasRole, type AuthContext } from './types.js';

/** The fields of a participant test that decide who may act on it. */
export interface ParticipantTestPlace {
  schoolId: number | null;
  classId: number | null;
  buildingId: number | null;
}

/**
 * Whether the caller may act on a participant test: admin anywhere, a coordinator in their own
 * school, an organizator in the classes and buildings assigned to them. Several roles add up.
 */
export async function canReachParticipantTest(
  db: Db,
  auth: AuthContext,
  place: ParticipantTestPlace,
): Promise<boolean> {
  if (hasRole(auth, 'admin')) return true;
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null && auth.schoolId === place.schoolId) return true;
  if (hasRole(auth, 'organizator') && (place.classId !== null || place.buildingId !== null)) {
    const targets = [
      place.classId !== null ? eq(organizatorAssignments.classId, place.classId) : undefined,
      place.buildingId !== null ? eq(organizatorAssignments.buildingId, place.buildingId) : undefined,
    ].filter((c) => c !== undefined);
    const [hit] = await db
      .select({ id: organizatorAssignments.id })
      .from(organizatorAssignments)
      .where(and(eq(organizatorAssignments.userId, auth.userId), or(...targets)))
      .limit(1);
    if (hit) return true;
  }
  return false;
}

const placeColumns = {
  schoolId: participantTests.schoolId,
  classId: participantTests.classId,
  buildingId: participantTests.buildingId,
};

/**
 * The participant test of an exam work and where it takes place, for the staff scope rules. `live`
 * also asks that the work, its participant test and its diagnostic are not deleted.
 */
export async function findExamWorkPlace(
  db: DbOrTx,
  workId: number,
  { live = false }: { live?: boolean } = {},
): Promise<(ParticipantTestPlace & { participantTestId: number }) | null> {
  const [row] = await db
    .select({ participantTestId: examWorks.participantTestId, ...placeColumns })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .where(
      live
        ? and(
            eq(examWorks.id, workId),
            isNull(examWorks.deletedAt),
            isNull(participantTests.deletedAt),
            isNull(diagnostics.deletedAt),
          )
        : eq(examWorks.id, workId),
    )
    .limit(1);
  return row ?? null;
}

/** A live (not deleted, diagnostic not deleted) participant test by id or by activation code. */
export async function findParticipantTestPlace(
  db: Db,
  ref: { id: number } | { activationCode: string },
): Promise<ParticipantTestPlace | null> {
  const match =
    'id' in ref
      ? eq(participantTests.id, ref.id)
      : sql`upper(${participantTests.activationCode}) = ${normalizeActivationCode(ref.activationCode)}`;
  const [row] = await db
    .select(placeColumns)
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .where(and(match, isNull(participantTests.deletedAt), isNull(diagnostics.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Scope rule for calls naming a participant test by id. An unknown id answers 404 for everyone,
 * so staff cannot probe which ids exist outside their scope by the 403/404 difference.
 */
export function participantTestInScope(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    const place = await findParticipantTestPlace(req.server.ctx.db, { id: getId(req) });
    if (!place) throw notFound('No such participant test');
    return canReachParticipantTest(req.server.ctx.db, auth, place);
  };
}

/** Scope rule for calls naming a participant test by its activation code (as typed). */
export function activationCodeInScope(getCode: (req: FastifyRequest) => string): ScopeRule {
  return async (req, auth) => {
    const place = await findParticipantTestPlace(req.server.ctx.db, { activationCode: getCode(req) });
    if (!place) throw notFound('No participant test has this activation code');
    return canReachParticipantTest(req.server.ctx.db, auth, place);
  };
}

/**
 * Scope rule for calls naming a user by id or login: admin any; a coordinator or organizator only
 * users of their own school (a participant user belongs to their student's school).
 */
export function userInScope(getRef: (req: FastifyRequest) => number | string): ScopeRule {
  return async (req, auth) => {
    const ref = getRef(req);
    const [row] = await req.server.ctx.db
      .select({ schoolId: sql<number | null>`coalesce(${users.schoolId}, ${students.schoolId})` })
      .from(users)
      .leftJoin(students, eq(students.id, users.studentId))
      .where(typeof ref === 'number' ? eq(users.id, ref) : sql`lower(${users.login}) = lower(${ref})`)
      .limit(1);
    if (!row) throw notFound('No such user');
    if (hasRole(auth, 'admin')) return true;
    return (
      hasRole(auth, 'coordinator', 'organizator') && auth.schoolId !== null && auth.schoolId === row.schoolId
    );
  };
}
