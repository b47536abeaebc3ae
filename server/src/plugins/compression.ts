import { constants } from 'node:zlib';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';

/**
 * Answers below this many bytes go as they are. The bench (bench/compression.mjs,
 * docs/BENCHMARKS.md) measured what compressing an answer costs the server per request against
 * the bytes it saves: a save's answer (under 200 bytes) would gain nothing, a variant (tens of kB)
 * shrinks several times for a fraction of a millisecond.
 */
export const COMPRESS_MIN_BYTES = 2048;

/**
 * Compression of the server's own answers (JSON, CSV, the API document) by the request's
 * Accept-Encoding: brotli at a quick level or gzip, with `Vary: Accept-Encoding`. The web client's
 * files are compressed at build time and sent as they are (`plugins/web.ts`); what already has a
 * Content-Encoding is left alone, and so are streams the route writes itself (SSE). Request bodies
 * are never inflated: every body limit counts the bytes as sent.
 */
export const compressionPlugin = fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_MIN_BYTES,
      brotliOptions: {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'compression' },
);
