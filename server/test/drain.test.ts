import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './processes.js';
import { createTestApp, type TestApp } from './helpers.js';

// Readiness and liveness, and a real process asked to stop by SIGTERM: it answers 503 on readiness
// at once, keeps serving for SHUTDOWN_DRAIN_MS, then closes and exits 0.
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('probes in one app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('ready and live answer 200; while draining ready and /health answer 503 and live stays 200', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    expect((await get('/health/ready')).json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect((await get('/health/live')).json()).toEqual({ status: 'ok', draining: false });
    t.app.draining = true;
    try {
      const ready = await get('/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'draining', database: 'ok' });
      expect((await get('/health')).statusCode).toBe(503);
      const live = await get('/health/live');
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok', draining: true });
      // The instance still serves calls while it drains.
      expect((await get('/api/user/hasSession')).statusCode).toBe(200);
    } finally {
      t.app.draining = false;
    }
  });
});

describe('a server process on SIGTERM', () => {
  it(
    'drains: readiness 503 at once, calls still answered, then it exits 0',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), 'attesta-drain-'));
      const output: string[] = [];
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          NODE_ENV: 'development',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: '',
          REDIS_URL: '',
          DATA_DIR: dataDir,
          DEMO_DATA: 'false',
          LOG_LEVEL: 'warn',
          SESSION_SECRET: 'drain-test-secret-0123456789abcdef0123',
          SHUTDOWN_DRAIN_MS: '2000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
      child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const url = `http://127.0.0.1:${port}`;
      try {
        const until = Date.now() + 90_000;
        let up = false;
        while (!up && Date.now() < until) {
          if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output.join('')}`);
          up = await fetch(`${url}/health/ready`).then(
            (r) => r.ok,
            () => false,
          );
          if (!up) await new Promise((r) => setTimeout(r, 200));
        }
        expect(up, output.join('')).toBe(true);

        const asked = Date.now();
        child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 300));
        expect((await fetch(`${url}/health/ready`)).status).toBe(503);
        expect((await fetch(`${url}/health/live`)).status).toBe(200);
        expect((await fetch(`${url}/api/user/hasSession`)).status).toBe(200);
        expect(await exited, output.join('')).toBe(0);
        expect(Date.now() - asked).toBeGreaterThanOrEqual(2000);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
