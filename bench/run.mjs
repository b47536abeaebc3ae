// Load benchmark of the answer path and the 10:00 start storm (issue: the exam itself, item 5).
//
// One run measures, on the same machine and database:
//   (a) raw ceiling — the single-row answer upsert the server issues, straight through `pg`;
//   (b) end to end  — PUT /api/exam/test/saveanswer over HTTP with real participant sessions
//                     (unthrottled, and at a fixed 1,000 saves/s);
//   (c) start storm — N participants: login by code → examwork/new → variant/current.
// Then it reconciles: every acknowledged save must be in the database.
//
//   npm run bench                       # PostgreSQL at BENCH_DATABASE_URL or 127.0.0.1:5432
//   npm run bench -- --write-docs       # also rewrites the results section of docs/BENCHMARKS.md
// Env: BENCH_DATABASE_URL (admin URL; a fresh database attesta_bench is created), BENCH_SECONDS (10),
//      BENCH_CONNECTIONS (50), BENCH_STORM (2000), BENCH_STORM_SECONDS (10), BENCH_RATE (1000),
//      BENCH_REDIS_URL (optional: the server caches sessions in Redis, as production does),
//      BENCH_ONLY=storm (only the start storm, e.g. to profile it).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const STORM = Number(process.env.BENCH_STORM ?? 2000);
const STORM_SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SAVERS = Math.max(CONNECTIONS, 200);
const TASKS = 10;
const writeDocs = process.argv.includes('--write-docs');

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

async function freshDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS attesta_bench WITH (FORCE)');
  await admin.query('CREATE DATABASE attesta_bench');
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = '/attesta_bench';
  return url.toString();
}

export async function startServer(databaseUrl) {
  if (!existsSync(join(root, 'server/dist/main.js')))
    throw new Error('server not built: npm run build -w server');
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server under load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-'.padEnd(40, 'x'),
      // As in production with several instances: sessions cached in Redis when it is given.
      ...(process.env.BENCH_REDIS_URL
        ? { REDIS_URL: process.env.BENCH_REDIS_URL, REDIS_KEY_PREFIX: `bench${Date.now()}:` }
        : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
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

/** Organisation, one subject test (10 short-text tasks, 2 variants) and `count` participant tests with known codes. */
export async function seed(pool, count) {
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
    for (let p = 1; p <= TASKS; p++) {
      const task = await one(
        `insert into tasks (answer_type, html, content, reference, scoring, max_score)
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

async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One participant's start: log in by code, start the work, load the variant. Returns timings. */
export async function startParticipant(base, code, deviceId) {
  const t0 = performance.now();
  const login = await fetch(`${base}/api/Account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ activationCode: code }),
  });
  const t1 = performance.now();
  if (login.status !== 200) throw new Error(`login ${login.status} ${JSON.stringify(await json(login))}`);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('attesta_sid='))
    ?.split(';')[0];
  const headers = {
    cookie,
    'x-requested-with': 'XMLHttpRequest',
    'content-type': 'application/json',
    'x-device-id': deviceId,
  };
  const work = await fetch(`${base}/api/exam/test/examwork/new`, { method: 'POST', headers, body: '{}' });
  const t2 = performance.now();
  if (work.status !== 200) throw new Error(`examwork/new ${work.status} ${JSON.stringify(await json(work))}`);
  const workBody = await work.json();
  const variant = await fetch(`${base}/api/exam/test/variant/current`, { headers });
  const t3 = performance.now();
  if (variant.status !== 200) throw new Error(`variant/current ${variant.status}`);
  const variantBody = await variant.json();
  return {
    headers,
    examWorkId: workBody.id,
    taskIds: variantBody.tasks.map((t) => t.variantTaskId),
    timings: { login: t1 - t0, examworkNew: t2 - t1, variant: t3 - t2, flow: t3 - t0 },
  };
}

