import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateOpenApi, openApiText } from '../src/openapi.js';

// What is generated is committed and reviewed: the SQL migrations (server/drizzle) and the
// OpenAPI document (docs/openapi.json). Each test fails when its committed copy is stale.
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('generated files are up to date', () => {
  it('every schema change has its migration (npm run db:generate)', () => {
    const out = mkdtempSync(join(tmpdir(), 'attesta-drizzle-'));
    try {
      cpSync(join(serverDir, 'drizzle'), out, { recursive: true });
      const before = readdirSync(out).sort();
      // drizzle-kit prefixes `./` to --out, so it must be relative to the working directory.
      const r = spawnSync(
        process.execPath,
        [
          join(serverDir, '../node_modules/drizzle-kit/bin.cjs'),
          'generate',
          '--dialect=postgresql',
          '--schema=./src/db/schema/index.ts',
          `--out=${relative(serverDir, out)}`,
          '--casing=snake_case',
        ],
        { cwd: serverDir, encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      const added = readdirSync(out)
        .sort()
        .filter((f) => !before.includes(f));
      expect(added, 'the schema differs from the migrations: run npm run db:generate').toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  // Building the whole app to generate the document took 19–34 s on a busy two-core machine.
  it(
    'docs/openapi.json is the document the routes generate (npm run openapi)',
    { timeout: 120_000 },
    async () => {
      const committed = readFileSync(join(serverDir, '../docs/openapi.json'), 'utf8');
      const generated = openApiText(await generateOpenApi());
      expect(generated === committed, 'docs/openapi.json is stale: run npm run openapi').toBe(true);
    },
  );
});
