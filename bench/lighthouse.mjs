// Lighthouse on the participant's pages (issue 24, item 5): the login page and the runner, as a
// phone on a slow network sees them — Lighthouse's default mobile emulation and its default
// (simulated) throttling, in Debian's Chromium (CHROME_PATH, /usr/bin/chromium; never a downloaded
// browser).
//
// Starts the built server (server/dist, web/dist) on its embedded database with the demo data. The
// runner needs a signed-in participant with a started work: a demo activation code is signed in
// through the API (POST /api/Account/login), the work started (POST examwork/new, without a device
// id, so the browser's own device takes it when the runner opens), and Lighthouse sends the session
// cookie with its requests (`extraHeaders`). Each page is measured LIGHTHOUSE_RUNS times (3) and
// the run with the median performance score is reported.
//
//   npm run build && npm run bench:lighthouse
// Env: CHROME_PATH (/usr/bin/chromium), LIGHTHOUSE_RUNS (3).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { mathCode, root, startDemoServer } from './demo-server.mjs';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/**
 * Lighthouse slows the CPU 4× by default, calibrated for a desktop of benchmark index ≈ 1,000–2,000
 * to look like a mid-range phone. On a slower or busy machine (its index is printed) that
 * emulates a phone far slower than the target; LIGHTHOUSE_CPU_SLOWDOWN sets the multiplier (1:
 * none), per Lighthouse's throttling guide, and is printed beside the figures.
 */
const CPU_SLOWDOWN = process.env.LIGHTHOUSE_CPU_SLOWDOWN ? Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN) : null;
const TARGET_SCORE = 90;
const TARGET_TTI_MS = 3500;
const log = (...args) => console.error('[lighthouse]', ...args);

/** Signs a demo participant in by code and starts its work; returns the session cookie. */
async function participantSession(base, code) {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const login = await fetch(`${base}/api/Account/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ activationCode: code }),
  });
  if (!login.ok) throw new Error(`login ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const work = await fetch(`${base}/api/exam/test/examwork/new`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: '{}',
  });
  if (!work.ok) throw new Error(`examwork/new ${work.status} ${await work.text()}`);
  return cookie;
}

/** The figures of one Lighthouse report. */
function figures(lhr) {
  const ms = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scriptsAndStyles = requests
    .filter((r) => r.resourceType === 'Script' || r.resourceType === 'Stylesheet')
    .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  return {
    url: lhr.finalDisplayedUrl,
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcpMs: ms('first-contentful-paint'),
    lcpMs: ms('largest-contentful-paint'),
    ttiMs: ms('interactive'),
    tbtMs: ms('total-blocking-time'),
    cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
    speedIndexMs: ms('speed-index'),
    transferBytes: Math.round(lhr.audits['total-byte-weight']?.numericValue ?? NaN),
    scriptAndStyleBytes: scriptsAndStyles,
    requests: requests.length,
    apiCalls: requests
      .filter((r) => new URL(r.url).pathname.startsWith('/api/'))
      .map((r) => `${new URL(r.url).pathname} ${r.statusCode}`),
    // The main thread's work as traced (before Lighthouse's simulated 4× CPU slowdown), and the
    // share of it that is evaluating and compiling script.
    mainThreadMs: ms('mainthread-work-breakdown'),
    scriptMs: Math.round(
      (lhr.audits['mainthread-work-breakdown']?.details?.items ?? [])
        .filter((i) => /script/i.test(i.group))
        .reduce((sum, i) => sum + i.duration, 0),
    ),
    // Where the main thread went: the scripts that took longest (Lighthouse's bootup-time) and the
    // long tasks seen.
    bootup: (lhr.audits['bootup-time']?.details?.items ?? []).slice(0, 5).map((i) => ({
      url: i.url.replace(/^https?:\/\/[^/]+/, ''),
      totalMs: Math.round(i.total),
      scriptingMs: Math.round(i.scripting),
    })),
    longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).length,
    // What Lighthouse blames besides the main thread: the elements that shifted (CLS) and the
    // render-blocking files with the time they are said to cost.
    layoutShifts: (lhr.audits['layout-shifts']?.details?.items ?? []).slice(0, 5).map((i) => ({
      score: Math.round((i.score ?? 0) * 1000) / 1000,
      node: i.node?.snippet ?? i.node?.selector ?? null,
      causes: (i.subItems?.items ?? []).map((c) => c.cause ?? c.extra?.value ?? null).filter(Boolean),
    })),
    renderBlocking: (lhr.audits['render-blocking-resources']?.details?.items ?? []).map((i) => ({
      url: i.url.replace(/^https?:\/\/[^/]+/, ''),
      wastedMs: Math.round(i.wastedMs ?? 0),
    })),
    // Lighthouse's own measure of this machine's speed while it ran (a busy machine scores lower).
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? NaN),
    runtimeError: lhr.runtimeError?.message ?? null,
    warnings: lhr.runWarnings ?? [],
  };
}

