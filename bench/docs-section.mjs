import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs/BENCHMARKS.md');

/**
 * Writes `md` between `<!-- name:start -->` and `<!-- name:end -->` of docs/BENCHMARKS.md, or
 * appends the marked block when the markers are not there yet (a bench's `--write-docs`).
 */
export function writeMarkedSection(name, md) {
  const doc = readFileSync(file, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${md}\n${end}`;
  const next = doc.includes(start)
    ? doc.replace(new RegExp(`${start}[\\s\\S]*?${end}`), () => block)
    : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
