import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Database } from '../db/client.js';
import { createTestDatabase, createUser, login, signedIn, testConfig } from '../../test/helpers.js';

/*
 * Sessions kept in each process's memory (SESSION_LOCAL_CACHE_SECONDS) must not outlive their end:
 * two instances share PostgreSQL (and Redis, when given); what ends a session on one must reach the
 * other at once, not when its memory entry expires (a minute here, so waiting it out cannot pass).
 */
const channels: { name: string; env: Record<string, string>; skip: boolean }[] = [
  {
    name: 'Redis pub/sub',
    env: { REDIS_URL: process.env.TEST_REDIS_URL ?? '' },
    skip: !process.env.TEST_REDIS_URL,
  },
  { name: 'PostgreSQL LISTEN/NOTIFY', env: {}, skip: !process.env.TEST_DATABASE_URL },
];

describe.each(channels)('sessions in process memory, across instances ($name)', ({ env, skip }) => {
  let database: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    if (skip) return;
    database = await createTestDatabase();
    const config = testConfig({
      ...env,
      REDIS_KEY_PREFIX: `attesta-test-${process.pid}-${Date.now()}:`,
      SESSION_LOCAL_CACHE_SECONDS: '60',
    });
    a = await buildApp(config, { database, logger: false, web: false });
    b = await buildApp(config, { database, logger: false, web: false });
    await a.ready();
    await b.ready();
    await b.ctx.sessions.ready();
    // B is a busy instance: it handles each message 150 ms after it arrives. Without waiting for
    // B, a log off on A would return while B still serves the session from its memory.
    const channel = b.ctx.sessions.broadcast as unknown as { received(raw: string): void };
    const received = channel.received.bind(channel);
    channel.received = (raw) => void setTimeout(() => received(raw), 150);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  const sessionTime = (app: FastifyInstance, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/user/sessionTime', headers });

  it.skipIf(skip)(
    'after a log off on instance A returns, the very next request on instance B (which had the session in memory) is 401',
    async () => {
      const user = await createUser(a, { roles: ['coordinator'] });
      const session = await login(a, user);
      expect((await sessionTime(b, session.headers)).statusCode).toBe(200); // B now remembers it
      expect((await sessionTime(b, session.headers)).statusCode).toBe(200);

      const off = await a.inject({ method: 'POST', url: '/api/Account/LogOff', headers: session.headers });
      expect(off.statusCode).toBe(200);
      // No waiting, no polling: the log off returned only once B had dropped the session.
      expect((await sessionTime(b, session.headers)).statusCode).toBe(401);
    },
  );

  it.skipIf(skip)('blocking a user on instance A stops their session on instance B', async () => {
    const admin = await signedIn(a, ['admin']);
    const user = await createUser(a, { roles: ['coordinator'] });
    const session = await login(a, user);
    expect((await sessionTime(b, session.headers)).statusCode).toBe(200);

    const blocked = await a.inject({
      method: 'POST',
      url: '/api/User',
      headers: admin.session.headers,
      payload: { id: user.id, isBlocked: true },
    });
    expect(blocked.statusCode).toBe(200);
    expect((await sessionTime(b, session.headers)).statusCode).toBe(401);
  });

  it.skipIf(skip)(
    'a role change on instance A ends what instance B remembered of the session before the call returns',
    async () => {
      const admin = await signedIn(a, ['admin']);
      const user = await createUser(a, { roles: ['expert'] });
      const session = await login(a, user);
      const me = (app: FastifyInstance) =>
        app.inject({ method: 'GET', url: '/api/user', headers: session.headers });
      const queue = () => b.inject({ method: 'GET', url: '/api/expert/queue', headers: session.headers });
      // B now remembers the session with the expert role.
      expect((await me(b)).json().roles).toEqual(['expert']);
      expect((await queue()).statusCode).toBe(200);

      const changed = await a.inject({
        method: 'POST',
        url: '/api/User',
        headers: admin.session.headers,
        payload: { id: user.id, roles: ['coordinator'] },
      });
      expect(changed.statusCode).toBe(200);
      // No waiting: the very next request on B no longer acts with the old role.
      expect((await queue()).statusCode).toBe(403);
      expect((await me(b)).json().roles).toEqual(['coordinator']);
    },
  );
});
