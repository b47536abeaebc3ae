/**
 * The local copy of a sitting (docs/design.md §5): the last known participant test and work state,
 * the clock offset noted when the server last answered, and the variant — kept in this browser's
 * IndexedDB as soon as the runner has them, so that a reload while offline still opens the runner
 * (with the answers waiting in the outbox), on the first visit of a browser as after any other.
 * The server's state replaces it as soon as it can be fetched.
 *
 * The answers: the work's answers as the server last gave them, and every save it acknowledged since
 * (what it has not acknowledged waits in the outbox, which the runner lays over them).
 *
 * The clock: the copy keeps the absolute deadline and `offsetMs` (the server's clock minus this
 * browser's when the answer arrived); a restored work's time left is computed from them and the
 * local clock at restore time, never from a stored «seconds left».
 *
 * Log off and a finished work forget it (a classroom PC is shared, the next participant must not
 * find the previous one's test or tasks here). The answers waiting in the outbox are never forgotten.
 */
import type {
  CurrentParticipantTest,
  ExamWorkState,
  ParticipantVariant,
  SavedAnswer,
} from '@attesta/contract';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface StoredSitting {
  test: CurrentParticipantTest;
  /** Server time minus local time when the server's answer arrived, ms. */
  offsetMs: number;
}

interface CopyDb extends DBSchema {
  copy: {
    key: 'sitting' | 'variant';
    value: StoredSitting | ParticipantVariant;
  };
}

/** Where the copy lives: IndexedDB in a browser, memory where there is none (tests, old browsers). */
export interface RunnerCopyStore {
  get(key: 'sitting'): Promise<StoredSitting | undefined>;
  get(key: 'variant'): Promise<ParticipantVariant | undefined>;
  set(key: 'sitting', value: StoredSitting): Promise<void>;
  set(key: 'variant', value: ParticipantVariant): Promise<void>;
  clear(): Promise<void>;
}

export const RUNNER_COPY_DB_NAME = 'attesta-runner-copy';

export function openIdbRunnerCopy(name = RUNNER_COPY_DB_NAME): RunnerCopyStore {
  let dbPromise: Promise<IDBPDatabase<CopyDb>> | null = null;
  const db = () =>
    (dbPromise ??= openDB<CopyDb>(name, 1, {
      upgrade(database) {
        database.createObjectStore('copy');
      },
    }));
  return {
    get: (async (key: 'sitting' | 'variant') => (await db()).get('copy', key)) as RunnerCopyStore['get'],
    set: (async (key: 'sitting' | 'variant', value: StoredSitting | ParticipantVariant) => {
      await (await db()).put('copy', value, key);
    }) as RunnerCopyStore['set'],
    async clear() {
      await (await db()).clear('copy');
    },
  };
}

export function memoryRunnerCopy(): RunnerCopyStore {
  const map = new Map<string, unknown>();
  return {
    get: (async (key: string) => structuredClone(map.get(key))) as RunnerCopyStore['get'],
    set: (async (key: string, value: unknown) => {
      map.set(key, structuredClone(value));
    }) as RunnerCopyStore['set'],
    async clear() {
      map.clear();
    },
  };
}

let defaultStore: RunnerCopyStore | null = null;
function store(): RunnerCopyStore {
  defaultStore ??= typeof indexedDB !== 'undefined' ? openIdbRunnerCopy() : memoryRunnerCopy();
  return defaultStore;
}

/** Failures of the copy never reach the online path: it works without it. */
async function quietly<T>(run: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await run();
  } catch {
    return fallback;
  }
}

/** Changes of the copy, one after another: two acknowledged saves must not undo each other. */
const queues = new WeakMap<RunnerCopyStore, Promise<void>>();
function inOrder(copy: RunnerCopyStore, run: () => Promise<void>): Promise<void> {
  const queued = (queues.get(copy) ?? Promise.resolve()).then(() => quietly(run, undefined));
  queues.set(copy, queued);
  return queued;
}

function updateSitting(
  copy: RunnerCopyStore,
  change: (stored: StoredSitting | undefined) => StoredSitting | null,
): Promise<void> {
  return inOrder(copy, async () => {
    const next = change(await copy.get('sitting'));
    if (next) await copy.set('sitting', next);
  });
}

const offsetOf = (serverTime: string, receivedAtMs: number) => Date.parse(serverTime) - receivedAtMs;

