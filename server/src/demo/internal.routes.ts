import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forbidden } from '../lib/errors.js';
import { safeEqual } from '../lib/tokens.js';
import { listDemoCodes } from './codes.js';
import { moscowToday } from './dates.js';
import { ensureDemoToday } from './seed.js';

export const LOCAL_TOKEN_HEADER = 'x-attesta-local-token';

export interface DemoInternalOptions {
  /** The token written to server.json; only local tools that can read the data folder know it. */
  token: string;
  /** Today's Moscow date (tests pin it). */
  today?: () => string;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * A local tool's call: from this machine (the socket peer, not a forwarded address), not relayed
 * by a proxy on this machine, and carrying the token of server.json.
 */
function isLocalToolCall(req: FastifyRequest, token: string): boolean {
  const header = req.headers[LOCAL_TOKEN_HEADER];
  return (
    LOOPBACK.test(req.socket.remoteAddress ?? '') &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined &&
    typeof header === 'string' &&
    safeEqual(header, token)
  );
}

const demoCodeSchema = z.object({ code: z.string(), participant: z.string(), subjectTest: z.string() });

/**
 * Routes for `npm run demo:codes` while the server holds the embedded database. Outside /api (no
 * session, no role), hidden from the API docs, registered only when DEMO_DATA is on.
 */
export async function demoInternalRoutes(app: FastifyInstance, options: DemoInternalOptions) {
  app.get(
    '/internal/demo/codes',
    {
      schema: { hide: true, response: { 200: z.array(demoCodeSchema) } },
    },
    async (req) => {
      if (!isLocalToolCall(req, options.token))
        throw forbidden('Only local tools of this server may call this');
      const today = (options.today ?? moscowToday)();
      // A server started yesterday still lists today's codes.
      await ensureDemoToday(app.ctx.db, today);
      return listDemoCodes(app.ctx.db, today);
    },
  );
}
