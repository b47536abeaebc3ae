import type { Actor } from '../../auth/actor.js';
import type { PausePolicy } from '@attesta/contract';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './pause-policy.repo.js';

/*
 * The participant pause policy of a subject test (docs/design.md §3). Read fresh at every pause
 * (exam-test's pausePolicyOf), so a change applies to the next pause of a running work too.
 */

export type { Actor };

export async function pausePolicy(db: Db, subjectTestId: number): Promise<PausePolicy> {
  const policy = await repo.findPausePolicy(db, subjectTestId);
  if (!policy) throw notFound('No such subject test');
  return policy;
}

export async function savePausePolicy(db: Db, actor: Actor, subjectTestId: number, policy: PausePolicy) {
  return db.transaction(async (tx) => {
    const before = await repo.findPausePolicy(tx, subjectTestId);
    if (!before) throw notFound('No such subject test');
    const after = (await repo.updatePausePolicy(tx, subjectTestId, policy))!;
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'subject_test.pause_policy',
      entity: 'subject_test',
      entityId: subjectTestId,
      details: { before, after },
      ip: actor.ip,
    });
    return after;
  });
}
