// Benchmark of big reports beside the exam (issue 12, item 3): a detailed report of 300,000
// participant tests × 20 tasks, built by its queue item (streamed xlsx), must finish without the
// server's memory passing 500 MB, and while it runs the autosave must keep p99 < 200 ms at
// 1,000 saves/s.
//
// One run, one server process (server/dist, as `npm run bench` builds it), one PostgreSQL:
//   (a) saves alone   — PUT saveanswer at a fixed 1,000/s (the saves bench's setup: 200 real
//                       participants, 50 connections), before the report: the same-run baseline;
//   (b) report alone  — GET /api/reports/detailed?format=xlsx of the 300,000 results → 202, the
//                       queue item polled until done: duration, the server's peak RSS (VmHWM of
//                       /proc/<pid>/status, reset before the phase) and the file (size, rows);
//   (c) both at once  — the same report, asked for 2 s after saves began at 1,000/s (their first
//                       second opens the connections), while they run until it is done; the
//                       saves slower than 100 ms are counted by second to show where they fall;
//   (a') saves alone again, after it (how much the box itself drifted during the run).
// The 300,000 × 20 results are seeded by SQL (generate_series) once into a template database
// (attesta_bench_reports_seed_<rows>); each run copies it (CREATE DATABASE … TEMPLATE).
//
//   npm run build -w server && node bench/reports.mjs
//   node bench/reports.mjs --write-docs     # also rewrites the report section of docs/BENCHMARKS.md
// Env: BENCH_DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test),
//      BENCH_REPORTS_ROWS (300000), BENCH_REPORTS_RESEED=1 (seed the template again),
//      BENCH_SECONDS (saves phases, default 20), BENCH_RATE (1000), BENCH_REDIS_URL (as run.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import pg from 'pg';
import { register } from 'tsx/esm/api';
import { writeMarkedSection } from './docs-section.mjs';

process.env.BENCH_SECONDS ??= '20';
process.env.JOBS_POLL_INTERVAL_MS ??= '200';
const { httpSaves, seed, startParticipant, startServer, summarize } = await import('./run.mjs');

