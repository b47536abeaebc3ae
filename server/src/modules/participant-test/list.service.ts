import { eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { ParticipantTestListRequest } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { organizatorAssignments, participantTests } from '../../db/schema/index.js';
import { ugnikDiagnosticCondition } from '../../auth/ugnik.access.js';
import { listParticipantTests } from './list.repo.js';

/**
 * Which participant tests a caller may list, as one SQL condition: admin all but guests' attempts; else the
 * union of what each role gives — a coordinator their school, an organizator the classes and
 * buildings assigned to them, an ugnik the participants of its own diagnostics. Nothing otherwise.
 */
export function participantTestScope(auth: AuthContext): SQL | undefined {
  // Guests' attempts at open tests are nobody's registrations (docs/open-tests.md).
  if (hasRole(auth, 'admin')) return isNull(participantTests.guestUserId);
  const parts: SQL[] = [];
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null)
    parts.push(eq(participantTests.schoolId, auth.schoolId));
  if (hasRole(auth, 'organizator'))
    parts.push(sql`exists (select 1 from ${organizatorAssignments}
      where ${organizatorAssignments.userId} = ${auth.userId}
        and (${organizatorAssignments.classId} = ${participantTests.classId}
          or ${organizatorAssignments.buildingId} = ${participantTests.buildingId}))`);
  if (hasRole(auth, 'ugnik')) parts.push(ugnikDiagnosticCondition(auth));
  return parts.length ? or(...parts) : sql`false`;
}

export function listForStaff(ctx: AppContext, auth: AuthContext, request: ParticipantTestListRequest) {
  return listParticipantTests(ctx.db, participantTestScope(auth), request);
}