/**
 * The server's answer, received at `receivedAtMs` on this browser's clock. A work state without
 * answers (the participant test's summary) keeps the answers the copy has of the same work.
 */
export function saveRunnerSnapshot(
  test: CurrentParticipantTest,
  receivedAtMs = Date.now(),
  copy = store(),
): Promise<void> {
  const offsetMs = offsetOf(test.examWork?.serverTime ?? test.serverTime, receivedAtMs);
  return updateSitting(copy, (stored) => {
    const kept = stored?.test.examWork;
    const work = test.examWork;
    const examWork =
      work && !work.answers && kept?.id === work.id && kept.answers
        ? { ...work, answers: kept.answers }
        : work;
    return { test: { ...test, examWork }, offsetMs };
  });
}

/** The work with its answers, as the server gave it (the runner's first load). */
export function saveRunnerWork(
  work: ExamWorkState,
  receivedAtMs = Date.now(),
  copy = store(),
): Promise<void> {
  return updateSitting(copy, (stored) =>
    stored && stored.test.examWork?.id === work.id
      ? { test: { ...stored.test, examWork: work }, offsetMs: offsetOf(work.serverTime, receivedAtMs) }
      : null,
  );
}

/** The server acknowledged a save: the copy has the answer too (the outbox has let it go). */
export function noteRunnerAnswer(
  examWorkId: number,
  saved: Pick<SavedAnswer, 'variantTaskId' | 'value' | 'seq' | 'savedAt'>,
  copy = store(),
): Promise<void> {
  return updateSitting(copy, (stored) => {
    const work = stored?.test.examWork;
    if (!stored || !work || work.id !== examWorkId) return null;
    const answers = work.answers ?? [];
    const known = answers.find((a) => a.variantTaskId === saved.variantTaskId);
    if (known && known.seq >= saved.seq) return null;
    // The answer mode and attachments are changed by their own calls: what the copy knows stays.
    const answer: SavedAnswer = { answerMode: 'online', ...known, ...saved };
    const others = answers.filter((a) => a.variantTaskId !== saved.variantTaskId);
    return { ...stored, test: { ...stored.test, examWork: { ...work, answers: [...others, answer] } } };
  });
}

/**
 * The server said the work's deadline anew (a clock sync, staff changed the time): the copy keeps
 * it, so a restore never shows more time than the server now allows.
 */
export function noteRunnerDeadline(
  left: { examWorkId: number; deadlineAt: string; serverTime: string },
  receivedAtMs = Date.now(),
  copy = store(),
): Promise<void> {
  return updateSitting(copy, (stored) => {
    if (!stored?.test.examWork || stored.test.examWork.id !== left.examWorkId) return null;
    const examWork = { ...stored.test.examWork, deadlineAt: left.deadlineAt, serverTime: left.serverTime };
    return { test: { ...stored.test, examWork }, offsetMs: offsetOf(left.serverTime, receivedAtMs) };
  });
}

/**
 * The stored sitting as of `nowMs` on this browser's clock: the server's time now is estimated as
 * local time + the stored offset, and the time left is what remains of the stored deadline then.
 */
export function restoreSitting(stored: StoredSitting, nowMs: number): CurrentParticipantTest {
  const serverNowMs = nowMs + stored.offsetMs;
  const serverTime = new Date(serverNowMs).toISOString();
  const work = stored.test.examWork;
  const examWork = work && {
    ...work,
    serverTime,
    secondsLeft: Math.max(0, Math.ceil((Date.parse(work.deadlineAt) - serverNowMs) / 1000)),
  };
  return { ...stored.test, examWork, serverTime };
}

export async function loadRunnerSnapshot(
  nowMs = Date.now(),
  copy = store(),
): Promise<CurrentParticipantTest | null> {
  const stored = await quietly(() => copy.get('sitting'), undefined);
  return stored ? restoreSitting(stored, nowMs) : null;
}

export function saveRunnerVariant(variant: ParticipantVariant, copy = store()): Promise<void> {
  return inOrder(copy, () => copy.set('variant', variant));
}

/** The stored variant, if it is the one asked for. */
export async function loadRunnerVariant(
  variantId: number,
  copy = store(),
): Promise<ParticipantVariant | null> {
  const variant = await quietly(() => copy.get('variant'), undefined);
  return variant?.id === variantId ? variant : null;
}

export function clearRunnerSnapshot(copy = store()): Promise<void> {
  return inOrder(copy, () => copy.clear());
}