register();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = (p) => join(root, 'server/src', p);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_REPORTS_ROWS ?? 300_000);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SAVERS = 200;
const TEMPLATE = `attesta_bench_reports_seed_${ROWS}`;
const RUN_DB = 'attesta_bench_reports';
const writeDocs = process.argv.includes('--write-docs');
const log = (...args) => console.error('[bench:reports]', ...args);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (kb) => Math.round(kb / 1024);
const dbUrl = (name) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function admin(fn) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- the template: 300,000 × 20 results
async function ensureTemplate() {
  const exists = await admin(
    async (c) => (await c.query('select 1 from pg_database where datname = $1', [TEMPLATE])).rowCount > 0,
  );
  if (exists && process.env.BENCH_REPORTS_RESEED !== '1') {
    log(`reusing ${TEMPLATE} (BENCH_REPORTS_RESEED=1 seeds it again)`);
    return null;
  }
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${TEMPLATE}`);
  });
  const { openDatabase } = await import(src('db/client.ts'));
  const database = await openDatabase({ url: dbUrl(TEMPLATE), poolSize: 2 });
  await database.migrate();
  await database.close();
  const pool = new pg.Pool({ connectionString: dbUrl(TEMPLATE), max: 2 });
  const q = async (text, params) => (await pool.query(text, params)).rows;
  const one = async (text, params) => (await q(text, params))[0];
  const t0 = performance.now();
  log(`seeding ${ROWS} participant tests × 20 task scores into ${TEMPLATE}…`);
  try {
    const oo = await one(`insert into oo (name) values ('ОО отчётов') returning id`);
    const school = await one(
      `insert into schools (oo_id, name, code) values ($1, 'Школа № 1 имени отчётов', 'REP1') returning id`,
      [oo.id],
    );
    await q(
      `insert into classes (school_id, parallel_id, letter, name)
       select $1, 7, l, '7 «' || l || '»' from unnest('{А,Б,В,Г,Д,Е,Ж,З,И,К}'::text[]) l`,
      [school.id],
    );
    const subject = await one(`insert into subjects (name, code) values ('Математика', 'REPM') returning id`);
    const exam = await one(
      `insert into subject_exams (subject_id, kind, name) values ($1, 'diagnostic', 'Диагностика') returning id`,
      [subject.id],
    );
    const test = await one(
      `insert into subject_tests (subject_exam_id, name, parallels, duration_minutes, mark_scale)
       values ($1, 'Математика, 7 класс', '{7}', 45,
         '[{"mark":"5","minScore":20,"level":"высокий"},{"mark":"4","minScore":15,"level":"повышенный"},
           {"mark":"3","minScore":8,"level":"базовый"},{"mark":"2","minScore":0,"level":"низкий"}]')
       returning id`,
      [exam.id],
    );
    for (let v = 1; v <= 2; v++) {
      const variant = await one(
        `insert into variants (subject_test_id, number) values ($1, $2) returning id`,
        [test.id, v],
      );
      for (let p = 1; p <= 20; p++) {
        const max = p > 16 ? 2 : 1;
        const task = await one(
          `insert into tasks (answer_type, html, content, reference, scoring, max_score)
           values ('short_text', $1, '{"maxLength":100}', '{"accepted":["ответ"]}', '{"method":"all_or_nothing"}', $2)
           returning id`,
          [`<p>Вариант ${v}, задание ${p}</p>`, max],
        );
        await q(
          `insert into variant_tasks (variant_id, task_id, position, max_score) values ($1, $2, $3, $4)`,
          [variant.id, task.id, p, max],
        );
      }
    }
    const diag = await one(
      `insert into diagnostics (code, name, starts_at, ends_at, parallels)
       values ('REPORTS', 'Региональная диагностика', now() - interval '3 days', now() - interval '2 days', '{7}')
       returning id`,
    );
    await q(`insert into diagnostic_subject_tests values ($1, $2)`, [diag.id, test.id]);
    await q(`insert into diagnostic_schools values ($1, $2)`, [diag.id, school.id]);
    await q(`select setseed(0.42)`);
    await q(
      `insert into students (school_id, class_id, surname, name, patronymic)
       select $1, c.id,
         ('{Иванов,Петрова,Сидоров,Смирнова,Кузнецов,Попова,Васильев,Соколова,Михайлов,Новикова}'::text[])[1 + g % 10],
         ('{Иван,Мария,Пётр,Анна,Сергей,Елена,Алексей,Ольга}'::text[])[1 + g % 8],
         'Отчествович'
       from generate_series(1, $2) g
       join (select id, row_number() over (order by id) - 1 as k from classes where school_id = $1) c on c.k = g % 10`,
      [school.id, ROWS],
    );
    await q(
      `insert into participant_tests (diagnostic_id, subject_test_id, student_id, school_id, class_id, test_date,
         activation_code, registration_code, status)
       select $1, $2, s.id, s.school_id, s.class_id, (current_date - 2),
         'AP' || lpad(s.id::text, 9, '0'), 'RP' || lpad(s.id::text, 9, '0'), 'finished'
       from students s where s.school_id = $3`,
      [diag.id, test.id, school.id],
    );
    const variantIds = (
      await q(`select id from variants where subject_test_id = $1 order by number`, [test.id])
    ).map((r) => r.id);
    await q(
      `insert into exam_works (participant_test_id, variant_id, status, started_at, time_limit_seconds,
         deadline_at, window_ends_at, finished_at, finish_reason)
       select id, case when id % 2 = 0 then $1::int else $2::int end, 'finished',
         now() - interval '2 days 1 hour', 2700, now() - interval '2 days', now() - interval '2 days',
         now() - interval '2 days 30 minutes', 'participant'
       from participant_tests where diagnostic_id = $3`,
      [variantIds[0], variantIds[1], diag.id],
    );
    log(`    works in ${Math.round((performance.now() - t0) / 1000)} s; task scores…`);
    await q(
      `insert into task_scores (exam_work_id, variant_task_id, auto_status, auto_score, final_score, max_score, status)
       select work_id, variant_task_id, 'scored', s, s, max_score, 'auto'
       from (select w.id as work_id, vt.id as variant_task_id, vt.max_score,
               case when vt.max_score = 2 then floor(random() * 3) else (random() < 0.6)::int end as s
             from exam_works w
             join participant_tests pt on pt.id = w.participant_test_id and pt.diagnostic_id = $1
             join variant_tasks vt on vt.variant_id = w.variant_id) x`,
      [diag.id],
    );
    log(`    task scores in ${Math.round((performance.now() - t0) / 1000)} s; results…`);
    await q(
      `insert into results (exam_work_id, participant_test_id, diagnostic_id, subject_test_id, status,
         primary_score, max_score, percent, mark, level, verification_code)
       select w.id, w.participant_test_id, $1, $2, 'scored', t.total, 24, round(t.total / 24.0 * 100, 1),
         case when t.total >= 20 then '5' when t.total >= 15 then '4' when t.total >= 8 then '3' else '2' end,
         case when t.total >= 20 then 'высокий' when t.total >= 15 then 'повышенный'
              when t.total >= 8 then 'базовый' else 'низкий' end,
         'V-' || w.id
       from exam_works w
       join (select exam_work_id, sum(final_score) as total from task_scores group by exam_work_id) t
         on t.exam_work_id = w.id`,
      [diag.id, test.id],
    );
    await q(`vacuum analyze`);
  } finally {
    await pool.end();
  }
  const seconds = Math.round((performance.now() - t0) / 1000);
  log(`    seeded in ${seconds} s`);
  return seconds;
}

async function runDatabase() {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${RUN_DB} TEMPLATE ${TEMPLATE}`);
  });
  return dbUrl(RUN_DB);
}

