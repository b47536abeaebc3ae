import { constants } from 'node:zlib';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';

/**
 * Answers below this many bytes go as they are. The bench (bench/compression.mjs,
 * docs/BENCHMARKS.md) measured what compressing an answer costs the server per request against
 * the bytes it saves: a save's answer (46 bytes) would grow and cost 50–80 µs, a variant (5.5 kB)
 * shrinks to a third for 60 µs of gzip.
 */
export const COMPRESS_MIN_BYTES = 2048;

/**
 * Compression of the server's own answers (JSON, CSV, the API document) by the request's
 * Accept-Encoding, with `Vary: Accept-Encoding`: gzip first — on the 10:00 answers it made the same
 * size as brotli at a third of the CPU (brotli's set-up cost dominates small answers) — and
 * brotli at a quick level for a client that takes only brotli. The web client's
 * files are compressed at build time and sent as they are (`plugins/web.ts`); what already has a
 * Content-Encoding is left alone, and so are streams the route writes itself (SSE). Request bodies
 * are never inflated: every body limit counts the bytes as sent.
 */
export const compressionPlugin = fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      encodings: ['gzip', 'br'],
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
