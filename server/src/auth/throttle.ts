import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../lib/errors.js';

interface Limit {
  points: number;
  durationSeconds: number;
  blockSeconds: number;
}

/**
 * Failure counters for login and activation codes. Only failures count, and a success clears the
 * pair counter, so a participant who mistypes once is never locked out. Limits per (login, IP)
 * stop guessing one account; per IP stop spraying many accounts or codes; the per-account limit
 * across IPs is skipped for a device that has logged in to that account before (device cookie),
 * so an attacker elsewhere cannot lock the real user out.
 */
export const LIMITS = {
  loginPair: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  loginIp: { points: 50, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  loginAccount: { points: 30, durationSeconds: 60 * 60, blockSeconds: 30 * 60 },
  // A whole school logs in from one address at 10:00: generous per IP, strict per code string.
  codeIp: { points: 150, durationSeconds: 10 * 60, blockSeconds: 10 * 60 },
  codeKey: { points: 10, durationSeconds: 10 * 60, blockSeconds: 10 * 60 },
  // Registration and e-mail calls count every attempt (not only failures): each may send a mail.
  registerIp: { points: 30, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  mailAddress: { points: 5, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  mailIp: { points: 30, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  // Feedback messages count every message sent: a user may write 20 an hour.
  feedbackUser: { points: 20, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

export class Throttle {
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;

  constructor(redis: Redis | null, limits: Record<LimitName, Limit> = LIMITS) {
    const make = (name: string, l: Limit): RateLimiterAbstract =>
      redis
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix: `rl:${name}`,
            points: l.points,
            duration: l.durationSeconds,
            blockDuration: l.blockSeconds,
            insuranceLimiter: new RateLimiterMemory({
              points: l.points,
              duration: l.durationSeconds,
              blockDuration: l.blockSeconds,
            }),
          })
        : new RateLimiterMemory({
            keyPrefix: name,
            points: l.points,
            duration: l.durationSeconds,
            blockDuration: l.blockSeconds,
          });
    this.limiters = Object.fromEntries(
      Object.entries(limits).map(([name, l]) => [name, make(name, l)]),
    ) as Record<LimitName, RateLimiterAbstract>;
  }

  /**
   * Throws 429 with Retry-After if any of the given counters is exhausted; otherwise answers which
   * of them hold failures (a success then clears only those: no store round trip for clean keys).
   */
  async check(keys: Partial<Record<LimitName, string>>): Promise<Set<LimitName>> {
    const entries = Object.entries(keys) as [LimitName, string][];
    const states = await Promise.all(entries.map(([name, key]) => this.limiters[name].get(key)));
    let retryMs = 0;
    const counted = new Set<LimitName>();
    states.forEach((state, i) => {
      const name = entries[i]![0];
      if (!state || state.consumedPoints <= 0) return;
      counted.add(name);
      if (state.consumedPoints >= this.limiters[name].points) retryMs = Math.max(retryMs, state.msBeforeNext);
    });
    if (retryMs > 0) throw tooManyRequests(retryMs / 1000);
    return counted;
  }

  /** Counts one failure against each counter. */
  async fail(keys: Partial<Record<LimitName, string>>): Promise<void> {
    await Promise.all(
      (Object.entries(keys) as [LimitName, string][]).map(([name, key]) =>
        this.limiters[name].consume(key).catch(() => undefined),
      ),
    );
  }

  /** Clears counters; with `counted` (from check) only those that held failures. */
  async clear(keys: Partial<Record<LimitName, string>>, counted?: Set<LimitName>): Promise<void> {
    await Promise.all(
      (Object.entries(keys) as [LimitName, string][])
        .filter(([name]) => !counted || counted.has(name))
        .map(([name, key]) => this.limiters[name].delete(key)),
    );
  }
}
