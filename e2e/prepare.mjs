// Builds the server bundle and the web client for the browser tests (always fresh: CI clones clean).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const ws of ['server', 'web']) {
  const r = spawnSync('npm', ['run', 'build', '-w', ws], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
