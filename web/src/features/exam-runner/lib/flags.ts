/** «Отметить для проверки»: a participant's own bookmarks, kept in this browser per work. */
import { safeLocalStorage } from './device-id';

const key = (examWorkId: number) => `attesta.flags.${examWorkId}`;

export function loadFlags(examWorkId: number, storage = safeLocalStorage()): Set<number> {
  try {
    const raw = storage?.getItem(key(examWorkId));
    const list: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(list) ? list.filter((x): x is number => typeof x === 'number') : []);
  } catch {
    return new Set();
  }
}

export function saveFlags(examWorkId: number, flags: ReadonlySet<number>, storage = safeLocalStorage()) {
  try {
    storage?.setItem(key(examWorkId), JSON.stringify([...flags]));
  } catch {
    // Flags are a convenience: losing them never loses an answer.
  }
}
