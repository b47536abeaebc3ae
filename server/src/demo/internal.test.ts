import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import type { Database } from '../db/client.js';
import { diagnostics, oo, users } from '../db/schema/index.js';
import { readServerFile, removeServerFile, serverFilePath, writeServerFile } from '../lib/server-file.js';
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
