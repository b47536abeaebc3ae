// The built server on its embedded database (PGlite) with the demo data, for the benches that need
// a real participant of the demo (bench/app-assets.mjs, bench/lighthouse.mjs): a fresh data
// directory each time, removed when it stops.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Fails with what to run when the server or the web client is not built. */
export function requireBuilt({ web = true } = {}) {
  if (!existsSync(join(root, 'server/dist/main.js')))
    throw new Error('the server is not built: run `npm run build -w server` first');
  if (web && !existsSync(join(root, 'web/dist/index.html')))
    throw new Error(
      'the web client is not built (web/dist/index.html missing): run `npm run build -w web` first — the server serves web/dist, and the bench downloads it',
    );
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/**
 * Starts `server/dist/main.js` on PGlite with the demo data. Returns its base URL, the demo's
 * activation codes (code, participant, subject test), its process id and `stop()`.
 */
export async function startDemoServer() {
  requireBuilt();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'attesta-bench-demo-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    // The demo data is written at the first start: up to three minutes on a busy machine.
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
      if (i > 720) throw new Error('server did not start');
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const codes = execFileSync('npm', ['run', '--silent', 'demo:codes'], { cwd: root, env, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [code = '', participant = '', subjectTest = ''] = line.split('\t');
        return { code, participant, subjectTest };
      });
    return { base, codes, stop, pid: child.pid };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A demo mathematics code (its variants have every answer type), the n-th from the start. */
export function mathCode(codes, n = 0) {
  const math = codes.filter((c) => /математике/i.test(c.subjectTest));
  if (math.length <= n) throw new Error('not enough demo mathematics codes');
  return math[n].code;
}
