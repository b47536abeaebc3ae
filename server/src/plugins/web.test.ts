import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Database } from '../db/client.js';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { COMPRESS_MIN_BYTES } from './compression.js';

// Issue 24, item 2: the built client goes compressed and cacheable. The build writes a .br and a
// .gz beside each text file (web/scripts/compress.mjs); the server sends the one the browser
// accepts (or the plain file) with `Vary: Accept-Encoding`; hashed assets are immutable for a year,
// index.html and the service worker are revalidated. The server's own JSON answers above a few kB
// are compressed on the fly, small ones (a save's answer) are not.

const SCRIPT = `export const x = ${JSON.stringify('участник '.repeat(400))};\n`;
const INDEX = `<!doctype html><html><head><title>Attesta</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;
const SW = `self.addEventListener('install', () => {});${' '.repeat(2000)}`;

let dist: string;
let database: Database;
let app: FastifyInstance;

/** A file with its build-time brotli and gzip copies. */
function withCopies(path: string, body: string) {
  writeFileSync(path, body);
  writeFileSync(`${path}.br`, brotliCompressSync(body));
  writeFileSync(`${path}.gz`, gzipSync(body));
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'attesta-web-'));
  mkdirSync(join(dist, 'assets'));
  withCopies(join(dist, 'index.html'), INDEX);
  withCopies(join(dist, 'sw.js'), SW);
  withCopies(join(dist, 'assets', 'index-AbC123.js'), SCRIPT);
  withCopies(join(dist, 'assets', 'index-AbC123.css'), `body{color:#111}${' '.repeat(600)}`);
  withCopies(join(dist, 'assets', 'pdf.worker.min-Wk1.mjs'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'picture-P1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // A font has no compressed copy: it goes as it is.
  writeFileSync(join(dist, 'assets', 'font-X1.woff2'), Buffer.alloc(64, 7));
  database = await createTestDatabase();
  app = await buildApp(testConfig({ WEB_DIST: dist }), { database, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

function body(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  return res.rawPayload.toString('utf8');
}

describe('the built client', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip;q=0.5, br;q=1', 'br'],
    ['identity', undefined],
    [undefined, undefined],
  ])(
    'sends a hashed asset for Accept-Encoding %s as %s, immutable, varying by encoding',
    async (accept, encoding) => {
      const res = await get('/assets/index-AbC123.js', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(body(res)).toBe(SCRIPT);
      if (encoding) expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    },
  );

  it('revalidates index.html and the service worker, compressed too', async () => {
    for (const url of ['/', '/index.html', '/sw.js']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(String(res.headers.vary), url).toMatch(/accept-encoding/i);
    }
    expect(body(await get('/sw.js', 'gzip'))).toBe(SW);
  });

  it('answers a page of the app (the single-page fallback) with the compressed, revalidated shell', async () => {
    for (const [accept, encoding] of [
      ['gzip', 'gzip'],
      ['br', 'br'],
      [undefined, undefined],
    ] as const) {
      const res = await get('/participant/work', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(body(res)).toBe(INDEX);
    }
  });

  it('sends a file without a compressed copy as it is', async () => {
    const res = await get('/assets/font-X1.woff2', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(64);
  });
});

describe("the built client's security headers", () => {
  it('a script or stylesheet under assets/ carries only what applies to a subresource', async () => {
    for (const url of [
      '/assets/index-AbC123.js',
      '/assets/index-AbC123.css',
      '/assets/index-AbC123.js?v=1',
    ]) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['strict-transport-security'], url).toMatch(/max-age=/);
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      for (const documentOnly of [
        'content-security-policy',
        'x-frame-options',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
      ])
        expect(res.headers[documentOnly], `${url} ${documentOnly}`).toBeUndefined();
    }
  });

  it('documents, the service worker, worker scripts and other files keep the full set with the CSP', async () => {
    for (const url of [
      '/',
      '/index.html',
      '/participant/work',
      '/sw.js',
      '/assets/pdf.worker.min-Wk1.mjs',
      '/assets/picture-P1.svg',
    ]) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});

describe("the server's own answers", () => {
  it(`compresses JSON above ${COMPRESS_MIN_BYTES} bytes by Accept-Encoding, with Vary`, async () => {
    const plain = await get('/api/docs/json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    for (const encoding of ['br', 'gzip']) {
      const res = await get('/api/docs/json', encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(body(res))).toEqual(JSON.parse(plain.body));
    }
  });

  it('prefers gzip for an answer when the browser takes both (cheaper on small answers, bench/compression.mjs)', async () => {
    const res = await get('/api/docs/json', 'gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('sends a small answer as it is', async () => {
    const res = await get('/api/user/hasSession', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('never inflates a compressed request body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ userName: 'nobody', password: 'x' })),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400 });
  });
});