// ---------------------------------------------------------------- the server's memory
const status = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const field = (text, name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
/** Resets the peak resident set (VmHWM) of a process we started. */
const resetPeak = (pid) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** Samples the server's RSS every 100 ms until `stop()`; VmHWM at the end is the peak. */
function sampleMemory(pid) {
  resetPeak(pid);
  const samples = [];
  const timer = setInterval(() => samples.push(field(status(pid), 'VmRSS')), 100);
  return () => {
    clearInterval(timer);
    const s = status(pid);
    return {
      startMb: mb(samples[0] ?? field(s, 'VmRSS')),
      maxSampledMb: mb(Math.max(...samples, 0)),
      peakMb: mb(field(s, 'VmHWM')),
      endMb: mb(field(s, 'VmRSS')),
    };
  };
}

// ---------------------------------------------------------------- the report through HTTP
/** Counts the saves slower than 100 ms by the second of the phase they ended in (and their maximum). */
function slowSaves() {
  const t0 = performance.now();
  const slow = new Map();
  return {
    record(ms) {
      if (ms < 100) return;
      const second = Math.floor((performance.now() - t0) / 1000);
      const bucket = slow.get(second) ?? { count: 0, max: 0 };
      bucket.count++;
      bucket.max = Math.max(bucket.max, Math.round(ms));
      slow.set(second, bucket);
    },
    bySecond: () => Object.fromEntries([...slow].sort(([a], [b]) => a - b)),
  };
}

async function adminSession(base, pool) {
  const { hashPassword } = await import(src('lib/password.ts'));
  const password = 'bench-reports-Pa55word';
  const user = (
    await pool.query(
      `insert into users (login, password_hash, surname, name) values ('bench.admin', $1, 'Бенч', 'Админ')
       returning id`,
      [await hashPassword(password)],
    )
  ).rows[0];
  await pool.query(`insert into user_roles (user_id, role) values ($1, 'admin')`, [user.id]);
  const res = await fetch(`${base}/api/Account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ login: 'bench.admin', password }),
  });
  if (res.status !== 200) throw new Error(`admin login ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('attesta_sid='))
    ?.split(';')[0];
  return { cookie, 'x-requested-with': 'XMLHttpRequest' };
}

/** Rows of the first sheet of an xlsx (its `<row ` elements), read from the zip without a library. */
function sheetRows(bytes) {
  // Local file headers: signature, sizes, name; our writer's entries are deflated (method 8) and
  // carry their sizes in a data descriptor, so the central directory gives the compressed size.
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = bytes.readUInt32LE(eocd + 16);
  const entries = bytes.readUInt16LE(eocd + 10);
  for (let i = 0; i < entries; i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString();
    const size = bytes.readUInt32LE(at + 20);
    const local = bytes.readUInt32LE(at + 42);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (/worksheets\/sheet1\.xml$/.test(name)) {
      const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
      const xml = inflateRawSync(bytes.subarray(start, start + size));
      let rows = 0;
      for (let i = xml.indexOf('<row '); i >= 0; i = xml.indexOf('<row ', i + 5)) rows++;
      return rows;
    }
    at = next;
  }
  return null;
}

/** Asks for the detailed xlsx (202) and polls its queue item until it is done. */
async function detailedJob(base, headers, diagnosticId) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/reports/detailed?diagnosticId=${diagnosticId}&format=xlsx`, {
    headers,
  });
  if (res.status !== 202) throw new Error(`detailed: expected 202, got ${res.status} ${await res.text()}`);
  const { queueItemId } = await res.json();
  const progress = [];
  const steps = [];
  for (;;) {
    await sleep(250);
    const item = await (await fetch(`${base}/api/reports/queue/${queueItemId}`, { headers })).json();
    if (progress.at(-1) !== item.progress) {
      progress.push(item.progress);
      steps.push({ at: Math.round(performance.now() - t0), status: item.status, progress: item.progress });
    }
    if (item.status === 'failed') throw new Error(`report job failed: ${item.errorCode} ${item.error}`);
    if (item.status !== 'done') continue;
    return {
      queueItemId,
      seconds: Math.round((performance.now() - t0) / 100) / 10,
      jobSeconds: Math.round((Date.parse(item.finishedAt) - Date.parse(item.startedAt)) / 100) / 10,
      rows: item.result.rows,
      resultFileId: item.resultFileId,
      progressSteps: progress.length,
      steps,
      startedAtMs: t0,
    };
  }
}

/** Downloads the job's file (GET /api/files/{id}) and counts its rows. */
async function download(base, headers, job) {
  const t0 = performance.now();
  const file = Buffer.from(
    await (await fetch(`${base}/api/files/${job.resultFileId}`, { headers })).arrayBuffer(),
  );
  return {
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    fileMb: Math.round((file.length / 1048576) * 10) / 10,
    sheetRows: sheetRows(file),
  };
}

// ---------------------------------------------------------------- run
async function main() {
  const load = [loadavg()[0]];
  const seedSeconds = await ensureTemplate();
  const databaseUrl = await runDatabase();
  const { child, base } = await startServer(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  try {
    const [{ id: diagnosticId }] = (await pool.query(`select id from diagnostics where code = 'REPORTS'`))
      .rows;
    const codes = await seed(pool, SAVERS);
    log(`preparing ${SAVERS} saving participants`);
    const savers = [];
    for (let i = 0; i < SAVERS; i += 50)
      savers.push(
        ...(await Promise.all(
          codes.slice(i, i + 50).map((c, j) => startParticipant(base, c, `saver-${i + j}`)),
        )),
      );
    const headers = await adminSession(base, pool);
    const acked = new Map();
    // Each phase sends newer seqs than the last (10 million apart), so every save is a new one.
    let phase = 0;
    const saves = async (options) =>
      summarize(
        await httpSaves(base, savers, acked, { rate: RATE, seqBase: 10_000_000 * ++phase, ...options }),
      );

    log(`(a) saves alone at ${RATE}/s, ${process.env.BENCH_SECONDS} s`);
    const slowBefore = slowSaves();
    const before = await saves({ onLatency: slowBefore.record });
    before.slowBySecond = slowBefore.bySecond();
    log(`    saves over 100 ms by second: ${JSON.stringify(before.slowBySecond)}`);
    log(
      `    p50 ${before.p50} ms, p99 ${before.p99} ms, ${before.savesPerSecond}/s, errors ${before.errors + before.non2xx}`,
    );

    log(`(b) the detailed xlsx of ${ROWS} results, alone`);
    let stop = sampleMemory(child.pid);
    const alone = await detailedJob(base, headers, diagnosticId);
    alone.memory = stop();
    log(`    ${alone.seconds} s (job ${alone.jobSeconds} s), peak RSS ${alone.memory.peakMb} MB`);
    stop = sampleMemory(child.pid);
    const file = await download(base, headers, alone);
    file.memory = stop();
    log(
      `    download: ${file.fileMb} MB, ${file.sheetRows} rows in ${file.seconds} s, peak RSS ${file.memory.peakMb} MB`,
    );

    log(`(c) the same report while saves run at ${RATE}/s`);
    stop = sampleMemory(child.pid);
    // The job is asked for once the saves run steadily (their first second opens 50 connections).
    const slowDuring = slowSaves();
    let job;
    const during = await saves({
      onLatency: slowDuring.record,
      until: sleep(2000).then(() => (job = detailedJob(base, headers, diagnosticId)).catch(() => undefined)),
    });
    const withSaves = await job;
    during.slowBySecond = slowDuring.bySecond();
    log(
      `    saves over 100 ms by second (the report asked for at 2 s): ${JSON.stringify(during.slowBySecond)}`,
    );
    log(
      `    job progress: ${withSaves.steps.map((s) => `${(s.at / 1000).toFixed(1)}s ${s.progress}`).join(' | ')}`,
    );
    withSaves.memory = stop();
    log(
      `    saves p50 ${during.p50} ms, p99 ${during.p99} ms, ${during.savesPerSecond}/s; report ${withSaves.seconds} s, peak RSS ${withSaves.memory.peakMb} MB`,
    );

    log(`(a') saves alone again`);
    const after = await saves({});
    log(`    p50 ${after.p50} ms, p99 ${after.p99} ms`);
    load.push(loadavg()[0]);

    const result = {
      at: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1048576)} MB, node ${process.version}`,
      loadAverage: load.map((l) => Math.round(l * 10) / 10),
      postgres: (await pool.query('show server_version')).rows[0].server_version,
      rows: ROWS,
      seedSeconds,
      rate: RATE,
      redis: !!process.env.BENCH_REDIS_URL,
      before,
      alone,
      file,
      during,
      withSaves,
      after,
    };
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      join(root, `bench/results/reports-${result.at.replace(/[:.]/g, '-')}.json`),
      JSON.stringify(result, null, 2),
    );
    const md = markdown(result);
    console.log(md);
    if (writeDocs) {
      writeMarkedSection('reports', md);
      log('docs/BENCHMARKS.md updated');
    }
  } finally {
    await pool.end();
    child.kill('SIGTERM');
  }
}

const slowText = (bySecond) =>
  Object.keys(bySecond ?? {}).length
    ? Object.entries(bySecond)
        .map(([second, { count, max }]) => `${second} s: ${count} (${max})`)
        .join(', ')
    : 'none';

function markdown(r) {
  const s = (x) => `${x.savesPerSecond} | ${x.p50} | ${x.p99} | ${x.errors + x.non2xx}`;
  const m = (x) =>
    `${x.seconds} s (job ${x.jobSeconds} s) | **${x.memory.peakMb} MB** (${x.memory.startMb} MB before)`;
  const errors = r.during.errors + r.during.non2xx;
  return [
    `Saves beside the ${r.rows.toLocaleString('en')} × 20 detailed export: p99 ${r.during.p99} ms at ${r.during.savesPerSecond} saves/s, errors ${errors} (target p99 < 200 ms, 0 errors: ${r.during.p99 < 200 && errors === 0 ? 'met' : 'NOT met'}; alone before it: p99 ${r.before.p99} ms); the export's server peak RSS ${r.withSaves.memory.peakMb} MB (target < 500 MB).`,
    '',
    `Run ${r.at.slice(0, 16).replace('T', ' ')} UTC on ${r.machine}, PostgreSQL ${r.postgres} on the same machine, one server process${r.redis ? ' with Redis' : ''}; load average ${r.loadAverage.join(' → ')} over the run (other work on the box).`,
    '',
    `| saves at ${r.rate}/s (\`PUT saveanswer\`, autocannon) | saves/s | p50 ms | p99 ms | errors |`,
    '|---|---|---|---|---|',
    `| (a) alone, before the report (baseline) | ${s(r.before)} |`,
    `| (c) while the detailed report of ${r.rows.toLocaleString('en')} × 20 is built | ${s(r.during)} |`,
    `| (a') alone, after it | ${s(r.after)} |`,
    '',
    `| detailed xlsx of ${r.rows.toLocaleString('en')} results × 20 tasks (queue item) | request → done | server peak RSS |`,
    '|---|---|---|',
    `| (b) alone | ${m(r.alone)} |`,
    `| (c) with saves at ${r.rate}/s | ${m(r.withSaves)} |`,
    '',
    `Saves slower than 100 ms, by the second of the phase (count, slowest ms): (a) ${slowText(r.before.slowBySecond)}; (c), the report asked for at 2 s and done at ${Math.round(2 + r.withSaves.seconds)} s: ${slowText(r.during.slowBySecond)}.`,
    '',
    `The file: ${r.file.fileMb} MB, ${r.file.sheetRows.toLocaleString('en')} sheet rows (title, header and ${r.alone.rows.toLocaleString('en')} results); its download (\`GET /api/files/{id}\`) took ${r.file.seconds} s with the server's peak RSS at ${r.file.memory.peakMb} MB.`,
  ].join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
