import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { diagnostics, examWorks, participantTests } from '../../db/schema/index.js';

/** A live participant test with its diagnostic window and its live work (if started). */
export async function findParticipantTestWithWork(db: Db, participantTestId: number) {
  const [row] = await db
    .select({
      windowEndsAt: diagnostics.endsAt,
      work: {
        id: examWorks.id,
        status: examWorks.status,
        finishedAt: examWorks.finishedAt,
        startedAt: examWorks.startedAt,
        timeLimitSeconds: examWorks.timeLimitSeconds,
        extraSeconds: examWorks.extraSeconds,
        pausedSeconds: examWorks.pausedSeconds,
        pausedAt: examWorks.pausedAt,
        windowEndsAt: examWorks.windowEndsAt,
      },
    })
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .leftJoin(
      examWorks,
      and(eq(examWorks.participantTestId, participantTests.id), isNull(examWorks.deletedAt)),
    )
    .where(
      and(
        eq(participantTests.id, participantTestId),
        isNull(participantTests.deletedAt),
        isNull(diagnostics.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}
