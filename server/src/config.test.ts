import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('has working defaults for a fresh clone', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    expect(c.port).toBe(3000);
    // Node's own listen queue of 511 dropped connections in the 10:00 storm (issue 15).
    expect(c.listenBacklog).toBe(4096);
    // Scoring batches run in one quick lane: more lanes slowed the finish storm's finishes.
    expect(c.jobsQuickLanes).toBe(1);
    // The pool is opened at start and kept: a storm must not open connections (issue 15).
    expect([c.databasePoolSize, c.databasePoolMin]).toEqual([20, 20]);
    expect(
      loadConfig({ NODE_ENV: 'test', DATABASE_POOL_SIZE: '8', DATABASE_POOL_MIN: '30' }).databasePoolMin,
    ).toBe(8);
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_POOL_MIN: '0' }).databasePoolMin).toBe(0);
    expect(c.dataDir).toMatch(/data$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.demoData).toBe(true);
    expect(c.demoPassword).toBe('demo');
    expect(c.oidc).toBeUndefined();
    // Page images of settled scan batches are kept 90 days; 0 keeps them for ever; a negative is refused.
    expect(c.scanImageRetentionDays).toBe(90);
    expect(loadConfig({ NODE_ENV: 'test', SCAN_IMAGE_RETENTION_DAYS: '0' }).scanImageRetentionDays).toBe(0);
    expect(() => loadConfig({ NODE_ENV: 'test', SCAN_IMAGE_RETENTION_DAYS: '-1' })).toThrow(ConfigError);
  });

  it('reads every setting', () => {
    const c = loadConfig({
      NODE_ENV: 'test',
      PORT: '8080',
      LISTEN_BACKLOG: '1024',
      DATABASE_URL: 'postgres://u@db/attesta',
      REDIS_URL: 'redis://cache:6379',
      SESSION_SECRET: 'x'.repeat(40),
      SESSION_IDLE_MINUTES: '30',
      DEMO_DATA: 'false',
      PUBLIC_URL: 'https://exam.example.org/',
      OIDC_ISSUER: 'https://id.example.org',
      OIDC_CLIENT_ID: 'attesta',
    });
    expect(c).toMatchObject({
      port: 8080,
      listenBacklog: 1024,
      databaseUrl: 'postgres://u@db/attesta',
      redisUrl: 'redis://cache:6379',
      sessionSecret: 'x'.repeat(40),
      sessionIdleMs: 30 * 60_000,
      demoData: false,
      publicUrl: 'https://exam.example.org',
      cookieSecure: true,
    });
    expect(c.oidc).toMatchObject({ issuer: 'https://id.example.org', clientId: 'attesta' });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ LISTEN_BACKLOG: '0' }, /LISTEN_BACKLOG/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must start with postgres:\/\//],
    [{ SESSION_SECRET: 'short' }, /SESSION_SECRET: must be at least 32 characters/],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA/],
    [{ OIDC_ISSUER: 'https://id.example.org' }, /OIDC_ISSUER and OIDC_CLIENT_ID/],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/a' }, /SESSION_SECRET: required in production/],
    [{ NODE_ENV: 'production', SESSION_SECRET: 'y'.repeat(32) }, /production must set DEMO_DATA=false/],
  ])('rejects %o with a clear message', (env, message) => {
    const attempt = () => loadConfig({ NODE_ENV: 'test', ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
  });
  it('METRICS_TOKEN and METRICS_ALLOW turn /metrics on; a bad address or a short token stops the start', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).metrics).toBeUndefined();
    expect(
      loadConfig({ NODE_ENV: 'test', METRICS_ALLOW: ' 10.0.0.0/8, 127.0.0.1 ,fd00::/8' }).metrics,
    ).toEqual({ token: undefined, allow: ['10.0.0.0/8', '127.0.0.1', 'fd00::/8'] });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: 't'.repeat(16) }).metrics).toEqual({
      token: 't'.repeat(16),
      allow: [],
    });
    for (const bad of [
      { METRICS_TOKEN: 'short' },
      { METRICS_ALLOW: '10.0.0.0/33' },
      { METRICS_ALLOW: 'prometheus.local' },
      { METRICS_ALLOW: '10.0.0.1/8/1' },
      { METRICS_ALLOW: '::1/129' },
    ])
      expect(() => loadConfig({ NODE_ENV: 'test', ...bad }), JSON.stringify(bad)).toThrow(ConfigError);
  });
});
