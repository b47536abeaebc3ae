import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ScopeRule } from './access.js';
import type { AuthContext } from './types.js';
import type { DbOrTx } from '../db/client.js';
import { diagnostics, participantTests } from '../db/schema/index.js';
import { notFound } from '../lib/errors.js';

/*
 * The ugnik's scope (docs/design.md §1, "ugnik only its diagnostics, across schools"):
 * an ugnik sees and changes the diagnostics created by an ugnik — by itself, or, when its user is
 * bound to an oo (users.ooId), by any ugnik user bound to the same oo: that oo stands for the
 * supervision body, whose inspectors share their inspections. Diagnostics of coordinators and
 * admins are never in it, whoever's schools they cover; every school is.
 */

/** SQL condition on `diagnostics`: created by the caller's supervision body. */
export function ugnikDiagnosticCondition(auth: Pick<AuthContext, 'userId' | 'ooId'>): SQL {
  // Table names are explicit: drizzle leaves columns unqualified in selects without joins.
  const author =
    auth.ooId === null
      ? sql`"diagnostics"."created_by" = ${auth.userId}`
      : sql`("diagnostics"."created_by" = ${auth.userId} or "diagnostics"."created_by" in (
          select u.id from users u join user_roles r on r.user_id = u.id and r.role = 'ugnik'
          where u.oo_id = ${auth.ooId}))`;
  return sql`("diagnostics"."created_by_role" = 'ugnik' and ${author})`;
}

/** Whether a live diagnostic is the ugnik's; null when there is no such (live) diagnostic. */
export async function ugnikOwnsDiagnostic(
  db: DbOrTx,
  auth: AuthContext,
  id: number,
): Promise<boolean | null> {
  const [row] = await db
    .select({ mine: sql<boolean>`${ugnikDiagnosticCondition(auth)}` })
    .from(diagnostics)
    .where(and(eq(diagnostics.id, id), isNull(diagnostics.deletedAt)))
    .limit(1);
  return row ? Boolean(row.mine) : null;
}

/** Scope rule for calls naming an ugnik diagnostic: 404 unknown, 403 another's. */
export function ugnikDiagnosticInScope(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    const mine = await ugnikOwnsDiagnostic(req.server.ctx.db, auth, getId(req));
    if (mine === null) throw notFound('No such diagnostic');
    return mine;
  };
}

/** Scope rule for calls naming a participant test: it must belong to one of the ugnik's diagnostics. */
export function ugnikParticipantTestInScope(getId: (req: FastifyRequest) => number): ScopeRule {
  return async (req, auth) => {
    const [row] = await req.server.ctx.db
      .select({ mine: sql<boolean>`${ugnikDiagnosticCondition(auth)}` })
      .from(participantTests)
      .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
      .where(
        and(
          eq(participantTests.id, getId(req)),
          isNull(participantTests.deletedAt),
          isNull(diagnostics.deletedAt),
        ),
      )
      .limit(1);
    if (!row) throw notFound('No such participant test');
    return Boolean(row.mine);
  };
}
