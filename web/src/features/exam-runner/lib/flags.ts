/**
 * «Отметить для проверки»: the flags belong to the work on the server (they follow the participant
 * to another device). What this browser changed and the server has not confirmed yet (offline)
 * waits here per work, and is sent again when the connection returns; the last change wins.
 */
import { safeLocalStorage } from '../../../lib/device-id';

/** variantTaskId → flagged, not yet confirmed by the server. */
export type PendingFlags = Record<number, boolean>;

const key = (examWorkId: number) => `attesta.flags.pending.${examWorkId}`;

export function loadPendingFlags(examWorkId: number, storage = safeLocalStorage()): PendingFlags {
  try {
    const raw = storage?.getItem(key(examWorkId));
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(([id, v]) => /^\d+$/.test(id) && typeof v === 'boolean'),
    ) as PendingFlags;
  } catch {
    return {};
  }
}

export function savePendingFlags(examWorkId: number, pending: PendingFlags, storage = safeLocalStorage()) {
  try {
    if (Object.keys(pending).length) storage?.setItem(key(examWorkId), JSON.stringify(pending));
    else storage?.removeItem(key(examWorkId));
  } catch {
    // Flags are a convenience: losing them never loses an answer.
  }
}

/** The flags shown: the server's, with this browser's unconfirmed changes on top. */
export function flagsWith(confirmed: readonly number[], pending: PendingFlags): Set<number> {
  const flags = new Set(confirmed);
  for (const [id, flagged] of Object.entries(pending)) {
    if (flagged) flags.add(Number(id));
    else flags.delete(Number(id));
  }
  return flags;
}
