// Benchmark of the item analysis (issue 12): 300,000 participants × 20 tasks must take < 10 s.
//
// One run measures, in one process on one machine:
//   (a) baseline  — one pass reading every cell of the response matrix (the least any analysis
//                   of it costs);
//   (b) analysis  — analyseItems() on that matrix: classical figures, distractors, Rasch CML,
//                   item fit, Wright map, expected scores (the pure function, best of 3);
//   (b') equating — calibration and equating together, once: analyseItems() then equateVariants()
//                   (issue 28: true-score conversion tables of both variants with their
//                   Lord–Wingersky CSEM; target < 30 s);
//   (c) database  — the same size seeded into a fresh PostgreSQL database (attesta_bench_items on
//                   BENCH_DATABASE_URL): a baseline aggregate read of every task score, loadMatrix()
//                   (paged reads into the typed matrix) and the whole call's service, itemAnalysis().
// Peak RSS (process.resourceUsage().maxRSS) is recorded after (b) and after (c).
//
//   node bench/item-analysis.mjs                    # everything (needs PostgreSQL for (c))
//   BENCH_ITEMS_DB=0 node bench/item-analysis.mjs   # (a) and (b) only
//   node bench/item-analysis.mjs --write-docs       # also rewrites its section of docs/BENCHMARKS.md
// Env: BENCH_ITEMS_PERSONS (300000), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test),
//      BENCH_ITEMS_REUSE=1 (measure (c) on the database a previous run seeded, without seeding again).
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import pg from 'pg';

register();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = (p) => join(root, 'server/src', p);
const { analyseItems } = await import(src('modules/reports/item-analysis/analyse.ts'));
const { MatrixBuilder } = await import(src('modules/reports/item-analysis/matrix.ts'));
const { equateVariants } = await import(src('modules/reports/item-analysis/equating.ts'));

const PERSONS = Number(process.env.BENCH_ITEMS_PERSONS ?? 300_000);
const WITH_DB = process.env.BENCH_ITEMS_DB !== '0';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const writeDocs = process.argv.includes('--write-docs');
const log = (...args) => console.error('[bench:items]', ...args);
const mb = (bytes) => Math.round(bytes / 1048576);
const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024); // MB
const time = async (fn) => {
  const t0 = performance.now();
  const value = await fn();
  return { ms: Math.round(performance.now() - t0), value };
};

// ---------------------------------------------------------------- synthetic test
// Two variants of 20 tasks sharing 14 (26 tasks): 4 single choice (4 options), 2 multiple
// choice, 4 tasks worth 2 points (two Rasch steps), the rest dichotomous. Abilities N(0, 1),
// difficulties evenly from −2 to 2. Fixed seed.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const TASKS = 26;
const kind = (i) => (i < 4 ? 'single_choice' : i < 6 ? 'multiple_choice' : i >= 22 ? 'cloze' : 'number');
const opts = (n, keys) => Array.from({ length: n }, (_, k) => ({ id: `o${k + 1}`, key: keys.includes(k) }));
const items = Array.from({ length: TASKS }, (_, i) => ({
  taskId: i + 1,
  answerType: kind(i),
  maxScore: kind(i) === 'cloze' ? 2 : 1,
  options:
    kind(i) === 'single_choice' ? opts(4, [1]) : kind(i) === 'multiple_choice' ? opts(4, [0, 2]) : null,
  multiple: kind(i) === 'multiple_choice',
  difficulty: -2 + (4 * ((i * 7) % TASKS)) / (TASKS - 1),
}));
const variants = [
  { variantId: 1, number: 1, columns: Array.from({ length: 20 }, (_, j) => j) },
  { variantId: 2, number: 2, columns: Array.from({ length: 20 }, (_, j) => j + 6) },
];

