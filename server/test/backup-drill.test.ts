import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { freePort } from './processes.js';

// The backup drill (issue 29, item 3): participants save answers at load through a real server
// process, a backup is taken while they go on saving, the backup is restored into a fresh
// database, and every answer acknowledged before the backup was asked for must be there, and a
// server must start on it and take a participant's next save. For the embedded database through
// `npm run backup` / `npm run restore` (the running server dumps its own database); for a
// PostgreSQL server through pg_dump / pg_restore (docs/operations.md, "Backup and restore").

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'backup-drill-secret-0123456789abcdef0123';
const PARTICIPANTS = 30;
const TASKS = 5;

interface Bench {
  seed(
    pool: { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> },
    count: number,
    options: { tasks: number },
  ): Promise<string[]>;
  startParticipant(
    base: string,
    code: string,
    deviceId: string,
    address: string | undefined,
    clients: 'direct',
  ): Promise<Flow>;
  schoolAddress(i: number): string;
}
interface Flow {
  headers: Record<string, string>;
  examWorkId: number;
  taskIds: number[];
  address: string;
}
// The bench's own helpers (participants seeded as the load bench seeds them, started as a browser
// starts): one way of making a participant for the bench and its drills.
const benchPath = join(serverDir, '..', 'bench', 'run.mjs');
const bench = async () => (await import(benchPath)) as Bench;

