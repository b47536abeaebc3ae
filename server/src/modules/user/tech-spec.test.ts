import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TECH_OUTCOMES_OF, TECH_REQUIREMENTS, type TechSpecResult } from '@attesta/contract';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  bandwidthCheck,
  browserCheck,
  clockCheck,
  cookiesCheck,
  parseBrowser,
  screenCheck,
  storageCheck,
} from './tech-spec.js';

const UA = {
  chrome120:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  chrome80:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.3987.149 Safari/537.36',
  yandex:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 YaBrowser/23.11.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
  firefox89: 'Mozilla/5.0 (X11; Linux x86_64; rv:89.0) Gecko/20100101 Firefox/89.0',
  firefox121: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  safari13:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.2 Safari/605.1.15',
  safari17:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  chromeIos:
    'Mozilla/5.0 (iPad; CPU OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
  app: 'Mozilla/5.0 (Linux; Android 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0 Mobile Safari/537.36 AttestaApp/2.1',
  ie: 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
};

describe('browser rule', () => {
  it.each([
    ['chrome120', 'chrome', true],
    ['chrome80', 'chrome', false],
    ['yandex', 'yandex', true],
    ['edge', 'edge', true],
    ['firefox89', 'firefox', false],
    ['firefox121', 'firefox', true],
    ['safari13', 'safari', false],
    ['safari17', 'safari', true],
    ['chromeIos', 'ios', false],
    ['app', 'app', true],
    ['ie', 'unknown', false],
  ] as const)('%s is %s, ok=%s', (key, family, ok) => {
    expect(parseBrowser(UA[key]).family).toBe(family);
    expect(browserCheck(UA[key]).ok).toBe(ok);
  });

  it('judges Yandex by its Chromium engine, not its year-based version', () => {
    expect(parseBrowser(UA.yandex).version).toBe(118);
  });
});

describe('other rules', () => {
  it('screen: desktop ok, upright tablet and phones from 320 px ok with a warning, smaller not ok, unmeasured not ok', () => {
    expect(screenCheck(1366, 768)).toMatchObject({ ok: true, warning: false });
    expect(screenCheck(768, 1024)).toMatchObject({ ok: true, warning: true, outcome: 'narrow' });
    expect(screenCheck(390, 844)).toMatchObject({ ok: true, warning: true, outcome: 'phone' });
    expect(screenCheck(844, 390)).toMatchObject({ ok: true, warning: true, outcome: 'phone' });
    expect(screenCheck(320, 568)).toMatchObject({ ok: true, outcome: 'phone' });
    expect(screenCheck(319, 568)).toMatchObject({ ok: false, outcome: 'small' });
    expect(screenCheck(640, 300)).toMatchObject({ ok: false, outcome: 'small' });
    expect(screenCheck(undefined, undefined)).toMatchObject({ ok: false, value: null });
  });

  it('storage needs both localStorage and IndexedDB', () => {
    expect(storageCheck(true, true).ok).toBe(true);
    expect(storageCheck(true, false).ok).toBe(false);
  });

  it('clock: a big skew only warns, because the server clock rules', () => {
    const now = new Date('2025-03-01T10:00:00Z');
    expect(clockCheck('2025-03-01T10:04:00Z', now)).toMatchObject({ ok: true, warning: false });
    expect(clockCheck('2025-03-01T09:30:00Z', now)).toMatchObject({
      ok: true,
      warning: true,
      value: '30 мин',
    });
  });

  it('bandwidth: 1 Mbit/s is the floor; unmeasured passes', () => {
    expect(bandwidthCheck(1000, 256 * 1024)).toMatchObject({ ok: true, value: '2.1 Мбит/с' });
    expect(bandwidthCheck(4000, 256 * 1024)).toMatchObject({ ok: false });
    expect(bandwidthCheck(undefined, undefined)).toMatchObject({ ok: true, value: null });
  });
});