function generate() {
  const rand = prng(12);
  const b = new MatrixBuilder(items, variants, PERSONS);
  for (let p = 0; p < PERSONS; p++) {
    const theta = Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand());
    const v = p % 2;
    const row = b.addRow(v);
    variants[v].columns.forEach((c, j) => {
      const it = items[c];
      const pr = 1 / (1 + Math.exp(it.difficulty - theta));
      let x = rand() < pr ? 1 : 0;
      if (it.maxScore === 2) x += rand() < pr ? 1 : 0;
      row.scores[row.offset + j] = x;
      if (it.options) {
        const noAnswer = rand() < 0.03;
        row.choices[row.offset + j] = noAnswer
          ? -1
          : it.multiple
            ? x
              ? 0b0101
              : 1 << Math.floor(rand() * 4)
            : x
              ? 1
              : [0, 2, 3][Math.floor(rand() * 3)];
      }
    });
  }
  return b.build();
}

function readAll(m) {
  let sum = 0;
  let choices = 0;
  for (let p = 0; p < m.persons; p++) {
    const cols = m.variants[m.variantOf[p]].columns.length;
    const off = p * m.width;
    for (let j = 0; j < cols; j++) {
      sum += m.scores[off + j];
      if (m.choices) choices += m.choices[off + j];
    }
  }
  return sum + choices;
}

// ---------------------------------------------------------------- (a), (b)
log(`generating ${PERSONS} × 20 responses…`);
const matrix = generate();
const baseline = await time(() => readAll(matrix));
log(`(a) read the matrix once: ${baseline.ms} ms`);
const runs = [];
let figures;
for (let k = 0; k < 3; k++) {
  const r = await time(() => analyseItems(matrix));
  runs.push(r.ms);
  figures = r.value;
}
const pure = { best: Math.min(...runs), runs, rssMb: peakRss(), heapMb: mb(process.memoryUsage().heapUsed) };
log(`(b) analyseItems: best ${pure.best} ms of ${runs.join(', ')} ms; peak RSS ${pure.rssMb} MB`);
log(
  `    α ${figures.alpha?.toFixed(3)}, Rasch ${figures.rasch?.iterations} iterations, converged ${figures.rasch?.converged}`,
);

const equatingRun = await time(() => {
  const calibrated = analyseItems(matrix);
  const t0 = performance.now();
  const tables = equateVariants(calibrated);
  return { tables, equateMs: Math.round(performance.now() - t0) };
});
const equating = {
  ms: equatingRun.ms,
  equateMs: equatingRun.value.equateMs,
  rows:
    typeof equatingRun.value.tables === 'string'
      ? 0
      : equatingRun.value.tables.variants.reduce((a, v) => a + v.rows.length, 0),
};
log(
  `(b') analyseItems + equateVariants: ${equating.ms} ms (equating alone ${equating.equateMs} ms, ${equating.rows} table rows)`,
);

// ---------------------------------------------------------------- (c) through PostgreSQL
let db = null;
if (WITH_DB) db = await throughDatabase();

