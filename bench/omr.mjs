// Benchmark of the scan reader (issue 25, item 4): filled answer sheets made from real forms, read
// by the function an upload reads them with, scored against what was filled.
//
// The forms are the server's own: a test app on an in-memory database (PGlite, server/test/helpers.ts)
// with WORKS participants on one realistic variant (single and multiple choices, numbers, digit
// sequences, a matching grid, an ordering grid, a short text and an essay), each form's PDF and
// layout asked for over HTTP (app.inject, GET …/blanks and …/blanks?format=layout) and rendered
// with pdf.js at 150, 200 or 300 dpi. Each bench page is one form page filled at random, seeded
// (mulberry32): marks of varied kinds — pen fills, pencil fills (some light), crosses, ticks — at most
// one per one-mark group (no double marks: a clear sheet), erased marks beside some answers (they
// must read as no mark) and stray pen lines off the bubbles (server/test/omr.ts fillPageRandomly).
// The page is then spoilt as a scanner does (rotation up to ±5°, scale 0.9–1.1, blur, noise, JPEG
// 55–90 or now and then PNG); every PHOTO_EVERY-th page is first photographed at an angle in uneven
// light (a perspective the corner marks must undo). The timed part is what an upload does per page:
// decode the file (scans/decode.ts openScan) and read it (scans/recognize.ts recognizePage), one page
// at a time in this one process.
//
// Reported: pages per second of this process (wall, and its CPU per page), bubbles read right,
// wrong answers accepted without review (a task whose reading is confident — the save path saves it,
// scans.save.ts — but differs from what was filled; target 0), the share of tasks and pages sent to
// review (target under 2 %), unidentified pages; and per mark kind how often it was read.
//
//   node bench/omr.mjs                  # or npm run bench:omr
//   node bench/omr.mjs --write-docs     # also rewrites the omr block of docs/BENCHMARKS.md
// Env: OMR_PAGES (default: enough pages for 10,000 bubbles, ~185), OMR_SEED (1),
//      OMR_WORKS (2: forms of different participants), OMR_PHOTO_EVERY (25),
//      OMR_ONLY (page numbers of the run to make and read, e.g. `12,57`: each page is seeded alone),
//      OMR_DUMP (a folder: each page with something to review is written there as scanned).
//      With OMR_ONLY the figures are of those pages only and --write-docs is refused.
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { writeMarkedSection } from './docs-section.mjs';

register();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = (p) => join(root, 'server', p);
const writeDocs = process.argv.includes('--write-docs');
const SEED = Number(process.env.OMR_SEED ?? 1);
const WORKS = Number(process.env.OMR_WORKS ?? 2);
const PHOTO_EVERY = Number(process.env.OMR_PHOTO_EVERY ?? 25);
const ONLY = process.env.OMR_ONLY ? new Set(process.env.OMR_ONLY.split(',').map(Number)) : null;
const DUMP = process.env.OMR_DUMP ?? null;
if (ONLY && writeDocs) throw new Error('OMR_ONLY reads some pages only: its figures are not for the docs');
const MIN_BUBBLES = 10_000;
const DPIS = [150, 200, 300];
const log = (...args) => console.error('[bench:omr]', ...args);

const helpers = await import(src('test/helpers.ts'));
const { fillPageRandomly, photographed, spoil, bubbleKey } = await import(src('test/omr.ts'));
const { rasterizePdf } = await import(src('test/pdf.ts'));
const { mulberry32 } = await import(src('src/modules/authoring/generate.ts'));
const { layoutVersionOf } = await import(src('src/modules/exam-test/blanks.sheet.ts'));
const { openScan } = await import(src('src/modules/scans/decode.ts'));
const { recognizePage, MARK_THRESHOLD, REVIEW_BELOW, INK_LEVEL, INK_THRESHOLD } = await import(
  src('src/modules/scans/recognize.ts')
);

/**
 * Mark kinds and how often each is drawn: a pen fill, a pencil fill not quite to the ring, a light
 * pencil fill, a felt-tip, a pen cross and a tick.
 */
