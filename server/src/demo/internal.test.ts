import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import type { Database } from '../db/client.js';
import { diagnostics, oo, users } from '../db/schema/index.js';
import {
  readServerFile,
  removeServerFile,
  runningServerDataDirs,
  serverFilePath,
  writeServerFile,
} from '../lib/server-file.js';
import { demoDataPlace } from './cli.js';
import { moscowToday } from './dates.js';
import { LOCAL_TOKEN_HEADER } from './internal.routes.js';
import { startDemo } from './startup.js';

const TOKEN = 'local-token-for-tests-0123456789';

async function startedApp(demoData: boolean) {
  const database = await createTestDatabase();
  const config = testConfig({ DEMO_DATA: String(demoData), DEMO_PASSWORD: 'demo' });
  const app = await buildApp(config, { database, logger: false, web: false });
  const banner = await startDemo(app, config, TOKEN);
  await app.ready();
  return { app, database, banner };
}

describe('demo at server start (DEMO_DATA=true)', () => {
  let app: FastifyInstance;
  let database: Database;
  let banner: string[];
  beforeAll(async () => {
    ({ app, database, banner } = await startedApp(true));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('loads the demo and prints the logins and the codes hint', async () => {
    const [row] = await app.ctx.db.select({ n: count() }).from(diagnostics);
    expect(row!.n).toBe(1);
    const text = banner.join('\n');
    for (const login of ['admin', 'coordinator', 'organizator', 'expert', 'ugnik', 'guest'])
      expect(text).toContain(`    ${login}`);
    expect(text).toContain('password "demo"');
    expect(text).toContain('npm run demo:codes');
  });

  it("answers the local tool with today's codes", async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/internal/demo/codes',
      headers: { [LOCAL_TOKEN_HEADER]: TOKEN },
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json() as { code: string; participant: string; subjectTest: string }[];
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(rows[0]!).sort()).toEqual(['code', 'participant', 'subjectTest']);
    const [diagnostic] = await app.ctx.db.select().from(diagnostics);
    expect(moscowToday(diagnostic!.startsAt)).toBe(moscowToday());
  });

  it('refuses a missing or wrong token', async () => {
    for (const headers of [
      {},
      { [LOCAL_TOKEN_HEADER]: 'wrong-token' },
      { [LOCAL_TOKEN_HEADER]: TOKEN + 'x' },
    ]) {
      const res = await app.inject({ method: 'GET', url: '/internal/demo/codes', headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, code: 'forbidden' });
    }
  });

  it('refuses callers that are not on this machine, even with the token', async () => {
    const remote = await app.inject({
      method: 'GET',
      url: '/internal/demo/codes',
      remoteAddress: '10.1.2.3',
      headers: { [LOCAL_TOKEN_HEADER]: TOKEN },
    });
    expect(remote.statusCode).toBe(403);
    const proxied = await app.inject({
      method: 'GET',
      url: '/internal/demo/codes',
      headers: { [LOCAL_TOKEN_HEADER]: TOKEN, 'x-forwarded-for': '203.0.113.7' },
    });
    expect(proxied.statusCode).toBe(403);
  });

  it('keeps the route out of the API docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys((res.json() as { paths: object }).paths).join(' ')).not.toContain('internal');
  });
});