const result = {
  at: new Date().toISOString(),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem())} MB, node ${process.version}`,
  persons: PERSONS,
  tasksPerVariant: 20,
  baselineMs: baseline.ms,
  analysis: pure,
  equating,
  db,
};
console.log(JSON.stringify(result, null, 2));
if (writeDocs) writeSection(result);

async function throughDatabase() {
  const reuse = process.env.BENCH_ITEMS_REUSE === '1';
  if (!reuse) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS attesta_bench_items WITH (FORCE)');
    await admin.query('CREATE DATABASE attesta_bench_items');
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = '/attesta_bench_items';
  const { openDatabase } = await import(src('db/client.ts'));
  const { loadMatrix } = await import(src('modules/reports/item-analysis/item-analysis.repo.ts'));
  const { itemAnalysis } = await import(src('modules/reports/item-analysis/item-analysis.service.ts'));
  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  await database.migrate();
  const q = (text, params) => database.query(text, params);
  if (!reuse) log(`(c) seeding ${PERSONS} works × 20 task scores into PostgreSQL…`);
  const seed = await time(async () => {
    if (reuse) {
      const [row] = await q(`select diagnostic_id, subject_test_id from results limit 1`);
      return { diagnosticId: row.diagnostic_id, subjectTestId: row.subject_test_id };
    }
    const [oo] = await q(`insert into oo (name) values ('ОО') returning id`);
    const [school] = await q(
      `insert into schools (oo_id, name, code) values ($1, 'Школа', 'S1') returning id`,
      [oo.id],
    );
    const [subject] = await q(`insert into subjects (name, code) values ('Математика', 'M') returning id`);
    const [exam] = await q(
      `insert into subject_exams (subject_id, kind, name) values ($1, 'diagnostic', 'Д') returning id`,
      [subject.id],
    );
    const [test] = await q(
      `insert into subject_tests (subject_exam_id, name, parallels, duration_minutes)
       values ($1, 'Тест', '{7}', 45) returning id`,
      [exam.id],
    );
    const [diag] = await q(
      `insert into diagnostics (code, name, starts_at, ends_at, parallels)
       values ('BENCH', 'Bench', now() - interval '2 days', now() - interval '1 day', '{7}') returning id`,
    );
    const taskIds = [];
    for (const it of items) {
      const content = it.options ? { options: it.options.map((o) => ({ id: o.id, html: o.id })) } : {};
      const keys = it.options?.filter((o) => o.key).map((o) => o.id);
      const reference = it.multiple ? { correct: keys } : it.options ? { correct: keys[0] } : null;
      const [t] = await q(
        `insert into tasks (answer_type, html, content, reference, max_score) values ($1, '<p>x</p>', $2, $3, $4)
         returning id`,
        [it.answerType, JSON.stringify(content), JSON.stringify(reference), it.maxScore],
      );
      taskIds.push(t.id);
    }
    await q(`create table bench_items (variant_task_id int primary key, difficulty float8, max_score int,
      kind text)`);
    const variantIds = [];
    for (const v of variants) {
      const [row] = await q(`insert into variants (subject_test_id, number) values ($1, $2) returning id`, [
        test.id,
        v.number,
      ]);
      variantIds.push(row.id);
      for (const [j, c] of v.columns.entries()) {
        const [vt] = await q(
          `insert into variant_tasks (variant_id, task_id, position, max_score) values ($1, $2, $3, $4) returning id`,
          [row.id, taskIds[c], j + 1, items[c].maxScore],
        );
        await q(`insert into bench_items values ($1, $2, $3, $4)`, [
          vt.id,
          items[c].difficulty,
          items[c].maxScore,
          items[c].answerType,
        ]);
      }
    }
    await q(`select setseed(0.12)`);
    await q(
      `insert into participant_tests (diagnostic_id, subject_test_id, school_id, test_date, activation_code,
         registration_code, status)
       select $1, $2, $3, '2025-01-01', 'B' || g, 'R' || g, 'finished' from generate_series(1, $4) g`,
      [diag.id, test.id, school.id, PERSONS],
    );
    await q(
      `insert into exam_works (participant_test_id, variant_id, status, started_at, time_limit_seconds,
         deadline_at, window_ends_at, finished_at)
       select id, case when id % 2 = 0 then $1::int else $2::int end, 'scored', now(), 2700, now(), now(), now()
       from participant_tests where diagnostic_id = $3`,
      [variantIds[0], variantIds[1], diag.id],
    );
    await q(`create table bench_ability as select id, sqrt(-2 * ln(greatest(random(), 1e-12)))
      * cos(2 * pi() * random()) as theta from exam_works`);
    await q(`create table bench_scores as
      select w.id as work_id, bi.variant_task_id, bi.kind,
        (random() < p)::int + case when bi.max_score = 2 then (random() < p)::int else 0 end as score
      from exam_works w join bench_ability a on a.id = w.id
      join variant_tasks vt on vt.variant_id = w.variant_id
      join bench_items bi on bi.variant_task_id = vt.id
      cross join lateral (select 1 / (1 + exp(bi.difficulty - a.theta)) as p) pr`);
    await q(`insert into task_scores (exam_work_id, variant_task_id, auto_status, auto_score, final_score,
        max_score, status)
      select s.work_id, s.variant_task_id, 'scored', s.score, s.score, bi.max_score, 'auto'
      from bench_scores s join bench_items bi using (variant_task_id)`);
    await q(`insert into answers (exam_work_id, variant_task_id, value, seq)
      select work_id, variant_task_id,
        case when kind = 'single_choice' then to_jsonb(case when score = 1 then 'o2' else 'o' || (3 + (work_id % 2)) end)
             else case when score = 1 then '["o1","o3"]'::jsonb else '["o2"]'::jsonb end end, 1
      from bench_scores where kind in ('single_choice', 'multiple_choice') and work_id % 31 <> 0`);
    await q(
      `insert into results (exam_work_id, participant_test_id, diagnostic_id, subject_test_id, status,
        primary_score, max_score, percent, verification_code)
      select w.id, w.participant_test_id, $1, $2, 'scored', t.total, 24, round(t.total / 24.0 * 100, 1),
        'V' || w.id
      from exam_works w join (select work_id, sum(score) as total from bench_scores group by work_id) t
        on t.work_id = w.id`,
      [diag.id, test.id],
    );
    await q(`drop table bench_scores; drop table bench_ability; drop table bench_items`);
    await q(`vacuum analyze`);
    return { diagnosticId: diag.id, subjectTestId: test.id };
  });
  log(`    seeded in ${seed.ms} ms`);
  const { diagnosticId, subjectTestId } = seed.value;
  const rawRead = await time(() =>
    q(
      `select count(*)::int as n, sum(ts.final_score)::float8 as s from results r
       join task_scores ts on ts.exam_work_id = r.exam_work_id
       where r.diagnostic_id = $1 and r.subject_test_id = $2`,
      [diagnosticId, subjectTestId],
    ),
  );
  log(`(c) baseline: one aggregate over every task score: ${rawRead.ms} ms (${rawRead.value[0].n} rows)`);
  const load = await time(() => loadMatrix(database.db, diagnosticId, subjectTestId, null));
  log(`    loadMatrix: ${load.ms} ms (${load.value.persons} participants)`);
  const auth = { userId: 0, roles: ['admin'], schoolId: null, ooId: null };
  const call = await time(() => itemAnalysis(database.db, auth, { diagnosticId, subjectTestId }));
  log(`    itemAnalysis (the call's service): ${call.ms} ms; peak RSS ${peakRss()} MB`);
  await database.close();
  return {
    seedMs: reuse ? null : seed.ms,
    aggregateReadMs: rawRead.ms,
    taskScores: rawRead.value[0].n,
    loadMatrixMs: load.ms,
    serviceMs: call.ms,
    participants: call.value.participants,
    rssMb: peakRss(),
  };
}