const KINDS = [
  {
    name: 'pen fill',
    weight: 30,
    style: (r) => ({ kind: 'disc', grey: 15 + r() * 30, share: 0.9 + r() * 0.1 }),
  },
  {
    name: 'pencil fill',
    weight: 25,
    style: (r) => ({ kind: 'disc', grey: 70 + r() * 40, share: 0.8 + r() * 0.15 }),
  },
  {
    name: 'light pencil',
    weight: 10,
    style: (r) => ({ kind: 'disc', grey: 120 + r() * 30, share: 0.8 + r() * 0.15 }),
  },
  {
    name: 'cross',
    weight: 20,
    style: (r) => ({ kind: 'cross', grey: 20 + r() * 50, widthPt: 1.2 + r() * 0.8 }),
  },
  {
    name: 'tick',
    weight: 15,
    style: (r) => ({ kind: 'tick', grey: 20 + r() * 50, widthPt: 1.2 + r() * 0.8 }),
  },
];
const FILL = { answered: 0.92, chosen: 0.35, erased: 0.12, strays: 3 };

/** The variant: a diagnostic's usual mix, from the tests' valid task of each type. */
function variantSpecs() {
  const every = helpers.tasksOfEveryType('bench');
  const of = (type) => every.find((t) => t.answerType === type);
  const specs = [];
  for (let i = 0; i < 10; i++) specs.push(of('single_choice'));
  for (let i = 0; i < 3; i++) specs.push(of('multiple_choice'));
  specs.push(of('number'), of('number'));
  specs.push(of('digit_sequence'), of('digit_sequence'));
  specs.push(of('matching'), of('ordering'), of('short_text'), of('extended_text'));
  return specs;
}

/** WORKS participants' forms: PDF, layout, answer types, and each form rendered per dpi when asked. */
async function makeForms(t) {
  const org = await helpers.createOrg(t.app);
  const specs = variantSpecs();
  const { session } = await helpers.signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
  const forms = [];
  for (let w = 0; w < WORKS; w++) {
    const pt = await helpers.createParticipantTest(t.app, org);
    const variant = await helpers.createVariantWithTasks(t.app, pt.subjectTestId, specs);
    const workId = await helpers.createExamWork(t.app, pt.participantTestId, variant.variantId);
    const [row] = await t.database.query('select registration_code from participant_tests where id = $1', [
      pt.participantTestId,
    ]);
    const url = `/api/exam/test/examwork/${workId}/blanks`;
    const pdf = await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
    const layoutRes = await t.app.inject({
      method: 'GET',
      url: `${url}?format=layout`,
      headers: { cookie: session.cookie },
    });
    if (pdf.statusCode !== 200 || layoutRes.statusCode !== 200)
      throw new Error(`form of work ${workId}: ${pdf.statusCode} ${layoutRes.statusCode}`);
    const layout = layoutRes.json();
    forms.push({
      workId,
      registrationCode: row.registration_code,
      pdf: pdf.rawPayload,
      layout,
      version: layoutVersionOf(layout),
      answerTypes: new Map(variant.variantTaskIds.map((id, i) => [id, specs[i].answerType])),
      rendered: new Map(),
    });
  }
  return forms;
}

async function rendered(form, dpi) {
  if (!form.rendered.has(dpi)) form.rendered.set(dpi, await rasterizePdf(form.pdf, dpi));
  return form.rendered.get(dpi);
}

const uniform = (random, a, b) => a + random() * (b - a);
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const pct = (n, of) => (of ? round((100 * n) / of, 2) : 0);

