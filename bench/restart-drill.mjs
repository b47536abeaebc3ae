// The restart drill (issue 29, item 4): two server instances behind a round-robin balancer on one
// PostgreSQL and one Redis, participants saving at BENCH_RATE (1,000/s); each instance in turn is
// asked to stop (SIGTERM, SHUTDOWN_DRAIN_MS) and started again, then one is killed (SIGKILL) and
// started again. The participants save as the web runner's outbox does (one change after another;
// network errors, 408, 429 and 5xx kept and retried with backoff 1 s, 2 s, 4 s … 30 s, Retry-After
// honoured; any other answer is an error the participant is shown and must act on). Reported: the
// errors participants were shown, the retries the outbox hid, answers lost (every acknowledged save
// reconciled against the database), and per event the time until nothing waited longer than a
// second and the instance was back in the balancer.
//
// With --outages it goes on (issue 29, item 5): Redis stopped for OUTAGE_SECONDS (redis-cli
// shutdown nosave; started again as the machine starts it), then PostgreSQL cut for as long (the
// instances reach PostgreSQL through a TCP relay of this script, which refuses and drops
// connections for that time: the shared server itself is never stopped).
//
//   npm run bench:restart            # builds the server, then node bench/restart-drill.mjs
//   node bench/restart-drill.mjs --outages
// Env: BENCH_DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test; the
//      database attesta_drill_restart is created afresh), BENCH_REDIS_URL (redis://127.0.0.1:6379),
//      BENCH_RATE (1000 saves/s), DRILL_PARTICIPANTS (500), DRILL_STEADY_SECONDS (10: load between
//      events), SHUTDOWN_DRAIN_MS (3000), DRILL_PROBE_MS (500: the balancer's readiness probe; 2 s timeout, out after two misses),
//      OUTAGE_SECONDS (10), DRILL_RESULT (a file for the JSON result).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, createServer as createHttpServer, request as httpRequest } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  call,
  freePort,
  percentile,
  reconcile,
  schoolAddress,
  seed,
  startParticipant,
  startServer,
} from './run.mjs';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const PARTICIPANTS = Number(process.env.DRILL_PARTICIPANTS ?? 500);
const STEADY_SECONDS = Number(process.env.DRILL_STEADY_SECONDS ?? 10);
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 3000);
const PROBE_MS = Number(process.env.DRILL_PROBE_MS ?? 500);
const PROBE_TIMEOUT_MS = 2000;
const OUTAGE_SECONDS = Number(process.env.OUTAGE_SECONDS ?? 10);
const OUTAGES = process.argv.includes('--outages');
const DB = 'attesta_drill_restart';
const TASKS = 10;
const log = (...args) => console.error('[drill]', ...args);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const t0 = performance.now();
const now = () => performance.now() - t0;

