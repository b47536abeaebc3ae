// What a participant's browser downloads from the server on a first visit (issue 24, item 4): the
// list the start storm of bench/run.mjs fetches for each new participant before it logs in.
//
// The list is not guessed from file names: Chromium (Debian's, through playwright-core, no service
// worker, as e2e/weight.e2e.test.ts walks it) takes a demo participant of the built app through the
// login page by code, the start page and the runner, opening every task of a variant with all ten
// answer types, and every same-origin GET it made outside /api/ is kept, in the order it was asked
// for: the page itself (index.html), its scripts, module preloads, stylesheets, the route chunks
// loaded on the way, fonts, icons and the web manifest. The walk runs once per build (a key over
// index.html and the hashed file names of web/dist/assets) and is kept in bench/results/.
//
//   node bench/app-assets.mjs        # prints the list with each file's brotli size
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { mathCode, requireBuilt, root, startDemoServer } from './demo-server.mjs';

const dist = join(root, 'web/dist');

/** Identifies a build: index.html and the names of its hashed assets. */
export function buildKey() {
  requireBuilt();
  const hash = createHash('sha256');
  hash.update(readFileSync(join(dist, 'index.html')));
  for (const name of readdirSync(join(dist, 'assets')).sort()) hash.update(`${name}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** Chromium walks a demo participant's first visit; returns the paths it fetched outside /api/. */
async function recordFirstVisit() {
  const server = await startDemoServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({
      baseURL: server.base,
      locale: 'ru-RU',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    const origin = new URL(server.base).origin;
    const seen = new Map();
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.origin !== origin || req.method() !== 'GET' || url.pathname.startsWith('/api/')) return;
      const path = url.pathname + url.search;
      if (!seen.has(path)) seen.set(path, req.resourceType());
    });
    await page.goto('/login?tab=code');
    await page.locator('input[name="activationCode"]').fill(mathCode(server.codes, 1));
    await page.getByTestId('login-code-submit').click();
    await page.getByTestId('role-home-participant').waitFor({ timeout: 60_000 });
    await page.getByTestId('start-work').click();
    await page.waitForURL(/\/participant\/work/, { timeout: 60_000 });
    await page.getByTestId('task-1').waitFor({ timeout: 60_000 });
    const tasks = (await (await page.request.get('/api/exam/test/variant/current')).json()).tasks;
    for (const task of tasks) {
      await page.getByTestId(`task-nav-${task.position}`).click();
      await page.getByTestId(`task-${task.position}`).waitFor();
    }
    await page.waitForLoadState('networkidle');
    return {
      answerTypes: [...new Set(tasks.map((t) => t.answerType))].length,
      files: [...seen].map(([path, type]) => ({ path, type })),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The bytes a file of web/dist takes on the wire as sent for `br` (its .br copy when there is one). */
function brotliSize(path) {
  const file = join(dist, decodeURIComponent(path.split('?')[0]));
  const candidates = [`${file}.br`, file, join(dist, 'index.html.br'), join(dist, 'index.html')];
  const found = candidates.find((f) => existsSync(f) && statSync(f).isFile());
  return found ? statSync(found).size : null;
}

/**
 * The participant's first visit of this build: `{ key, answerTypes, files: [{ path, type }] }`,
 * recorded once per build (BENCH_APP_RECORD=1 records it again).
 */
export async function participantAssets({ log = () => {} } = {}) {
  const key = buildKey();
  const dir = join(root, 'bench/results');
  const cached = join(dir, `app-assets-${key}.json`);
  if (existsSync(cached) && process.env.BENCH_APP_RECORD !== '1')
    return JSON.parse(readFileSync(cached, 'utf8'));
  log(`recording a participant's first visit of this build in Chromium (key ${key})`);
  const visit = await recordFirstVisit();
  if (visit.files[0]?.type !== 'document') throw new Error('the first request of the visit was not the page');
  const out = { key, at: new Date().toISOString(), ...visit };
  mkdirSync(dir, { recursive: true });
  writeFileSync(cached, JSON.stringify(out, null, 2));
  return out;
}

/**
 * What the service worker precaches in the background after the first page (web/dist/sw.js's
 * precache list): files and their brotli bytes. Not part of the wait for the login form.
 */
export function precacheBytes() {
  const sw = join(dist, 'sw.js');
  if (!existsSync(sw)) return null;
  const urls = [...readFileSync(sw, 'utf8').matchAll(/url:"([^"]+)"/g)].map(
    (m) => `/${m[1].replace(/^\//, '')}`,
  );
  return { files: urls.length, bytes: urls.reduce((sum, u) => sum + (brotliSize(u) ?? 0), 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const assets = await participantAssets({ log: (...a) => console.error('[app-assets]', ...a) });
  let total = 0;
  for (const f of assets.files) {
    const size = brotliSize(f.path);
    total += size ?? 0;
    console.log(`${String(size ?? '?').padStart(8)}  ${f.type.padEnd(10)} ${f.path}`);
  }
  console.log(
    `${assets.files.length} files, ${total} bytes as brotli files (bodies only), build ${assets.key}`,
  );
  const pre = precacheBytes();
  if (pre) console.log(`service worker precache: ${pre.files} files, ${pre.bytes} bytes as brotli files`);
}