describe('DEMO_DATA=false', () => {
  it('loads nothing and has no internal route', async () => {
    const { app, database, banner } = await startedApp(false);
    try {
      expect(banner).toEqual([]);
      for (const table of [oo, users, diagnostics]) {
        const [row] = await app.ctx.db.select({ n: count() }).from(table);
        expect(row!.n).toBe(0);
      }
      const res = await app.inject({
        method: 'GET',
        url: '/internal/demo/codes',
        headers: { [LOCAL_TOKEN_HEADER]: TOKEN },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('server.json', () => {
  it('is written with mode 0600 and removed only by its own process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'attesta-server-file-'));
    try {
      writeServerFile(dir, { pid: process.pid, port: 3000, token: TOKEN });
      expect(statSync(serverFilePath(dir)).mode & 0o777).toBe(0o600);
      expect(readServerFile(dir)).toMatchObject({ pid: process.pid, port: 3000, token: TOKEN });
      removeServerFile(dir, process.pid + 1);
      expect(readServerFile(dir)).not.toBeNull();
      removeServerFile(dir);
      expect(readServerFile(dir)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('where the demo tools find the data (demoDataPlace)', () => {
  const registry = mkdtempSync(join(tmpdir(), 'attesta-registry-'));
  const serverDir = mkdtempSync(join(tmpdir(), 'attesta-server-data-'));
  const emptyDir = join(tmpdir(), `attesta-no-data-${process.pid}`);
  const configOf = (dataDir: string, url?: string) =>
    ({ dataDir, databaseUrl: url }) as unknown as Parameters<typeof demoDataPlace>[0];
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.ATTESTA_SERVER_REGISTRY;
    process.env.ATTESTA_SERVER_REGISTRY = registry;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.ATTESTA_SERVER_REGISTRY;
    else process.env.ATTESTA_SERVER_REGISTRY = saved;
    for (const dir of [registry, serverDir, emptyDir]) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses, creating nothing, when DATA_DIR has no database and no server runs', () => {
    const place = demoDataPlace(configOf(emptyDir), 'demo:codes');
    expect(place.kind).toBe('refuse');
    expect(place.kind === 'refuse' && place.message).toContain('DATA_DIR=<folder> npm run demo:codes');
    expect(existsSync(emptyDir)).toBe(false);
  });

  it('asks the server running with another data folder, and refuses when several run', () => {
    // Live processes other than this one (the tools ignore a server file of their own pid).
    writeServerFile(serverDir, { pid: process.ppid, port: 3999, token: TOKEN });
    try {
      const place = demoDataPlace(configOf(emptyDir), 'demo:codes');
      expect(place).toMatchObject({
        kind: 'ask',
        dataDir: serverDir,
        elsewhere: true,
        server: { port: 3999 },
      });
      // The server's own folder: asked as the owner, not as another one.
      expect(demoDataPlace(configOf(serverDir), 'demo:codes')).toMatchObject({
        kind: 'ask',
        elsewhere: false,
      });
      // A second live server elsewhere (pid 1 is alive too).
      const second = mkdtempSync(join(tmpdir(), 'attesta-server-data-2-'));
      try {
        writeServerFile(second, { pid: 1, port: 4000, token: TOKEN });
        const place2 = demoDataPlace(configOf(emptyDir), 'demo:codes');
        expect(place2.kind).toBe('refuse');
        expect(place2.kind === 'refuse' && place2.message).toContain(second);
        removeServerFile(second, 1);
      } finally {
        rmSync(second, { recursive: true, force: true });
      }
    } finally {
      removeServerFile(serverDir, process.ppid);
    }
    // Gone with its server.json: nothing to ask any more.
    expect(runningServerDataDirs()).toEqual([]);
    expect(demoDataPlace(configOf(emptyDir), 'demo:codes').kind).toBe('refuse');
  });

  it('opens a folder that has a database, or DATABASE_URL', () => {
    mkdirSync(join(serverDir, 'pglite'), { recursive: true });
    writeFileSync(join(serverDir, 'pglite', 'PG_VERSION'), '17\n');
    expect(demoDataPlace(configOf(serverDir), 'demo:codes')).toEqual({ kind: 'open' });
    expect(demoDataPlace(configOf(emptyDir, 'postgres://x/y'), 'demo:codes')).toEqual({ kind: 'open' });
  });

  it('forgets entries of servers gone (a dead pid)', () => {
    const dead = mkdtempSync(join(tmpdir(), 'attesta-server-dead-'));
    try {
      writeServerFile(dead, { pid: 2 ** 22 + 12345, port: 4001, token: TOKEN });
      expect(runningServerDataDirs()).toEqual([]);
      expect(readdirSync(registry)).toEqual([]);
    } finally {
      rmSync(dead, { recursive: true, force: true });
    }
  });
});
