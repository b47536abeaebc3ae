import { sql, type SQL } from 'drizzle-orm';
import { STAFF_ROLES } from '@attesta/contract';
import { isTaskInCurrentVariant } from '../../auth/content.access.js';
import { canReachParticipantTest, findExamWorkPlace } from '../../auth/shared.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import { ugnikDiagnosticCondition } from '../../auth/ugnik.access.js';
import type { DbOrTx } from '../../db/client.js';
import * as repo from './files.repo.js';

/** Content owners besides tasks: files shown with html texts and help pages. */
const PAGE_OWNERS = ['html_text', 'help'];

/**
 * Task files (pictures, attachments of a task's text and solution) go to whoever may see the task
 * (docs/design.md §1, "Task files"): admins (the content's authors) any task, drafts in no test
 * too; a participant the tasks of their current work's variant (409 `work_paused` while it is
 * paused); an expert the tasks of answers assigned to them; organizator, coordinator and ugnik the
 * tasks of the finished works whose variant they open (GET /api/examresults/variant/{id}: their
 * scope over the sitting), organizator and coordinator the tasks of the current variants of a
 * sitting in scope once its diagnostic has opened (a paper-only form's booklet), and a coordinator the tasks whose reference they read (a subject test
 * their school sat, once the diagnostic's window has closed or its results are published).
 */
async function canSeeTaskFile(db: DbOrTx, auth: AuthContext, taskId: number): Promise<boolean> {
  if (hasRole(auth, 'admin')) return true;
  if (hasRole(auth, 'participant') && (await isTaskInCurrentVariant(db, auth, taskId))) return true;
  if (hasRole(auth, 'expert') && (await repo.isTaskOfExpertAssignment(db, taskId, auth.userId))) return true;
  // The sittings each staff role reaches: school staff theirs, the ugnik its area's.
  const schoolSittings: SQL[] = [];
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null)
    schoolSittings.push(sql`pt.school_id = ${auth.schoolId}`);
  if (hasRole(auth, 'organizator'))
    schoolSittings.push(sql`exists (select 1 from organizator_assignments oa where oa.user_id = ${auth.userId}
      and (oa.class_id = pt.class_id or oa.building_id = pt.building_id))`);
  const sittings = hasRole(auth, 'ugnik')
    ? [...schoolSittings, ugnikDiagnosticCondition(auth)]
    : schoolSittings;
  if (sittings.length && (await repo.isTaskOfFinishedSitting(db, taskId, sql.join(sittings, sql` or `))))
    return true;
  // The booklet of a paper-only form: school staff key it from the moment the diagnostic opens, as
  // the paper call (GET /api/exam/test/participantTest/{id}/paper) shows its tasks then.
  if (
    schoolSittings.length &&
    (await repo.isTaskOfOpenedSittingVariant(db, taskId, sql.join(schoolSittings, sql` or `)))
  )
    return true;
  return (
    hasRole(auth, 'coordinator') &&
    auth.schoolId !== null &&
    repo.isTaskOfSchoolClosedTest(db, taskId, auth.schoolId)
  );
}

async function canSeePageFile(db: DbOrTx, auth: AuthContext, file: repo.FileMeta): Promise<boolean> {
  if (hasRole(auth, ...STAFF_ROLES)) return true;
  if (file.ownerId === null) return false;
  // A published html text is public (GET /api/htmltexts/{id} is anonymous), so are its images.
  if (file.ownerType === 'html_text')
    return (await repo.htmlTextState(db, file.ownerId))?.isPublished === true;
  return false;
}

/**
 * Answer files: the participant who owns the work, an expert assigned to grade the answer the file
 * is attached to, and staff who can reach its participant test.
 */
async function canSeeAnswerFile(db: DbOrTx, auth: AuthContext, file: repo.FileMeta): Promise<boolean> {
  if (file.ownerId === null) return false;
  const owner = await findExamWorkPlace(db, file.ownerId);
  if (!owner) return false;
  if (hasRole(auth, 'participant') && auth.participantTestId === owner.participantTestId) return true;
  if (hasRole(auth, 'expert') && (await repo.isAttachedToExpertAssignment(db, file.id, auth.userId)))
    return true;
  return canReachParticipantTest(db, auth, owner);
}

/** The one rule of who may see (download, list, read) a stored file. */
export async function canSeeFile(db: DbOrTx, auth: AuthContext, file: repo.FileMeta): Promise<boolean> {
  if (hasRole(auth, 'admin')) return true;
  if (file.ownerType === 'task') return file.ownerId !== null && canSeeTaskFile(db, auth, file.ownerId);
  if (PAGE_OWNERS.includes(file.ownerType)) return canSeePageFile(db, auth, file);
  if (file.ownerType === 'answer') return canSeeAnswerFile(db, auth, file);
  // feedback, general and anything else: only the person who uploaded it.
  return file.createdBy !== null && file.createdBy === auth.userId;
}
