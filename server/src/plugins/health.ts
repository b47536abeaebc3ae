import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** Liveness/readiness for load balancers: 200 when the database answers, 503 otherwise. */
export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Health check',
        operationId: 'getHealth',
        tags: ['system'],
        response: {
          200: z.object({ status: z.literal('ok'), database: z.string(), redis: z.string() }),
          503: z.object({ status: z.literal('unavailable'), database: z.string(), redis: z.string() }),
        },
      },
    },
    async (_req, reply) => {
      let database = 'ok';
      try {
        await app.ctx.database.query('select 1');
      } catch {
        database = 'down';
      }
      let redis = 'off';
      if (app.ctx.redis) redis = app.ctx.redis.status === 'ready' ? 'ok' : app.ctx.redis.status;
      if (database !== 'ok')
        return reply.status(503).send({ status: 'unavailable' as const, database, redis });
      return { status: 'ok' as const, database, redis };
    },
  );
}
