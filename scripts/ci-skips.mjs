// CI (.ci/run): no test may be left out of every run. A test may skip in one run for lack of a
// service that run is not given (the embedded run has no PostgreSQL server or Redis; the
// PostgreSQL run skips the embedded-only drill), but then it must run — pass or fail — in another
// run of the same suite. A test that ran nowhere fails CI, named with its file.
//   node scripts/ci-skips.mjs <suite>=<report.json>[,<report.json>...] ...
// Each report is a Vitest JSON report (`--reporter=json`, kept by scripts/test.mjs in TEST_REPORT_DIR).
// Exits non-zero when a test ran nowhere; .ci/run counts that step as failed.
// It also prints each report's 20 slowest files (wall time of the file in its run, setup included),
// where to look first when CI grows slower.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RAN = new Set(['passed', 'failed']);

let problems = 0;
for (const arg of process.argv.slice(2)) {
  const [suite, list = ''] = arg.split('=');
  const ran = new Set();
  const notRun = new Map(); // key → first report it was left out of
  for (const path of list.split(',').filter(Boolean)) {
    if (!existsSync(path)) {
      console.log(`${suite}: no report at ${path} (the run did not finish)`);
      problems++;
      continue;
    }
    const report = JSON.parse(readFileSync(path, 'utf8'));
    const slowest = (report.testResults ?? [])
      .map((file) => ({ name: relative(root, file.name), s: (file.endTime - file.startTime) / 1000 }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 20);
    console.log(`${suite}: slowest files in ${path}`);
    for (const file of slowest) console.log(`  ${file.s.toFixed(1).padStart(7)} s  ${file.name}`);
    for (const file of report.testResults ?? []) {
      const name = relative(root, file.name);
      for (const test of file.assertionResults ?? []) {
        const key = `${name} › ${test.fullName}`;
        if (RAN.has(test.status)) ran.add(key);
        else if (!notRun.has(key)) notRun.set(key, `${test.status} in ${path}`);
      }
    }
  }
  const nowhere = [...notRun].filter(([key]) => !ran.has(key));
  console.log(
    `${suite}: ${ran.size} tests ran, ${notRun.size - nowhere.length} skipped in one run and run in another, ${nowhere.length} run nowhere`,
  );
  for (const [key, why] of nowhere) console.log(`  not run: ${key} (${why})`);
  problems += nowhere.length;
}
process.exit(problems ? 1 : 0);
