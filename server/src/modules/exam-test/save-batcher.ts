import type { Db } from '../../db/client.js';
import { saveAnswersFast, type FastSave } from './exam-work.repo.js';

type Applied = { seq: number; savedAt: Date } | null;

interface Pending {
  save: FastSave;
  resolve: (applied: Applied) => void;
  reject: (err: unknown) => void;
}

/** The most saves one statement carries. */
const MAX_BATCH = 500;
/**
 * The most save statements in flight at once. While they run, new saves gather into the next
 * one: under load the batches grow instead of the number of concurrent commits (classic group
 * commit), so the database does a few large commits rather than many small ones.
 */
const MAX_IN_FLIGHT = 2;

/**
 * Group commit for answer saves. Saves that arrive while fewer than MAX_IN_FLIGHT statements run
 * go to the database as ONE statement (saveAnswersFast) at the end of the current turn of the
 * event loop; saves that arrive while MAX_IN_FLIGHT statements run wait for one of them to end and
 * then go together: one round trip, one plan, one commit instead of one each — at 10:00 this is
 * what lets a single process keep up. A lone save waits for nothing but the end of the current
 * turn. Every save is still answered only after the statement carrying it has committed. Two saves
 * of one (work, task) never share a statement (ON CONFLICT may touch a row only once); the later
 * one rides in the next. A failed statement fails every save it carried (the caller retries each
 * on the fully checked path).
 */
export class SaveBatcher {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {}

  save(save: FastSave): Promise<Applied> {
    return new Promise<Applied>((resolve, reject) => {
      this.queue.push({ save, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush() {
    this.scheduled = false;
    while (this.queue.length && this.inFlight < this.maxInFlight) {
      const batch: Pending[] = [];
      const later: Pending[] = [];
      const keys = new Set<string>();
      for (const p of this.queue) {
        const key = `${p.save.workId}:${p.save.variantTaskId}`;
        if (batch.length < MAX_BATCH && !keys.has(key)) {
          keys.add(key);
          batch.push(p);
        } else later.push(p);
      }
      this.queue = later;
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async run(batch: Pending[]) {
    try {
      const applied = await saveAnswersFast(
        this.db,
        batch.map((p) => p.save),
      );
      batch.forEach((p, i) => p.resolve(applied[i] ?? null));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

const batchers = new WeakMap<Db, SaveBatcher>();

/** The batcher of a database (one per app). */
export function saveBatcherOf(db: Db): SaveBatcher {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new SaveBatcher(db)));
  return batcher;
}
