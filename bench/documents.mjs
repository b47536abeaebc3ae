// Benchmark of the printable documents (issue 24, item 6): one class's sitting protocol, one
// participant's result report and the code slips of one class must each be produced in under
// 1 s on the 2-core machine.
//
// One server process (server/dist, as `npm run bench` builds it, or BENCH_SERVER_ENTRY for another
// build — e.g. the commit before a change — to compare on the same machine in the same hour) and
// a fresh PostgreSQL database seeded by SQL: one class of 30 named participants, a 20-task
// variant, every work finished and scored (results with 12 content elements), a pause, a time
// change and integrity events for the protocol. Each document is asked for BENCH_DOCUMENTS_RUNS
// times (default 10) over HTTP, one request at a time: the first request of each is reported
// apart (cold: the first PDF of the process also loads the fonts), the rest as p50 and max, with
// the server's CPU per document (utime + stime of /proc/<pid>/stat over the warm runs; the first's
// apart). Every answer is checked: a PDF whose text (read back with pdf.js, server/test/pdf.ts) holds the
// class's names and codes.
//
//   npm run build -w server && node bench/documents.mjs
//   node bench/documents.mjs --write-docs   # also rewrites the documents block of docs/BENCHMARKS.md
// Env: BENCH_DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test),
//      BENCH_DOCUMENTS_RUNS (10), BENCH_SERVER_ENTRY (another server build).
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { register } from 'tsx/esm/api';
import { writeMarkedSection } from './docs-section.mjs';

const { percentile, seed, startServer } = await import('./run.mjs');

register();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = (p) => join(root, 'server', p);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_DOCUMENTS_RUNS ?? 10);
const CLASS_SIZE = 30;
const TASKS = 20;
const RUN_DB = 'attesta_bench_documents';
const writeDocs = process.argv.includes('--write-docs');
const log = (...args) => console.error('[bench:documents]', ...args);
const TICK_MS = 1000 / 100; // USER_HZ

