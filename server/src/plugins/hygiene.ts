import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@attesta/contract';
import { assertCleanText, invalidText, isCleanText } from '../lib/text-hygiene.js';

/*
 * Request hygiene for every route, in one place:
 * - text that is not valid Unicode (NUL, lone surrogates) anywhere in the URL path, the query or a
 *   JSON body answers 400 `invalid_text` before any handler, scope rule or statement sees it
 *   (multipart fields and file names are checked where multipart is read);
 * - API responses are never cached (`Cache-Control: no-store`): they carry answers, names, codes.
 * The errors Fastify and Node answer themselves (a URL that does not decode, an oversized header)
 * get the same `{status, code, message}` body through `frameworkErrors` and `clientErrorHandler`.
 */

/** Each percent-decoded piece of the raw URL (path segments, query names and values) must be text. */
function checkRawUrl(url: string) {
  // Without percent-encoding every piece is a substring split at ASCII: clean if the whole is.
  if (!url.includes('%') && isCleanText(url)) return;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const pieces = [
    ...path.split('/').map((segment, i) => [`path.${i}`, segment] as const),
    ...query
      .split('&')
      .flatMap((pair) => pair.split('='))
      .map((piece) => ['query', piece.replace(/\+/g, ' ')] as const),
  ];
  for (const [where, raw] of pieces) {
    if (!raw.includes('%')) {
      if (!isCleanText(raw)) throw invalidText(where);
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // Percent-encoding that is not UTF-8 (e.g. %ED%A0%80, an encoded lone surrogate).
      throw invalidText(where);
    }
    if (!isCleanText(decoded)) throw invalidText(where);
  }
}

const isApi = (url: string) => url.length >= 5 && url.slice(0, 5).toLowerCase() === '/api/';

export const hygienePlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (req) => {
      checkRawUrl(req.raw.url ?? '/');
    });
    app.addHook('preValidation', async (req) => {
      if (req.body !== null && typeof req.body === 'object') assertCleanText(req.body, 'body');
      else if (typeof req.body === 'string') assertCleanText(req.body, 'body');
    });
    app.addHook('onSend', async (req, reply) => {
      if (isApi(req.url)) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'hygiene', dependencies: ['errors'] },
);

function errorBody(status: number, code: ErrorBody['code'], message: string): ErrorBody {
  return { status, code, message };
}

/** Fastify's router errors (a URL whose percent-encoding does not decode) in our error body. */
export function frameworkErrors(error: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply) {
  const body =
    error.code === 'FST_ERR_BAD_URL'
      ? errorBody(400, 'invalid_text', 'The URL contains characters that are not valid text')
      : errorBody(400, 'bad_request', 'The request is not valid');
  if (isApi(req.raw.url ?? '')) reply.header('cache-control', 'no-store');
  reply.status(body.status).type('application/json; charset=utf-8').send(body);
}

/**
 * Errors Node's HTTP parser meets before a request exists (oversized headers, malformed requests,
 * timeouts): answered in our error body and the connection closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (socket.destroyed || !socket.writable) return;
  const [status, code, message, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'request_header_too_large',
          'The request headers are too large',
          'Request Header Fields Too Large',
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive', 'Request Timeout']
        : [400, 'bad_request', 'The request is not valid HTTP', 'Bad Request'];
  const body = JSON.stringify(errorBody(status as number, code as ErrorBody['code'], message as string));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}
