import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { tooManyRequests } from '../lib/errors.js';

export interface Limit {
  points: number;
  durationSeconds: number;
  blockSeconds: number;
}

/** A progressive delay: after `free` failures each attempt waits first, then twice as long, up to max. */
export interface Delay {
  free: number;
  firstMs: number;
  maxMs: number;
  /** Failures are forgotten this long after the last attempt. */
  forgetSeconds: number;
}

/**
 * Counters of attempts. A point is taken atomically BEFORE an attempt is evaluated (concurrent
 * attempts cannot all slip under a limit) and given back when the attempt must not count: a
 * success, or an attempt another limit refused. Limits per (login, IP) stop guessing one
 * account; per IP stop spraying many accounts or codes. Activation codes have a free budget per
 * address and service-wide, after which an attempt needs a proof of work instead of being
 * refused (auth/proof-of-work.ts): a school behind one address is never locked out.
 */
export const LIMITS = {
  loginPair: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  loginIp: { points: 50, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  // Wrong current passwords in ChangePassword: the signed-in user's own counter, never the login's.
  changePassword: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  // Free budgets of failed code guesses; spent, they ask for a proof of work (never a lockout).
  // Logins in flight hold a point too (taken before the lookup): at 10:00 a school's many
  // concurrent logins from one address must fit besides its typos, hence generous per address.
  codeIp: { points: 150, durationSeconds: 10 * 60, blockSeconds: 0 },
  codeAll: { points: 3000, durationSeconds: 10 * 60, blockSeconds: 0 },
  // One code string tried again and again (only failures count: a valid code gives its point back).
  codeKey: { points: 10, durationSeconds: 10 * 60, blockSeconds: 10 * 60 },
  // Proof-of-work challenges issued service-wide: their count sets the difficulty (never refuses).
  powIssued: { points: Number.MAX_SAFE_INTEGER, durationSeconds: 10 * 60, blockSeconds: 0 },
  // Result-document verification codes: not a login, so a plain limit per address.
  verifyIp: { points: 30, durationSeconds: 10 * 60, blockSeconds: 10 * 60 },
  // Registration and e-mail calls count every attempt (not only failures): each may send a mail.
  registerIp: { points: 30, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  mailAddress: { points: 5, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  mailIp: { points: 30, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  // Feedback messages count every message sent: a user may write 20 an hour.
  feedbackUser: { points: 20, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

/**
 * Wrong passwords for one account from anywhere: a growing wait (4 free, then 1 s, 2 s, … 60 s),
 * never a lock anyone could trigger for an hour. A device that has signed in to the account
 * before (device cookie) skips it.
 */
export const DELAYS = {
  loginAccount: { free: 4, firstMs: 1000, maxMs: 60_000, forgetSeconds: 60 * 60 },
} satisfies Record<string, Delay>;

export type LimitName = keyof typeof LIMITS;
export type DelayName = keyof typeof DELAYS;
export type ThrottleKeys = Partial<Record<LimitName | DelayName, string>>;

/**
 * The key of a client address: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber's whole network: otherwise each of its 2^64 addresses would get a budget of its own).
 */
export function addressKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const isDelay = (name: string): name is DelayName => name in DELAYS;

/** Points taken by `reserve`: keep them (the attempt counts), or give them back. */
export interface Reservation {
  /** The attempt must not count: every point goes back. */
  release(): Promise<void>;
  /** A success: these counters (and every delay) start afresh, the other points go back. */
  clear(...names: (LimitName | DelayName)[]): Promise<void>;
}

/** What `tryReserve` answers: the reservation, or which counters refused and for how long. */
export type Attempt = { reservation: Reservation } | { refused: (LimitName | DelayName)[]; retryMs: number };

/**
 * One step of a delay, atomically: refuse while the wait of the last attempt runs; otherwise
 * count this attempt and start the wait the next one must sit out (the attempt is assumed to
 * fail; a success deletes the key). Answers [allowed, ms]. The time is Redis's own clock, or
 * ARGV[5] when the throttle was given a clock (tests: a wait never ends by itself there).
 */
const DELAY_SCRIPT = `
local now
if ARGV[5] then
  now = tonumber(ARGV[5])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '0')
if now < at then return {0, at - now} end
n = n + 1
local free = tonumber(ARGV[1])
local wait = 0
if n > free then wait = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ (n - free - 1)) end
redis.call('HSET', KEYS[1], 'n', n, 'at', now + wait)
redis.call('EXPIRE', KEYS[1], ARGV[4])
return {1, wait}
`;

/**
 * rate-limiter-flexible's step on Redis (its `rlflxIncr` script: start the window if absent, add,
 * read the time left), for every key of one attempt in one script and round trip. KEYS are the
 * limiters' own keys (their `getKey`: `rl:<name>:<key>`), ARGV[1] the points (1 to take, -1 to give back), then
 * each key's window in seconds. Answers {points, ms left} per key.
 */
const COUNT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local seconds = ARGV[i + 1]
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', key, ARGV[1])
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, seconds)
    ttl = 1000 * seconds
  end
  out[i] = {consumed, ttl}
end
return out
`;

type Counted = { ok: true } | { ok: false; retryMs: number };
interface CountingRedis {
  attestaCount(keys: number, ...args: (string | number)[]): Promise<[number, number][]>;
}

/** The same step in this process (no Redis, or Redis unreachable). */
class MemoryDelays {
  private readonly state = new Map<string, { n: number; at: number; forgetAt: number }>();

  step(key: string, d: Delay, now: number): [boolean, number] {
    const s = this.state.get(key);
    const live = s && s.forgetAt > now ? s : { n: 0, at: 0, forgetAt: 0 };
    if (now < live.at) return [false, live.at - now];
    const n = live.n + 1;
    const wait = n > d.free ? Math.min(d.maxMs, d.firstMs * 2 ** (n - d.free - 1)) : 0;
    if (this.state.size > 100_000) this.prune(now);
    this.state.set(key, { n, at: now + wait, forgetAt: now + d.forgetSeconds * 1000 });
    return [true, wait];
  }

  delete(key: string) {
    this.state.delete(key);
  }

  private prune(now: number) {
    for (const [k, s] of this.state) if (s.forgetAt <= now) this.state.delete(k);
  }
}

/** Single-use markers (proof-of-work challenges) in this process. */
class MemoryOnce {
  private readonly used = new Map<string, number>();
  take(id: string, ttlMs: number, now: number): boolean {
    const until = this.used.get(id);
    if (until !== undefined && until > now) return false;
    if (this.used.size > 200_000) for (const [k, u] of this.used) if (u <= now) this.used.delete(k);
    this.used.set(id, now + ttlMs);
    return true;
  }
}

/** Milliseconds since the epoch: the time delays and single-use marks are measured by. */
export type Clock = () => number;

export class Throttle {
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;
  private readonly limits: Record<LimitName, Limit>;
  private readonly delays: Record<DelayName, Delay>;
  private readonly memoryDelays = new MemoryDelays();
  private readonly memoryOnce = new MemoryOnce();
  private readonly now: Clock;

  /**
   * `clock` replaces the time of the delays (the growing waits) and of single-use marks in this
   * process: a test moves it on instead of sleeping, so no wait ends while a slow machine runs
   * the checks. Without it the waits run on the real time (Redis's clock with Redis).
   */
  constructor(
    private readonly redis: Redis | null,
    limits: Record<LimitName, Limit> = LIMITS,
    delays: Record<DelayName, Delay> = DELAYS,
    private readonly clock?: Clock,
  ) {
    this.delays = delays;
    this.limits = limits;
    this.now = clock ?? Date.now;
    redis?.defineCommand('attestaCount', { lua: COUNT_SCRIPT });
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
   * Takes one point from every counter before the attempt is evaluated; throws 429 (Retry-After)
   * when any is spent, giving the others back. Counters are taken together (one round trip with
   * Redis); delays only once the counters agreed, so a refused attempt never lengthens a wait.
   */
  async reserve(keys: ThrottleKeys): Promise<Reservation> {
    const attempt = await this.tryReserve(keys);
    if ('refused' in attempt) throw tooManyRequests(attempt.retryMs / 1000);
    return attempt.reservation;
  }

  /** Like `reserve`, but answers which counters refused instead of throwing. */
  async tryReserve(keys: ThrottleKeys): Promise<Attempt> {
    const entries = Object.entries(keys).filter(([, key]) => key !== undefined) as [
      LimitName | DelayName,
      string,
    ][];
    const counters = entries.filter(([name]) => !isDelay(name)) as [LimitName, string][];
    const delays = entries.filter(([name]) => isDelay(name)) as [DelayName, string][];

    const taken = await this.takeAll(counters);
    const granted = counters.filter((_, i) => taken[i]!.ok);
    let refused = counters.filter((_, i) => !taken[i]!.ok).map(([name]) => name as LimitName | DelayName);
    let retryMs = Math.max(0, ...taken.map((t) => (t.ok ? 0 : t.retryMs)));

    const steps: DelayName[] = [];
    if (!refused.length) {
      for (const [name, key] of delays) {
        const [allowed, ms] = await this.step(name, key);
        if (allowed) steps.push(name);
        else {
          refused = [...refused, name];
          retryMs = Math.max(retryMs, ms);
        }
      }
    }
    const reservation = this.reservation(
      granted,
      delays.filter(([name]) => steps.includes(name)),
    );
    if (refused.length) {
      // Not evaluated, so not counted; a delay step taken is left alone (it assumed a failure).
      await reservation.release();
      return { refused, retryMs: Math.max(retryMs, 1000) };
    }
    return { reservation };
  }

  private reservation(counters: [LimitName, string][], delays: [DelayName, string][]): Reservation {
    const giveBack = (names: (LimitName | DelayName)[]) =>
      Promise.all([
        ...counters
          .filter(([name]) => names.includes(name))
          .map(([name, key]) => this.limiters[name].delete(key).catch(() => undefined)),
        this.rewardAll(counters.filter(([name]) => !names.includes(name))),
        ...delays.filter(([name]) => names.includes(name)).map(([name, key]) => this.forgetDelay(name, key)),
      ]).then(() => undefined);
    let done = false;
    const once = (names: (LimitName | DelayName)[]) => {
      if (done) return Promise.resolve();
      done = true;
      return giveBack(names);
    };
    return {
      release: () => once([]),
      clear: (...names) => once([...names, ...delays.map(([name]) => name)]),
    };
  }

  /**
   * One point from each counter. With Redis, several counters go in one script (the code login
   * takes three: one round trip instead of three); should it fail, each counter on its own, with
   * its limiter's fallback to this process.
   */
  private async takeAll(counters: [LimitName, string][]): Promise<Counted[]> {
    if (this.redis && counters.length > 1) {
      try {
        const rows = await this.countTogether(counters, 1);
        return await Promise.all(
          rows.map(async ([consumed, ms], i): Promise<Counted> => {
            const [name, key] = counters[i]!;
            const l = this.limits[name];
            if (consumed <= l.points) return { ok: true };
            // As rate-limiter-flexible: the attempt that first goes over starts the block.
            if (l.blockSeconds > 0 && consumed <= l.points + 1) {
              await this.redis!.set(this.limiters[name].getKey(key), consumed, 'PX', l.blockSeconds * 1000);
              return { ok: false, retryMs: l.blockSeconds * 1000 };
            }
            return { ok: false, retryMs: ms };
          }),
        );
      } catch {
        /* each on its own below */
      }
    }
    return Promise.all(counters.map(([name, key]) => this.take(name, key)));
  }

  /** Gives one point back to each counter: together in one script with Redis, as `takeAll`. */
  private async rewardAll(counters: [LimitName, string][]): Promise<void> {
    if (this.redis && counters.length > 1) {
      try {
        await this.countTogether(counters, -1);
        return;
      } catch {
        /* each on its own below */
      }
    }
    await Promise.all(
      counters.map(([name, key]) => this.limiters[name].reward(key, 1).catch(() => undefined)),
    );
  }

  private countTogether(counters: [LimitName, string][], points: number): Promise<[number, number][]> {
    return (this.redis as unknown as CountingRedis).attestaCount(
      counters.length,
      ...counters.map(([name, key]) => this.limiters[name].getKey(key)),
      points,
      ...counters.map(([name]) => this.limits[name].durationSeconds),
    );
  }

  private async take(name: LimitName, key: string): Promise<Counted> {
    try {
      await this.limiters[name].consume(key);
      return { ok: true };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { ok: false, retryMs: err.msBeforeNext };
      throw err;
    }
  }

  private async step(name: DelayName, key: string): Promise<[boolean, number]> {
    const d = this.delays[name];
    const memory = () => this.memoryDelays.step(`${name}:${key}`, d, this.now());
    if (!this.redis) return memory();
    try {
      const [allowed, ms] = (await this.redis.eval(
        DELAY_SCRIPT,
        1,
        `dl:${name}:${key}`,
        d.free,
        d.firstMs,
        d.maxMs,
        d.forgetSeconds,
        ...(this.clock ? [this.clock()] : []),
      )) as [number, number];
      return [allowed === 1, ms];
    } catch {
      return memory();
    }
  }

  private async forgetDelay(name: DelayName, key: string): Promise<void> {
    this.memoryDelays.delete(`${name}:${key}`);
    await this.redis?.del(`dl:${name}:${key}`).catch(() => undefined);
  }

  /** How many points a counter holds now (difficulty of proofs of work; tests). */
  async count(name: LimitName, key: string): Promise<number> {
    const res = await this.limiters[name].get(key).catch(() => null);
    return res?.consumedPoints ?? 0;
  }

  /**
   * Marks `id` used, atomically, for `ttlMs`: true the first time only (single-use challenges).
   * Without a reachable Redis the mark stays in this process.
   */
  async useOnce(id: string, ttlMs: number): Promise<boolean> {
    if (this.redis) {
      try {
        return (await this.redis.set(`once:${id}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch {
        /* fall back to this process */
      }
    }
    return this.memoryOnce.take(id, ttlMs, this.now());
  }
}
