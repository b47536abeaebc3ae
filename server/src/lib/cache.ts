import { Redis } from 'ioredis';

/**
 * A small key-value cache. Redis when REDIS_URL is set (shared by every instance); in-process
 * otherwise — only used where one process owns the data (embedded PGlite), see createCache.
 */
export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCache implements Cache {
  private readonly map = new Map<string, { value: string; until: number }>();
  constructor(private readonly maxEntries = 50_000) {}
  async get(key: string) {
    const hit = this.map.get(key);
    if (!hit) return null;
    if (hit.until < Date.now()) {
      this.map.delete(key);
      return null;
    }
    return hit.value;
  }
  async set(key: string, value: string, ttlSeconds: number) {
    if (this.map.size >= this.maxEntries) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, { value, until: Date.now() + ttlSeconds * 1000 });
  }
  async del(...keys: string[]) {
    for (const k of keys) this.map.delete(k);
  }
  async close() {
    this.map.clear();
  }
}

/** Redis cache that degrades to "no cache" while Redis is unreachable: the database stays the truth. */
export class RedisCache implements Cache {
  constructor(public readonly client: Redis) {}
  async get(key: string) {
    try {
      return await this.client.get(key);
    } catch {
      return null;
    }
  }
  async set(key: string, value: string, ttlSeconds: number) {
    try {
      await this.client.set(key, value, 'EX', ttlSeconds);
    } catch {
      /* best effort */
    }
  }
  async del(...keys: string[]) {
    if (!keys.length) return;
    try {
      await this.client.del(...keys);
    } catch {
      /* entries expire by TTL */
    }
  }
  async close() {
    this.client.disconnect();
  }
}

/**
 * One Redis connection per process; keys are prefixed so several installations can share a server.
 * Auto-pipelining: the commands issued in one turn of the event loop (a login's three throttle
 * counters, the session cache, presence marks of other requests) leave in one write and come back
 * in one read, instead of a system call pair each — at 10:00 those calls were a large share of
 * the start path. Subscriptions are never pipelined (ioredis leaves them out).
 */
export function connectRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
    enableAutoPipelining: true,
  });
}