interface Server {
  url: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/** A server process; an `env` value of undefined leaves that variable out. */
async function startServer(env: Record<string, string | undefined>): Promise<Server> {
  const port = await freePort();
  const output: string[] = [];
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: '',
    REDIS_URL: '',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: SECRET,
    ...env,
  };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output.join('')}`);
    if (
      await fetch(`${url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > until) throw new Error(`server did not start: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A command run without blocking this process (the participants go on saving meanwhile). */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', (err) => resolve({ status: null, stdout, stderr: stderr + String(err) }));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A server command line tool from its source, as `npm run <name>` runs it without a build (its
 * scripts/run-ts.mjs would take a dist/ bundle, which may be older than the source under test).
 */
function runTool(_name: string, source: string, args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', source, ...args], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env },
  });
}

const keyOf = (examWorkId: number, taskId: number) => `${examWorkId}:${taskId}`;

/**
 * Every participant saves its tasks in turn as fast as the server answers, until `stop()`;
 * `acked` keeps the highest acknowledged seq of each (work, task).
 */
function saveAtLoad(base: string, flows: Flow[]) {
  const acked = new Map<string, number>();
  let running = true;
  let saves = 0;
  let errors = 0;
  const loops = flows.map(async (f, i) => {
    let seq = 1;
    while (running) {
      const taskId = f.taskIds[seq % f.taskIds.length]!;
      const res = await fetch(`${base}/api/exam/test/saveanswer`, {
        method: 'PUT',
        headers: f.headers,
        body: JSON.stringify({
          examWorkId: f.examWorkId,
          variantTaskId: taskId,
          value: `ответ ${i}.${seq}`,
          seq,
        }),
      }).catch(() => null);
      if (res?.status === 200) {
        saves++;
        const key = keyOf(f.examWorkId, taskId);
        acked.set(key, Math.max(acked.get(key) ?? 0, seq));
      } else errors++;
      await res?.arrayBuffer();
      seq++;
    }
  });
  return {
    acked,
    count: () => saves,
    async stop() {
      running = false;
      await Promise.all(loops);
      return { saves, errors };
    },
  };
}

/** Each acknowledged (work, task) whose stored seq is older than acknowledged. */
function missingFrom(
  acked: Map<string, number>,
  rows: { exam_work_id: number; variant_task_id: number; seq: number }[],
) {
  const stored = new Map(rows.map((r) => [keyOf(r.exam_work_id, r.variant_task_id), Number(r.seq)]));
  return [...acked].filter(([key, seq]) => (stored.get(key) ?? 0) < seq).map(([key]) => key);
}

interface DrillSide {
  /** Seeds the database the first server uses; returns that server's environment. */
  prepare(): Promise<{ env: Record<string, string | undefined>; codes: string[] }>;
  /** Takes the backup while the first server runs and saves go on. */
  backup(): Promise<void>;
  /** Restores the backup into a fresh database; returns the second server's environment. */
  restore(): Promise<Record<string, string | undefined>>;
  /** The answers of the restored database (the second server stopped). */
  restoredAnswers(): Promise<{ exam_work_id: number; variant_task_id: number; seq: number }[]>;
}

async function drill(side: DrillSide) {
  const { startParticipant, schoolAddress } = await bench();
  const { env, codes } = await side.prepare();
  const first = await startServer(env);
  let second: Server | null = null;
  try {
    const flows: Flow[] = [];
    for (let i = 0; i < codes.length; i++)
      flows.push(
        await startParticipant(first.url, codes[i]!, `drill-device-${i}`, schoolAddress(i), 'direct'),
      );
    const load = saveAtLoad(first.url, flows);
    // Saves flowing (however busy the machine): more than one task of every participant written.
    const until = Date.now() + 120_000;
    while ((load.count() < 150 || load.acked.size <= PARTICIPANTS) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    // The backup point: everything acknowledged before the backup is asked for.
    const before = new Map(load.acked);
    const savesBefore = load.count();
    const backupStarted = performance.now();
    await side.backup();
    const backupMs = Math.round(performance.now() - backupStarted);
    const savesDuring = load.count() - savesBefore;
    await new Promise((r) => setTimeout(r, 1000));
    const totals = await load.stop();
    console.info(
      `backup drill: ${totals.saves} saves acknowledged (${savesBefore} before the backup, ${savesDuring} ` +
        `during its ${backupMs} ms), ${totals.errors} failed; ${before.size} (work, task) pairs to find in the restore`,
    );
    expect(savesBefore).toBeGreaterThan(50);
    expect(totals.errors).toBe(0);
    await first.stop();

    const restoredEnv = await side.restore();
    second = await startServer(restoredEnv);
    // The restored server takes a participant's next save with the session it had before.
    const f = flows[0]!;
    const res = await fetch(`${second.url}/api/exam/test/saveanswer`, {
      method: 'PUT',
      headers: f.headers,
      body: JSON.stringify({
        examWorkId: f.examWorkId,
        variantTaskId: f.taskIds[0],
        value: 'после',
        seq: 1e9,
      }),
    });
    expect(res.status, await res.text()).toBe(200);
    await second.stop();
    second = null;

    const rows = await side.restoredAnswers();
    expect(missingFrom(before, rows)).toEqual([]);
    expect(before.size).toBeGreaterThan(PARTICIPANTS);
  } finally {
    await first.stop();
    await second?.stop();
  }
}

// The embedded drill runs in the suite's PGlite pass; the PostgreSQL pass (TEST_DATABASE_URL) runs
// the one below instead of doing this one twice.
describe.skipIf(!!process.env.TEST_DATABASE_URL)(
  'backup drill, embedded database (npm run backup / npm run restore)',
  () => {
    const root = mkdtempSync(join(tmpdir(), 'attesta-backup-drill-'));
    const dataDir = join(root, 'data');
    const restoredDir = join(root, 'restored');
    const backupDir = join(root, 'backup');
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it(
      'every answer acknowledged before the backup is in the restored database and a server starts on it',
      { timeout: 300_000 },
      async () => {
        await drill({
          async prepare() {
            const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
            try {
              await database.migrate();
              const pool = {
                query: async (text: string, params?: unknown[]) => ({
                  rows: await database.query(text, params),
                }),
              };
              const codes = await (await bench()).seed(pool, PARTICIPANTS, { tasks: TASKS });
              // The data folder's generated session secret: the backup carries it to the restore.
              return { env: { DATA_DIR: dataDir, SESSION_SECRET: undefined }, codes };
            } finally {
              await database.close();
            }
          },
          async backup() {
            // Not from anywhere but a local tool with the token of server.json.
            const port = JSON.parse(
              (await import('node:fs')).readFileSync(join(dataDir, 'server.json'), 'utf8'),
            ).port as number;
            const refused = await fetch(`http://127.0.0.1:${port}/internal/backup/database`);
            expect(refused.status).toBe(403);
            const wrong = await fetch(`http://127.0.0.1:${port}/internal/backup/database`, {
              headers: { 'x-attesta-local-token': 'not-the-token-of-this-server' },
            });
            expect(wrong.status).toBe(403);

            const r = await runTool('backup', 'src/backup/backup.cli.ts', [backupDir], { DATA_DIR: dataDir });
            expect(r.status, r.stderr).toBe(0);
            expect(r.stderr).toMatch(/by the running server/);
            // A restore never goes over the database of a running server.
            const over = await runTool('restore', 'src/backup/restore.cli.ts', [backupDir], {
              DATA_DIR: dataDir,
            });
            expect(over.status).toBe(1);
            expect(over.stderr).toMatch(/is running on/);
          },
          async restore() {
            const r = await runTool('restore', 'src/backup/restore.cli.ts', [backupDir], {
              DATA_DIR: restoredDir,
            });
            expect(r.status, r.stderr).toBe(0);
            expect(existsSync(join(restoredDir, 'pglite', 'PG_VERSION'))).toBe(true);
            // The restored folder holds a database now: a second restore refuses to go over it.
            const again = await runTool('restore', 'src/backup/restore.cli.ts', [backupDir], {
              DATA_DIR: restoredDir,
            });
            expect(again.status).toBe(1);
            expect(again.stderr).toMatch(/holds a database already/);
            expect(existsSync(join(restoredDir, '.session-secret'))).toBe(true);
            return { DATA_DIR: restoredDir, SESSION_SECRET: undefined };
          },
          async restoredAnswers() {
            const database = await openDatabase({ dataDir: join(restoredDir, 'pglite') });
            try {
              return await database.query('select exam_work_id, variant_task_id, seq from answers');
            } finally {
              await database.close();
            }
          },
        });
      },
    );
  },
);

