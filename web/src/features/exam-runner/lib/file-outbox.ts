/**
 * Attachments that could not be sent (no connection) wait here like the other answers: in
 * IndexedDB, which keeps Blobs natively, so they survive a reload or a closed laptop; one entry per
 * (work, task) holding the files chosen while offline, in the order chosen. They are sent — the
 * answer first, then the files, as one saveanswers_with_files request — when the network returns.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface FileOutboxEntry {
  examWorkId: number;
  variantTaskId: number;
  files: File[];
  queuedAt: number;
}

export interface FileOutboxStore {
  put(entry: FileOutboxEntry): Promise<void>;
  list(examWorkId: number): Promise<FileOutboxEntry[]>;
  remove(examWorkId: number, variantTaskId: number): Promise<void>;
}

interface StoredFile {
  name: string;
  type: string;
  lastModified: number;
  blob: Blob;
}

interface FileOutboxDb extends DBSchema {
  uploads: {
    key: [number, number];
    value: { examWorkId: number; variantTaskId: number; files: StoredFile[]; queuedAt: number };
    indexes: { byWork: number };
  };
}

export const FILE_OUTBOX_DB_NAME = 'attesta-file-outbox';

const stored = (file: File): StoredFile => ({
  name: file.name,
  type: file.type,
  lastModified: file.lastModified,
  blob: file,
});
const revived = (s: StoredFile) => new File([s.blob], s.name, { type: s.type, lastModified: s.lastModified });

export function openIdbFileOutboxStore(name = FILE_OUTBOX_DB_NAME): FileOutboxStore {
  let dbPromise: Promise<IDBPDatabase<FileOutboxDb>> | null = null;
  const db = () =>
    (dbPromise ??= openDB<FileOutboxDb>(name, 1, {
      upgrade(database) {
        const store = database.createObjectStore('uploads', { keyPath: ['examWorkId', 'variantTaskId'] });
        store.createIndex('byWork', 'examWorkId');
      },
    }));
  return {
    async put(entry) {
      await (await db()).put('uploads', { ...entry, files: entry.files.map(stored) });
    },
    async list(examWorkId) {
      const rows = await (await db()).getAllFromIndex('uploads', 'byWork', examWorkId);
      return rows
        .sort((a, b) => a.queuedAt - b.queuedAt)
        .map((row) => ({ ...row, files: row.files.map(revived) }));
    },
    async remove(examWorkId, variantTaskId) {
      await (await db()).delete('uploads', [examWorkId, variantTaskId]);
    },
  };
}

/** For tests and for browsers without IndexedDB (files then wait only while the page is open). */
export function memoryFileOutboxStore(): FileOutboxStore {
  const map = new Map<string, FileOutboxEntry>();
  const key = (w: number, t: number) => `${w}:${t}`;
  return {
    async put(entry) {
      map.set(key(entry.examWorkId, entry.variantTaskId), { ...entry, files: [...entry.files] });
    },
    async list(examWorkId) {
      return [...map.values()]
        .filter((e) => e.examWorkId === examWorkId)
        .sort((a, b) => a.queuedAt - b.queuedAt);
    },
    async remove(examWorkId, variantTaskId) {
      map.delete(key(examWorkId, variantTaskId));
    },
  };
}

/**
 * IndexedDB when it works, memory otherwise. A store that cannot keep the files (a private window,
 * a full disk) still keeps them for this page, so nothing chosen is dropped before it is sent.
 */
const pageMemory = memoryFileOutboxStore();

export function fileOutboxStore(): FileOutboxStore {
  const memory = pageMemory;
  if (typeof indexedDB === 'undefined') return memory;
  const idb = openIdbFileOutboxStore();
  return {
    async put(entry) {
      await memory.put(entry);
      // Kept for a reload in the background: the page goes on with the copy in memory meanwhile.
      void idb.put(entry).catch(() => {});
    },
    async list(examWorkId) {
      const here = await memory.list(examWorkId);
      const kept = await idb.list(examWorkId).catch(() => []);
      const seen = new Set(here.map((e) => e.variantTaskId));
      return [...here, ...kept.filter((e) => !seen.has(e.variantTaskId))].sort(
        (a, b) => a.queuedAt - b.queuedAt,
      );
    },
    async remove(examWorkId, variantTaskId) {
      await memory.remove(examWorkId, variantTaskId);
      void idb.remove(examWorkId, variantTaskId).catch(() => {});
    },
  };
}
