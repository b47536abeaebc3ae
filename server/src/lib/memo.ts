/**
 * A short-lived in-process memo of data that does not change while tests run (subject tests,
 * variants and their tasks, school names), kept per database so test apps never share entries.
 * Concurrent misses of one key share a single load (the 10:00 start storm asks for the same
 * variant thousands of times at once); a failed load is not remembered.
 */
export class Memo<K, V> {
  private readonly scopes = new WeakMap<object, Map<K, { value: Promise<V>; until: number }>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(scope: object, key: K, load: () => Promise<V>): Promise<V> {
    let entries = this.scopes.get(scope);
    if (!entries) this.scopes.set(scope, (entries = new Map()));
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (entries.size >= this.maxEntries) entries.clear();
    const value = load();
    entries.set(key, { value, until: now + this.ttlMs });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  }

  /** Forgets one key (after a change made through this process) or, without a key, everything. */
  forget(scope: object, key?: K): void {
    if (key === undefined) this.scopes.delete(scope);
    else this.scopes.get(scope)?.delete(key);
  }
}