// PostgreSQL: TEST_DATABASE_URL names a server where databases may be created (CI sets it).
const PG = process.env.TEST_DATABASE_URL;
const pgTools =
  spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;
if (!PG) console.info('backup drill on PostgreSQL skipped: it needs TEST_DATABASE_URL (a PostgreSQL server)');
else if (!pgTools && process.env.CI !== 'true')
  console.info(
    'backup drill on PostgreSQL skipped: pg_dump and pg_restore are not installed (postgresql-client)',
  );

describe.skipIf(!PG || (!pgTools && process.env.CI !== 'true'))(
  'backup drill, PostgreSQL (pg_dump / pg_restore)',
  () => {
    const stamp = `${process.pid}_${Date.now()}`;
    const source = `attesta_drill_${stamp}`;
    const restored = `attesta_drill_${stamp}_restored`;
    const root = mkdtempSync(join(tmpdir(), 'attesta-pg-drill-'));
    const dumpFile = join(root, 'attesta.dump');
    const urlOf = (name: string) => {
      const url = new URL(PG!);
      url.pathname = `/${name}`;
      return url.toString();
    };
    const admin = async <T>(run: (client: pg.Client) => Promise<T>) => {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      try {
        return await run(client);
      } finally {
        await client.end();
      }
    };
    afterAll(async () => {
      await admin(async (c) => {
        await c.query(`drop database if exists ${source} with (force)`);
        await c.query(`drop database if exists ${restored} with (force)`);
      });
      rmSync(root, { recursive: true, force: true });
    });

    it(
      'every answer acknowledged before pg_dump started is in the pg_restore of it and a server starts on it',
      { timeout: 300_000 },
      async () => {
        await drill({
          async prepare() {
            await admin((c) => c.query(`create database ${source}`));
            const database = await openDatabase({ url: urlOf(source), poolSize: 2 });
            try {
              await database.migrate();
              const pool = {
                query: async (text: string, params?: unknown[]) => ({
                  rows: await database.query(text, params),
                }),
              };
              const codes = await (await bench()).seed(pool, PARTICIPANTS, { tasks: TASKS });
              return { env: { DATABASE_URL: urlOf(source), DATA_DIR: join(root, 'data1') }, codes };
            } finally {
              await database.close();
            }
          },
          async backup() {
            // pg_dump reads one snapshot taken as it starts: that is its recovery point.
            const r = await run('pg_dump', [
              '--format=custom',
              `--file=${dumpFile}`,
              `--dbname=${urlOf(source)}`,
            ]);
            expect(r.status, r.stderr).toBe(0);
          },
          async restore() {
            await admin((c) => c.query(`create database ${restored}`));
            const r = await run('pg_restore', [
              '--exit-on-error',
              '--no-owner',
              `--dbname=${urlOf(restored)}`,
              dumpFile,
            ]);
            expect(r.status, r.stderr).toBe(0);
            return { DATABASE_URL: urlOf(restored), DATA_DIR: join(root, 'data2') };
          },
          async restoredAnswers() {
            const client = new pg.Client({ connectionString: urlOf(restored) });
            await client.connect();
            try {
              return (await client.query('select exam_work_id, variant_task_id, seq from answers')).rows;
            } finally {
              await client.end();
            }
          },
        });
      },
    );
  },
);
