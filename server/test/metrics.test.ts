import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import { openStream } from './sse.js';
import { createRoom, T } from '../src/modules/exam-test/test-support.js';
import { allowed, allowListOf } from '../src/plugins/metrics.js';
import { httpDuration, processRegistry } from '../src/lib/metrics.js';

/*
 * GET /metrics (plugins/metrics.ts, docs/metrics.md): who may read it, and that the figures move
 * as they should after a small scenario — a participant signs in, starts, saves twice and
 * finishes, and the scoring job runs. The counters are the process's (one worker runs every test
 * file), so the test compares scrapes before and after.
 */

const TOKEN = 'metrics-token-for-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** A scrape as `series → value` (`name{labels}` exactly as written). */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: '127.0.0.1,10.0.0.0/8,::1' });
});
afterAll(async () => t?.close());

async function scrape(): Promise<{ text: string; at: (series: string) => number }> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
  expect(res.statusCode).toBe(200);
  const values = parse(res.body);
  return { text: res.body, at: (series) => values.get(series) ?? 0 };
}

describe('GET /metrics: who may read it', () => {
  it('401 without the token or with another, 403 from an address outside METRICS_ALLOW', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(none.headers['www-authenticate']).toContain('Bearer');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    // A session's token is not the metrics token either.
    const room = await createRoom(t.app);
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: room.session.headers })).statusCode,
    ).toBe(401);
    const outside = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: bearer,
      remoteAddress: '192.168.1.20',
    });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ status: 403, code: 'forbidden' });
    expect(outside.body).not.toContain('attesta_');
    const inRange = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: bearer,
      remoteAddress: '10.20.30.40',
    });
    expect(inRange.statusCode).toBe(200);
    expect(inRange.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('the address list takes addresses and ranges, IPv4 clients of a dual-stack socket too', () => {
    const list = allowListOf(['10.0.0.0/8', '192.168.5.7', 'fd00::/8']);
    expect(allowed(list, '10.255.0.1')).toBe(true);
    expect(allowed(list, '::ffff:10.1.1.1')).toBe(true);
    expect(allowed(list, '192.168.5.7')).toBe(true);
    expect(allowed(list, '192.168.5.8')).toBe(false);
    expect(allowed(list, 'fd12::1')).toBe(true);
    expect(allowed(list, 'fe80::1')).toBe(false);
    expect(allowed(list, 'not an address')).toBe(false);
  });

  it('answers 404 when neither METRICS_TOKEN nor METRICS_ALLOW is set', async () => {
    const off = await createTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'not_found' });
      expect(res.body).not.toContain('attesta_');
    } finally {
      await off.close();
    }
  });
});

describe('the request histogram', () => {
  it('counts in place and exports cumulative buckets, +Inf, sum and count as prom-client does', async () => {
    const series = httpDuration.series('GET', '/histogram-test/:id', 200);
    for (const seconds of [0.003, 0.02, 0.02, 20]) series.observe(seconds);
    const values = parse(await processRegistry.metrics());
    const at = (le: string) =>
      values.get(
        `attesta_http_request_duration_seconds_bucket{le="${le}",method="GET",route="/histogram-test/:id",status="200"}`,
      );
    expect([at('0.005'), at('0.01'), at('0.025'), at('10'), at('+Inf')]).toEqual([1, 1, 3, 3, 4]);
    const labels = '{method="GET",route="/histogram-test/:id",status="200"}';
    expect(values.get(`attesta_http_request_duration_seconds_sum${labels}`)).toBeCloseTo(20.043);
    expect(values.get(`attesta_http_request_duration_seconds_count${labels}`)).toBe(4);
  });
});

