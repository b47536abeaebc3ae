// Load benchmark of the answer path and the 10:00 start storm (issue: the exam itself, item 5).
//
// One run measures, on the same machine and database:
//   (a) raw ceiling — the single-row answer upsert the server issues, straight through `pg`;
//   (b) end to end  — PUT /api/exam/test/saveanswer over HTTP with real participant sessions
//                     (unthrottled, and at a fixed 1,000 saves/s);
//   (c) start storm — N participants: login by code → examwork/new → variant/current, then the
//                     knee: arrival rates stepped up until the flow's p99 passes 1 s; and the app's
//                     download: N participants fetching only what a browser fetches on a first
//                     visit (bench/app-assets.mjs), then N more downloading it before they start;
//   (d) realistic saves — every storm participant saves on change at most every 5 s;
//   (e) finish storm — the storm's works finished within 10 s, half by the participants, half by
//                     the sweeper at their deadline; time until every one is scored and its
//                     expert-graded answers are assigned to experts;
//   (f) two instances — two server processes on the same PostgreSQL and Redis, participants
//                     spread round-robin: storm knee and unthrottled saves against one process.
// Each phase also reports the CPU it cost per operation (server, PostgreSQL, Redis, the load
// generator) and the WAL it wrote: the capacity model of docs/BENCHMARKS.md is built from them.
// Then it reconciles: every acknowledged save must be in the database.
//
//   npm run bench                       # PostgreSQL at BENCH_DATABASE_URL or 127.0.0.1:5432
//   BENCH_DATABASE_URL='postgres://postgres@localhost/test?host=/var/run/postgresql' npm run bench
//                                       # the same PostgreSQL through its Unix socket
//   npm run bench -- --write-docs       # also rewrites the results section of docs/BENCHMARKS.md
// Env: BENCH_DATABASE_URL (admin URL; a fresh database attesta_bench is created, or
//      BENCH_DATABASE_NAME: two benches on one PostgreSQL must not share it), BENCH_SECONDS (10),
//      BENCH_CONNECTIONS (50), BENCH_STORM (2000), BENCH_STORM_SECONDS (10), BENCH_RATE (1000),
//      BENCH_REDIS_URL (optional: the server caches sessions in Redis, as production does),
//      BENCH_ONLY=storm|saves|finish (only the start storm, or only (a) and (b), or the start storm,
//      the realistic saves that answer the expert-graded tasks and the finish storm, e.g. to profile
//      them), BENCH_KNEE_RATES (100,200,…),
//      BENCH_INSTANCES=1 (skip the two-instance phase), BENCH_FINISH_WAIT_SECONDS (120: the finish
//      storm's wait for every work scored), BENCH_SERVER_ENTRY (another server build's
//      dist/main.js, e.g. an earlier commit's, as a same-machine baseline), BENCH_REPORTS=0 (skip (g)),
//      BENCH_SERVER_LOG (a file for the server's log: its slow requests, LOG_SLOW_REQUEST_MS),
//      BENCH_APP=0 (no app download phases; else web/dist must be built: npm run build -w web),
//      BENCH_APP_RECORD=1 (walk the participant's first visit in Chromium again, bench/app-assets.mjs).
// Only the storms with and without the app's download, 500 participants:
//   BENCH_ONLY=storm BENCH_STORM=500 node bench/run.mjs
// (g) last, the reports bench (bench/reports.mjs): the 300,000 × 20 detailed export while saves run
//     at 1,000/s (issue 15, item 4), with its own server and database; then bench/documents.mjs: the
//     protocol, result and code-slip PDFs of one class (issue 24, item 6).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import pg from 'pg';
import { participantAssets, precacheBytes } from './app-assets.mjs';
import { requireBuilt } from './demo-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** How the server reaches PostgreSQL: a `host=` of a directory is its Unix socket. */
const pgTransport = (url) => {
  const host = new URL(url).searchParams.get('host');
  return host && host.startsWith('/') ? `over its Unix socket (${host})` : 'over TCP';
};
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const STORM = Number(process.env.BENCH_STORM ?? 5000);
const STORM_SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SAVERS = Math.max(CONNECTIONS, 200);
/** Tasks of a variant: auto-scored short answers and, last, expert-graded extended texts. */
const TASKS = 20;
const EXPERT_TASKS = 2;
const EXPERTS = 20;
const KNEE_RATES = (process.env.BENCH_KNEE_RATES ?? '100,200,300,400,500,600,800')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const KNEE_STEP_SECONDS = 4;
const REALISTIC_SECONDS = 20;
const REALISTIC_EVERY_SECONDS = 5;
const TWO_INSTANCES = process.env.BENCH_INSTANCES !== '1';
/** How long the finish storm waits for every work to be finished, then scored and assigned. */
const FINISH_WAIT_SECONDS = Number(process.env.BENCH_FINISH_WAIT_SECONDS ?? 120);
const writeDocs = process.argv.includes('--write-docs');
/** The app's download in the start storm (issue 24, item 4): off with BENCH_APP=0. */
const APP = process.env.BENCH_APP !== '0';
/** Requests a browser keeps open at once to one host over HTTP/1.1. */
const BROWSER_CONNECTIONS = 6;

const log = (...args) => console.error('[bench]', ...args);

export function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** The bench's own database, dropped and created anew each run. */
const BENCH_DB = process.env.BENCH_DATABASE_NAME ?? 'attesta_bench';
if (!/^[a-z_][a-z0-9_]*$/.test(BENCH_DB))
  throw new Error(`BENCH_DATABASE_NAME: not a plain name: ${BENCH_DB}`);
