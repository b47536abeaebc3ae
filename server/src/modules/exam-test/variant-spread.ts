import type { DbOrTx } from '../../db/client.js';
import { Memo } from '../../lib/memo.js';
import { spreadGroupOf, variantUseInRoom } from './exam-work.repo.js';

/*
 * Variant assignment spreads a room's participants over the variants: each start takes the variant
 * least used by the live works of its room (class, else building, else school) in this diagnostic,
 * ties to the lowest number. Counting those works on every start costs more the fuller the room
 * (thousands of starts in a minute at 10:00), so each process counts a room once, then keeps the
 * counts itself, adding its own starts as it hands out variants. The counts are read again after
 * a minute, which takes in other instances' starts and deleted works: several instances each
 * spread their own share evenly, so the room stays even within a work or two per instance.
 */
interface RoomUse {
  /** Variant ids, lowest number first, with their use. */
  variants: { id: number; used: number }[];
}

const RECOUNT_MS = 60_000;
const rooms = new Memo<string, RoomUse>(RECOUNT_MS, 20_000);

type SpreadTarget = Parameters<typeof variantUseInRoom>[1];

/** The variant for a new work of this participant test, counted as used; null without variants. */
export async function pickVariant(db: DbOrTx, pt: SpreadTarget): Promise<number | null> {
  const room = spreadGroupOf(pt);
  const key = `${pt.diagnosticId}:${pt.subjectTestId}:${room.by}:${room.id}`;
  const use = await rooms.get(db, key, async () => ({ variants: await variantUseInRoom(db, pt) }));
  let best: { id: number; used: number } | null = null;
  for (const v of use.variants) if (!best || v.used < best.used) best = v;
  if (!best) {
    rooms.forget(db, key); // no variants yet: ask again next time
    return null;
  }
  best.used += 1; // synchronous after the await: concurrent starts in this process never collide
  return best.id;
}

/**
 * Forgets the counted rooms of a database: after content authoring superseded or added variants,
 * the next start counts again and offers the current variants only.
 */
export function forgetVariantUse(db: DbOrTx): void {
  rooms.forget(db);
}
