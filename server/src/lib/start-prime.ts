/*
 * A code login reads its participant test; the participant's next call is the start of the work
 * (`POST examwork/new`, issue 24 item 7). What the login read of it is handed to that start here,
 * in this process's memory, so the start need not read the same rows again: it starts from this
 * copy with one statement that checks, as it inserts, that nothing the copy decided has changed
 * (exam-work.repo startWorkOnce); when something has, or the copy is gone, the start reads afresh.
 * A copy is taken once (the first start of its participant test uses it or drops it) and lives a
 * minute at most; a login on one instance and a start on another simply find none.
 */

/** The participant test as a start decides on it (exam-work.repo's ParticipantTestRow fields). */
export interface PrimedStart {
  pt: {
    id: number;
    status: string;
    diagnosticId: number;
    subjectTestId: number;
    schoolId: number | null;
    classId: number | null;
    buildingId: number | null;
    startsAt: Date;
    endsAt: Date;
    firstPublishedAt: Date | null;
  };
  /** The student's or worker's accommodated extra time (docs/accommodations.md). */
  extraTimePercent: number | null;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;
const scopes = new WeakMap<object, Map<number, { value: PrimedStart; until: number }>>();

/** Keeps what a login read of participant test `value.pt.id` (with no live work) for its start. */
export function primeStart(db: object, value: PrimedStart): void {
  let entries = scopes.get(db);
  if (!entries) scopes.set(db, (entries = new Map()));
  if (entries.size >= MAX_ENTRIES) {
    const now = Date.now();
    for (const [key, e] of entries) if (e.until <= now) entries.delete(key);
    if (entries.size >= MAX_ENTRIES) entries.clear();
  }
  entries.set(value.pt.id, { value, until: Date.now() + TTL_MS });
}

/** The login's copy of a participant test, once; null when there is none (or it is too old). */
export function takePrimedStart(db: object, participantTestId: number): PrimedStart | null {
  const entries = scopes.get(db);
  const hit = entries?.get(participantTestId);
  if (!hit) return null;
  entries!.delete(participantTestId);
  return hit.until > Date.now() ? hit.value : null;
}
