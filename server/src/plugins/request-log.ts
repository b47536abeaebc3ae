import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { redactUrl } from '../lib/log-safety.js';

/**
 * Request log lines, chosen on purpose rather than by default (Fastify's own two lines a request
 * are off): by default one line for a request slower than `LOG_SLOW_REQUEST_MS` (warn), none for
 * the rest — at the 10:00 start the log would otherwise write two JSON lines for each of thousands
 * of requests a second, and a profile of the start storm spent a quarter of the server's time
 * writing them. `LOG_REQUESTS=all` logs one line for every request (info), `none` none. A line
 * names the method, the redacted URL (no codes or tokens), the status, the time and the request
 * id; never a body, a header or an answer. Errors are logged where they are handled (plugins/errors).
 */
export const requestLogPlugin = fp<{ mode: Config['logRequests']; slowMs: number }>(
  async (app, { mode, slowMs }) => {
    if (mode === 'none') return;
    app.addHook('onResponse', async (req, reply) => {
      const ms = reply.elapsedTime;
      if (mode === 'slow' && ms < slowMs) return;
      const line = {
        method: req.method,
        url: redactUrl(req.url),
        statusCode: reply.statusCode,
        ms: Math.round(ms),
      };
      if (mode === 'all') req.log.info(line, 'request');
      else req.log.warn(line, 'slow request');
    });
  },
  { name: 'request-log' },
);
