import { eq } from 'drizzle-orm';
import type { PausePolicy } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { subjectTests } from '../../db/schema/index.js';

const columns = {
  allowed: subjectTests.participantPauseAllowed,
  maxCount: subjectTests.participantPauseMaxCount,
  maxMinutes: subjectTests.participantPauseMaxMinutes,
};

export async function findPausePolicy(db: DbOrTx, subjectTestId: number): Promise<PausePolicy | null> {
  const [row] = await db.select(columns).from(subjectTests).where(eq(subjectTests.id, subjectTestId));
  return row ?? null;
}

export async function updatePausePolicy(db: DbOrTx, subjectTestId: number, policy: PausePolicy) {
  const [row] = await db
    .update(subjectTests)
    .set({
      participantPauseAllowed: policy.allowed,
      participantPauseMaxCount: policy.maxCount,
      participantPauseMaxMinutes: policy.maxMinutes,
    })
    .where(eq(subjectTests.id, subjectTestId))
    .returning(columns);
  return row ?? null;
}
