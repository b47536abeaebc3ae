import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { notFound } from '../lib/errors.js';

/** web/dist from the server package, whether running from src/ or dist/. */
export function findWebDist(configured?: string): string | null {
  if (configured) return existsSync(join(configured, 'index.html')) ? resolve(configured) : null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = resolve(dir, '..');
  }
  return null;
}

/**
 * Serves the built web client on the same port as the API, with the single-page fallback:
 * any GET outside /api that is not a file gets index.html. Unknown /api paths answer 404 JSON.
 */
export const webPlugin = fp<{ webDist?: string }>(
  async (app, options) => {
    const root = findWebDist(options.webDist);
    if (root) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: ['index.html'],
        // web/scripts/compress.mjs wrote a .br and a .gz beside each text file at build time: the
        // smallest one the browser accepts is sent as is (Content-Encoding, Vary: Accept-Encoding).
        preCompressed: true,
        setHeaders(res, path) {
          // Hashed assets never change; the shell and service worker must be revalidated.
          if (path.includes(`${'/'}assets${'/'}`))
            res.header('cache-control', 'public, max-age=31536000, immutable');
          else res.header('cache-control', 'no-cache');
        },
      });
    } else {
      app.log.warn('web client not built (web/dist missing): run `npm run build`; serving the API only');
    }
    app.setNotFoundHandler(async (req, reply) => {
      const path = req.url.split('?')[0] ?? '';
      if (
        req.method === 'GET' &&
        root &&
        !path.toLowerCase().startsWith('/api/') &&
        !/\.\w{1,8}$/.test(path)
      ) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
      }
      throw notFound(`No such call: ${req.method} ${path}`);
    });
  },
  { name: 'web' },
);