const dbUrl = (name) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function freshDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${RUN_DB}`);
  await admin.end();
  return dbUrl(RUN_DB);
}

/** CPU time of a process so far, ms (user + system). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * The class: run.mjs's seed (one school, one class, a subject test of two 20-task variants, 30
 * participant tests), then names, finished works, task scores, results with content elements,
 * a pause, a time change, integrity events and a coordinator of the school.
 */
async function seedClass(pool) {
  const q = async (text, params) => (await pool.query(text, params)).rows;
  await seed(pool, CLASS_SIZE, { tasks: TASKS });
  const [{ id: diagnosticId }] = await q(`select id from diagnostics where code = 'BENCH'`);
  const [{ id: classId, school_id: schoolId }] = await q(`select id, school_id from classes`);
  await q(`update diagnostics set starts_at = now() - interval '3 hours' where id = $1`, [diagnosticId]);
  await q(`select setseed(0.24)`);
  await q(
    `insert into students (school_id, class_id, surname, name, patronymic)
     select $1, $2,
       ('{Иванов,Петрова,Сидоров,Смирнова,Кузнецов,Попова,Васильев,Соколова,Михайлов,Новикова}'::text[])[1 + g % 10],
       ('{Иван,Мария,Пётр,Анна,Сергей,Елена,Алексей,Ольга}'::text[])[1 + g % 8],
       ('{Александрович,Сергеевна,Дмитриевич,Игоревна,Олегович}'::text[])[1 + g % 5]
     from generate_series(1, $3) g`,
    [schoolId, classId, CLASS_SIZE],
  );
  await q(
    `update participant_tests pt set student_id = s.id, is_impersonal = false, status = 'finished'
     from (select id, row_number() over (order by id) as k from students) s,
          (select id, row_number() over (order by id) as k from participant_tests) p
     where p.id = pt.id and p.k = s.k`,
  );
  await q(
    `insert into exam_works (participant_test_id, variant_id, status, started_at, time_limit_seconds,
       deadline_at, window_ends_at, finished_at, finish_reason)
     select pt.id, v.id, 'finished',
       now() - interval '2 hours' + (pt.id % 7) * interval '1 minute', 7200,
       now() + interval '1 hour', now() + interval '1 hour',
       now() - interval '40 minutes' + (pt.id % 11) * interval '1 minute',
       case when pt.id % 9 = 0 then 'timeout' else 'manual' end
     from participant_tests pt
     join variants v on v.subject_test_id = pt.subject_test_id and v.number = 1 + pt.id % 2`,
  );
  await q(
    `insert into task_scores (exam_work_id, variant_task_id, auto_status, auto_score, final_score, max_score, status)
     select w.id, vt.id, 'scored', s, s, vt.max_score, 'auto'
     from exam_works w
     join variant_tasks vt on vt.variant_id = w.variant_id,
     lateral (select (random() < 0.6)::int as s) x`,
  );
  const elements = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [
      `${1 + Math.floor(i / 4)}.${1 + (i % 4)}`,
      { name: `Элемент содержания ${i + 1}: числа, выражения, уравнения и неравенства`, score: 1, max: 2 },
    ]),
  );
  await q(
    `insert into results (exam_work_id, participant_test_id, diagnostic_id, subject_test_id, status,
       primary_score, max_score, percent, mark, level, verification_code, per_element)
     select w.id, w.participant_test_id, $1, pt.subject_test_id, 'scored', t.total, $2,
       round(t.total::numeric / $2 * 100, 1), '4', 'повышенный', 'V-' || w.id, $3
     from exam_works w
     join participant_tests pt on pt.id = w.participant_test_id
     join (select exam_work_id, sum(final_score) as total from task_scores group by exam_work_id) t
       on t.exam_work_id = w.id`,
    [diagnosticId, TASKS, JSON.stringify(elements)],
  );
  await q(
    `insert into exam_work_pauses (exam_work_id, started_at, ended_at, by_staff, reason)
     select id, started_at + interval '20 minutes', started_at + interval '25 minutes', true,
       'Участнику стало плохо, вышел с дежурным'
     from exam_works order by id limit 2`,
  );
  await q(
    `insert into exam_work_events (exam_work_id, at, kind, details)
     select w.id, w.started_at + k * interval '3 minutes', kind, null
     from (select id, started_at from exam_works order by id limit 6) w,
          generate_series(1, 3) k, unnest('{blur,fullscreen_exit}'::text[]) kind`,
  );
  const { hashPassword } = await import(src('src/lib/password.ts'));
  const password = 'bench-documents-Pa55word';
  const hash = await hashPassword(password);
  const [admin] = await q(
    `insert into users (login, password_hash, surname, name) values ('bench.docs.admin', $1, 'Бенч', 'Админ') returning id`,
    [hash],
  );
  await q(`insert into user_roles (user_id, role) values ($1, 'admin')`, [admin.id]);
  const [coordinator] = await q(
    `insert into users (login, password_hash, surname, name, school_id)
     values ('bench.docs.coordinator', $1, 'Координатор', 'Школьный', $2) returning id`,
    [hash, schoolId],
  );
  await q(`insert into user_roles (user_id, role) values ($1, 'coordinator')`, [coordinator.id]);
  const [first] = await q(`select id from participant_tests order by id limit 1`);
  return { diagnosticId, classId, ptId: first.id, password };
}

async function login(base, loginName, password) {
  const res = await fetch(`${base}/api/Account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ login: loginName, password }),
  });
  if (res.status !== 200) throw new Error(`login ${loginName}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('attesta_sid='))
    ?.split(';')[0];
  return { cookie, 'x-requested-with': 'XMLHttpRequest' };
}

/** Asks for one document `RUNS` times, one at a time: wall time of each, server CPU of the warm ones. */
async function measure(base, pid, doc) {
  const times = [];
  let cpuWarm = 0;
  let cpuFirst = 0;
  let bytes = null;
  for (let i = 0; i < RUNS; i++) {
    const cpu0 = cpuMs(pid);
    const t0 = performance.now();
    const res = await fetch(`${base}${doc.path}`, { headers: doc.headers });
    const body = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - t0;
    const type = doc.json ? 'application/json; charset=utf-8' : 'application/pdf';
    if (res.status !== 200 || res.headers.get('content-type') !== type)
      throw new Error(
        `${doc.name}: ${res.status} ${res.headers.get('content-type')} ${body.toString().slice(0, 300)}`,
      );
    times.push(ms);
    if (i > 0) cpuWarm += cpuMs(pid) - cpu0;
    else cpuFirst = cpuMs(pid) - cpu0;
    bytes = body;
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  const round = (x) => Math.round(x);
  return {
    name: doc.name,
    firstMs: round(times[0]),
    firstCpuMs: round(cpuFirst),
    p50Ms: round(percentile(warm, 50)),
    maxMs: round(warm.at(-1)),
    cpuMsPerDoc: round(cpuWarm / warm.length),
    kb: Math.round(bytes.length / 1024),
    bytes,
  };
}

async function main() {
  const load = [loadavg()[0]];
  const databaseUrl = await freshDatabase();
  const { child, base } = await startServer(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    log(`seeding a class of ${CLASS_SIZE} with a ${TASKS}-task variant`);
    const s = await seedClass(pool);
    const [names, codes] = await Promise.all([
      pool.query(`select surname from students order by id`),
      pool.query(`select activation_code from participant_tests order by id`),
    ]);
    const admin = await login(base, 'bench.docs.admin', s.password);
    const coordinator = await login(base, 'bench.docs.coordinator', s.password);
    const protocolPath = `/api/reports/diagnostic/protocol?diagnosticId=${s.diagnosticId}&classId=${s.classId}`;
    const docs = [
      {
        name: `protocol of a class (${CLASS_SIZE} participants)`,
        path: `${protocolPath}&format=pdf`,
        headers: admin,
        expect: names.rows.map((r) => r.surname),
      },
      {
        name: `result report (${TASKS} tasks, 12 elements)`,
        path: `/api/examresults/doc/${s.ptId}`,
        headers: admin,
        expect: ['Баллы по заданиям', 'V-'],
      },
      {
        name: `code slips of a class (${CLASS_SIZE} slips)`,
        path: `/api/reports/coordinator/participantCodes?diagnosticId=${s.diagnosticId}&classId=${s.classId}&format=pdf`,
        headers: coordinator,
        expect: codes.rows.map((r) => r.activation_code),
      },
      // Last, so as not to warm the protocol's queries before its PDF's first request.
      {
        name: `(the protocol's data alone, as JSON: no PDF)`,
        path: `${protocolPath}&format=json`,
        headers: admin,
        json: true,
      },
    ];
    const { readPdf } = await import(src('test/pdf.ts'));
    const rows = [];
    for (const doc of docs) {
      log(`${doc.name}: ${RUNS} requests`);
      const m = await measure(base, child.pid, doc);
      if (!doc.json) {
        const { pageCount, pages } = await readPdf(m.bytes);
        const text = pages.join('\n');
        const missing = doc.expect.filter((t) => !text.includes(t));
        if (missing.length) throw new Error(`${doc.name}: the PDF lacks ${missing.slice(0, 3).join(', ')}`);
        m.pages = pageCount;
      }
      delete m.bytes;
      log(
        `    first ${m.firstMs} ms, p50 ${m.p50Ms} ms, max ${m.maxMs} ms, CPU ${m.cpuMsPerDoc} ms, ${m.pages} pages`,
      );
      rows.push(m);
    }
    load.push(loadavg()[0]);
    const result = {
      at: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1048576)} MB, node ${process.version}`,
      server: process.env.BENCH_SERVER_ENTRY ?? 'server/dist/main.js',
      loadAverage: load.map((l) => Math.round(l * 10) / 10),
      runs: RUNS,
      documents: rows,
    };
    const md = markdown(result);
    console.log(JSON.stringify(result));
    console.log(md);
    if (writeDocs) {
      writeMarkedSection('documents', md);
      log('docs/BENCHMARKS.md updated');
    }
  } finally {
    await pool.end();
    child.kill('SIGTERM');
  }
}

function markdown(r) {
  const pdfs = r.documents.filter((d) => d.pages);
  const met = pdfs.every((d) => d.maxMs < 1000);
  return [
    `Documents, each under 1 s (issue 24, item 6): ${met ? 'met' : 'NOT met'} — slowest warm request ${Math.max(...pdfs.map((d) => d.maxMs))} ms, slowest first request ${Math.max(...pdfs.map((d) => d.firstMs))} ms.`,
    '',
    `Run ${r.at.slice(0, 16).replace('T', ' ')} UTC on ${r.machine}, one server process, PostgreSQL on the same machine; load average ${r.loadAverage.join(' → ')} (other work on the box). ${r.runs} requests of each, one at a time.`,
    '',
    '| document (HTTP, one at a time) | first request ms (its server CPU ms) | p50 ms | max ms | server CPU ms per document | pages | size kB |',
    '|---|---|---|---|---|---|---|',
    ...r.documents.map(
      (d) =>
        `| ${d.name} | ${d.firstMs} (${d.firstCpuMs}) | ${d.p50Ms} | ${d.maxMs} | ${d.cpuMsPerDoc} | ${d.pages ?? '—'} | ${d.kb} |`,
    ),
  ].join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
