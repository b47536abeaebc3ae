import { and, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../../auth/types.js';
import { hasRole } from '../../auth/types.js';
import type { DbOrTx } from '../../db/client.js';
import { diagnosticSchools, diagnostics } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';

/*
 * Who reaches a diagnostic as a whole (docs/design.md §1): admin every one; a coordinator those that
 * include their school or that they created. Rows inside (participants) are narrowed further by
 * the callers: a coordinator only ever gets their own school's rows.
 */

export type DiagnosticRow = typeof diagnostics.$inferSelect;

/** A live (not deleted) diagnostic, or 404. */
export async function liveDiagnostic(
  db: DbOrTx,
  ref: { id: number } | { code: string },
): Promise<DiagnosticRow> {
  const [row] = await db
    .select()
    .from(diagnostics)
    .where(
      and(
        'id' in ref ? eq(diagnostics.id, ref.id) : eq(diagnostics.code, ref.code),
        isNull(diagnostics.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound('No such diagnostic');
  return row;
}

/** SQL: the diagnostic (column or expression holding its id) includes the school. */
export const diagnosticIncludesSchool = (diagnosticId: SQL | AnyColumn, schoolId: number): SQL =>
  sql`exists (select 1 from diagnostic_schools ds where ds.diagnostic_id = ${diagnosticId} and ds.school_id = ${schoolId})`;

export async function includesSchool(
  db: DbOrTx,
  diagnosticId: number,
  schoolId: number | null,
): Promise<boolean> {
  if (schoolId === null) return false;
  const rows = await db
    .select({ schoolId: diagnosticSchools.schoolId })
    .from(diagnosticSchools)
    .where(and(eq(diagnosticSchools.diagnosticId, diagnosticId), eq(diagnosticSchools.schoolId, schoolId)))
    .limit(1);
  return rows.length > 0;
}

/** Whether a coordinator reaches a diagnostic: it includes their school, or they created it. */
export async function coordinatorReaches(
  db: DbOrTx,
  auth: AuthContext,
  diagnostic: DiagnosticRow,
): Promise<boolean> {
  if (!hasRole(auth, 'coordinator')) return false;
  if (diagnostic.createdBy === auth.userId) return true;
  return includesSchool(db, diagnostic.id, auth.schoolId);
}
