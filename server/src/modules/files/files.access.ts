import { STAFF_ROLES } from '@attesta/contract';
import { isTaskInCurrentVariant } from '../../auth/content.access.js';
import { canReachParticipantTest } from '../../auth/shared.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { DbOrTx } from '../../db/client.js';
import * as repo from './files.repo.js';

/** Content owners: files shown with tasks, html texts and help pages. */
const CONTENT_OWNERS = ['task', 'html_text', 'help'];

async function canSeeContentFile(db: DbOrTx, auth: AuthContext, file: repo.FileMeta): Promise<boolean> {
  if (hasRole(auth, ...STAFF_ROLES)) return true;
  if (file.ownerId === null) return false;
  // A participant sees the pictures of the tasks in front of them, and nothing of other variants.
  if (file.ownerType === 'task') return isTaskInCurrentVariant(db, auth, file.ownerId);
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
  const owner = await repo.examWorkOwner(db, file.ownerId);
  if (!owner) return false;
  if (hasRole(auth, 'participant') && auth.participantTestId === owner.participantTestId) return true;
  if (hasRole(auth, 'expert') && (await repo.isAttachedToExpertAssignment(db, file.id, auth.userId)))
    return true;
  return canReachParticipantTest(db, auth, owner);
}

/** The one rule of who may see (download, list, read) a stored file. */
export async function canSeeFile(db: DbOrTx, auth: AuthContext, file: repo.FileMeta): Promise<boolean> {
  if (hasRole(auth, 'admin')) return true;
  if (CONTENT_OWNERS.includes(file.ownerType)) return canSeeContentFile(db, auth, file);
  if (file.ownerType === 'answer') return canSeeAnswerFile(db, auth, file);
  // feedback, general and anything else: only the person who uploaded it.
  return file.createdBy !== null && file.createdBy === auth.userId;
}
