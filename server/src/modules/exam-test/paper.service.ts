/*
 * What staff need to key in the paper form of one sitting (docs/design.md §5): the participant, its
 * live work if any — a finished one is keyed in on its own form, an unfinished one is still open
 * online — and, for a participant who never opened the work online, the current variants of the
 * subject test and the tasks of the one printed on the booklet (never a key).
 */
import type { PaperSitting } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { cachedSubjectTest } from './content-cache.js';
import * as repo from './exam-work.repo.js';
import { paperVariant, type BadContentLog } from './variant.service.js';
import { fullName } from './work-guards.js';

/** The scope (staff reaching the participant test) is the route's rule. */
export async function paperSitting(
  ctx: AppContext,
  participantTestId: number,
  variantId: number | undefined,
  log?: BadContentLog,
): Promise<PaperSitting> {
  const pt = await repo.findParticipantTest(ctx.db, { id: participantTestId });
  if (!pt) throw notFound('No such participant test');
  const [person, test, live, variants] = await Promise.all([
    repo.findParticipantPerson(ctx.db, pt),
    cachedSubjectTest(ctx.db, pt.subjectTestId),
    repo.findLiveWork(ctx.db, pt.id),
    repo.currentVariantsOf(ctx.db, pt.subjectTestId),
  ]);
  let variant: PaperSitting['variant'] = null;
  if (variantId !== undefined) {
    if (!variants.some((v) => v.id === variantId))
      throw badRequest('validation_failed', 'Not a current variant of the subject test', [
        { path: 'query.variantId', message: 'not a current variant of this test' },
      ]);
    // The tasks of a test never leave before its sitting opens.
    if (new Date() < pt.startsAt)
      throw conflict('window_not_open', 'The test has not started yet: there is no paper form to key in');
    variant = await paperVariant(ctx.db, variantId, log);
  }
  return {
    participantTestId: pt.id,
    registrationCode: pt.registrationCode,
    participantName: fullName(person.person) ?? '',
    className: person.className,
    subjectTestName: test?.name ?? '',
    work: live ? { examWorkId: live.id, finished: live.finishedAt !== null } : null,
    variants,
    variant,
  };
}
