import type { Db } from '../../db/client.js';
import { Coalescer } from '../../lib/coalescer.js';
import { metrics } from '../../lib/metrics.js';
import { saveAnswersFast, type FastSave } from './exam-work.repo.js';

type Applied = { seq: number; savedAt: Date } | null;

/** The most saves one statement carries. */
const MAX_BATCH = 500;
/**
 * The most save statements in flight at once. While it runs, new saves gather into the next one:
 * under load the batches grow instead of the number of concurrent commits (classic group commit),
 * so the database does a few large commits rather than many small ones. One, not two: with two
 * the batches were half as large, and the server's cost per save (its part of each statement) made
 * the HTTP path slower than the database's single-row ceiling on some runs ((b)/(a) 0.92–1.10 with
 * two, 1.15–1.21 with one in `BENCH_ONLY=saves` runs); a save waits at most for one statement.
 */
const MAX_IN_FLIGHT = 1;

/**
 * Group commit for answer saves (lib/coalescer): saves that arrive together go to the database as
 * ONE statement (saveAnswersFast) — at 10:00 this is what lets a single process keep up. Every
 * save is still answered only after the statement carrying it has committed. Two saves of one
 * (work, task) never share a statement (ON CONFLICT may touch a row only once); the later one
 * rides in the next. A failed statement fails every save it carried (the caller retries each on
 * the fully checked path).
 */
export class SaveBatcher {
  private readonly coalescer: Coalescer<FastSave, Applied>;

  constructor(db: Db, maxInFlight = MAX_IN_FLIGHT) {
    this.coalescer = new Coalescer(
      async (saves) => {
        const began = performance.now();
        try {
          return await saveAnswersFast(db, saves);
        } finally {
          metrics.saveBatch(saves.length, (performance.now() - began) / 1000);
        }
      },
      {
        maxBatch: MAX_BATCH,
        maxInFlight,
        conflictKey: (s) => `${s.workId}:${s.variantTaskId}`,
      },
    );
  }

  save(save: FastSave): Promise<Applied> {
    return this.coalescer.call(save);
  }
}

const batchers = new WeakMap<Db, SaveBatcher>();

/** The batcher of a database (one per app). */
export function saveBatcherOf(db: Db): SaveBatcher {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new SaveBatcher(db)));
  return batcher;
}
