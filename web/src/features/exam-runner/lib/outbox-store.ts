/**
 * Where unacknowledged answers wait (docs/design.md §6): IndexedDB, so they survive a reload, a tab
 * crash or a closed laptop. One entry per (work, task) — the newest value; an older value of the
 * same task can never win on the server (its seq is lower), so keeping it would only delay the
 * newer one. `order` keeps the sending order: the order in which changes were made.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface OutboxEntry {
  examWorkId: number;
  variantTaskId: number;
  value: unknown;
  seq: number;
  /** Increases with every write, across tasks: the replay order. */
  order: number;
  queuedAt: number;
}

export interface OutboxStore {
  put(entry: OutboxEntry): Promise<void>;
  list(examWorkId: number): Promise<OutboxEntry[]>;
  /** Deletes the entry only if it still holds `seq` or an older one (a newer value stays). */
  removeUpTo(examWorkId: number, variantTaskId: number, seq: number): Promise<void>;
}

interface OutboxDb extends DBSchema {
  answers: {
    key: [number, number];
    value: OutboxEntry;
    indexes: { byWork: number };
  };
}

export const OUTBOX_DB_NAME = 'attesta-outbox';

export function openIdbOutboxStore(name = OUTBOX_DB_NAME): OutboxStore {
  let dbPromise: Promise<IDBPDatabase<OutboxDb>> | null = null;
  const db = () =>
    (dbPromise ??= openDB<OutboxDb>(name, 1, {
      upgrade(database) {
        const store = database.createObjectStore('answers', { keyPath: ['examWorkId', 'variantTaskId'] });
        store.createIndex('byWork', 'examWorkId');
      },
    }));

  return {
    async put(entry) {
      await (await db()).put('answers', entry);
    },
    async list(examWorkId) {
      const all = await (await db()).getAllFromIndex('answers', 'byWork', examWorkId);
      return all.sort((a, b) => a.order - b.order);
    },
    async removeUpTo(examWorkId, variantTaskId, seq) {
      const tx = (await db()).transaction('answers', 'readwrite');
      const current = await tx.store.get([examWorkId, variantTaskId]);
      if (current && current.seq <= seq) await tx.store.delete([examWorkId, variantTaskId]);
      await tx.done;
    },
  };
}

/** For tests and for browsers without IndexedDB (the runner then warns that a reload loses changes). */
export function memoryOutboxStore(): OutboxStore {
  const map = new Map<string, OutboxEntry>();
  const key = (w: number, t: number) => `${w}:${t}`;
  return {
    async put(entry) {
      map.set(key(entry.examWorkId, entry.variantTaskId), structuredClone(entry));
    },
    async list(examWorkId) {
      return [...map.values()].filter((e) => e.examWorkId === examWorkId).sort((a, b) => a.order - b.order);
    },
    async removeUpTo(examWorkId, variantTaskId, seq) {
      const current = map.get(key(examWorkId, variantTaskId));
      if (current && current.seq <= seq) map.delete(key(examWorkId, variantTaskId));
    },
  };
}