describe('GET /metrics: the figures after a small scenario', () => {
  it('a sign-in, a start, two saves, a finish and the scoring job move what they should', async () => {
    const before = await scrape();
    const room = await createRoom(t.app);

    const started = await room.api.post('examwork/new', {});
    expect(started.statusCode).toBe(200);
    const workId = (started.json() as { id: number }).id;
    for (const [seq, value] of [
      [1, 'o1'],
      [2, 'o2'],
    ] as const) {
      const saved = await room.api.put('saveanswer', {
        examWorkId: workId,
        variantTaskId: room.variantTaskIds[T.single],
        value,
        seq,
      });
      expect(saved.statusCode).toBe(200);
    }
    // A refused save (a stale seq) is an answer of its status, not a save.
    const stale = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId: room.variantTaskIds[T.single],
      value: 'o3',
      seq: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect((await room.api.put(`examwork/finish/${workId}/manual`)).statusCode).toBe(200);
    // Finishing again changes nothing and counts nothing.
    expect((await room.api.put(`examwork/finish/${workId}/manual`)).statusCode).toBe(200);

    const queued = await scrape();
    expect(queued.at('attesta_queue_items{type="result",state="due"}')).toBe(1);
    expect(queued.at('attesta_queue_items{type="result",state="running"}')).toBe(0);
    expect(queued.at('attesta_queue_oldest_due_seconds{type="result"}')).toBeGreaterThanOrEqual(0);
    // Every kind of job the runner knows is reported, an empty one as 0.
    expect(queued.text).toContain('attesta_queue_items{type="regrade",state="due"} 0');

    expect(await t.app.jobs.drain()).toBeGreaterThanOrEqual(1);
    const after = await scrape();
    const moved = (series: string) => after.at(series) - before.at(series);

    expect(moved('attesta_work_starts_total')).toBe(1);
    expect(moved('attesta_answer_saves_total{path="batched"}')).toBe(2);
    expect(moved('attesta_answer_saves_total{path="checked"}')).toBe(0);
    // Three saves one after the other: three group-commit statements of one save each (the stale
    // one's statement applied nothing and the checked path refused it).
    expect(moved('attesta_save_batch_size_count')).toBe(3);
    expect(moved('attesta_save_batch_size_sum')).toBe(3);
    expect(moved('attesta_save_batch_size_bucket{le="1"}')).toBe(3);
    expect(moved('attesta_save_batch_duration_seconds_count')).toBe(3);
    expect(moved('attesta_work_finishes_total{reason="manual"}')).toBe(1);
    expect(moved('attesta_work_finishes_total{reason="timeout"}')).toBe(0);

    const http = (method: string, route: string, status: number) =>
      `attesta_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`;
    expect(moved(http('PUT', '/api/exam/test/saveanswer', 200))).toBe(2);
    expect(moved(http('PUT', '/api/exam/test/saveanswer', 409))).toBe(1);
    expect(moved(http('POST', '/api/exam/test/examwork/new', 200))).toBe(1);
    expect(moved(http('PUT', '/api/exam/test/examwork/finish/:examWorkId/:reason', 200))).toBe(2);
    // The le="+Inf" bucket holds every observation.
    expect(
      moved(
        'attesta_http_request_duration_seconds_bucket{le="+Inf",method="PUT",route="/api/exam/test/saveanswer",status="200"}',
      ),
    ).toBe(2);

    // The scoring job ran once and its item is done; the queue is empty again.
    expect(moved('attesta_job_items_total{type="result",outcome="done"}')).toBe(1);
    expect(moved('attesta_job_items_total{type="result",outcome="failed"}')).toBe(0);
    expect(moved('attesta_job_duration_seconds_count{type="result"}')).toBe(1);
    expect(after.at('attesta_queue_items{type="result",state="due"}')).toBe(0);
    expect(after.at('attesta_queue_oldest_due_seconds{type="result"}')).toBe(0);

    // No id, code or raw URL in a label: routes are patterns.
    expect(after.text).not.toContain(`finish/${workId}`);
    expect(after.text).not.toContain(room.activationCode);
    expect(after.text).not.toMatch(/route="[^"]*\/\d+[/"]/);
  });

  it('the process, the database and Redis', async () => {
    const { at, text } = await scrape();
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(at('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(at('attesta_draining')).toBe(0);
    expect(at('attesta_queue_scrape_failed')).toBe(0);
    if (t.database.kind === 'postgres') {
      expect(at('attesta_database_info{kind="postgres"}')).toBe(1);
      expect(at('attesta_db_pool_max')).toBeGreaterThan(0);
      expect(at('attesta_db_pool_waiting')).toBe(0);
      expect(text).toContain('attesta_db_pool_in_use');
    } else {
      expect(at('attesta_database_info{kind="pglite"}')).toBe(1);
      expect(text).not.toMatch(/^attesta_db_pool_max /m);
    }
    // No REDIS_URL here: no Redis series (the alert is on attesta_redis_up == 0 where it is set).
    expect(text).not.toMatch(/^attesta_redis_up /m);
  });

  const REDIS = process.env.TEST_REDIS_URL;
  it.skipIf(!REDIS)(
    'attesta_redis_up: 1 while Redis answers, 0 once it does not (needs TEST_REDIS_URL)',
    async () => {
      const withRedis = await createTestApp({
        METRICS_TOKEN: TOKEN,
        REDIS_URL: REDIS!,
        REDIS_KEY_PREFIX: `attesta-metrics-test-${process.pid}:`,
      });
      try {
        const up = async () => {
          const res = await withRedis.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
          return parse(res.body).get('attesta_redis_up');
        };
        const redis = withRedis.app.ctx.redis!;
        for (let i = 0; i < 100 && redis.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
        expect(await up()).toBe(1);
        redis.disconnect();
        for (let i = 0; i < 100 && redis.status === 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
        expect(await up()).toBe(0);
      } finally {
        await withRedis.close();
      }
    },
  );

  it('counts a participant’s open event stream while it is open', async () => {
    const room = await createRoom(t.app);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const open = () => scrape().then((s) => s.at('attesta_sse_connections{stream="participant"}'));
    const before = await open();
    const stream = await openStream(base, '/api/monitoring/participant/stream', room.session);
    try {
      await stream.next((e) => e.event === 'hello');
      expect(await open()).toBe(before + 1);
    } finally {
      await stream.close();
    }
    for (let i = 0; i < 50 && (await open()) !== before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await open()).toBe(before);
  });
});

describe('the dashboard and the alert rules', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
  const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/attesta.json'), 'utf8')) as {
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
  };
  const alerts = readFileSync(join(root, 'deploy/prometheus/attesta-alerts.yml'), 'utf8');
  const expressions = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((target) => target.expr)),
    ...[...alerts.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!),
  ];

  it('ask only for series the server exposes, and only routes it has', async () => {
    expect(expressions.length).toBeGreaterThan(30);
    const { text } = await scrape();
    const exposed = new Set([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]!));
    // Only with a database server, only with REDIS_URL.
    for (const name of [
      'attesta_db_pool_in_use',
      'attesta_db_pool_waiting',
      'attesta_db_pool_max',
      'attesta_redis_up',
    ])
      exposed.add(name);
    const asked = new Set(
      expressions.flatMap((e) =>
        [...e.matchAll(/\b((?:attesta|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1]!),
      ),
    );
    const unknown = [...asked].filter((name) => !exposed.has(name.replace(/_(bucket|count|sum)$/, '')));
    expect(unknown).toEqual([]);
    const routes = expressions.flatMap((e) =>
      [...e.matchAll(/route=~?"([^"]+)"/g)].flatMap((m) => m[1]!.split('|')),
    );
    expect(routes.length).toBeGreaterThan(3);
    for (const route of routes)
      expect(
        ['GET', 'POST', 'PUT'].some((method) => t.app.hasRoute({ method: method as 'GET', url: route })),
        route,
      ).toBe(true);
  });

  it('the dashboard has the panels of an exam morning', () => {
    const titles = dashboard.panels.map((p) => p.title);
    for (const title of [
      'Saves/s',
      'Save latency',
      'Starts and finishes/s',
      'Answers by status /s',
      'Queue depth (due)',
      'Oldest due item age',
      'DB pool',
      'Event-loop delay',
      'Memory',
      'Redis up',
      'SSE connections',
    ])
      expect(titles).toContain(title);
  });
});
