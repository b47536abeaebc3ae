// The start flow's cost, repeatable on a busy machine (issue 24, item 7): one server process
// (server/dist, or BENCH_SERVER_ENTRY's build) on a fresh PostgreSQL database; N participants each
// log in by code → POST examwork/new → GET variant/current, at most BENCH_FLOW_CONCURRENCY at once
// (a closed loop: the machine's load changes how long it takes, not what each flow costs). After a
// warm-up it reports per flow:
//   - the server process's CPU (/proc ticks of its pid),
//   - the CPU of the PostgreSQL backends serving this database only (pg_stat_activity's pids;
//     other databases' queries on a shared server are left out),
//   - PostgreSQL transactions of this database (pg_stat_database: one per statement outside a
//     transaction, one per transaction) minus what the server sends when idle (its job runner),
//   - and the load average, since CPU time per operation still rises on a loaded machine.
// Usage: npm run build -w server && node bench/start-flow.mjs
//   BENCH_FLOWS (2000), BENCH_FLOW_WARMUP (300), BENCH_FLOW_CONCURRENCY (10),
//   BENCH_FLOW_DATABASE (attesta_bench_flow), BENCH_SERVER_ENTRY, BENCH_DATABASE_URL.
// Statements per flow, counted in-process, are pinned by server/src/modules/exam-test/start-cost.test.ts.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { schoolAddress, seed, startParticipant, startServer } from './run.mjs';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FLOWS = Number(process.env.BENCH_FLOWS ?? 2000);
const WARMUP = Number(process.env.BENCH_FLOW_WARMUP ?? 300);
const CONCURRENCY = Number(process.env.BENCH_FLOW_CONCURRENCY ?? 10);
const DB = process.env.BENCH_FLOW_DATABASE ?? 'attesta_bench_flow';
if (!/^[a-z_][a-z0-9_]*$/.test(DB)) throw new Error(`BENCH_FLOW_DATABASE: not a plain name: ${DB}`);
/** pg_stat_database is flushed by an idle backend within 10 s (PostgreSQL 15). */
const STATS_FLUSH_MS = 11_000;
const TICK_MS = 10;
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const log = (...args) => console.error('[start-flow]', ...args);

/** A process's CPU ticks: user, system. */
function ticksOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return [Number(f[11]), Number(f[12])];
  } catch {
    return [0, 0];
  }
}
const ticks = (pid) => ticksOf(pid).reduce((a, b) => a + b, 0);

async function freshDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${DB}`;
  return url.toString();
}

async function snapshot(client, serverPid) {
  const own = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
  const backends = (
    await client.query('select pid from pg_stat_activity where datname = $1 and pid <> $2', [DB, own])
  ).rows.map((r) => r.pid);
  const stats = (
    await client.query(
      'select xact_commit + xact_rollback as xacts, tup_inserted, tup_updated from pg_stat_database where datname = $1',
      [DB],
    )
  ).rows[0];
  return {
    at: performance.now(),
    server: ticks(serverPid) * TICK_MS,
    serverSystem: ticksOf(serverPid)[1] * TICK_MS,
    backends: new Map(backends.map((pid) => [pid, ticks(pid) * TICK_MS])),
    xacts: Number(stats.xacts),
    inserted: Number(stats.tup_inserted),
    updated: Number(stats.tup_updated),
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function flows(base, codes, offset) {
  let next = 0;
  const times = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < codes.length) {
        const i = next++;
        const f = await startParticipant(base, codes[i], `flow-${offset + i}`, schoolAddress(offset + i));
        times.push(f.timings.flow);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

async function main() {
  const url = await freshDatabase();
  const { child, base } = await startServer(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const seeder = new pg.Pool({ connectionString: url, max: 4 });
    const codes = await seed(seeder, WARMUP + FLOWS, { tasks: 20, expertTasks: 2 });
    await seeder.end();
    log(`seeded ${codes.length}; warm-up of ${WARMUP} flows`);
    await flows(base, codes.slice(0, WARMUP), 0);
    await sleep(STATS_FLUSH_MS);
    // What the server sends while no participant calls (its job runner, the sweeper): subtracted.
    const idle0 = await snapshot(client, child.pid);
    await sleep(STATS_FLUSH_MS);
    const idle1 = await snapshot(client, child.pid);
    const idleXactsPerMs = (idle1.xacts - idle0.xacts - 1) / (idle1.at - idle0.at);
    const load0 = loadavg()[0];
    log(`measuring ${FLOWS} flows, ${CONCURRENCY} at a time (load average ${load0.toFixed(1)})`);
    const before = await snapshot(client, child.pid);
    const times = await flows(base, codes.slice(WARMUP), WARMUP);
    const ranAt = performance.now();
    const load1 = loadavg()[0];
    await sleep(STATS_FLUSH_MS);
    const after = await snapshot(client, child.pid);
    let pgMs = 0;
    for (const [pid, ms] of after.backends) pgMs += ms - (before.backends.get(pid) ?? 0);
    const lost = [...before.backends.keys()].filter((pid) => !after.backends.has(pid)).length;
    const idleXacts = idleXactsPerMs * (after.at - before.at);
    const out = {
      flows: FLOWS,
      concurrency: CONCURRENCY,
      seconds: round((ranAt - before.at) / 1000, 1),
      loadAverage: [round(load0, 1), round(load1, 1)],
      serverMsPerFlow: round((after.server - before.server) / FLOWS, 3),
      serverSystemShare: round((after.serverSystem - before.serverSystem) / (after.server - before.server)),
      postgresMsPerFlow: round(pgMs / FLOWS, 3),
      backendsLost: lost,
      transactionsPerFlow: round((after.xacts - before.xacts - 1 - idleXacts) / FLOWS, 2),
      idleTransactionsPerSecond: round(idleXactsPerMs * 1000, 2),
      rowsInsertedPerFlow: round((after.inserted - before.inserted) / FLOWS, 2),
      rowsUpdatedPerFlow: round((after.updated - before.updated) / FLOWS, 2),
      flowMs: {
        p50: round(times[Math.floor(times.length * 0.5)], 1),
        p99: round(times[Math.floor(times.length * 0.99)], 1),
      },
      server: process.env.BENCH_SERVER_ENTRY ?? 'server/dist/main.js',
    };
    console.log(JSON.stringify(out));
  } finally {
    await client.end();
    child.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