async function freshDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${BENCH_DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${BENCH_DB}`;
  return url.toString();
}

/**
 * A server process on `databaseUrl`; `port` (a free one by default) and `env` (added last: e.g.
 * one REDIS_KEY_PREFIX for several instances, SHUTDOWN_DRAIN_MS) for the drills that restart one.
 */
export async function startServer(databaseUrl, { port: fixedPort, env = {} } = {}) {
  // BENCH_SERVER_ENTRY: another build of the server (e.g. an earlier commit's) for a same-machine baseline.
  const entry = process.env.BENCH_SERVER_ENTRY ?? join(root, 'server/dist/main.js');
  if (!existsSync(entry)) throw new Error('server not built: npm run build -w server');
  const port = fixedPort ?? (await freePort());
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server under load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: process.env.BENCH_SERVER_ENTRY ? join(dirname(entry), '../..') : root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-'.padEnd(40, 'x'),
      // Behind the balancer the client's address is the X-Forwarded-For the balancer sets.
      ...(CLIENTS === 'balancer' ? { TRUST_PROXY: '127.0.0.1' } : {}),
      // As in production with several instances: sessions cached in Redis when it is given.
      ...(process.env.BENCH_REDIS_URL
        ? { REDIS_URL: process.env.BENCH_REDIS_URL, REDIS_KEY_PREFIX: `bench${Date.now()}:` }
        : {}),
      ...env,
    },
    // BENCH_SERVER_LOG=<file>: the server's log (its slow requests, LOG_SLOW_REQUEST_MS) kept there.
    stdio: [
      'ignore',
      process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore',
      'inherit',
    ],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start');
}

/**
 * Organisation, one subject test (2 variants of `tasks` tasks: short texts, the last `expertTasks`
 * expert-graded extended texts), `experts` experts of its subject and `count` participant tests
 * with known codes.
 */
export async function seed(pool, count, { tasks = 10, expertTasks = 0, experts = 0 } = {}) {
  const one = async (sql, params) => (await pool.query(sql, params)).rows[0];
  const oo = await one(`insert into oo (name) values ('Bench OO') returning id`);
  const school = await one(
    `insert into schools (oo_id, name, code) values ($1, 'Bench school', 'BENCH') returning id`,
    [oo.id],
  );
  const cls = await one(
    `insert into classes (school_id, parallel_id, letter, name) values ($1, 7, 'А', '7 «А»') returning id`,
    [school.id],
  );
  const subject = await one(`insert into subjects (name, code) values ('Бенчмарк', 'BENCH') returning id`);
  const exam = await one(
    `insert into subject_exams (subject_id, kind, name) values ($1, 'diagnostic', 'Диагностика') returning id`,
    [subject.id],
  );
  const test = await one(
    `insert into subject_tests (subject_exam_id, name, parallels, duration_minutes) values ($1, 'Бенчмарк, 7 класс', '{7}', 120) returning id`,
    [exam.id],
  );
  for (let v = 1; v <= 2; v++) {
    const variant = await one(`insert into variants (subject_test_id, number) values ($1, $2) returning id`, [
      test.id,
      v,
    ]);
    for (let p = 1; p <= tasks; p++) {
      const task = await one(
        p > tasks - expertTasks
          ? `insert into tasks (answer_type, html, content, reference, scoring, max_score)
             values ('extended_text', $1, '{"maxLength":2000}', null, '{"method":"expert","thirdCheckThreshold":1}', 1) returning id`
          : `insert into tasks (answer_type, html, content, reference, scoring, max_score)
             values ('short_text', $1, '{"maxLength":100}', '{"accepted":["ответ"]}', '{"method":"all_or_nothing"}', 1) returning id`,
        [`<p>Задание ${p}</p>`],
      );
      await pool.query(
        `insert into variant_tasks (variant_id, task_id, position, max_score) values ($1, $2, $3, 1)`,
        [variant.id, task.id, p],
      );
    }
  }
  const diagnostic = await one(
    `insert into diagnostics (code, name, starts_at, ends_at, parallels) values ('BENCH', 'Бенчмарк', now() - interval '1 hour', now() + interval '10 hours', '{7}') returning id`,
  );
  await pool.query(`insert into diagnostic_subject_tests values ($1, $2)`, [diagnostic.id, test.id]);
  await pool.query(`insert into diagnostic_schools values ($1, $2)`, [diagnostic.id, school.id]);
  for (let e = 1; e <= experts; e++) {
    const expert = await one(
      `insert into users (login, surname, name, profile) values ($1, 'Эксперт', $2, $3) returning id`,
      [
        `bench.expert.${e}`,
        String(e),
        JSON.stringify({ expert: { subjectIds: [subject.id], parallels: [7] } }),
      ],
    );
    await pool.query(`insert into user_roles (user_id, role) values ($1, 'expert')`, [expert.id]);
  }
  const codes = [];
  for (let start = 0; start < count; start += 500) {
    const values = [];
    const params = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const digits = String(i).padStart(9, '0');
      const code = `B${digits.slice(0, 4)}-${digits.slice(4)}`;
      codes.push(code);
      params.push(code, `R${digits}`);
      values.push(
        `(${diagnostic.id}, ${test.id}, ${school.id}, ${cls.id}, current_date, $${params.length - 1}, $${params.length}, true)`,
      );
    }
    await pool.query(
      `insert into participant_tests (diagnostic_id, subject_test_id, school_id, class_id, test_date, activation_code, registration_code, is_impersonal) values ${values.join(',')}`,
      params,
    );
  }
  return codes;
}

/**
 * The load generator's HTTP client: node:http over keep-alive connections. On a 2-core machine
 * shared with the server and PostgreSQL the generator's own CPU matters; node:http costs a
 * fraction of what fetch costs per request, so more of the machine is left to what is measured.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 512 });
/**
 * How participants reach the server. `balancer` (BENCH_CLIENTS, the default): as in production
 * (README), through a load balancer that terminates TLS and keeps a bounded pool of keep-alive
 * connections to the server (BALANCER_CONNECTIONS), naming the school's address in
 * X-Forwarded-For (the server trusts the balancer's address, TRUST_PROXY). `direct`: every
 * participant's browser connects to the server itself, from its school's address.
 */
const CLIENTS = process.env.BENCH_CLIENTS ?? 'balancer';
const BALANCER_CONNECTIONS = Number(process.env.BENCH_BALANCER_CONNECTIONS ?? 256);
const balancer = new Agent({ keepAlive: true, maxSockets: BALANCER_CONNECTIONS });
/** A balancer in front of a running server holds its connections open already: opens them. */
async function openBalancer(base) {
  await Promise.all(
    Array.from({ length: BALANCER_CONNECTIONS }, () =>
      call(base, 'GET', '/health', {}, undefined, '127.1.0.1').catch(() => undefined),
    ),
  );
}

export function call(base, method, path, headers, body, localAddress, clients = CLIENTS) {
  const viaBalancer = clients === 'balancer' && localAddress;
  if (viaBalancer) headers = { ...headers, 'x-forwarded-for': localAddress };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: viaBalancer ? balancer : agent,
        ...(localAddress && !viaBalancer ? { localAddress } : {}),
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode,
            headers: res.headers,
            text,
            json() {
              return JSON.parse(text);
            },
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The address participant `i` comes from: a school's network, 100 participants each (Linux routes
 * all of 127.0.0.0/8 to the loopback). A city's schools start together, each behind its own
 * address; the per-address login budget is one school's (auth/throttle.ts).
 */
export const schoolAddress = (i) => {
  const school = Math.floor(i / 100);
  return `127.1.${Math.floor(school / 250)}.${(school % 250) + 1}`;
};

/** One participant's start: log in by code, start the work, load the variant. Returns timings. */
export async function startParticipant(base, code, deviceId, address, clients = CLIENTS) {
  const t0 = performance.now();
  const login = await call(
    base,
    'POST',
    '/api/Account/login',
    { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    JSON.stringify({ activationCode: code }),
    address,
    clients,
  );
  const t1 = performance.now();
  if (login.status !== 200) throw new Error(`login ${login.status} ${login.text}`);
  const cookie = (login.headers['set-cookie'] ?? []).find((c) => c.startsWith('attesta_sid='))?.split(';')[0];
  const headers = {
    cookie,
    'x-requested-with': 'XMLHttpRequest',
    'content-type': 'application/json',
    'x-device-id': deviceId,
  };
  const work = await call(base, 'POST', '/api/exam/test/examwork/new', headers, '{}', address, clients);
  const t2 = performance.now();
  if (work.status !== 200) throw new Error(`examwork/new ${work.status} ${work.text}`);
  const workBody = work.json();
  const variant = await call(
    base,
    'GET',
    '/api/exam/test/variant/current',
    headers,
    undefined,
    address,
    clients,
  );
  const t3 = performance.now();
  if (variant.status !== 200) throw new Error(`variant/current ${variant.status}`);
  const variantBody = variant.json();
  return {
    base,
    address,
    headers,
    examWorkId: workBody.id,
    taskIds: variantBody.tasks.map((t) => t.variantTaskId),
    expertTaskIds: variantBody.tasks
      .filter((t) => t.answerType === 'extended_text')
      .map((t) => t.variantTaskId),
    timings: { login: t1 - t0, examworkNew: t2 - t1, variant: t3 - t2, flow: t3 - t0 },
  };
}

/**
 * One file of the app as a browser asks for it (`Accept-Encoding: br, gzip`): the bytes the
 * server sent for it, body as on the wire (compressed) and the response head.
 */
function fetchAsset(base, path, address, clients) {
  const viaBalancer = clients === 'balancer' && address;
  const headers = { accept: '*/*', 'accept-encoding': 'br, gzip' };
  if (viaBalancer) headers['x-forwarded-for'] = address;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method: 'GET',
        agent: viaBalancer ? balancer : agent,
        ...(address && !viaBalancer ? { localAddress: address } : {}),
        headers,
      },
      (res) => {
        let body = 0;
        res.on('data', (c) => (body += c.length));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`GET ${path} ${res.statusCode}`));
          // Status line, each header line and the blank line, as HTTP/1.1 sends them.
          let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            head += Buffer.byteLength(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`);
          resolve({ body, head, encoding: res.headers['content-encoding'] ?? 'identity' });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A new device downloads the app: the page first, then the files it needs, at most
 * BROWSER_CONNECTIONS at a time (a browser's limit per host over HTTP/1.1).
 */
async function downloadApp(base, files, address, clients) {
  const t0 = performance.now();
  const got = [await fetchAsset(base, files[0].path, address, clients)];
  let next = 1;
  await Promise.all(
    Array.from({ length: BROWSER_CONNECTIONS }, async () => {
      while (next < files.length) {
        const file = files[next++];
        got.push(await fetchAsset(base, file.path, address, clients));
      }
    }),
  );
  return {
    ms: performance.now() - t0,
    body: got.reduce((s, g) => s + g.body, 0),
    head: got.reduce((s, g) => s + g.head, 0),
    uncompressed: got.filter((g) => g.encoding === 'identity').length,
  };
}

/** The flows' whole times by the second their participant arrived in. */
function bySecond(flows) {
  const seconds = new Map();
  for (const f of flows) {
    const second = Math.floor(f.arrivedMs / 1000);
    if (!seconds.has(second)) seconds.set(second, []);
    seconds.get(second).push(f.timings.flow);
  }
  return [...seconds].sort(([a], [b]) => a - b);
}

/**
 * (c) N participants arriving evenly over `seconds` (an open model, like a school day at 10:00);
 * participant i goes to bases[i mod bases.length] (round-robin over server instances).
 */
async function startStorm(
  bases,
  codes,
  seconds = STORM_SECONDS,
  clients = CLIENTS,
  { app, appOnly = false } = {},
) {
  // The load generator's own event-loop delay: a late generator would show as a slow server.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const flows = [];
  const errors = [];
  const started = performance.now();
  const interval = (seconds * 1000) / codes.length;
  const pending = codes.map(
    (code, i) =>
      new Promise((resolve) => {
        setTimeout(async () => {
          try {
            const t0 = performance.now();
            // With `app`: the browser downloads the app first (`appOnly`: and nothing more).
            const download = app
              ? await downloadApp(bases[i % bases.length], app.files, schoolAddress(i), clients)
              : null;
            const flow = appOnly
              ? { timings: {} }
              : await startParticipant(
                  bases[i % bases.length],
                  code,
                  `storm-${code}`,
                  schoolAddress(i),
                  clients,
                );
            if (download) {
              flow.download = download;
              flow.timings.download = download.ms;
              flow.timings.api = flow.timings.flow;
              flow.timings.flow = performance.now() - t0;
            }
            flow.arrivedMs = i * interval;
            flows.push(flow);
          } catch (err) {
            errors.push(String(err.message ?? err));
          }
          resolve();
        }, i * interval);
      }),
  );
  await Promise.all(pending);
  loopDelay.disable();
  const elapsed = (performance.now() - started) / 1000;
  const sorted = (key) => flows.map((f) => f.timings[key]).sort((a, b) => a - b);
  const stat = (key) => ({
    p50: round(percentile(sorted(key), 50)),
    p99: round(percentile(sorted(key), 99)),
  });
  const mean = (key) => round(flows.reduce((s, f) => s + f.download[key], 0) / Math.max(1, flows.length), 0);
  return {
    participants: codes.length,
    completed: flows.length,
    errors: errors.length,
    errorSamples: [...new Set(errors)].slice(0, 5),
    elapsedSeconds: round(elapsed, 2),
    flowMs: stat('flow'),
    ...(appOnly
      ? {}
      : {
          loginMs: stat('login'),
          examworkNewMs: stat('examworkNew'),
          variantMs: stat('variant'),
        }),
    ...(app
      ? {
          app: {
            files: app.files.length,
            // Bytes the server sent each participant: bodies as sent (compressed) and heads.
            bodyBytes: mean('body'),
            headBytes: mean('head'),
            uncompressedFiles: Math.max(0, ...flows.map((f) => f.download.uncompressed)),
          },
          downloadMs: stat('download'),
          ...(appOnly ? {} : { apiMs: stat('api') }),
        }
      : {}),
    generatorLoopDelayMs: {
      p50: round(loopDelay.percentile(50) / 1e6),
      p99: round(loopDelay.percentile(99) / 1e6),
      max: round(loopDelay.max / 1e6),
    },
    // Where the slow flows fall: the flow's p99 by the second its participant arrived in.
    bySecond: [...bySecond(flows)].map(([second, times]) => {
      times.sort((a, b) => a - b);
      return { second, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) };
    }),
    flows,
  };
}