/** (c) N participants arriving evenly over the storm window (an open model, like a school day at 10:00). */
async function startStorm(base, codes) {
  const flows = [];
  const errors = [];
  const started = performance.now();
  const interval = (STORM_SECONDS * 1000) / codes.length;
  const pending = codes.map(
    (code, i) =>
      new Promise((resolve) => {
        setTimeout(async () => {
          try {
            flows.push(await startParticipant(base, code, `storm-${i}`));
          } catch (err) {
            errors.push(String(err.message ?? err));
          }
          resolve();
        }, i * interval);
      }),
  );
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  const sorted = (key) => flows.map((f) => f.timings[key]).sort((a, b) => a - b);
  const stat = (key) => ({
    p50: round(percentile(sorted(key), 50)),
    p99: round(percentile(sorted(key), 99)),
  });
  return {
    participants: codes.length,
    completed: flows.length,
    errors: errors.length,
    errorSamples: [...new Set(errors)].slice(0, 5),
    elapsedSeconds: round(elapsed, 2),
    flowMs: stat('flow'),
    loginMs: stat('login'),
    examworkNewMs: stat('examworkNew'),
    variantMs: stat('variant'),
    flows,
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

async function reconcile(pool, acked) {
  const { rows } = await pool.query('select exam_work_id, variant_task_id, seq from answers');
  const stored = new Map(rows.map((r) => [`${r.exam_work_id}:${r.variant_task_id}`, r.seq]));
  let missing = 0;
  for (const [key, seq] of acked) if ((stored.get(key) ?? 0) < seq) missing++;
  return { acknowledgedKeys: acked.size, missing };
}

function markdown(r) {
  const lines = [
    `Run ${r.at} on ${r.machine.cpus} CPU (${r.machine.model}), ${r.machine.memoryGb} GB, Node ${process.version}, PostgreSQL on the same machine; server: one process, pool ${r.poolSize}${process.env.BENCH_REDIS_URL ? ', sessions cached in Redis' : ', no Redis'}.`,
    '',
    '| measurement | saves/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|',
    `| (a) raw upsert through \`pg\` (${CONNECTIONS} concurrent) | ${r.raw.savesPerSecond} | ${r.raw.p50} | ${r.raw.p99} | ${r.raw.errors} |`,
    `| (b) \`PUT saveanswer\` over HTTP, unthrottled (${CONNECTIONS} connections) | ${r.http.savesPerSecond} | ${r.http.p50} | ${r.http.p99} | ${r.http.errors + r.http.non2xx} |`,
    `| (b) \`PUT saveanswer\` at a fixed ${RATE}/s | ${r.httpRate.savesPerSecond} | ${r.httpRate.p50} | ${r.httpRate.p99} | ${r.httpRate.errors + r.httpRate.non2xx} |`,
    '',
    `**(b)/(a) = ${r.ratio}** (target ≥ 0.5). p99 at ${RATE} saves/s: ${r.httpRate.p99} ms (target < 200 ms).`,
    '',
    `Start storm: ${r.storm.participants} participants arriving over ${STORM_SECONDS} s (login by code → examwork/new → variant/current): completed ${r.storm.completed} in ${r.storm.elapsedSeconds} s, errors ${r.storm.errors}; whole flow p50 ${r.storm.flowMs.p50} ms, p99 ${r.storm.flowMs.p99} ms (login p99 ${r.storm.loginMs.p99}, examwork/new p99 ${r.storm.examworkNewMs.p99}, variant p99 ${r.storm.variantMs.p99}). Target: p99 < 1000 ms, zero errors.`,
    '',
    `Reconciliation: ${r.reconcile.acknowledgedKeys} (work, task) pairs acknowledged, ${r.reconcile.missing} missing from the database (must be 0).`,
  ];
  return lines.join('\n');
}

async function main() {
  log(`fresh database on ${adminUrl.replace(/\/\/[^@]*@/, '//…@')}`);
  const databaseUrl = await freshDatabase();
  const { child, base } = await startServer(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  try {
    const codes = await seed(pool, STORM + SAVERS);
    log(`seeded ${codes.length} participant tests`);

    log(`(c) start storm: ${STORM} participants over ${STORM_SECONDS} s`);
    const storm = await startStorm(base, codes.slice(0, STORM));
    log(`    done: ${storm.completed} ok, ${storm.errors} errors, flow p99 ${storm.flowMs.p99} ms`);

    if (process.env.BENCH_ONLY === 'storm') {
      console.log(JSON.stringify({ ...storm, flows: undefined }, null, 2));
      return;
    }
    log(`preparing ${SAVERS} saving participants`);
    const savers = [];
    for (let i = 0; i < SAVERS; i += 50) {
      const batch = codes.slice(STORM + i, STORM + Math.min(SAVERS, i + 50));
      savers.push(...(await Promise.all(batch.map((c, j) => startParticipant(base, c, `saver-${i + j}`)))));
    }

    log(`(a) raw upsert ceiling, ${SECONDS} s`);
    const raw = await rawCeiling(pool, savers);
    log(`    ${raw.savesPerSecond} saves/s, p99 ${raw.p99} ms`);

    const acked = new Map();
    log(`(b) saveanswer over HTTP, unthrottled, ${SECONDS} s`);
    const http = summarize(await httpSaves(base, savers, acked));
    log(`    ${http.savesPerSecond} saves/s, p99 ${http.p99} ms, non-2xx ${http.non2xx}`);
    log(`(b) saveanswer over HTTP at ${RATE}/s, ${SECONDS} s`);
    const httpRate = summarize(await httpSaves(base, savers, acked, { rate: RATE }));
    log(`    ${httpRate.savesPerSecond} saves/s, p99 ${httpRate.p99} ms, non-2xx ${httpRate.non2xx}`);

    const reconciled = await reconcile(pool, acked);
    log(`reconcile: ${reconciled.missing} of ${reconciled.acknowledgedKeys} acknowledged keys missing`);

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
      reconcile: reconciled,
    };
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
    child.kill('SIGTERM');
  }
}

// Run when started as a script; bench/reports.mjs imports the helpers above.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
