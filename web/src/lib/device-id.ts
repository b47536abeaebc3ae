/** A random id of this browser, created once and kept: the server binds a running work to it. */
export const DEVICE_ID_KEY = 'attesta.deviceId';

function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}

export function getDeviceId(storage: Storage | undefined = safeLocalStorage()): string {
  const saved = storage?.getItem(DEVICE_ID_KEY);
  if (saved) return saved;
  const id = randomId();
  try {
    storage?.setItem(DEVICE_ID_KEY, id);
  } catch {
    // Private mode with a full quota: the id lives for this page only.
  }
  return id;
}

export function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window !== 'undefined' ? window.localStorage : undefined;
  } catch {
    return undefined;
  }
}
