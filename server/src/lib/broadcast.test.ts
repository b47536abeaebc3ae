import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { SessionStore } from '../auth/session-store.js';
import { users } from '../db/schema/index.js';
import { createTestDatabase } from '../../test/helpers.js';
import { PgBroadcast, RedisBroadcast, type Broadcast, type Delivery } from './broadcast.js';
import { connectRedis } from './cache.js';

/*
 * Instance-to-instance messages that the sender can wait for: every live listener acknowledges,
 * and one that never answers is waited for only so long.
 */
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function redisPair(channel: string): Promise<{ redis: Redis; a: RedisBroadcast; b: RedisBroadcast }> {
  const redis = connectRedis(process.env.TEST_REDIS_URL!, '');
  closers.push(() => redis.disconnect());
  if (redis.status !== 'ready') await once(redis, 'ready');
  const a = new RedisBroadcast(redis, channel);
  const b = new RedisBroadcast(redis, channel);
  closers.push(
    () => a.close(),
    () => b.close(),
  );
  await Promise.all([a.ready(), b.ready()]);
  return { redis, a, b };
}

async function timed(p: Promise<Delivery>) {
  const start = Date.now();
  const delivery = await p;
  return { delivery, ms: Date.now() - start };
}

describe.skipIf(!process.env.TEST_REDIS_URL)('RedisBroadcast', () => {
  it('waits until the other instance has handled a message', async () => {
    const { a, b } = await redisPair(`attesta-test-bc-${process.pid}-${Date.now()}`);
    const seen: string[] = [];
    b.onMessage((m) => seen.push(m));
    const { delivery } = await timed(a.publish('x,y', { waitMs: 2000 }));
    expect(delivery).toEqual({ expected: 1, acknowledged: 1 });
    expect(seen).toEqual(['x,y']);
  });

  it('waits at most waitMs for a listener that never answers', async () => {
    const channel = `attesta-test-bc-${process.pid}-${Date.now()}-deaf`;
    const { redis, a } = await redisPair(channel);
    const deaf = redis.duplicate();
    closers.push(() => deaf.disconnect());
    if (deaf.status !== 'ready') await once(deaf, 'ready');
    await deaf.subscribe(channel);
    const { delivery, ms } = await timed(a.publish('z', { waitMs: 300 }));
    expect(delivery).toEqual({ expected: 2, acknowledged: 1 });
    expect(ms).toBeGreaterThanOrEqual(280);
    expect(ms).toBeLessThan(1500);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PgBroadcast', () => {
  it('waits for the live listeners, and at most waitMs for one that never answers', async () => {
    const database = await createTestDatabase();
    closers.push(() => database.close());
    const channel = `attesta_test_bc_${process.pid}`;
    const a = new PgBroadcast(database.url!, database, channel);
    const b = new PgBroadcast(database.url!, database, channel);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    await Promise.all([a.ready(), b.ready()]);
    const seen: string[] = [];
    b.onMessage((m) => seen.push(m));
    expect((await timed(a.publish('p', { waitMs: 2000 }))).delivery).toEqual({
      expected: 1,
      acknowledged: 1,
    });
    expect(seen).toEqual(['p']);

    // A listener that names itself like an instance but never acknowledges.
    const deaf = new pg.Client({ connectionString: database.url });
    await deaf.connect();
    closers.push(() => deaf.end());
    await deaf.query(`LISTEN ${channel}`);
    await deaf.query(`SET application_name = '${channel}:deaf'`);
    const { delivery, ms } = await timed(a.publish('q', { waitMs: 300 }));
    expect(delivery).toEqual({ expected: 2, acknowledged: 1 });
    expect(ms).toBeGreaterThanOrEqual(280);
    expect(ms).toBeLessThan(1500);
  });
});

/** A broadcast whose connection the test can cut: what a lost subscription looks like. */
class FakeBroadcast implements Broadcast {
  listening = true;
  readonly maxMessageBytes = 1000;
  notify(): void {}
  private readonly watchers: ((on: boolean) => void)[] = [];
  async publish(): Promise<Delivery> {
    return { expected: 0, acknowledged: 0 };
  }
  onMessage(): void {}
  onListening(fn: (on: boolean) => void): void {
    this.watchers.push(fn);
  }
  set(on: boolean) {
    this.listening = on;
    for (const fn of this.watchers) fn(on);
  }
  async ready() {}
  close() {}
}

describe('a session store that stops hearing the broadcast', () => {
  it('does not serve sessions from its memory until it hears it again, and then forgets them', async () => {
    const database = await createTestDatabase();
    closers.push(() => database.close());
    const [user] = await database.db
      .insert(users)
      .values({ login: `deaf-${Date.now()}`, surname: 'Т', name: 'Т' })
      .returning();
    const channel = new FakeBroadcast();
    const store = new SessionStore(
      database.db,
      { idleMs: 3_600_000, absoluteMs: 3_600_000, local: { ttlMs: 60_000, broadcast: channel } },
      null,
    );
    // Another instance's store, on the same database, which ends the session: its message is lost.
    const other = new SessionStore(database.db, { idleMs: 3_600_000, absoluteMs: 3_600_000 }, null);
    const { token, sessionId } = await store.create({ userId: user!.id, kind: 'password' });
    expect(await store.resolve(token, 'cookie')).not.toBeNull(); // now in memory

    channel.set(false);
    await other.revoke(sessionId, 'logoff');
    expect(await store.resolve(token, 'cookie')).toBeNull(); // the row decides, not the memory

    // Listening again: whatever was remembered may have missed messages, so it is gone.
    const second = await store.create({ userId: user!.id, kind: 'password' });
    channel.set(true);
    expect(await store.resolve(second.token, 'cookie')).not.toBeNull();
    await other.revoke(second.sessionId, 'logoff'); // lost message again, while listening
    channel.set(false);
    channel.set(true);
    expect(await store.resolve(second.token, 'cookie')).toBeNull();
  });
});
