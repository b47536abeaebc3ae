import { afterAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { connectRedis } from '../lib/cache.js';
import { addressKey, DELAYS, LIMITS, Throttle, type Limit, type LimitName } from './throttle.js';

/*
 * The mechanism itself, on both stores: a point is taken before the attempt is evaluated, so
 * concurrent attempts cannot all slip under a limit (the old check-then-count let 119–200 of 200
 * through a limit of 5).
 */
const redisUrl = process.env.TEST_REDIS_URL;
const clients: Redis[] = [];
afterAll(() => clients.forEach((c) => c.disconnect()));

const stores: { name: string; skip: boolean; redis: () => Promise<Redis | null> }[] = [
  { name: 'memory', skip: false, redis: async () => null },
  {
    name: 'Redis',
    skip: !redisUrl,
    redis: async () => {
      const client = connectRedis(redisUrl!, `attesta-test-throttle-${process.pid}-${Date.now()}:`);
      clients.push(client);
      // Until connected, commands fail over to this process's memory (insurance): wait.
      await new Promise((ok) => client.once('ready', ok));
      return client;
    },
  },
];

const small: Limit = { points: 5, durationSeconds: 60, blockSeconds: 60 };
const limits = (over: Partial<Record<LimitName, Limit>>) => ({ ...LIMITS, ...over });

describe.each(stores)('Throttle on $name', ({ skip, redis }) => {
  it.skipIf(skip)('200 concurrent failing attempts against a limit of 5 evaluate at most 5', async () => {
    const throttle = new Throttle(await redis(), limits({ codeIp: small }));
    let evaluated = 0;
    const results = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const attempt = await throttle.tryReserve({ codeIp: '192.0.2.1' });
        if ('refused' in attempt) return 'refused';
        evaluated++; // a wrong guess: the point stays
        await new Promise((r) => setTimeout(r, 5));
        return 'evaluated';
      }),
    );
    expect(evaluated).toBe(5);
    expect(results.filter((r) => r === 'refused')).toHaveLength(195);
  });

  it.skipIf(skip)('successes give their points back, so they never use up the limit', async () => {
    const throttle = new Throttle(await redis(), limits({ codeIp: small }));
    for (let i = 0; i < 50; i++) {
      const r = await throttle.reserve({ codeIp: '192.0.2.2' });
      await r.release();
    }
    expect(await throttle.count('codeIp', '192.0.2.2')).toBe(0);
    // Concurrent successes hold a point only while in flight.
    await Promise.all(
      Array.from({ length: 5 }, async () => (await throttle.reserve({ codeIp: '192.0.2.2' })).release()),
    );
    expect(await throttle.count('codeIp', '192.0.2.2')).toBe(0);
  });

  it.skipIf(skip)('a refused attempt gives back the points the other counters granted', async () => {
    const throttle = new Throttle(await redis(), limits({ loginPair: small }));
    for (let i = 0; i < 5; i++) await throttle.reserve({ loginPair: 'x|192.0.2.3' });
    await expect(throttle.reserve({ loginPair: 'x|192.0.2.3', loginIp: '192.0.2.3' })).rejects.toMatchObject({
      status: 429,
      code: 'too_many_requests',
    });
    expect(await throttle.count('loginIp', '192.0.2.3')).toBe(0);
  });

  it.skipIf(skip)('clear() starts the named counter afresh and only gives back the others', async () => {
    const throttle = new Throttle(await redis(), limits({ loginPair: small }));
    for (let i = 0; i < 3; i++) await throttle.reserve({ loginPair: 'y|192.0.2.4', loginIp: '192.0.2.4' });
    const ok = await throttle.reserve({ loginPair: 'y|192.0.2.4', loginIp: '192.0.2.4' });
    await ok.clear('loginPair');
    expect(await throttle.count('loginPair', 'y|192.0.2.4')).toBe(0);
    expect(await throttle.count('loginIp', '192.0.2.4')).toBe(3);
  });

  it.skipIf(skip)(
    'a progressive delay lets the free attempts through, then one attempt per growing wait',
    async () => {
      // The test's clock: the waits end when the test moves it, never while the machine is busy.
      let now = Date.now();
      const throttle = new Throttle(
        await redis(),
        LIMITS,
        { loginAccount: { free: 2, firstMs: 300, maxMs: 600, forgetSeconds: 60 } },
        () => now,
      );
      const key = `acct-${Date.now()}`;
      const step = async () => {
        const a = await throttle.tryReserve({ loginAccount: key });
        return 'refused' in a ? a.retryMs : 0;
      };
      // 200 at once: the 2 free attempts and the one that starts the first wait.
      const at = await Promise.all(Array.from({ length: 200 }, step));
      expect(at.filter((ms) => ms === 0)).toHaveLength(3);
      expect(Math.max(...at)).toBeLessThanOrEqual(1000); // Retry-After is whole seconds, at least 1
      now += 299;
      expect(await step()).toBeGreaterThan(0); // 1 ms of the first wait is left
      now += 1;
      expect(await step()).toBe(0); // the 4th failure: next wait doubles (600 ms, the cap)
      now += 599;
      expect(await step()).toBeGreaterThan(0);
      now += 1;
      const success = await throttle.tryReserve({ loginAccount: key });
      expect('reservation' in success).toBe(true);
      if ('reservation' in success) await success.reservation.clear();
      expect(await step()).toBe(0); // a success forgets the failures
      expect(await step()).toBe(0);
    },
  );

  it.skipIf(skip)('useOnce is true once per id, also under concurrency', async () => {
    const throttle = new Throttle(await redis(), LIMITS, DELAYS);
    const id = `c-${Date.now()}-${Math.random()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => throttle.useOnce(id, 10_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and groups IPv6 by /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });
});