/**
 * The knee of the start path: storms of KNEE_STEP_SECONDS at rising arrival rates, until one
 * misses (p99 ≥ 1 s or an error). The knee is the highest rate that kept p99 < 1 s, 0 errors.
 */
async function stormKnee(bases, takeCodes, rates = KNEE_RATES) {
  const steps = [];
  let knee = 0;
  for (const rate of rates) {
    const r = await startStorm(bases, takeCodes(rate * KNEE_STEP_SECONDS), KNEE_STEP_SECONDS);
    const ok = r.errors === 0 && r.flowMs.p99 < 1000;
    steps.push({
      rate,
      p50: r.flowMs.p50,
      p99: r.flowMs.p99,
      errors: r.errors,
      errorSamples: r.errorSamples,
    });
    log(
      `    ${rate}/s: flow p50 ${r.flowMs.p50} ms, p99 ${r.flowMs.p99} ms, errors ${r.errors}${r.errors ? ` (${r.errorSamples.join('; ').slice(0, 300)})` : ''}`,
    );
    if (!ok) break;
    knee = rate;
    // Let the last step's stragglers and their events settle before the next rate.
    await new Promise((res) => setTimeout(res, 1000));
  }
  return { knee, steps };
}

/**
 * (d) The realistic model: every participant saves on change at most every few seconds — here
 * exactly every REALISTIC_EVERY_SECONDS from a random offset, its expert-graded answers first
 * (the finish storm needs them), then its other tasks in turn. Each participant's own requests, as browsers send them.
 */
