/**
 * The last known participant test and work state, kept in this browser so that a reload while
 * offline still opens the runner (with the variant from the service worker's cache and the
 * answers waiting in the outbox). The server's state replaces it as soon as it can be fetched.
 * Log off forgets it (lib/logoff.ts): a classroom PC is shared, the next participant must not find
 * the previous one's test here. The answers waiting in the outbox are never forgotten.
 */
import type { CurrentParticipantTest } from '@attesta/contract';

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window !== 'undefined' ? window.localStorage : undefined;
  } catch {
    return undefined;
  }
}

const KEY = 'attesta.runner.snapshot';

export function saveRunnerSnapshot(test: CurrentParticipantTest, storage = safeLocalStorage()) {
  try {
    storage?.setItem(KEY, JSON.stringify(test));
  } catch {
    // Quota: the online path does not need it.
  }
}

export function loadRunnerSnapshot(storage = safeLocalStorage()): CurrentParticipantTest | null {
  try {
    const raw = storage?.getItem(KEY);
    return raw ? (JSON.parse(raw) as CurrentParticipantTest) : null;
  } catch {
    return null;
  }
}

export function clearRunnerSnapshot(storage = safeLocalStorage()) {
  try {
    storage?.removeItem(KEY);
  } catch {
    // nothing to do
  }
}