async function main() {
  const load = [loadavg()[0]];
  const t0 = performance.now();
  const t = await helpers.createTestApp();
  let forms;
  try {
    forms = await makeForms(t);
  } finally {
    await t.close();
  }
  const formPages = forms[0].layout.pages.filter((p) => p.bubbles.length);
  const bubblesPerForm = formPages.reduce((sum, fp) => sum + fp.bubbles.length, 0);
  const perPage = formPages.reduce((sum, fp) => sum + fp.bubbles.length ** 2, 0) / bubblesPerForm;
  const PAGES = Number(process.env.OMR_PAGES ?? Math.ceil((1.05 * MIN_BUBBLES) / perPage));
  log(
    `${WORKS} forms of ${forms[0].layout.pages.length} pages (${formPages.map((p) => p.bubbles.length).join(' + ')} bubbles), ` +
      `made in ${round((performance.now() - t0) / 1000)} s; ${PAGES} pages to read`,
  );
  const byWork = new Map(forms.map((f) => [f.workId, f]));
  const formOf = (code) => {
    const form = byWork.get(code.examWorkId);
    const page = form?.registrationCode === code.registrationCode ? form.layout.pages[code.page - 1] : null;
    return page ? { page, layoutVersion: form.version, answerTypes: form.answerTypes } : null;
  };

  const s = {
    pages: 0,
    photos: 0,
    unidentified: 0,
    misidentified: 0,
    unread: 0,
    pagesToReview: 0,
    photoPagesToReview: 0,
    bubbles: 0,
    bubblesRight: 0,
    bubblesOnUnread: 0,
    missed: 0,
    falseMarks: 0,
    tasks: 0,
    tasksRight: 0,
    tasksToReview: 0,
    wrongAccepted: 0,
    wrongToReview: 0,
    erased: 0,
    erasedRead: 0,
    strays: 0,
    ms: 0,
    cpuMs: 0,
    bytes: 0,
    kinds: new Map(),
    wrongCases: [],
    reviewCauses: new Map(),
  };
  const kindRow = (name) => {
    if (!s.kinds.has(name)) s.kinds.set(name, { drawn: 0, read: 0, reviewed: 0, fills: [], inks: [] });
    return s.kinds.get(name);
  };
  const genStart = performance.now();
  let genMs = 0;
  for (let i = 0; i < PAGES; i++) {
    if (ONLY && !ONLY.has(i)) continue;
    const random = mulberry32(SEED * 1_000_003 + i);
    const form = forms[i % forms.length];
    // The same page of every form has the same bubbles (one variant), with each work's own task ids.
    // A page is picked in proportion to its bubbles: the bench is about bubbles, not blank backs.
    let left = random() * bubblesPerForm;
    const p = (formPages.find((fp) => (left -= fp.bubbles.length) < 0) ?? formPages.at(-1)).page;
    const layoutPage = form.layout.pages[p - 1];
    const dpi = DPIS[Math.floor(random() * DPIS.length)];
    const photo = PHOTO_EVERY > 0 && i % PHOTO_EVERY === PHOTO_EVERY - 1;
    const g0 = performance.now();
    const blank = (await rendered(form, dpi))[layoutPage.page - 1];
    const filled = fillPageRandomly(blank, layoutPage, form.answerTypes, KINDS, FILL, random);
    const paper = photo
      ? photographed(filled.page, uniform(random, 6, 14), 3, uniform(random, 0.75, 0.95))
      : filled.page;
    const how = {
      rotate: uniform(random, -5, 5),
      scale: uniform(random, 0.9, 1.1),
      blur: uniform(random, 0.3, 1.2),
      noise: uniform(random, 0, 10),
      jpegQuality: random() < 0.1 ? undefined : Math.round(uniform(random, 55, 90)),
      seed: i + 1,
    };
    const bytes = await spoil(paper, how);
    genMs += performance.now() - g0;

    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    const scan = await openScan(bytes);
    let result;
    for await (const { image } of scan.pages()) result = await recognizePage(image, formOf);
    s.ms += performance.now() - w0;
    const cpu = process.cpuUsage(cpu0);
    s.cpuMs += (cpu.user + cpu.system) / 1000;
    s.bytes += bytes.length;

    s.pages++;
    if (photo) s.photos++;
    if (DUMP && (result.status !== 'recognized' || result.tasks.some((x) => x.doubleMark))) {
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(DUMP, { recursive: true });
      const ext = how.jpegQuality === undefined ? 'png' : 'jpg';
      await writeFile(join(DUMP, `seed${SEED}-page${i}-${result.problem ?? 'review'}.${ext}`), bytes);
      log(
        `page ${i}: ${result.status} ${result.problem ?? ''} dpi ${dpi} photo ${photo} ` +
          JSON.stringify({ ...how, seed: undefined }) +
          ' ' +
          JSON.stringify(
            result.tasks
              .filter((x) => x.confidence < REVIEW_BELOW || x.doubleMark)
              .map((x) => ({
                task: x.variantTaskId,
                value: x.value,
                confidence: round(x.confidence, 3),
                bubbles: result.bubbles
                  .filter((b) => b.variantTaskId === x.variantTaskId && b.confidence < REVIEW_BELOW)
                  .map((b) => ({
                    value: b.value,
                    drawn: filled.drawn.get(bubbleKey(b)) ?? 'blank',
                    fill: round(b.fill, 3),
                    ink: round(b.ink, 3),
                  })),
              })),
          ),
      );
    }
    s.strays += filled.strays;
    const expected = filled.expected;
    const drawnCount = [...filled.drawn.values()];
    s.erased += drawnCount.filter((k) => k === 'erased').length;
    s.bubbles += layoutPage.bubbles.length;
    s.tasks += expected.size;
    const cause = (c) => s.reviewCauses.set(c, (s.reviewCauses.get(c) ?? 0) + 1);
    if (result.status === 'unidentified') {
      s.unidentified++;
      s.pagesToReview++;
      s.bubblesOnUnread += layoutPage.bubbles.length;
      s.tasksToReview += expected.size;
      cause(`page ${result.problem}`);
      continue;
    }
    const c = result.code;
    if (
      c.examWorkId !== form.workId ||
      c.page !== layoutPage.page ||
      c.registrationCode !== form.registrationCode
    ) {
      s.misidentified++;
      continue;
    }
    if (result.status !== 'recognized') {
      s.pagesToReview++;
      if (photo) s.photoPagesToReview++;
    }
    if (!result.transform) {
      s.unread++;
      s.bubblesOnUnread += layoutPage.bubbles.length;
      s.tasksToReview += expected.size;
      cause(`page ${result.problem}`);
      continue;
    }
    const reviewedTasks = new Set();
    for (const task of result.tasks) {
      const want = expected.get(task.variantTaskId) ?? [];
      const right = want.join() === task.value.join();
      const toReview = task.confidence < REVIEW_BELOW || task.doubleMark;
      if (right) s.tasksRight++;
      if (toReview) {
        s.tasksToReview++;
        reviewedTasks.add(task.variantTaskId);
        if (!right) s.wrongToReview++;
        cause(task.doubleMark ? 'task double mark' : 'task low confidence');
      } else if (!right) {
        s.wrongAccepted++;
        if (s.wrongCases.length < 10)
          s.wrongCases.push({
            page: i,
            dpi,
            photo,
            task: task.variantTaskId,
            want,
            read: task.value,
            confidence: task.confidence,
            // Each bubble read otherwise than drawn: what was drawn there and the fill it read as.
            bubbles: result.bubbles
              .filter((b) => b.variantTaskId === task.variantTaskId && want.includes(b.value) !== b.marked)
              .map((b) => ({
                value: b.value,
                drawn: filled.drawn.get(bubbleKey(b)) ?? 'blank',
                fill: b.fill,
                ink: b.ink,
              })),
            how,
          });
      }
    }
    for (const b of result.bubbles) {
      const key = bubbleKey(b);
      const kind = filled.drawn.get(key);
      const truth = kind !== undefined && kind !== 'erased';
      if (b.marked === truth) s.bubblesRight++;
      else if (truth) s.missed++;
      else s.falseMarks++;
      if (kind === 'erased' && !b.marked) s.erasedRead++;
      const row = kindRow(kind ?? 'left blank');
      row.fills.push(b.fill);
      row.inks.push(b.ink);
      if (b.marked) row.read++;
      if (reviewedTasks.has(b.variantTaskId) && b.confidence < REVIEW_BELOW) row.reviewed++;
    }
    if ((i + 1) % 25 === 0)
      log(
        `${i + 1}/${PAGES} pages: ${round(s.pages / (s.ms / 1000), 2)} pages/s; ` +
          `${s.wrongAccepted} wrong accepted, ${s.tasksToReview} tasks to review, ${s.unidentified} unidentified`,
      );
  }
  load.push(loadavg()[0]);
  const result = {
    at: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1048576)} MB, node ${process.version}`,
    loadAverage: load.map((l) => round(l)),
    seed: SEED,
    works: WORKS,
    formPages: formPages.map((fp) => fp.bubbles.length),
    generationSeconds: round(genMs / 1000),
    totalSeconds: round((performance.now() - genStart) / 1000),
    pagesPerSecond: round(s.pages / (s.ms / 1000), 2),
    msPerPage: round(s.ms / s.pages, 0),
    cpuMsPerPage: round(s.cpuMs / s.pages, 0),
    kbPerPage: round(s.bytes / s.pages / 1024, 0),
    ...Object.fromEntries(
      Object.entries(s).filter(([k]) => !['kinds', 'reviewCauses', 'ms', 'cpuMs', 'bytes'].includes(k)),
    ),
    // The fills and ink shares each kind read as (the reader's two measures, 0 … 1).
    kinds: Object.fromEntries(
      [...s.kinds].map(([name, { fills, inks, ...k }]) => {
        const spread = (values) => {
          const sorted = values.sort((a, b) => a - b);
          const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
          return { min: at(0), p5: at(0.05), p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
        };
        return [name, { ...k, bubbles: fills.length, fill: spread(fills), ink: spread(inks) }];
      }),
    ),
    reviewCauses: Object.fromEntries(s.reviewCauses),
  };
  console.log(JSON.stringify(result));
  const md = markdown(result);
  console.log(md);
  if (writeDocs) {
    writeMarkedSection('omr', md);
    log('docs/BENCHMARKS.md updated');
  }
}

function markdown(r) {
  const bubblesRead = r.bubbles - r.bubblesOnUnread;
  const reviewShare = pct(r.tasksToReview, r.tasks);
  const pageShare = pct(r.pagesToReview, r.pages);
  const verdict = (ok) => (ok ? 'met' : '**NOT met**');
  const kinds = Object.entries(r.kinds);
  return [
    `Scan reader (issue 25, item 4): wrong answers accepted without review ${r.wrongAccepted} in ${r.bubbles.toLocaleString('en')} bubbles — target 0, ${verdict(r.wrongAccepted === 0)}; tasks sent to review ${reviewShare} % — target under 2 %, ${verdict(reviewShare < 2)}.`,
    '',
    `Run ${r.at.slice(0, 16).replace('T', ' ')} UTC on ${r.machine}, shared with other jobs; load average ${r.loadAverage.join(' → ')} (over 2 means this process did not have a core to itself: the rates are as measured). Seed ${r.seed}; ${r.works} participants' forms, ${r.formPages.length} bubble pages each (${r.formPages.join(' and ')} bubbles); ${r.pages} pages, ${r.photos} of them photographed at an angle; generating them took ${r.generationSeconds} s of the ${r.totalSeconds} s.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| pages per second, one process (decode + recognizePage) | ${r.pagesPerSecond} (${r.msPerPage} ms a page wall, ${r.cpuMsPerPage} ms CPU; ${r.kbPerPage} kB a file) |`,
    `| bubbles read right | ${r.bubblesRight.toLocaleString('en')} of ${bubblesRead.toLocaleString('en')} read (${pct(r.bubblesRight, bubblesRead)} %); ${r.missed} marks missed, ${r.falseMarks} read where none was |`,
    `| bubbles on pages not read at all | ${r.bubblesOnUnread} |`,
    `| wrong answers accepted without review | ${r.wrongAccepted} (of ${r.tasks.toLocaleString('en')} tasks; ${r.wrongToReview} wrong readings went to review) |`,
    `| tasks sent to review | ${r.tasksToReview} of ${r.tasks.toLocaleString('en')} (${reviewShare} %) |`,
    `| pages with something to review | ${r.pagesToReview} of ${r.pages} (${pageShare} %); photographed pages ${r.photoPagesToReview} of ${r.photos} |`,
    `| unidentified pages (no code read) | ${r.unidentified}; identified as another page: ${r.misidentified} |`,
    `| erased marks read as no mark | ${r.erasedRead} of ${r.erased} |`,
    `| stray lines drawn (off the bubbles) | ${r.strays} |`,
    '',
    `Per kind of bubble, the reader's two measures: the fill (the inside's mean darkness above the page's blank bubbles, 0 … 1; a mark from ${MARK_THRESHOLD}) and the ink share (the share of the inside at least ${INK_LEVEL} of the way from paper to ink, above the page's blank bubbles; a mark from ${INK_THRESHOLD}). A bubble is marked when either measure says so, and the nearer the measure that decides to its threshold, the lower the confidence; a task under ${REVIEW_BELOW} goes to review:`,
    '',
    '| bubble | bubbles | read as marked | in a task sent to review, doubtful itself | fill min / 5th pct / median / 95th pct / max | ink share min / 5th pct / median / 95th pct / max |',
    '|---|---|---|---|---|---|',
    ...kinds.map(
      ([name, k]) =>
        `| ${name} | ${k.bubbles} | ${k.read} (${pct(k.read, k.bubbles)} %) | ${k.reviewed} | ${[k.fill.min, k.fill.p5, k.fill.p50, k.fill.p95, k.fill.max].join(' / ')} | ${[k.ink.min, k.ink.p5, k.ink.p50, k.ink.p95, k.ink.max].join(' / ')} |`,
    ),
    '',
    'Wrong answers accepted without review (at most 10 shown): ' +
      (r.wrongCases
        .map(
          (c) =>
            `page ${c.page + 1} (${c.dpi} dpi${c.photo ? ', photographed' : ''}, rotated ${round(c.how.rotate)}°): ` +
            c.bubbles
              .map((b) => `${b.value} drawn as ${b.drawn} read fill ${b.fill}, ink share ${b.ink}`)
              .join(', ') +
            `, task confidence ${c.confidence}`,
        )
        .join('; ') || 'none') +
      '.',
    '',
    `Review causes: ${
      Object.entries(r.reviewCauses)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none'
    }.`,
  ].join('\n');
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
