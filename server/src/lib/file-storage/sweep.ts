import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { files } from '../../db/schema/index.js';
import type { BlobStore } from './types.js';

/*
 * Blobs no files row names (docs/operations.md "Files"). A blob is written before the transaction
 * that inserts its row; when that transaction rolls back, `staged` deletes the blob again, and when
 * rows are deleted `release` deletes theirs after the commit. Neither runs when the process dies in
 * between, or when the object store does not answer the delete: the blob stays, named by no row.
 * The sweep lists each configured store's blobs older than a grace period (far longer than any
 * upload's transaction), asks the files table which of their keys a row names — a row deleted or
 * not, in any state — and deletes the others. A blob younger than the grace period is never
 * touched, so an upload whose row is not committed yet keeps its bytes.
 */

/** Keys checked against the files table at once. */
const KEYS_AT_ONCE = 500;

export interface SweepOutcome {
  /** Blobs older than the grace period that were looked at. */
  checked: number;
  /** Those no row named, deleted. */
  deleted: number;
  /** Half-written uploads removed from a staging folder. */
  staging: number;
}

/**
 * Deletes the blobs of every store a FileStorage reads (where new files go, and where older ones are
 * still read from) that were written before `before` and that no files row names.
 */
export async function sweepOrphanBlobs(
  db: DbOrTx,
  storage: { blobs: BlobStore | null; readers: readonly BlobStore[] },
  before: Date,
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { checked: 0, deleted: 0, staging: 0 };
  const stores = [storage.blobs, ...storage.readers].filter((s) => s !== null);
  for (const store of stores) {
    let batch: string[] = [];
    const settle = async () => {
      const named = new Set(
        (await db.select({ key: files.storageKey }).from(files).where(inArray(files.storageKey, batch))).map(
          (r) => r.key,
        ),
      );
      const orphans = batch.filter((key) => !named.has(key));
      for (const key of orphans) await store.delete(key);
      outcome.checked += batch.length;
      outcome.deleted += orphans.length;
      batch = [];
    };
    for await (const key of store.list(before)) {
      batch.push(key);
      if (batch.length >= KEYS_AT_ONCE) await settle();
    }
    if (batch.length) await settle();
    outcome.staging += (await store.clearStaging?.(before)) ?? 0;
  }
  return outcome;
}
