import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { forbidden } from '../lib/errors.js';
import { isLocalToolCall, LOCAL_TOKEN_HEADER } from '../lib/local-tool.js';
import { listDemoCodes } from './codes.js';
import { moscowToday } from './dates.js';
import { ensureDemoToday } from './seed.js';

export { LOCAL_TOKEN_HEADER };

export interface DemoInternalOptions {
  /** The token written to server.json; only local tools that can read the data folder know it. */
  token: string;
  /** Today's Moscow date (tests pin it). */
  today?: () => string;
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
