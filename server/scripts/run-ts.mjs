// Runs a server command line tool: the built bundle dist/<name>.js when it exists (production),
// otherwise its TypeScript source through tsx. Usage: node scripts/run-ts.mjs <name> <source.ts> [args]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, source, ...rest] = process.argv.slice(2);
const bundle = join(root, 'dist', `${name}.js`);
const args = existsSync(bundle) ? [bundle] : ['--import', 'tsx', join(root, source)];
const result = spawnSync(process.execPath, [...args, ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
