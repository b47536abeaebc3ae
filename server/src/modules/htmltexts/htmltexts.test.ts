import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { createHtmlText, createTestApp, signedIn, testConfig, type TestApp } from '../../../test/helpers.js';
import { analyticsConfig } from './htmltexts.service.js';

let t: TestApp;
let published: number;
let draft: number;

beforeAll(async () => {
  t = await createTestApp();
  published = await createHtmlText(t.app, {
    title: 'Правила',
    code: 'rules',
    html: '<h2>Правила</h2><p onmouseover="x()">Текст<script>steal()</script><a href="javascript:alert(1)">ссылка</a></p>',
  });
  draft = await createHtmlText(t.app, { title: 'Черновик', isPublished: false });
});
afterAll(async () => t.close());

describe('GET /api/htmltexts/{id}', () => {
  it('answers a published text to anybody, sanitized', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/htmltexts/${published}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: published,
      code: 'rules',
      kind: 'page',
      title: 'Правила',
      html: '<h2>Правила</h2><p>Текст<a rel="noopener noreferrer" target="_blank">ссылка</a></p>',
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('finds a text by its code too, and works with a session', async () => {
    const { session } = await signedIn(t.app, ['participant']);
    const res = await t.app.inject({ method: 'GET', url: '/api/htmltexts/rules', headers: session.headers });
    expect(res.json().id).toBe(published);
  });

  it('unpublished and unknown texts are 404; bad ids 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/htmltexts/${draft}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/htmltexts/999999' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/htmltexts/no%20such' })).statusCode).toBe(400);
  });
});

describe('GET /api/htmltexts/analytics', () => {
  it('is off unless configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/htmltexts/analytics' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: false });
  });

  it('gives the configured counter', () => {
    expect(analyticsConfig(testConfig({ ANALYTICS_ID: '98765432' }))).toEqual({
      enabled: true,
      provider: 'yandex_metrika',
      id: '98765432',
    });
    expect(
      analyticsConfig(testConfig({ ANALYTICS_ID: 'G-ABC123', ANALYTICS_PROVIDER: 'google_analytics' })),
    ).toEqual({
      enabled: true,
      provider: 'google_analytics',
      id: 'G-ABC123',
    });
  });

  it('refuses an id that could break out of a script at start', () => {
    expect(() => testConfig({ ANALYTICS_ID: "1');alert(1);//" })).toThrow(ConfigError);
  });
});
