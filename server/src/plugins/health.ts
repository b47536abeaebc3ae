import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Set when the instance was asked to stop (SIGTERM): it still serves every request, but its
     * readiness probe answers 503 so the balancer stops sending new ones before it closes.
     */
    draining: boolean;
  }
}

const status = z.object({ status: z.literal('ok'), database: z.string(), redis: z.string() });
const unavailable = z.object({
  status: z.enum(['unavailable', 'draining']),
  database: z.string(),
  redis: z.string(),
});

/**
 * Probes for balancers and orchestrators (README, "Several instances"):
 * - `GET /health/live`: liveness — the process answers; 200 whatever the database does, so a
 *   database outage does not get every instance restarted.
 * - `GET /health/ready`: readiness — 200 when the database answers and the instance is not
 *   draining; 503 otherwise, so a balancer stops sending before a drained instance closes.
 * - `GET /health`: the database check, as before (kept for existing balancer settings); it also
 *   answers 503 while draining.
 */
async function health(app: FastifyInstance) {
  app.decorate('draining', false);

  const check = async () => {
    let database = 'ok';
    try {
      await app.ctx.database.query('select 1');
    } catch {
      database = 'down';
    }
    let redis = 'off';
    if (app.ctx.redis) redis = app.ctx.redis.status === 'ready' ? 'ok' : app.ctx.redis.status;
    return { database, redis };
  };
  const readiness = async (_req: unknown, reply: FastifyReply) => {
    const { database, redis } = await check();
    if (app.draining) return reply.status(503).send({ status: 'draining' as const, database, redis });
    if (database !== 'ok') return reply.status(503).send({ status: 'unavailable' as const, database, redis });
    return { status: 'ok' as const, database, redis };
  };
  const docs = (summary: string, operationId: string) => ({
    summary,
    operationId,
    tags: ['system'],
    response: { 200: status, 503: unavailable },
  });

  app.get('/health', { schema: docs('Health check (database; 503 while draining)', 'getHealth') }, readiness);
  app.get(
    '/health/ready',
    { schema: docs('Readiness: database answers and the instance is not draining', 'getHealthReady') },
    readiness,
  );
  app.get(
    '/health/live',
    {
      schema: {
        summary: 'Liveness: the process answers (the database is not asked)',
        operationId: 'getHealthLive',
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ok'), draining: z.boolean() }) },
      },
    },
    async () => ({ status: 'ok' as const, draining: app.draining }),
  );
}

/** Not encapsulated: `draining` is the root instance's, which main.ts sets on SIGTERM. */
export const healthRoutes = fp(health, { name: 'health' });
