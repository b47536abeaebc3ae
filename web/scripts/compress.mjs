// After `vite build`: a brotli (.br) and a gzip (.gz) copy beside every text file of dist/, so the
// server sends the smallest one the browser accepts without compressing on each request
// (@fastify/static `preCompressed`, server/src/plugins/web.ts). node:zlib, no plugin: the files,
// levels and the rule below are all there is to it. A copy is kept only when it is smaller.
import { readdirSync, readFileSync, statSync, writeFileSync, unlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const TEXT = /\.(m?js|css|html|svg|json|webmanifest|txt|xml)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let br = 0;
let count = 0;
for (const path of files(dist)) {
  if (!TEXT.test(path)) continue;
  const body = readFileSync(path);
  const copies = {
    '.br': brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    '.gz': gzipSync(body, { level: constants.Z_BEST_COMPRESSION }),
  };
  for (const [ext, copy] of Object.entries(copies)) {
    if (copy.length < body.length) writeFileSync(path + ext, copy);
    else if (existsSync(path + ext)) unlinkSync(path + ext);
  }
  raw += body.length;
  br += Math.min(copies['.br'].length, body.length);
  count++;
}
console.log(`compressed ${count} files: ${(raw / 1024).toFixed(0)} kB → ${(br / 1024).toFixed(0)} kB brotli`);
