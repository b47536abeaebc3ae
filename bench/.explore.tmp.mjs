import { readFileSync } from 'node:fs';
import { SourceMapConsumer } from 'source-map-js';
import { brotliCompressSync } from 'node:zlib';
const file = process.argv[2];
const code = readFileSync(file, 'utf8');
const map = JSON.parse(readFileSync(file + '.map', 'utf8'));
const c = new SourceMapConsumer(map);
const lines = code.split('\n');
const bySrc = new Map();
let prev = null;
c.eachMapping((m) => {
  if (prev) {
    const src = prev.source ?? '?';
    let len;
    if (m.generatedLine === prev.generatedLine) len = m.generatedColumn - prev.generatedColumn;
    else len = lines[prev.generatedLine - 1].length - prev.generatedColumn;
    bySrc.set(src, (bySrc.get(src) ?? 0) + len);
  }
  prev = m;
});
const group = (s) => {
  const m = /node_modules\/((@[^/]+\/)?[^/]+)(\/esm\/components\/([^/]+))?/.exec(s);
  if (m) return m[1] + (m[4] ? '/' + m[4] : '');
  return s.replace(/^.*?src\//, 'src/').replace(/\/[^/]+$/, '/');
};
const g = new Map();
for (const [s, n] of bySrc) g.set(group(s), (g.get(group(s)) ?? 0) + n);
const total = [...g.values()].reduce((a, b) => a + b, 0);
const br = brotliCompressSync(code).length;
for (const [k, v] of [...g].sort((a, b) => b[1] - a[1]).slice(0, +(process.argv[3] ?? 40))) console.log(String(v).padStart(8), String(Math.round(v / total * br / 1000 * 10) / 10).padStart(6), k);