function writeSection(r) {
  const file = join(root, 'docs/BENCHMARKS.md');
  const doc = readFileSync(file, 'utf8');
  const start = '<!-- item-analysis:start -->';
  const end = '<!-- item-analysis:end -->';
  const rows = [
    `Run ${r.at.slice(0, 10)} on ${r.machine}; ${r.persons.toLocaleString('en')} participants × ${r.tasksPerVariant} tasks (two variants sharing 14 tasks).`,
    '',
    '| what | time | peak RSS |',
    '|---|---|---|',
    `| (a) baseline: read every cell of the matrix once | ${r.baselineMs} ms | |`,
    `| (b) analyseItems (best of ${r.analysis.runs.join(', ')} ms) | **${r.analysis.best} ms** | ${r.analysis.rssMb} MB |`,
    ...(r.equating
      ? [
          `| (b') calibration + equating: analyseItems + equateVariants, once (equating alone ${r.equating.equateMs} ms; target < 30 s) | **${r.equating.ms} ms** | |`,
        ]
      : []),
    ...(r.db
      ? [
          `| (c) baseline: one SQL aggregate over the ${r.db.taskScores.toLocaleString('en')} task scores | ${r.db.aggregateReadMs} ms | |`,
          `| (c) loadMatrix: cursor reads into the typed matrix | ${r.db.loadMatrixMs} ms | |`,
          `| (c) itemAnalysis: the whole call's service (checks, reads, analysis) | **${r.db.serviceMs} ms** | ${r.db.rssMb} MB |`,
        ]
      : []),
  ].join('\n');
  const block = `${start}\n${rows}\n${end}`;
  const next = doc.includes(start)
    ? doc.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block)
    : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