describe('outcome codes', () => {
  it('every check says what it found as one of the outcomes the contract lists for it', () => {
    const now = new Date('2025-03-01T10:00:00Z');
    const found = [
      browserCheck(UA.chrome120),
      browserCheck(UA.chrome80),
      browserCheck('curl/8'),
      browserCheck(`${UA.chrome120} ${TECH_REQUIREMENTS.appShellMarker}1.0`),
      screenCheck(1366, 768),
      screenCheck(768, 1024),
      screenCheck(390, 844),
      screenCheck(200, 300),
      screenCheck(undefined, undefined),
      cookiesCheck(true),
      cookiesCheck(false),
      storageCheck(true, true),
      storageCheck(false, true),
      clockCheck('2025-03-01T10:01:00Z', now),
      clockCheck('2025-03-01T09:00:00Z', now),
      clockCheck(undefined, now),
      bandwidthCheck(1000, 256 * 1024),
      bandwidthCheck(4000, 256 * 1024),
      bandwidthCheck(undefined, undefined),
    ].map((c) => `${c.id}.${c.outcome}`);
    const listed = Object.entries(TECH_OUTCOMES_OF).flatMap(([id, outcomes]) =>
      outcomes.map((o) => `${id}.${o}`),
    );
    expect(new Set(found)).toEqual(new Set(listed));
  });
});

describe('GET /api/user/checkTechSpec', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const check = (query: string, ua = UA.chrome120) =>
    t.app.inject({ method: 'GET', url: `/api/user/checkTechSpec${query}`, headers: { 'user-agent': ua } });

  it('passes a good device without a session', async () => {
    const clientTime = new Date().toISOString();
    const res = await check(
      `?screenWidth=1920&screenHeight=1080&cookies=true&localStorage=true&indexedDb=1&clientTime=${clientTime}&downloadMs=500&bytes=262144`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as TechSpecResult;
    expect(body.ok).toBe(true);
    expect(body.checks.map((c) => c.id)).toEqual([
      'browser',
      'screen',
      'cookies',
      'storage',
      'clock',
      'bandwidth',
    ]);
    expect(body.checks.every((c) => c.ok && c.message.length > 0)).toBe(true);
    expect(Math.abs(Date.parse(body.serverTime) - Date.now())).toBeLessThan(60_000);
    expect(body.probe).toEqual({
      url: expect.stringContaining('probe=1'),
      bytes: TECH_REQUIREMENTS.probe.defaultBytes,
    });
  });

  it('fails an old browser and explains why in Russian', async () => {
    const body = (
      await check(
        '?screenWidth=1920&screenHeight=1080&cookies=true&localStorage=true&indexedDb=true',
        UA.firefox89,
      )
    ).json();
    expect(body.ok).toBe(false);
    const browser = body.checks.find((c: { id: string }) => c.id === 'browser');
    expect(browser).toMatchObject({
      ok: false,
      value: 'Firefox 89',
      message: expect.stringMatching(/устарел/),
    });
  });

  it('ignores a session and unknown cache-busting parameters', async () => {
    const res = await check('?_=12345&screenWidth=1024&screenHeight=600');
    expect(res.statusCode).toBe(200);
  });

  it.each(['?screenWidth=wide', '?cookies=maybe', '?clientTime=yesterday', '?bytes=99999999'])(
    'answers 400 for %s',
    async (query) => {
      const res = await check(query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    },
  );

  it('serves probe bytes that are not cached', async () => {
    const res = await check('?probe=1&bytes=100000');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.length).toBe(100000);
    const defaultSize = await check('?probe=1');
    expect(defaultSize.rawPayload.length).toBe(TECH_REQUIREMENTS.probe.defaultBytes);
  });

  it('documents the probe in the OpenAPI description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const op = doc.paths['/api/user/checkTechSpec'].get;
    expect(op.description).toContain('probe=1');
    expect(op.tags).toEqual(['user']);
  });
});