async function realisticSaves(flows, acked, seconds = REALISTIC_SECONDS) {
  const latencies = [];
  let errors = 0;
  const errorSamples = new Set();
  const started = performance.now();
  const every = REALISTIC_EVERY_SECONDS * 1000;
  await Promise.all(
    flows.map(async (f, i) => {
      const order = [...f.expertTaskIds, ...f.taskIds.filter((id) => !f.expertTaskIds.includes(id))];
      let k = 0;
      let at = Math.random() * every;
      while (at < seconds * 1000) {
        const wait = started + at - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const taskId = order[k % order.length];
        const seq = 4_000_000 + k;
        k++;
        const t0 = performance.now();
        try {
          const res = await call(
            f.base,
            'PUT',
            '/api/exam/test/saveanswer',
            f.headers,
            JSON.stringify({
              examWorkId: f.examWorkId,
              variantTaskId: taskId,
              value: `ответ участника ${i}, правка ${k}`,
              seq,
            }),
            f.address,
          );
          if (res.status !== 200) throw new Error(`saveanswer ${res.status}`);
          latencies.push(performance.now() - t0);
          const key = `${f.examWorkId}:${taskId}`;
          if ((acked.get(key) ?? 0) < seq) acked.set(key, seq);
        } catch (err) {
          errors++;
          errorSamples.add(String(err.message ?? err));
        }
        at += every;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    participants: flows.length,
    saves: latencies.length,
    savesPerSecond: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50), 1),
    p99: round(percentile(latencies, 99), 1),
    errors,
    errorSamples: [...errorSamples].slice(0, 3),
  };
}

/**
 * (e) The finish storm: the flows' works end within `seconds` — every other one finished by its
 * participant (PUT examwork/finish …/manual) at an even pace, the rest given deadlines spread over
 * the same seconds for the server's sweeper to finish. Then it waits until every work has its
 * result row and every answered expert-graded task its two expert assignments.
 */
async function finishStorm(pool, flows, seconds = STORM_SECONDS) {
  const manual = flows.filter((_, i) => i % 2 === 0);
  const swept = flows.filter((_, i) => i % 2 === 1);
  const ids = flows.map((f) => f.examWorkId);
  const started = performance.now();
  // The sweeper's half: deadlines spread evenly over the window from now.
  await pool.query(
    `update exam_works w set deadline_at = now() + (d.k * $2::float8 / $3::float8) * interval '1 second'
       from unnest($1::int[]) with ordinality as d(id, k) where w.id = d.id`,
    [swept.map((f) => f.examWorkId), seconds, swept.length],
  );
  const latencies = [];
  let errors = 0;
  const interval = (seconds * 1000) / manual.length;
  await Promise.all(
    manual.map(
      (f, i) =>
        new Promise((resolve) => {
          setTimeout(async () => {
            const t0 = performance.now();
            try {
              const res = await call(
                f.base,
                'PUT',
                `/api/exam/test/examwork/finish/${f.examWorkId}/manual`,
                f.headers,
                '{}',
                f.address,
              );
              if (res.status !== 200) throw new Error(`finish ${res.status}`);
              latencies.push(performance.now() - t0);
            } catch {
              errors++;
            }
            resolve();
          }, i * interval);
        }),
    ),
  );
  // Until the sweeper has finished its half too: the last finish is the latest finished_at.
  const count = async (sql) => Number((await pool.query(sql, [ids])).rows[0].n);
  const deadline = performance.now() + FINISH_WAIT_SECONDS * 1000;
  let finished = 0;
  while (performance.now() < deadline) {
    finished = await count(
      `select count(*) as n from exam_works where id = any($1) and finished_at is not null`,
    );
    if (finished === ids.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const lastFinishMs =
    Number(
      (
        await pool.query(
          `select extract(epoch from max(finished_at)) * 1000 as t from exam_works where id = any($1)`,
          [ids],
        )
      ).rows[0].t,
    ) -
    (Date.now() - performance.now());
  // Scored: a result row per work; assigned: two rounds for each answered expert-graded task.
  const expertAnswers = `select count(*) as n from task_scores s where s.exam_work_id = any($1) and s.status = 'awaiting_experts'`;
  let scored = 0;
  let awaiting = 0;
  let assigned = 0;
  let doneAt = null;
  while (performance.now() < deadline) {
    scored = await count(`select count(*) as n from results where exam_work_id = any($1)`);
    awaiting = await count(expertAnswers);
    assigned = await count(
      `select count(*) as n from (select 1 from expert_assignments a where a.exam_work_id = any($1)
         group by a.exam_work_id, a.variant_task_id having count(*) >= 2) x`,
    );
    if (scored === ids.length && assigned === awaiting) {
      doneAt = performance.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  latencies.sort((a, b) => a - b);
  return {
    works: ids.length,
    manual: manual.length,
    swept: swept.length,
    finished,
    finishErrors: errors,
    finishP99: round(percentile(latencies, 99)),
    lastFinishSeconds: round((lastFinishMs - started) / 1000, 2),
    scored,
    expertAnswers: awaiting,
    expertAnswersAssigned: assigned,
    // From the last finish until the last work was scored and its expert answers assigned.
    scoredAfterLastFinishSeconds:
      doneAt === null ? null : round(Math.max(0, doneAt - lastFinishMs) / 1000, 2),
  };
}

/**
 * CPU used by each party of a phase, from /proc (Linux; null elsewhere): the server processes,
 * every PostgreSQL process (with backends that ended, counted on the postmaster), Redis, and this
 * load generator; and the WAL PostgreSQL wrote.
 */
function procTicks(pid, withChildren = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime (fields 14, 15), cutime, cstime (16, 17); here 0-based after the name.
    const own = Number(fields[11]) + Number(fields[12]);
    return withChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return 0;
  }
}
function pidsNamed(name) {
  if (!existsSync('/proc/self/stat')) return [];
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) out.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return out;
}
const TICK_MS = 10; // USER_HZ is 100 on Linux.
async function cpuSnapshot(pool, serverPids) {
  if (!existsSync('/proc/self/stat')) return null;
  const pg = pidsNamed('postgres');
  const postmaster = pg.find((pid) => {
    try {
      return !pg.includes(Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]));
    } catch {
      return false;
    }
  });
  const client = process.cpuUsage();
  return {
    server: serverPids.reduce((sum, pid) => sum + procTicks(pid), 0) * TICK_MS,
    postgres:
      pg.filter((pid) => pid !== postmaster).reduce((sum, pid) => sum + procTicks(pid), 0) * TICK_MS +
      (postmaster ? procTicks(postmaster, true) * TICK_MS : 0),
    redis: pidsNamed('redis-server').reduce((sum, pid) => sum + procTicks(pid), 0) * TICK_MS,
    client: (client.user + client.system) / 1000,
    walBytes: Number(
      (await pool.query(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as b`)).rows[0].b,
    ),
    redisStats: await redisStats(),
    at: performance.now(),
  };
}
/** Redis's own counters (commands processed, bytes sent): what one operation costs it. */
let statsClient = null;
async function redisStats() {
  if (!process.env.BENCH_REDIS_URL) return null;
  statsClient ??= new Redis(process.env.BENCH_REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const info = await statsClient.info('stats');
  const field = (name) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { commands: field('total_commands_processed'), outBytes: field('total_net_output_bytes') };
}
/** CPU ms per operation of each party between two snapshots (`ops` operations happened). */
function cpuCost(before, after, ops) {
  if (!before || !after || !ops) return null;
  // A backend that ended between the snapshots moved its ticks to the postmaster's children
  // count, which the snapshot includes: the difference counts each tick once.
  const postgres = after.postgres - before.postgres;
  const per = (ms) => round(ms / ops, 3);
  const seconds = (after.at - before.at) / 1000;
  return {
    ops,
    seconds: round(seconds, 1),
    serverMs: per(after.server - before.server),
    postgresMs: per(postgres),
    redisMs: per(after.redis - before.redis),
    clientMs: per(after.client - before.client),
    walBytes: Math.round((after.walBytes - before.walBytes) / ops),
    redisCommands:
      before.redisStats && after.redisStats
        ? round((after.redisStats.commands - before.redisStats.commands) / ops, 2)
        : null,
    redisOutBytes:
      before.redisStats && after.redisStats
        ? Math.round((after.redisStats.outBytes - before.redisStats.outBytes) / ops)
        : null,
    // Cores busy on average over the phase, all parties together.
    cores: round(
      (after.server - before.server + postgres + after.redis - before.redis + after.client - before.client) /
        1000 /
        seconds,
      2,
    ),
  };
}

/** (a) The server's upsert issued straight through the driver, same pool size, same concurrency. */
async function rawCeiling(pool, works) {
  const sql = `insert into answers (exam_work_id, variant_task_id, value, seq, answer_mode, source, saved_at)
    values ($1, $2, $3, $4, 'online', 'participant', now())
    on conflict (exam_work_id, variant_task_id) do update
      set value = excluded.value, seq = excluded.seq, saved_at = excluded.saved_at
      where answers.seq < excluded.seq
    returning seq, saved_at`;
  const latencies = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  const seqs = new Map();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      const w = works[c % works.length];
      let n = 0;
      while (performance.now() < until) {
        const taskId = w.taskIds[n++ % w.taskIds.length];
        const key = `${w.examWorkId}:${taskId}`;
        const seq = (seqs.get(key) ?? 1_000_000) + 1;
        seqs.set(key, seq);
        const t0 = performance.now();
        try {
          await pool.query(sql, [w.examWorkId, taskId, JSON.stringify(`raw ${seq}`), seq]);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    saves: latencies.length,
    savesPerSecond: round(latencies.length / SECONDS),
    p50: round(percentile(latencies, 50), 2),
    p99: round(percentile(latencies, 99), 2),
    errors,
  };
}

/**
 * (b) PUT saveanswer over HTTP; every connection is one participant writing its tasks in turn.
 * `duration` (s, default BENCH_SECONDS) or `until` (a promise: the run stops when it settles);
 * `seqBase` must be above every seq an earlier run sent.
 */
export function httpSaves(
  base,
  works,
  acked,
  { rate, duration = SECONDS, until, seqBase = rate ? 3_000_000 : 2_000_000, onLatency } = {},
) {
  // autocannon resets a connection's context each time its request list restarts, so the
  // sequence lives here: request i writes work i mod W, task (i div W) mod T, seq base + i.
  // The same (work, task) recurs only every W×T requests, never concurrently, always newer.
  let issued = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: until ? 3600 : duration,
        ...(rate ? { overallRate: rate } : {}),
        requests: [
          {
            method: 'PUT',
            path: '/api/exam/test/saveanswer',
            setupRequest(req, context) {
              const i = issued++;
              const w = works[i % works.length];
              const taskId = w.taskIds[Math.floor(i / works.length) % w.taskIds.length];
              const seq = seqBase + i;
              context.last = { examWorkId: w.examWorkId, taskId, seq };
              return {
                ...req,
                headers: { ...w.headers },
                body: JSON.stringify({
                  examWorkId: w.examWorkId,
                  variantTaskId: taskId,
                  value: `ответ ${seq}`,
                  seq,
                }),
              };
            },
            onResponse(status, _body, context) {
              if (status === 200 && context.last) {
                const key = `${context.last.examWorkId}:${context.last.taskId}`;
                acked.set(key, Math.max(acked.get(key) ?? 0, context.last.seq));
              }
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('error', reject);
    // Each response's latency as it arrives (for a timeline of the slow ones), when asked.
    if (onLatency) instance.on('response', (_client, _status, _bytes, ms) => onLatency(ms));
    until?.finally(() => instance.stop());
  });
}

export function summarize(result) {
  return {
    savesPerSecond: round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

export async function reconcile(pool, acked) {
  const { rows } = await pool.query('select exam_work_id, variant_task_id, seq from answers');
  const stored = new Map(rows.map((r) => [`${r.exam_work_id}:${r.variant_task_id}`, r.seq]));
  let missing = 0;
  for (const [key, seq] of acked) if ((stored.get(key) ?? 0) < seq) missing++;
  return { acknowledgedKeys: acked.size, missing };
}

/**
 * The capacity model: what a region needs for REGION participants starting within
 * REGION_START_SECONDS and then saving every REGION_SAVE_EVERY seconds, from this run's measured
 * cost of one start and one save for each party. Peak load: the last starts beside everyone's saves.
 * Each server process is one core, planned at most 60 % busy (headroom for bursts and GC); so are
 * the database's cores. Redis runs commands on one core.
 */
const REGION = 100_000;
const REGION_START_SECONDS = 5 * 60;
const REGION_SAVE_EVERY = 15;
const PLAN_BUSY = 0.6;
export function capacityModel(cpu, { maxConnections, poolSize, twoInstanceScaling }) {
  const start = cpu.storm;
  const save = cpu.realistic ?? cpu.http;
  if (!start || !save) return null;
  const starts = REGION / REGION_START_SECONDS;
  const saves = REGION / REGION_SAVE_EVERY;
  const load = (key) => (starts * start[key] + saves * save[key]) / 1000; // cores (ms per s / 1000)
  const serverCores = load('serverMs');
  const processes = Math.ceil(serverCores / PLAN_BUSY);
  const postgresCores = load('postgresMs');
  const redisCores = load('redisMs');
  const walMBps = (starts * start.walBytes + saves * save.walBytes) / 1e6;
  const redisCommands =
    start.redisCommands === null ? null : starts * start.redisCommands + saves * save.redisCommands;
  const connections = processes * poolSize;
  // What breaks first: each need against what one ordinary machine of its kind gives.
  const limits = [
    { what: 'PostgreSQL connections', need: connections, have: maxConnections, unit: '' },
    {
      what: 'PostgreSQL CPU (cores of one 16-core server)',
      need: postgresCores / PLAN_BUSY,
      have: 16,
      unit: ' cores',
    },
    { what: 'Redis (one core)', need: redisCores / PLAN_BUSY, have: 1, unit: ' cores' },
    { what: 'WAL (MB/s of one SSD, ~200 MB/s sustained)', need: walMBps, have: 200, unit: ' MB/s' },
  ].map((l) => ({ ...l, share: l.need / l.have }));
  const first = [...limits].sort((a, b) => b.share - a.share)[0];
  return {
    starts: round(starts),
    saves: round(saves),
    serverCores: round(serverCores, 1),
    processes,
    postgresCores: round(postgresCores, 1),
    redisCores: round(redisCores, 2),
    walMBps: round(walMBps, 1),
    redisCommands: redisCommands === null ? null : Math.round(redisCommands),
    connections,
    maxConnections,
    twoInstanceScaling,
    limits: limits.map((l) => ({
      what: l.what,
      need: round(l.need, 1),
      have: l.have,
      share: round(l.share, 2),
      unit: l.unit,
    })),
    first: first.what,
  };
}

function capacityLines(c) {
  if (!c) return ['Capacity model: not computed (no CPU figures on this platform).'];
  return [
    `Capacity model (${REGION.toLocaleString('en')} participants starting within ${REGION_START_SECONDS / 60} min, then saving every ${REGION_SAVE_EVERY} s; from this run's costs per start and per realistic save; planned at ${PLAN_BUSY * 100} % busy):`,
    '',
    `- load at the peak: ${c.starts} starts/s beside ${c.saves} saves/s;`,
    `- server: ${c.serverCores} cores of work → **${c.processes} server processes** (one core each)${c.twoInstanceScaling ? `; two processes on this machine gave ${c.twoInstanceScaling}× one` : ''};`,
    `- PostgreSQL: ${c.postgresCores} cores busy → ${Math.ceil(c.postgresCores / PLAN_BUSY)} cores; WAL ${c.walMBps} MB/s;`,
    `- Redis: ${c.redisCores} of its one core${c.redisCommands !== null ? `, ${c.redisCommands} commands/s` : ''};`,
    `- database connections: ${c.processes} processes × pool ${c.connections / c.processes} = ${c.connections} against max_connections ${c.maxConnections};`,
    `- first to break: **${c.first}** (${c.limits.map((l) => `${l.what}: ${l.need}${l.unit} of ${l.have}${l.unit}`).join('; ')}).`,
  ];
}

/** The API-only start storm's line (its wording is the docs' since issue 15). */
function stormLine(st) {
  return `Start storm: ${st.participants} participants arriving over ${STORM_SECONDS} s (login by code → examwork/new → variant/current): completed ${st.completed} in ${st.elapsedSeconds} s, errors ${st.errors}; whole flow p50 ${st.flowMs.p50} ms, p99 ${st.flowMs.p99} ms (login p99 ${st.loginMs.p99}, examwork/new p99 ${st.examworkNewMs.p99}, variant p99 ${st.variantMs.p99}). Target: p99 < 1000 ms, zero errors.`;
}

const kB = (bytes) => `${(bytes / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} kB`;
/** The app's download beside the API-only storm (issue 24, item 4). */
function appLines(a, storm, cpu) {
  const { only, withDownload: w } = a;
  const perParticipant = only.app.bodyBytes + only.app.headBytes;
  const staticCpu = cpu.appDownload ? `${cpu.appDownload.serverMs} ms` : 'not measured (no /proc)';
  return [
    `The app's download: each new participant first fetches what a browser fetches on a first visit to the login page, start page and runner (${only.app.files} files: index.html, its scripts, module preloads and stylesheet, the route chunks, icons; bench/app-assets.mjs) with \`Accept-Encoding: br, gzip\`, ${BROWSER_CONNECTIONS} at a time: **${kB(perParticipant)} sent per participant** (${kB(only.app.bodyBytes)} of bodies, ${kB(only.app.headBytes)} of response heads; ${only.app.uncompressedFiles} files sent uncompressed).`,
    '',
    `Download only, ${only.participants} participants over ${STORM_SECONDS} s: completed ${only.completed}, errors ${only.errors}; download p50 ${only.downloadMs.p50} ms, p99 ${only.downloadMs.p99} ms; **server CPU for static files ${staticCpu} per participant**.`,
    '',
    `Start storm with the app's download: ${w.participants} participants arriving over ${STORM_SECONDS} s (the app, then login by code → examwork/new → variant/current): completed ${w.completed} in ${w.elapsedSeconds} s, errors ${w.errors}; whole flow with the download p50 ${w.flowMs.p50} ms, **p99 ${w.flowMs.p99} ms** (download p99 ${w.downloadMs.p99}, the API calls after it p99 ${w.apiMs.p99}; the API-only storm above: p99 ${storm.flowMs.p99} ms).`,
  ];
}

/** A school behind one shared uplink, from the measured bytes per participant (issue 24). */
const SCHOOL = 100;
const UPLINK_MBIT = 50;
/** The issue's measurement before: index.html's script and style tags, uncompressed (2.56 MB). */
const BEFORE_BYTES = 2_560_000;
function uplinkLines(a, cpu) {
  const bytes = a.only.app.bodyBytes + a.only.app.headBytes;
  const wait = (b) => round((SCHOOL * b * 8) / (UPLINK_MBIT * 1e6), 1);
  const starts = REGION / REGION_START_SECONDS;
  const serverMs = cpu?.appDownload?.serverMs;
  return [
    `A school's shared uplink: ${SCHOOL} participants behind ${UPLINK_MBIT} Mbit/s starting together wait **${wait(bytes)} s** for the app today (${SCHOOL} × ${kB(bytes)} = ${round((SCHOOL * bytes) / 1e6, 1)} MB), against ${wait(BEFORE_BYTES)} s before (issue 24's 2.56 MB uncompressed each).${a.precache ? ` The service worker's precache (${a.precache.files} files, ${kB(a.precache.bytes)} as brotli) is the same shell: the browser gives the worker the files the first visit just downloaded from its HTTP cache, so a new device downloads only ≈ 10 kB more (the worker's script, index.html again, the icon and the manifest; measured in e2e/weight.e2e.test.ts, not by this bench).` : ''}`,
    ...(serverMs !== undefined
      ? [
          '',
          `In the region's model (${round(starts)} starts/s): the app's files take ${round((starts * serverMs) / 1000, 2)} server cores (${serverMs} ms each) and ${round((starts * bytes) / 1e6, 1)} MB/s out of the servers, unless a CDN or the balancer serves web/dist.`,
        ]
      : []),
  ];
}

/** The finish storm's result line (docs/BENCHMARKS.md; BENCH_ONLY=finish prints it alone). */
function finishLine(f) {
  return `Finish storm: ${f.works} works finished in ${f.lastFinishSeconds} s (${f.manual} by their participants, ${f.swept} by the sweeper), ${f.finishErrors} errors, finish p99 ${f.finishP99} ms; ${f.scored} scored and ${f.expertAnswersAssigned} of ${f.expertAnswers} expert-graded answers assigned to two experts ${f.scoredAfterLastFinishSeconds ?? 'not'} s after the last finish (target ≤ 10 s).`;
}

function markdown(r) {
  const cost = (name, c) =>
    c
      ? `| ${name} | ${c.ops} in ${c.seconds} s | ${c.serverMs} | ${c.postgresMs} | ${c.redisMs} | ${c.clientMs} | ${c.walBytes} | ${c.redisCommands ?? '–'} | ${c.cores} |`
      : `| ${name} | not measured (no /proc) | | | | | | | |`;
  const kneeSteps = (k) =>
    k.steps.map((s) => `${s.rate}/s p99 ${s.p99} ms${s.errors ? ` (${s.errors} errors)` : ''}`).join(', ');
  const f = r.finish;
  const lines = [
    `Run ${r.at} on ${r.machine.cpus} CPU (${r.machine.model}), ${r.machine.memoryGb} GB, Node ${process.version}, PostgreSQL on the same machine ${pgTransport(adminUrl)}; server: one process, pool ${r.poolSize}${process.env.BENCH_REDIS_URL ? ', sessions cached in Redis' : ', no Redis'}; the load generator on the same machine too.`,
    '',
    '| measurement | saves/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|',
    `| (a) raw upsert through \`pg\` (${CONNECTIONS} concurrent) | ${r.raw.savesPerSecond} | ${r.raw.p50} | ${r.raw.p99} | ${r.raw.errors} |`,
    `| (b) \`PUT saveanswer\` over HTTP, unthrottled (${CONNECTIONS} connections) | ${r.http.savesPerSecond} | ${r.http.p50} | ${r.http.p99} | ${r.http.errors + r.http.non2xx} |`,
    `| (b) \`PUT saveanswer\` at a fixed ${RATE}/s | ${r.httpRate.savesPerSecond} | ${r.httpRate.p50} | ${r.httpRate.p99} | ${r.httpRate.errors + r.httpRate.non2xx} |`,
    `| (d) realistic: ${r.realistic.participants} participants, ${TASKS} tasks, a save every ${REALISTIC_EVERY_SECONDS} s | ${r.realistic.savesPerSecond} | ${r.realistic.p50} | ${r.realistic.p99} | ${r.realistic.errors} |`,
    '',
    `**(b)/(a) = ${r.ratio}** (target ≥ 1.0). p99 at ${RATE} saves/s: ${r.httpRate.p99} ms (target < 200 ms).`,
    '',
    `Realistic saves: ${r.realistic.participants} participants, ${TASKS} tasks, a save on change every ${REALISTIC_EVERY_SECONDS} s: ${r.realistic.savesPerSecond} saves/s, p50 ${r.realistic.p50} ms, p99 ${r.realistic.p99} ms, errors ${r.realistic.errors}.`,
    '',
    stormLine(r.storm),
    ...(r.stormDirect
      ? [
          '',
          `The participants came through a load balancer, as in production: ${r.balancerConnections} keep-alive connections to the server, the school's address in X-Forwarded-For. The same storm with every participant connecting straight to the server (${r.stormDirect.participants} more, right after): completed ${r.stormDirect.completed} in ${r.stormDirect.elapsedSeconds} s, errors ${r.stormDirect.errors}; whole flow p50 ${r.stormDirect.flowMs.p50} ms, p99 ${r.stormDirect.flowMs.p99} ms.`,
        ]
      : []),
    ...(r.app ? ['', ...appLines(r.app, r.storm, r.cpu)] : []),
    '',
    `Start-storm knee: ${r.knee.knee} arrivals/s (the highest rate of ${KNEE_STEP_SECONDS}-s storms with p99 < 1 s and 0 errors); steps: ${kneeSteps(r.knee)}.`,
    '',
    f ? finishLine(f) : 'Finish storm: not run.',
    '',
    r.two
      ? `Two instances (round-robin by participant, same PostgreSQL and Redis): knee ${r.two.knee.knee} arrivals/s (one process: ${r.knee.knee}/s; steps: ${kneeSteps(r.two.knee)}); unthrottled saves ${r.two.http.savesPerSecond}/s, p99 ${r.two.http.p99} ms (one process: ${r.http.savesPerSecond}/s, p99 ${r.http.p99} ms).`
      : 'Two instances: not run.',
    '',
    `Reconciliation: ${r.reconcile.acknowledgedKeys} (work, task) pairs acknowledged, ${r.reconcile.missing} missing from the database (must be 0).`,
    '',
    'CPU per operation (ms of one core), WAL bytes and Redis commands per operation; cores: all parties busy on average:',
    '',
    '| phase | operations | server | PostgreSQL | Redis | load generator | WAL B | Redis commands (with those inside scripts) | cores |',
    '|---|---|---|---|---|---|---|---|---|',
    cost('start storm, per flow (3 calls)', r.cpu.storm),
    ...(r.cpu.stormDirect ? [cost('start storm straight to the server, per flow', r.cpu.stormDirect)] : []),
    ...(r.app
      ? [
          cost("the app's download only, per participant (static files)", r.cpu.appDownload),
          cost("start storm with the app's download, per participant", r.cpu.stormWithApp),
        ]
      : []),
    cost('(a) raw upsert, per save', r.cpu.raw),
    cost('(b) HTTP saves unthrottled, per save', r.cpu.http),
    cost('(d) realistic saves, per save', r.cpu.realistic),
    cost('(e) finish storm, per work (finish + scoring + assignment)', r.cpu.finish),
    '',
    ...capacityLines(r.capacity),
    ...(r.app ? ['', ...uplinkLines(r.app, r.cpu)] : []),
  ];
  return lines.join('\n');
}

/** Saves against several instances at once: the participants split round-robin, summed. */
async function httpSavesSpread(bases, works, acked) {
  const parts = await Promise.all(
    bases.map((b, n) =>
      httpSaves(
        b,
        works.filter((_, i) => i % bases.length === n),
        acked,
        { seqBase: 5_000_000 + n * 100_000_000 },
      ),
    ),
  );
  const sums = parts.map(summarize);
  return {
    savesPerSecond: round(sums.reduce((a, x) => a + x.savesPerSecond, 0)),
    p50: Math.max(...sums.map((x) => x.p50)),
    p99: Math.max(...sums.map((x) => x.p99)),
    errors: sums.reduce((a, x) => a + x.errors + x.non2xx, 0),
  };
}

async function main() {
  // The app's download needs the built web client and the list of what a first visit fetches,
  // recorded before the bench's own server starts (its own server, out of every measurement).
  const withApp = APP && (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'storm');
  if (withApp) requireBuilt();
  const app = withApp ? await participantAssets({ log }) : null;
  if (app) log(`the app's first visit: ${app.files.length} files (bench/app-assets.mjs, build ${app.key})`);
  log(`fresh database on ${adminUrl.replace(/\/\/[^@]*@/, '//…@')}`);
  const databaseUrl = await freshDatabase();
  const { child, base } = await startServer(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  let second = null;
  try {
    const kneeCodes = KNEE_RATES.reduce((a, r) => a + r * KNEE_STEP_SECONDS, 0);
    const total =
      STORM * (CLIENTS === 'balancer' ? 2 : 1) +
      (app ? STORM : 0) +
      SAVERS +
      kneeCodes * (TWO_INSTANCES ? 2 : 1);
    const codes = await seed(pool, total, { tasks: TASKS, expertTasks: EXPERT_TASKS, experts: EXPERTS });
    log(
      `seeded ${codes.length} participant tests (${TASKS} tasks, ${EXPERT_TASKS} expert-graded; ${EXPERTS} experts)`,
    );
    let next = 0;
    const take = (n) => {
      const out = codes.slice(next, next + n);
      next += n;
      return out;
    };
    const cpu = {};
    const measured = async (name, ops, run) => {
      const before = await cpuSnapshot(pool, [child.pid, ...(second ? [second.child.pid] : [])]);
      const out = await run();
      const after = await cpuSnapshot(pool, [child.pid, ...(second ? [second.child.pid] : [])]);
      cpu[name] = cpuCost(before, after, typeof ops === 'function' ? ops(out) : ops);
      return out;
    };

    if (process.env.BENCH_ONLY === 'saves') {
      // Only (a) and (b), e.g. to profile the save path.
      const savers = await Promise.all(
        take(SAVERS).map((c, j) => startParticipant(base, c, `saver-${j}`, schoolAddress(j))),
      );
      const raw = await measured(
        'raw',
        (o) => o.saves,
        () => rawCeiling(pool, savers),
      );
      const http = await measured(
        'http',
        (o) => o.total,
        async () => summarize(await httpSaves(base, savers, new Map())),
      );
      console.log(
        JSON.stringify(
          { raw, http, ratio: round(http.savesPerSecond / raw.savesPerSecond, 2), cpu },
          null,
          2,
        ),
      );
      return;
    }
    if (CLIENTS === 'balancer') await openBalancer(base);
    log(`(c) start storm: ${STORM} participants over ${STORM_SECONDS} s`);
    const storm = await measured(
      'storm',
      (o) => o.completed,
      () => startStorm([base], take(STORM)),
    );
    log(`    done: ${storm.completed} ok, ${storm.errors} errors, flow p99 ${storm.flowMs.p99} ms`);

    /**
     * The app's download (issue 24, item 4): first STORM participants over STORM_SECONDS who only
     * fetch what a first visit fetches (the server's CPU for static files alone), then STORM more
     * who download it and then start, as browsers do.
     */
    const appPhases = async () => {
      if (!app) return null;
      log(
        `(c) the app's download only: ${STORM} participants over ${STORM_SECONDS} s, ${app.files.length} files each`,
      );
      const only = await measured(
        'appDownload',
        (o) => o.completed,
        () =>
          startStorm(
            [base],
            Array.from({ length: STORM }, (_, i) => `app-${i}`),
            STORM_SECONDS,
            CLIENTS,
            { app, appOnly: true },
          ),
      );
      log(
        `    done: ${only.completed} ok, ${only.errors} errors, download p99 ${only.downloadMs.p99} ms, ${only.app.bodyBytes} B each`,
      );
      log(`(c) start storm with the app's download: ${STORM} participants over ${STORM_SECONDS} s`);
      const withDownload = await measured(
        'stormWithApp',
        (o) => o.completed,
        () => startStorm([base], take(STORM), STORM_SECONDS, CLIENTS, { app }),
      );
      log(
        `    done: ${withDownload.completed} ok, ${withDownload.errors} errors, flow p99 ${withDownload.flowMs.p99} ms`,
      );
      return {
        only: { ...only, flows: undefined },
        withDownload: { ...withDownload, flows: undefined },
        precache: precacheBytes(),
      };
    };

    if (process.env.BENCH_ONLY === 'storm') {
      const appResult = await appPhases();
      console.log(
        JSON.stringify(
          {
            ...storm,
            flows: undefined,
            cpu: cpu.storm,
            app: appResult,
            appCpu: { download: cpu.appDownload, stormWithApp: cpu.stormWithApp },
          },
          null,
          2,
        ),
      );
      if (appResult) {
        console.log(stormLine(storm));
        console.log(appLines(appResult, storm, cpu).join('\n'));
        console.log(uplinkLines(appResult, cpu).join('\n'));
      }
      return;
    }
    if (process.env.BENCH_ONLY === 'finish') {
      // The finish storm as in a whole run: the storm's works, answered by (d), then finished.
      log(`(d) realistic saves: ${storm.flows.length} participants, ${REALISTIC_SECONDS} s`);
      await realisticSaves(storm.flows, new Map());
      log(`(e) finish storm: ${storm.flows.length} works over ${STORM_SECONDS} s`);
      const finish = await measured(
        'finish',
        (o) => o.works,
        () => finishStorm(pool, storm.flows),
      );
      console.log(finishLine(finish));
      console.log(JSON.stringify({ finish, cpu: cpu.finish }, null, 2));
      return;
    }
    // The same storm with every participant's browser connecting to the server itself (no
    // balancer in front): each participant opens connections of its own.
    let direct = null;
    if (CLIENTS === 'balancer') {
      log(
        `(c) start storm, each participant connecting straight to the server: ${STORM} over ${STORM_SECONDS} s`,
      );
      direct = await measured(
        'stormDirect',
        (o) => o.completed,
        () => startStorm([base], take(STORM), STORM_SECONDS, 'direct'),
      );
      log(`    done: ${direct.completed} ok, ${direct.errors} errors, flow p99 ${direct.flowMs.p99} ms`);
    }
    const appResult = await appPhases();
    log(`(c) knee: ${KNEE_STEP_SECONDS}-s storms at ${KNEE_RATES.join(', ')} arrivals/s`);
    const knee = await stormKnee([base], take);
    log(`    knee ${knee.knee}/s`);

    const acked = new Map();
    log(
      `(d) realistic saves: ${storm.flows.length} participants, one save every ${REALISTIC_EVERY_SECONDS} s, ${REALISTIC_SECONDS} s`,
    );
    const realistic = await measured(
      'realistic',
      (o) => o.saves,
      () => realisticSaves(storm.flows, acked),
    );
    log(
      `    ${realistic.savesPerSecond} saves/s, p50 ${realistic.p50} ms, p99 ${realistic.p99} ms, errors ${realistic.errors}`,
    );

    log(`preparing ${SAVERS} saving participants`);
    const savers = [];
    const saverCodes = take(SAVERS);
    for (let i = 0; i < SAVERS; i += 50) {
      const batch = saverCodes.slice(i, i + 50);
      savers.push(
        ...(await Promise.all(
          batch.map((c, j) => startParticipant(base, c, `saver-${i + j}`, schoolAddress(i + j))),
        )),
      );
    }

    log(`(a) raw upsert ceiling, ${SECONDS} s`);
    const raw = await measured(
      'raw',
      (o) => o.saves,
      () => rawCeiling(pool, savers),
    );
    log(`    ${raw.savesPerSecond} saves/s, p99 ${raw.p99} ms`);

    log(`(b) saveanswer over HTTP, unthrottled, ${SECONDS} s`);
    const http = await measured(
      'http',
      (o) => o.total,
      async () => summarize(await httpSaves(base, savers, acked)),
    );
    log(`    ${http.savesPerSecond} saves/s, p99 ${http.p99} ms, non-2xx ${http.non2xx}`);
    log(`(b) saveanswer over HTTP at ${RATE}/s, ${SECONDS} s`);
    const httpRate = summarize(await httpSaves(base, savers, acked, { rate: RATE }));
    log(`    ${httpRate.savesPerSecond} saves/s, p99 ${httpRate.p99} ms, non-2xx ${httpRate.non2xx}`);

    let two = null;
    if (TWO_INSTANCES) {
      log('(f) two instances on the same PostgreSQL and Redis');
      second = await startServer(databaseUrl);
      const bases = [base, second.base];
      const twoKnee = await stormKnee(bases, take);
      log(`    knee ${twoKnee.knee}/s`);
      const spread = savers.map((w, i) => ({ ...w, base: bases[i % 2] }));
      const twoHttp = await httpSavesSpread(bases, spread, acked);
      log(`    saves ${twoHttp.savesPerSecond}/s, p99 ${twoHttp.p99} ms`);
      two = { knee: twoKnee, http: twoHttp };
      second.child.kill('SIGTERM');
      second = null;
    }

    const reconciled = await reconcile(pool, acked);
    log(`reconcile: ${reconciled.missing} of ${reconciled.acknowledgedKeys} acknowledged keys missing`);

    log(`(e) finish storm: ${storm.flows.length} works over ${STORM_SECONDS} s`);
    const finish = await measured(
      'finish',
      (o) => o.works,
      () => finishStorm(pool, storm.flows),
    );
    log(
      `    last finish at ${finish.lastFinishSeconds} s; all scored and assigned ${finish.scoredAfterLastFinishSeconds} s after it`,
    );

    const { flows: _flows, ...stormSummary } = storm;
    const result = {
      at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model ?? 'unknown',
        memoryGb: round(totalmem() / 2 ** 30),
      },
      poolSize: 20,
      raw,
      http,
      httpRate,
      ratio: round(http.savesPerSecond / raw.savesPerSecond, 2),
      storm: stormSummary,
      clients: CLIENTS,
      balancerConnections: CLIENTS === 'balancer' ? BALANCER_CONNECTIONS : null,
      stormDirect: direct && { ...direct, flows: undefined },
      app: appResult,
      knee,
      realistic,
      finish,
      two,
      cpu,
      reconcile: reconciled,
    };
    const maxConnections = Number((await pool.query('show max_connections')).rows[0].max_connections);
    result.capacity = capacityModel(cpu, {
      maxConnections,
      poolSize: 20,
      twoInstanceScaling: two && knee.knee ? round(two.knee.knee / knee.knee, 2) : null,
    });
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      join(root, `bench/results/${result.at.replace(/[:.]/g, '-')}.json`),
      JSON.stringify(result, null, 2),
    );
    const md = markdown(result);
    console.log(md);
    if (writeDocs) {
      const docPath = join(root, 'docs/BENCHMARKS.md');
      const doc = readFileSync(docPath, 'utf8');
      const start = doc.indexOf('<!-- results:start -->');
      const end = doc.indexOf('<!-- results:end -->');
      if (start >= 0 && end > start) {
        writeFileSync(docPath, `${doc.slice(0, start)}<!-- results:start -->\n${md}\n${doc.slice(end)}`);
        log('docs/BENCHMARKS.md updated');
      }
    }
    process.exitCode = reconciled.missing === 0 ? 0 : 1;
  } finally {
    await pool.end();
    statsClient?.disconnect();
    second?.child.kill('SIGTERM');
    child.kill('SIGTERM');
  }
}

/**
 * Issue 15, item 4, in the same command: the 300,000 × 20 detailed export beside 1,000 saves/s
 * (bench/reports.mjs, its own server and database), after the phases above have ended. Skipped by
 * BENCH_ONLY and by BENCH_REPORTS=0.
 */
async function reportsBeside() {
  if (process.env.BENCH_ONLY || process.env.BENCH_REPORTS === '0') return;
  log('(g) reports beside the exam: bench/reports.mjs');
  const child = spawn(process.execPath, [join(root, 'bench/reports.mjs'), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: process.env,
  });
  const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
  // The printable documents (issue 24, item 6): bench/documents.mjs, its own server and database.
  log('(g) documents: bench/documents.mjs');
  const docs = spawn(process.execPath, [join(root, 'bench/documents.mjs'), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: process.env,
  });
  const docsCode = await new Promise((resolve) => docs.on('exit', (c) => resolve(c ?? 1)));
  if (docsCode !== 0) process.exitCode = docsCode;
}

// Run when started as a script; bench/reports.mjs imports the helpers above.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  main()
    .then(reportsBeside)
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
