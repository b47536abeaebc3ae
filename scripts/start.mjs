// `npm start`: builds what is missing or out of date (web client, server bundle), then runs the
// server in the foreground. Ctrl-C reaches the server, which finishes requests and closes the database.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Newest modification time of the files under the given paths. */
function newest(paths) {
  let max = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const entry of readdirSync(p))
        if (entry !== 'node_modules' && entry !== 'dist') walk(join(p, entry));
    } else max = Math.max(max, s.mtimeMs);
  };
  paths.forEach((p) => walk(join(root, p)));
  return max;
}

function buildIfStale(name, output, sources) {
  const out = join(root, output);
  if (existsSync(out) && statSync(out).mtimeMs >= newest(sources)) return;
  console.log(`[attesta] building ${name}...`);
  const r = spawnSync(npm, ['run', 'build', '-w', name], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

buildIfStale('web', 'web/dist/index.html', [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/public',
  'packages/contract/src',
]);
buildIfStale('server', 'server/dist/main.js', ['server/src', 'server/drizzle', 'packages/contract/src']);

const child = spawn(process.execPath, ['--enable-source-maps', join(root, 'server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
// The terminal sends Ctrl-C to the whole process group; forward other signals explicitly.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
process.on('SIGINT', () => undefined);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
