import type { FastifyRequest } from 'fastify';
import { safeEqual } from './tokens.js';

/** The header a local command line tool sends the token of `${DATA_DIR}/server.json` in. */
export const LOCAL_TOKEN_HEADER = 'x-attesta-local-token';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * A local tool's call (npm run demo:codes, npm run backup): from this machine (the socket peer,
 * not a forwarded address), not relayed by a proxy on this machine, and carrying the token of
 * server.json — which only whoever may read the data folder knows.
 */
export function isLocalToolCall(req: FastifyRequest, token: string): boolean {
  const header = req.headers[LOCAL_TOKEN_HEADER];
  return (
    LOOPBACK.test(req.socket.remoteAddress ?? '') &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined &&
    typeof header === 'string' &&
    safeEqual(header, token)
  );
}