async function measure(port, url, extraHeaders, check) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(extraHeaders ? { extraHeaders } : {}),
      ...(CPU_SLOWDOWN ? { throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN } } : {}),
    });
    const f = figures(result.lhr);
    if (f.runtimeError) throw new Error(`${url}: ${f.runtimeError}`);
    check(f);
    if (f.layoutShifts.length) log(`  layout shifts: ${JSON.stringify(f.layoutShifts)}`);
    if (f.renderBlocking.length) log(`  render-blocking: ${JSON.stringify(f.renderBlocking)}`);
    log(
      `  ${url} run ${i + 1}: score ${f.score}, TTI ${f.ttiMs} ms, FCP ${f.fcpMs} ms, LCP ${f.lcpMs} ms, TBT ${f.tbtMs} ms, main thread ${f.mainThreadMs} ms (script ${f.scriptMs} ms), benchmark index ${f.benchmarkIndex}`,
    );
    runs.push(f);
  }
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  return { median: sorted[Math.floor(sorted.length / 2)], runs };
}

const server = await startDemoServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  log(`server ${server.base}, Chromium on port ${chrome.port}, ${RUNS} runs a page`);
  const login = await measure(chrome.port, `${server.base}/login`, null, (f) => {
    if (!new URL(f.url).pathname.startsWith('/login')) throw new Error(`the login page ended at ${f.url}`);
  });
  const cookie = await participantSession(server.base, mathCode(server.codes, 2));
  const runner = await measure(chrome.port, `${server.base}/participant/work`, { Cookie: cookie }, (f) => {
    // The runner itself, with its variant: not the login page or the start page it would send to.
    if (new URL(f.url).pathname !== '/participant/work') throw new Error(`the runner ended at ${f.url}`);
    if (!f.apiCalls.some((c) => c.startsWith('/api/exam/test/variant/current 200')))
      throw new Error(`the runner did not load its variant: ${f.apiCalls.join(', ')}`);
  });

  const row = (name, f) =>
    `| ${name} | **${f.score}** | **${(f.ttiMs / 1000).toFixed(1)} s** | ${(f.fcpMs / 1000).toFixed(1)} s | ${(f.lcpMs / 1000).toFixed(1)} s | ${f.tbtMs} ms | ${f.cls} | ${(f.speedIndexMs / 1000).toFixed(1)} s | ${(f.transferBytes / 1000).toFixed(0)} kB (JS and CSS ${(f.scriptAndStyleBytes / 1000).toFixed(0)} kB) |`;
  const scores = (r) => r.runs.map((f) => f.score).join(', ');
  console.log(
    `Lighthouse ${JSON.parse(readFileSync(join(root, 'node_modules/lighthouse/package.json'), 'utf8')).version}, mobile emulation, ${CPU_SLOWDOWN ? `simulated throttling with the CPU slowed ${CPU_SLOWDOWN}× (LIGHTHOUSE_CPU_SLOWDOWN; the default is 4×)` : 'default simulated throttling'}, median of ${RUNS} runs by score:`,
  );
  console.log('');
  console.log('| page | performance | TTI | FCP | LCP | TBT | CLS | Speed Index | transferred |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('login page (`/login`)', login.median));
  console.log(row('runner (`/participant/work`, signed in, work started)', runner.median));
  console.log('');
  const indexes = [...login.runs, ...runner.runs].map((f) => f.benchmarkIndex);
  console.log(
    `Scores of each run: login ${scores(login)}; runner ${scores(runner)}. Lighthouse's benchmark index of the machine during the runs: ${Math.min(...indexes)}–${Math.max(...indexes)}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs at the end.`,
  );
  const miss = [
    ['login', login.median],
    ['runner', runner.median],
  ].filter(([, f]) => f.score < TARGET_SCORE || f.ttiMs > TARGET_TTI_MS);
  console.log(
    miss.length
      ? `Target (performance ≥ ${TARGET_SCORE}, TTI ≤ ${TARGET_TTI_MS / 1000} s) missed by: ${miss.map(([n]) => n).join(', ')}.`
      : `Target met: performance ≥ ${TARGET_SCORE} and TTI ≤ ${TARGET_TTI_MS / 1000} s on both pages.`,
  );
  const dir = join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  writeFileSync(
    join(dir, `lighthouse-${at.replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ at, cpuSlowdown: CPU_SLOWDOWN ?? 4, login, runner }, null, 2),
  );
} finally {
  chrome.kill();
  await server.stop();
}
