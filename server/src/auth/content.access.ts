import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { examWorks, participantTests, tasks, userRoles, users, variantTasks } from '../db/schema/index.js';
import { isPaused, tasksPaused } from '../lib/work-clock.js';
import { hasRole, type AuthContext } from './types.js';

/**
 * Who may read test content (KIM) beyond a participant's own variant: admins (authors) and experts
 * (graders need tasks and keys). Other staff get content only through their own calls' rules.
 */
export const isContentStaff = (auth: AuthContext) => hasRole(auth, 'admin', 'expert');

/**
 * The variant of the caller's live exam work: a participant session is bound to one participant
 * test, and that test has at most one exam work that is not deleted. Null when there is none, so
 * a participant sees no content before starting the work (examwork/new picks the variant).
 */
export async function currentVariantId(db: DbOrTx, auth: AuthContext): Promise<number | null> {
  if (!hasRole(auth, 'participant') || auth.participantTestId === null) return null;
  return variantOfParticipantTest(db, auth.participantTestId);
}

/**
 * The variant of a participant test's live (not deleted) exam work, or null. While that work is
 * paused its content is not readable: 409 `work_paused` (tasks, containers, the printable variant).
 */
async function variantOfParticipantTest(db: DbOrTx, participantTestId: number): Promise<number | null> {
  const [row] = await db
    .select({
      variantId: examWorks.variantId,
      pausedAt: examWorks.pausedAt,
      pausedUntil: examWorks.pausedUntil,
    })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        eq(examWorks.participantTestId, participantTestId),
        isNull(examWorks.deletedAt),
        isNull(participantTests.deletedAt),
      ),
    )
    .limit(1);
  if (row && isPaused(row, new Date())) throw tasksPaused();
  return row?.variantId ?? null;
}

/** Whether a task belongs to the caller's current variant. */
export async function isTaskInCurrentVariant(
  db: DbOrTx,
  auth: AuthContext,
  taskId: number,
): Promise<boolean> {
  const variantId = await currentVariantId(db, auth);
  if (variantId === null) return false;
  const [hit] = await db
    .select({ id: variantTasks.id })
    .from(variantTasks)
    .where(and(eq(variantTasks.variantId, variantId), eq(variantTasks.taskId, taskId)))
    .limit(1);
  return !!hit;
}

/** Whether an html container renders a task of the caller's current variant. */
export async function isContainerInCurrentVariant(
  db: DbOrTx,
  auth: AuthContext,
  containerId: number,
): Promise<boolean> {
  return isContainerInVariant(db, await currentVariantId(db, auth), containerId);
}

/**
 * Whether an html container renders a task of the variant a participant test is working on now:
 * the check behind a signed container link, which names the participant test instead of a session.
 */
export async function isContainerInParticipantTestVariant(
  db: DbOrTx,
  participantTestId: number,
  containerId: number,
): Promise<boolean> {
  return isContainerInVariant(db, await variantOfParticipantTest(db, participantTestId), containerId);
}

async function isContainerInVariant(db: DbOrTx, variantId: number | null, containerId: number) {
  if (variantId === null) return false;
  const [hit] = await db
    .select({ id: variantTasks.id })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(and(eq(variantTasks.variantId, variantId), eq(tasks.htmlContainerId, containerId)))
    .limit(1);
  return !!hit;
}

/** Whether a user (by id, for a signed link made for them) still reads content as admin or expert. */
export async function isContentStaffUser(db: DbOrTx, userId: number): Promise<boolean> {
  const [hit] = await db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(
      and(
        eq(userRoles.userId, userId),
        inArray(userRoles.role, ['admin', 'expert']),
        eq(users.isBlocked, false),
      ),
    )
    .limit(1);
  return !!hit;
}
