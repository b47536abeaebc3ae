import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueItems } from '../src/db/schema/index.js';
import { RESULT_JOB } from '../src/modules/exam-results/results.service.js';
import { createRoom, T, type Room } from '../src/modules/exam-test/test-support.js';
import {
  createSchoolWithStaff,
  createTestApp,
  databaseUrlOf,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from './helpers.js';
import { freePort } from './processes.js';
import { openStream } from './sse.js';

// Two real server processes on one PostgreSQL and one Redis, as production runs them behind a
// load balancer: sessions work on both, saves alternating between them lose nothing, a log off on
// one is refused at once on the other, a live-monitoring event from one reaches a watcher on the
// other, and each queue item runs once.

const PG = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
if (!PG || !REDIS)
  console.info(
    'multi-instance test skipped: it needs TEST_DATABASE_URL and TEST_REDIS_URL (a PostgreSQL server and Redis)',
  );
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Instance {
  url: string;
  child: ChildProcess;
  output: string[];
}

async function startInstance(databaseUrl: string, dataDir: string): Promise<Instance> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: REDIS,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      // Info: each instance logs the queue items it ran ('job done'), so the test sees who ran what.
      LOG_LEVEL: 'info',
      SESSION_SECRET: 'multi-instance-test-secret-0123456789abcdef',
      JOBS_POLL_INTERVAL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`instance exited ${child.exitCode}: ${output.join('')}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child, output };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`instance did not start: ${output.join('')}`);
}

async function stopInstance(instance: Instance | undefined) {
  if (!instance || instance.child.exitCode !== null) return;
  const exited = new Promise((r) => instance.child.once('exit', r));
  instance.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
}

/** A call over real HTTP to one instance, as a browser with the session cookie makes it. */
async function call(instance: Instance, session: Session, method: string, path: string, body?: unknown) {
  const res = await fetch(instance.url + path, {
    method,
    headers: { ...session.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: () => JSON.parse(text) as Record<string, unknown>, text };
}

describe.skipIf(!PG || !REDIS)('two server processes on one PostgreSQL and Redis', () => {
  let t: TestApp;
  let a: Instance;
  let b: Instance;
  let dataDir: string;
  let school: SchoolWithStaff;

  beforeAll(async () => {
    // Fixtures are written through an in-process app on the same database; the two instances
    // under test are separate processes that only share PostgreSQL and Redis with it.
    t = await createTestApp();
    school = await createSchoolWithStaff(t.app);
    dataDir = mkdtempSync(join(tmpdir(), 'attesta-multi-'));
    const url = databaseUrlOf(t.database)!;
    [a, b] = await Promise.all([startInstance(url, dataDir), startInstance(url, dataDir)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
    await t?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const startOn = async (instance: Instance, room: Room) => {
    const res = await call(instance, room.session, 'POST', '/api/exam/test/examwork/new', {});
    expect(res.status, res.text).toBe(200);
    return res.json().id as number;
  };

  it('a session works on both; saves alternating between them lose nothing', async () => {
    const room = await createRoom(t.app, school);
    for (const instance of [a, b])
      expect((await call(instance, room.session, 'GET', '/api/user')).status).toBe(200);
    const workId = await startOn(a, room);
    const taskIds = [room.variantTaskIds[T.short]!, room.variantTaskIds[T.extended]!];

    // 80 saves, alternating instances, two at a time (two tasks in flight at once).
    const last = new Map<number, { value: string; seq: number }>();
    for (let seq = 1; seq <= 40; seq++) {
      await Promise.all(
        taskIds.map(async (variantTaskId, i) => {
          const instance = (seq + i) % 2 ? a : b;
          const value = `ответ ${seq} на ${i}`;
          const res = await call(instance, room.session, 'PUT', '/api/exam/test/saveanswer', {
            examWorkId: workId,
            variantTaskId,
            value,
            seq,
          });
          expect(res.status, res.text).toBe(200);
          last.set(variantTaskId, { value, seq });
        }),
      );
    }
    for (const instance of [a, b]) {
      const state = await call(instance, room.session, 'GET', `/api/exam/test/examwork/${workId}`);
      const answers = state.json().answers as { variantTaskId: number; value: unknown; seq: number }[];
      for (const variantTaskId of taskIds)
        expect(answers.find((x) => x.variantTaskId === variantTaskId)).toMatchObject(
          last.get(variantTaskId)!,
        );
    }
  });

  it('a log off on one instance is refused at once on the other', async () => {
    const room = await createRoom(t.app, school);
    // Both instances have the session in memory.
    for (const instance of [a, b])
      expect((await call(instance, room.session, 'GET', '/api/user')).status).toBe(200);
    expect((await call(a, room.session, 'POST', '/api/Account/LogOff', {})).status).toBe(200);
    const after = await call(b, room.session, 'GET', '/api/user');
    expect(after.status).toBe(401);
  });

  it('a live-monitoring event from one instance reaches a watcher on the other', async () => {
    const room = await createRoom(t.app, school);
    const workId = await startOn(a, room);
    const stream = await openStream(
      b.url,
      `/api/monitoring/room/stream?diagnosticId=${room.diagnosticId}&classId=${room.org.classId}`,
      school.organizator.session,
    );
    try {
      await stream.next((e) => e.event === 'snapshot', 10_000);
      const saved = await call(a, room.session, 'PUT', '/api/exam/test/saveanswer', {
        examWorkId: workId,
        variantTaskId: room.variantTaskIds[T.short]!,
        value: 'через два процесса',
        seq: 1,
      });
      expect(saved.status).toBe(200);
      const event = await stream.next(
        (e) =>
          e.event === 'work' &&
          (e.data as { kind: string; row: { participantTestId: number } }).kind === 'answer_saved' &&
          (e.data as { row: { participantTestId: number } }).row.participantTestId === room.participantTestId,
        5000,
      );
      expect((event.data as { row: { answered: number } }).row.answered).toBe(1);
    } finally {
      await stream.close();
    }
  });

  it('each queue item runs once, whichever instance claims it', async () => {
    const rooms = await Promise.all(Array.from({ length: 12 }, () => createRoom(t.app, school)));
    const workIds: number[] = [];
    for (const [i, room] of rooms.entries()) workIds.push(await startOn(i % 2 ? a : b, room));
    // Finished together, so a dozen result jobs are due at once and both instances' pollers
    // (every 50 ms, at once again after a job) find work.
    const finished = await Promise.all(
      rooms.map((room, i) =>
        call(i % 2 ? a : b, room.session, 'PUT', `/api/exam/test/examwork/finish/${workIds[i]}/manual`),
      ),
    );
    for (const f of finished) expect(f.status, f.text).toBe(200);
    const itemsOf = () =>
      t.app.ctx.db
        .select()
        .from(queueItems)
        .where(
          and(
            eq(queueItems.type, RESULT_JOB),
            inArray(
              queueItems.dedupeKey,
              workIds.map((id) => `result:${id}`),
            ),
          ),
        );
    await expect
      .poll(async () => (await itemsOf()).filter((q) => q.status === 'done').length, { timeout: 30_000 })
      .toBe(workIds.length);
    const items = await itemsOf();
    expect(items).toHaveLength(workIds.length);
    for (const item of items) expect(item.attempts, `queue item ${item.id}`).toBe(1);

    // Who ran what, by each instance's own log ('job done' names one item, 'batch done' the items
    // of a scoring batch): every item exactly once. Result jobs go in batches of up to 200, so one
    // instance may well take all twelve in one claim; which one does is not the point.
    const ids = new Set(items.map((q) => q.id));
    const ranBy = (instance: Instance) =>
      instance.output
        .join('')
        .split('\n')
        .flatMap((line) => {
          try {
            const entry = JSON.parse(line) as { msg?: string; queueItemId?: number; queueItemIds?: number[] };
            const ran =
              entry.msg === 'job done'
                ? [entry.queueItemId!]
                : entry.msg === 'batch done'
                  ? (entry.queueItemIds ?? [])
                  : [];
            return ran.filter((id) => ids.has(id));
          } catch {
            return [];
          }
        });
    const byA = ranBy(a);
    const byB = ranBy(b);
    expect([...byA, ...byB].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
  });
});