/** `n` ports free now and different from each other (each held until all are found). */
async function distinctPorts(n) {
  const servers = [];
  for (let i = 0; i < n; i++) {
    const srv = createTcpServer();
    await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
    servers.push(srv);
  }
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/**
 * A TCP relay to PostgreSQL that can be cut: while cut it drops every open connection and refuses
 * (closes at once) new ones, as a database that went away does.
 */
function cuttableRelay(targetHost, targetPort) {
  const sockets = new Set();
  let cut = false;
  const server = createTcpServer((client) => {
    if (cut) return client.destroy();
    const upstream = connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  return {
    async listen() {
      const port = await freePort();
      await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
      return port;
    },
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * The balancer: round-robin over the backends its readiness probe (GET /health/ready every
 * PROBE_MS) finds ready; none ready → all of them. A request that fails on its way to a backend
 * (connection refused, or reset — a kept-alive connection the backend closed as it stopped) goes
 * to the next one, as nginx's default `proxy_next_upstream error timeout` does for every method
 * but POST, LOCK and PATCH once the request was sent (a save is a PUT, idempotent by its seq);
 * otherwise a failure is a 502 to the participant, whose outbox retries it.
 */
function balancer(backends) {
  const state = backends.map((b) => ({ ...b, ready: false }));
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  let probing = true;
  const probe = async () => {
    while (probing) {
      await Promise.all(
        state.map(async (b) => {
          // 200 → ready; an answer of 503 (draining, database down) → out at once; no answer within
          // PROBE_TIMEOUT_MS twice in a row → out (one slow answer on a busy machine is not an outage).
          const answer = await new Promise((resolve) => {
            const req = httpRequest(
              `http://127.0.0.1:${b.port}/health/ready`,
              { timeout: PROBE_TIMEOUT_MS },
              (res) => {
                res.resume();
                resolve(res.statusCode);
              },
            );
            req.on('timeout', () => req.destroy());
            req.on('error', () => resolve(0));
            req.end();
          });
          b.misses = answer === 0 ? (b.misses ?? 0) + 1 : 0;
          const ok = answer === 200 || (answer === 0 && b.ready && b.misses < 2);
          if (ok !== b.ready)
            log(`balancer: ${b.name} ${ok ? 'ready' : 'not ready'} at ${round(now() / 1000)} s`);
          b.ready = ok;
        }),
      );
      await sleep(PROBE_MS);
    }
  };
  const pick = (exclude) => {
    const ready = state.filter((b) => b.ready && !exclude.has(b));
    const pool = ready.length ? ready : state.filter((b) => !exclude.has(b));
    if (!pool.length) return null;
    return pool[next++ % pool.length];
  };
  const server = createHttpServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set();
      const send = () => {
        const b = pick(tried);
        if (!b) {
          res.writeHead(502).end();
          return;
        }
        tried.add(b);
        let sent = false;
        const up = httpRequest(
          { host: '127.0.0.1', port: b.port, method: req.method, path: req.url, headers: req.headers, agent },
          (upRes) => {
            res.writeHead(upRes.statusCode, upRes.headers);
            upRes.pipe(res);
          },
        );
        up.on('socket', (s) => {
          if (s.connecting) s.once('connect', () => (sent = true));
          else sent = true;
        });
        up.on('error', () => {
          const retryable = !sent || !['POST', 'LOCK', 'PATCH'].includes(req.method);
          if (retryable && !res.headersSent && tried.size < state.length) send();
          else if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        up.end(body);
      };
      send();
    });
  });
  return {
    state,
    async listen() {
      const port = await freePort();
      await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
      void probe();
      return port;
    },
    close() {
      probing = false;
      agent.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Retryable as the runner's outbox classifies it (web/src/features/exam-runner/lib/outbox.ts). */
const retryable = (status) => status === 0 || status === 408 || status === 429 || status >= 500;

/**
 * One participant's outbox: a change every `everyMs` (task after task), sent one after another;
 * retryable failures wait 1 s, 2 s, 4 s … 30 s (Retry-After honoured) and are sent again.
 */
function participant(flow, index, everyMs, stats, acked) {
  const queue = [];
  let seq = 0;
  let running = true;
  let failures = 0;
  let offlineShown = false;
  let lastFailureAt = -1;
  let wake = null;
  const change = () => {
    seq++;
    queue.push({ taskId: flow.taskIds[seq % flow.taskIds.length], seq, at: now() });
    wake?.();
  };
  const maker = (async () => {
    await sleep(Math.random() * everyMs);
    while (running) {
      change();
      await sleep(everyMs);
    }
  })();
  const sender = (async () => {
    for (;;) {
      if (!queue.length) {
        if (!running) return;
        await new Promise((r) => (wake = r));
        wake = null;
        continue;
      }
      // One change → PUT saveanswer; several waiting (after a failure) → PUT saveanswers, the newest
      // change of each task, at most 200 (the outbox's batches).
      const latest = new Map();
      for (const e of queue) latest.set(e.taskId, e);
      const batch = [...latest.values()].slice(0, 200);
      const entry = queue[0];
      let status = 0;
      let retryAfter = null;
      let results = null;
      try {
        const one = batch.length === 1;
        const res = await call(
          flow.base,
          'PUT',
          one ? '/api/exam/test/saveanswer' : '/api/exam/test/saveanswers',
          flow.headers,
          JSON.stringify(
            one
              ? {
                  examWorkId: flow.examWorkId,
                  variantTaskId: entry.taskId,
                  value: `ответ ${index}.${entry.seq}`,
                  seq: entry.seq,
                }
              : {
                  examWorkId: flow.examWorkId,
                  answers: batch.map((e) => ({
                    variantTaskId: e.taskId,
                    value: `ответ ${index}.${e.seq}`,
                    seq: e.seq,
                  })),
                },
          ),
          flow.address,
        );
        status = res.status;
        retryAfter = res.headers['retry-after'] ? Number(res.headers['retry-after']) : null;
        if (status !== 200) stats.statusSamples.add(`${status} ${res.text.slice(0, 120)}`);
        else
          results = one
            ? [{ variantTaskId: entry.taskId, status: 'saved', seq: entry.seq }]
            : res.json().results;
      } catch (err) {
        stats.statusSamples.add(String(err.code ?? err.message));
      }
      stats.attempts++;
      if (status === 200) {
        failures = 0;
        const sentSeq = new Map(batch.map((e) => [e.taskId, e.seq]));
        for (const r of results) {
          if (r.status === 'stale') stats.actionErrors++;
          const key = `${flow.examWorkId}:${r.variantTaskId}`;
          const seq = sentSeq.get(r.variantTaskId);
          if (r.status !== 'stale' && (acked.get(key) ?? 0) < seq) acked.set(key, seq);
        }
        // Every change of a sent task up to the seq sent is saved (an older one is overwritten).
        for (let k = queue.length - 1; k >= 0; k--) {
          const e = queue[k];
          if ((sentSeq.get(e.taskId) ?? 0) >= e.seq) {
            stats.saved++;
            stats.waits.push(now() - e.at);
            queue.splice(k, 1);
          }
        }
        stats.requests++;
      } else if (retryable(status)) {
        lastFailureAt = now();
        stats.retried++;
        if (!offlineShown) stats.offlineParticipants++;
        offlineShown = true;
        failures++;
        const delay = retryAfter !== null ? retryAfter * 1000 : Math.min(30_000, 1000 * 2 ** (failures - 1));
        await sleep(delay);
      } else {
        // An answer the participant is shown and must act on (409 stale, 401, 403, 4xx …).
        queue.shift();
        stats.actionErrors++;
      }
    }
  })();
  return {
    /** Whether a save of this participant failed (the runner showing «Нет связи») since `at`. */
    failedSince: (at) => lastFailureAt >= at,
    oldestWaitMs: () => (queue.length ? now() - queue[0].at : 0),
    pending: () => queue.length,
    async stop() {
      running = false;
      wake?.();
      await maker;
      await sender;
    },
  };
}

async function freshDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
}

const redisCli = (...args) => spawnSync('redis-cli', ['-u', redisUrl, ...args], { encoding: 'utf8' });
function startRedis() {
  // As the machine starts it (no persistence: a cache and a message bus only).
  const r = spawnSync(
    'redis-server',
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '-::1',
      '--port',
      String(new URL(redisUrl).port || 6379),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      '/var/lib/redis',
      '--logfile',
      '/var/log/redis/ci.log',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`redis-server: ${r.stderr}`);
}

async function main() {
  await freshDatabase();
  const pgUrl = new URL(adminUrl);
  const relay = cuttableRelay(pgUrl.hostname, Number(pgUrl.port || 5432));
  const relayPort = await relay.listen();
  const dbUrl = new URL(adminUrl);
  dbUrl.host = `127.0.0.1:${relayPort}`;
  dbUrl.pathname = `/${DB}`;
  const databaseUrl = dbUrl.toString();
  const env = {
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `drill${Date.now()}:`,
    DATABASE_POOL_SIZE: '20',
  };
  const ports = await distinctPorts(2);
  const instances = [
    { name: 'A', port: ports[0] },
    { name: 'B', port: ports[1] },
  ];
  // Both at once on a database no migration has touched: the migration lock lets one migrate.
  log('starting two instances together on a fresh database');
  const startedAt = now();
  const children = await Promise.all(instances.map((i) => startServer(databaseUrl, { port: i.port, env })));
  instances.forEach((inst, k) => started.add((inst.child = children[k].child)));
  const migrationsTogether = { seconds: round((now() - startedAt) / 1000), ok: true };
  const direct = new URL(adminUrl);
  direct.pathname = `/${DB}`;
  const pool = new pg.Pool({ connectionString: direct.toString(), max: 4 });
  const { rows: migrated } = await pool.query('select count(*)::int as n from drizzle.__drizzle_migrations');
  migrationsTogether.migrations = migrated[0].n;
  log(`both ready in ${migrationsTogether.seconds} s; ${migrated[0].n} migrations applied once`);

  // A few more codes than participants: a new participant logs in during each outage.
  const allCodes = await seed(pool, PARTICIPANTS + 4, { tasks: TASKS });
  const codes = allCodes.slice(0, PARTICIPANTS);
  const spareCodes = allCodes.slice(PARTICIPANTS);
  /** A participant arriving now: what its start (login, work, variant) answers. */
  const arrival = async () => {
    const i = PARTICIPANTS + spareCodes.length;
    const t = now();
    try {
      await Promise.race([
        startParticipant(base, spareCodes.pop(), `drill-late-${i}`, schoolAddress(i)),
        sleep(30_000).then(() => Promise.reject(new Error('no answer in 30 s'))),
      ]);
      return `started in ${round((now() - t) / 1000)} s`;
    } catch (err) {
      return `failed after ${round((now() - t) / 1000)} s: ${String(err.message ?? err).slice(0, 160)}`;
    }
  };
  const lb = balancer(instances);
  const base = `http://127.0.0.1:${await lb.listen()}`;
  while (!lb.state.every((b) => b.ready)) await sleep(100);

  log(`starting ${PARTICIPANTS} participants`);
  const flows = [];
  for (let i = 0; i < codes.length; i += 25)
    flows.push(
      ...(await Promise.all(
        codes
          .slice(i, i + 25)
          .map((code, k) => startParticipant(base, code, `drill-${i + k}`, schoolAddress(i + k))),
      )),
    );

  const stats = {
    attempts: 0,
    requests: 0,
    saved: 0,
    retried: 0,
    actionErrors: 0,
    offlineParticipants: 0,
    waits: [],
    statusSamples: new Set(),
    lastAckAt: 0,
  };
  const acked = new Map();
  const everyMs = (PARTICIPANTS / RATE) * 1000;
  const people = flows.map((f, i) => participant(f, i, everyMs, stats, acked));
  const oldestWait = () => Math.max(...people.map((p) => p.oldestWaitMs()));
  const loadStarted = now();

  /**
   * An event: `act` does it (and starts the instance again); from its first moment the longest a
   * pending change has waited is sampled, until the instance is back in the balancer and that wait
   * is down to what it is under steady load (its p99 there, at least a second).
   */
  let steadyWait = 1000;
  async function event(name, instance, act) {
    const at = now();
    const savedBefore = stats.saved;
    const retriedBefore = stats.retried;
    let worst = 0;
    let acting = true;
    const sampler = (async () => {
      while (acting) {
        worst = Math.max(worst, oldestWait());
        await sleep(100);
      }
    })();
    const extra = (await act()) ?? {};
    for (;;) {
      const back = lb.state.find((b) => b.name === instance.name).ready;
      if (back && oldestWait() <= steadyWait && now() - at > 1000) break;
      if (now() - at > 180_000) throw new Error(`${name}: not recovered in 180 s`);
      await sleep(100);
    }
    acting = false;
    await sampler;
    const figures = {
      event: name,
      recoveredSeconds: round((now() - at) / 1000),
      longestWaitSeconds: round(worst / 1000),
      savesMeanwhile: stats.saved - savedBefore,
      retriesMeanwhile: stats.retried - retriedBefore,
      participantsShownOffline: people.filter((p) => p.failedSince(at)).length,
      ...extra,
    };
    log(JSON.stringify(figures));
    return figures;
  }
  const steadyWaits = [];
  const steady = async () => {
    const before = { saved: stats.saved, at: now() };
    const end = now() + STEADY_SECONDS * 1000;
    while (now() < end) {
      steadyWaits.push(oldestWait());
      await sleep(100);
    }
    const rate = round((stats.saved - before.saved) / ((now() - before.at) / 1000));
    log(`steady: ${rate} saves/s`);
    return rate;
  };

  const events = [];
  const steadyRates = [await steady()];
  steadyWait = Math.max(
    1000,
    percentile(
      [...steadyWaits].sort((a, b) => a - b),
      99,
    ),
  );
  log(`steady: the longest wait of a change under load, p99 ${round(steadyWait)} ms`);
  for (const inst of instances) {
    events.push(
      await event(`SIGTERM ${inst.name}`, inst, async () => {
        const at = now();
        const exited = new Promise((r) => inst.child.once('exit', r));
        inst.child.kill('SIGTERM');
        const exitCode = await exited;
        const drainAndExitSeconds = round((now() - at) / 1000);
        const { child } = await startServer(databaseUrl, { port: inst.port, env });
        started.add((inst.child = child));
        return { exitCode, drainAndExitSeconds };
      }),
    );
    steadyRates.push(await steady());
  }
  {
    const inst = instances[0];
    events.push(
      await event(`SIGKILL ${inst.name}`, inst, async () => {
        const exited = new Promise((r) => inst.child.once('exit', r));
        inst.child.kill('SIGKILL');
        await exited;
        // An orchestrator starts a dead instance again; this one does so at once.
        const { child } = await startServer(databaseUrl, { port: inst.port, env });
        started.add((inst.child = child));
      }),
    );
    steadyRates.push(await steady());
  }

  const outages = [];
  if (OUTAGES) {
    /** What the participants and a new arrival saw while `down` lasted, then `up` again. */
    const outage = (name, down, up) =>
      event(name, instances[0], async () => {
        const at = now();
        const before = { saved: stats.saved, retried: stats.retried, actionErrors: stats.actionErrors };
        down();
        await sleep(2000);
        const newParticipant = await arrival();
        await sleep(Math.max(0, OUTAGE_SECONDS * 1000 - (now() - at)));
        const duringOutage = {
          saved: stats.saved - before.saved,
          retried: stats.retried - before.retried,
          actionErrors: stats.actionErrors - before.actionErrors,
        };
        const readiness = lb.state.map((b) => `${b.name}: ${b.ready ? 'ready' : 'not ready'}`).join(', ');
        const processes = instances
          .map((i) => `${i.name}: ${i.child.exitCode === null ? 'running' : `exited ${i.child.exitCode}`}`)
          .join(', ');
        up();
        // An instance that exited meanwhile is started again, as an orchestrator would.
        for (const inst of instances)
          if (inst.child.exitCode !== null) {
            const { child } = await startServer(databaseUrl, { port: inst.port, env });
            started.add((inst.child = child));
          }
        return { outageSeconds: OUTAGE_SECONDS, duringOutage, readiness, processes, newParticipant };
      });
    const redis = await outage(
      'Redis stopped',
      () => redisCli('shutdown', 'nosave'),
      () => startRedis(),
    );
    redis.afterwards = await arrival();
    // What each instance's readiness says of Redis once it is back.
    redis.healthAfter = await Promise.all(
      instances.map(async (i) => {
        const res = await fetch(`http://127.0.0.1:${i.port}/health/ready`).catch(() => null);
        return `${i.name}: ${res ? `${res.status} ${await res.text()}` : 'no answer'}`;
      }),
    );
    outages.push(redis);
    steadyRates.push(await steady());
    const database = await outage(
      'PostgreSQL cut',
      () => relay.cut(),
      () => relay.restore(),
    );
    database.afterwards = await arrival();
    outages.push(database);
    steadyRates.push(await steady());
  }

  log('stopping the load; waiting for every pending change');
  const loadSeconds = (now() - loadStarted) / 1000;
  await Promise.race([Promise.all(people.map((p) => p.stop())), sleep(120_000)]);
  const left = people.reduce((n, p) => n + p.pending(), 0);
  const { acknowledgedKeys, missing } = await reconcile(pool, acked);
  stats.waits.sort((a, b) => a - b);
  const result = {
    participants: PARTICIPANTS,
    targetRate: RATE,
    drainMs: DRAIN_MS,
    probeMs: PROBE_MS,
    migrationsTogether,
    steadyLongestWaitP99Ms: round(steadyWait),
    loadAverage: loadavg().map((n) => round(n, 2)),
    loadSeconds: round(loadSeconds),
    saves: stats.saved,
    savesPerSecond: round(stats.saved / loadSeconds),
    steadyRates,
    waitP50: round(percentile(stats.waits, 50)),
    waitP99: round(percentile(stats.waits, 99)),
    waitMax: round(stats.waits.at(-1) ?? 0),
    retriedAttempts: stats.retried,
    participantsShownOffline: stats.offlineParticipants,
    errorsNeedingAction: stats.actionErrors,
    pendingAtEnd: left,
    acknowledgedKeys,
    lost: missing,
    events,
    outages,
    failureSamples: [...stats.statusSamples].slice(0, 10),
  };
  console.log(JSON.stringify(result, null, 2));
  if (process.env.DRILL_RESULT)
    writeFileSync(process.env.DRILL_RESULT, JSON.stringify(result, null, 2) + '\n');

  await lb.close();
  for (const inst of instances) if (inst.child.exitCode === null) inst.child.kill('SIGTERM');
  await Promise.all(
    instances.map((i) => (i.child.exitCode === null ? new Promise((r) => i.child.once('exit', r)) : null)),
  );
  await pool.end();
  await relay.close();
  if (missing || stats.actionErrors || left) process.exitCode = 1;
  // Nothing else to wait for (keep-alive agents of the load generator).
  setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
}

/** Server processes this drill started: never left running when it stops. */
const started = new Set();
process.on('exit', () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
