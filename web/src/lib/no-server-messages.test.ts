import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Screens show an error by its code (lib/form-errors.ts), never the server's English `message`:
// this scan fails when a component puts an error's message on the screen again.
const root = join(import.meta.dirname, '..');

/** Files that build errors (they read messages to construct an ApiError) or show support details. */
const ALLOWED = new Set([
  'lib/api-client.ts',
  'lib/form-errors.ts',
  'components/data-table/download.ts',
  'features/exam-runner/api/upload-files.ts',
  'features/errors/components/error-page.tsx',
  'features/errors/components/route-error.tsx',
]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('server messages on screen', () => {
  it('no component shows an error’s message', () => {
    const offenders = sources(root)
      .map((path) => relative(root, path).replaceAll('\\', '/'))
      .filter((file) => !file.startsWith('locales/') && !ALLOWED.has(file))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .map((line, i) => [file, i + 1, line] as const)
          .filter(([, , line]) => /\b(error|err|e|failed|cause|reason)\??\.message\b/.test(line))
          .map(([f, n, line]) => `${f}:${n}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});
