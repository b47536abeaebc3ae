import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// Three minutes: on a busy two-core machine the first start (migrations, demo data) took over one.
async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy in time');
}

let server: ChildProcess | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'attesta-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
  };
  // The browser tests use the embedded database, as a newcomer's `npm start` does.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  server = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForHealth(baseURL, server);
  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);
}

export async function teardown() {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
