import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Registry } from 'prom-client';
import { z } from 'zod';
import { errorBodySchema } from '@attesta/contract';
import { forbidden, notFound, unauthorized } from '../lib/errors.js';
import { httpDuration, processRegistry, startProcessMetrics, type RequestSeries } from '../lib/metrics.js';

/** The addresses of METRICS_ALLOW as one list node's `net` checks (IPv4 and IPv6, ranges). */
export function allowListOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** Whether an address (as Fastify gives it; an IPv4 client of a dual-stack socket as ::ffff:a.b.c.d) is in the list. */
export function allowed(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  const family = isIP(address);
  if (!family) return false;
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The queue now, by job type: items due and waiting, scheduled later (retries), running; the oldest due's wait. */
const QUEUE_NOW = `
select type,
  count(*) filter (where status = 'queued' and run_after <= now())::int as due,
  count(*) filter (where status = 'queued' and run_after > now())::int as later,
  count(*) filter (where status = 'running')::int as running,
  coalesce(extract(epoch from now() - min(run_after) filter (where status = 'queued' and run_after <= now())), 0)::float8 as oldest
from queue_items where status in ('queued', 'running') group by type`;

interface QueueRow {
  type: string;
  due: number;
  later: number;
  running: number;
  oldest: number;
}

const schema = {
  summary: 'Metrics in the Prometheus text format',
  description:
    'Requests by route pattern and status, saves and their group-commit batches, starts, finishes, the ' +
    'job queue, job runs, server-sent event streams, the database pool, Redis, event-loop delay and ' +
    'memory (docs/metrics.md). 404 unless METRICS_TOKEN or METRICS_ALLOW is set; 403 from an address ' +
    'outside METRICS_ALLOW; 401 without the token as `Authorization: Bearer` (when METRICS_TOKEN is set).',
  operationId: 'getMetrics',
  tags: ['system'],
  security: [{ bearer: [] }],
  response: {
    200: {
      description: 'the metrics, Prometheus text exposition format 0.0.4',
      content: { 'text/plain': { schema: z.string() } },
    },
    401: errorBodySchema.describe('no token, or another (METRICS_TOKEN set)'),
    403: errorBodySchema.describe('an address outside METRICS_ALLOW'),
    404: errorBodySchema.describe('metrics are off: neither METRICS_TOKEN nor METRICS_ALLOW is set'),
  },
};

/**
 * `GET /metrics`: Prometheus text (prom-client) for the operator's scraper (docs/metrics.md).
 * Served only when METRICS_TOKEN or METRICS_ALLOW is set; otherwise it answers 404 `not_found` and
 * no request is measured. A scrape from an address outside METRICS_ALLOW gets 403
 * `forbidden`, one without the token as `Authorization: Bearer …` (or with another) 401
 * `unauthorized`.
 *
 * Each route gets its own `onResponse` hook (added as the route is declared, so its pattern is
 * known once, never read per request): a request costs two map look-ups and a bucket's increment
 * of its (method, route pattern, status) series (lib/metrics.ts `RequestSeries`). Requests no route matched (unknown URLs, the web client's page
 * fallback) are not measured. The database pool, the queue, Redis and the drain are read when
 * scraped, into gauges of this app's own registry.
 */
async function metricsRoutes(app: FastifyInstance) {
  const settings = app.ctx.config.metrics;
  if (!settings) {
    // Documented like any route (the API document is built without settings), answering 404.
    app.get('/metrics', { schema }, async () => {
      throw notFound('Metrics are off: set METRICS_TOKEN or METRICS_ALLOW (docs/metrics.md)');
    });
    return;
  }
  startProcessMetrics();

  app.addHook('onRoute', (route) => {
    const pattern = route.url ?? route.path;
    // A route's series by status (and by method for a route of several), made at its first answer.
    const byMethod = new Map<string, Map<number, RequestSeries>>();
    const seriesOf = (method: string, status: number) => {
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = new Map()));
      let series = byStatus.get(status);
      if (!series) byStatus.set(status, (series = httpDuration.series(method, pattern, status)));
      return series;
    };
    // A callback hook (no promise): two map look-ups and a bucket's increment a request.
    const measure: onResponseHookHandler = (req, reply, done) => {
      seriesOf(req.method, reply.statusCode).observe(reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own ? [...[own].flat(), measure] : [measure];
  });

  const registry = new Registry();
  const registers = [registry];
  // Registered only where they mean something: a gauge never set would read 0 (a pool with no
  // connection, Redis down).
  const { database } = app.ctx;
  const pool = database.poolStats
    ? {
        inUse: new Gauge({
          name: 'attesta_db_pool_in_use',
          help: "Connections of this instance's database pool lent out to a query or transaction",
          registers,
        }),
        idle: new Gauge({
          name: 'attesta_db_pool_idle',
          help: "Open connections of this instance's pool waiting for work",
          registers,
        }),
        waiting: new Gauge({
          name: 'attesta_db_pool_waiting',
          help: 'Queries and transactions of this instance waiting for a pool connection (every one is lent out)',
          registers,
        }),
        max: new Gauge({
          name: 'attesta_db_pool_max',
          help: 'The most connections the pool opens (DATABASE_POOL_SIZE)',
          registers,
        }),
      }
    : null;
  const databaseInfo = new Gauge({
    name: 'attesta_database_info',
    help: 'The database this instance uses: postgres (a server, with a pool) or pglite (embedded, on the server thread)',
    labelNames: ['kind'] as const,
    registers,
  });
  const redisUp = app.ctx.redis
    ? new Gauge({
        name: 'attesta_redis_up',
        help: 'Redis answers this instance (1) or not (0); absent without REDIS_URL',
        registers,
      })
    : null;
  const draining = new Gauge({
    name: 'attesta_draining',
    help: 'The instance was asked to stop (SIGTERM) and its readiness answers 503 (1), or serves as usual (0)',
    registers,
  });
  const queueItems = new Gauge({
    name: 'attesta_queue_items',
    help: 'Queue items by job type and state: due (waiting for a worker), later (a retry not due yet), running',
    labelNames: ['type', 'state'] as const,
    registers,
  });
  const queueOldest = new Gauge({
    name: 'attesta_queue_oldest_due_seconds',
    help: 'How long the oldest due item of a job type has waited for a worker (0: none waits)',
    labelNames: ['type'] as const,
    registers,
  });
  const queueScrapeFailed = new Gauge({
    name: 'attesta_queue_scrape_failed',
    help: 'The queue could not be read for this scrape (1): the queue gauges are then absent',
    registers,
  });

  databaseInfo.set({ kind: database.kind }, 1);

  async function readNow() {
    const stats = database.poolStats?.();
    if (pool && stats) {
      pool.inUse.set(stats.total - stats.idle);
      pool.idle.set(stats.idle);
      pool.waiting.set(stats.waiting);
      pool.max.set(stats.max);
    }
    if (redisUp) redisUp.set(app.ctx.redis?.status === 'ready' ? 1 : 0);
    draining.set(app.draining ? 1 : 0);

    queueItems.reset();
    queueOldest.reset();
    try {
      const rows = await database.query<QueueRow>(QUEUE_NOW);
      const types = new Set([
        ...(app.hasDecorator('jobs') ? app.jobs.types() : []),
        ...rows.map((r) => r.type),
      ]);
      const byType = new Map(rows.map((r) => [r.type, r]));
      for (const type of types) {
        const row = byType.get(type);
        queueItems.set({ type, state: 'due' }, Number(row?.due ?? 0));
        queueItems.set({ type, state: 'later' }, Number(row?.later ?? 0));
        queueItems.set({ type, state: 'running' }, Number(row?.running ?? 0));
        queueOldest.set({ type }, Number(row?.oldest ?? 0));
      }
      queueScrapeFailed.set(0);
    } catch {
      queueScrapeFailed.set(1);
    }
  }

  const allow = settings.allow.length ? allowListOf(settings.allow) : null;
  const token = settings.token ? digest(settings.token) : null;
  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    if (allow && !allowed(allow, req.ip)) throw forbidden('This address may not read the metrics');
    if (token) {
      const sent = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
      if (!sent || !timingSafeEqual(digest(sent), token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthorized('Send the metrics token as Authorization: Bearer <METRICS_TOKEN>');
      }
    }
  };

  app.get('/metrics', { onRequest: guard, schema }, async (_req, reply) => {
    await readNow();
    const text = (await processRegistry.metrics()) + (await registry.metrics());
    return reply.type(registry.contentType).send(text);
  });
}

/** Not encapsulated: its onRoute hook must see every route the app declares after it. */
export const metricsPlugin = fp(metricsRoutes, { name: 'metrics' });
