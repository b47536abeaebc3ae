import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * `${DATA_DIR}/server.json` tells local command line tools that a server owns the embedded
 * database (PGlite is single-process: a second process must not open its folder) and how to ask
 * that server instead: its port and a random token for the /internal routes. Mode 0600, since the
 * token is a credential of whoever may read the data folder anyway.
 */
const serverFileSchema = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(16),
  startedAt: z.string(),
});
export type ServerFile = z.infer<typeof serverFileSchema>;

export const serverFilePath = (dataDir: string) => join(dataDir, 'server.json');

export function writeServerFile(dataDir: string, info: Omit<ServerFile, 'startedAt'>): void {
  mkdirSync(dataDir, { recursive: true });
  const path = serverFilePath(dataDir);
  const body: ServerFile = { ...info, startedAt: new Date().toISOString() };
  writeFileSync(path, JSON.stringify(body, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600); // an older file keeps its mode on rewrite
  registerServer(dataDir, info.pid);
}

/**
 * Where the embedded servers of this user note their data folders (a file `<pid>.json` each), so
 * that a tool started with another DATA_DIR finds the running server instead of creating a second
 * database: `ATTESTA_SERVER_REGISTRY`, or a folder of the user's in the system's temporary folder.
 * Only paths are kept there; the token stays in the data folder's own 0600 file.
 */
export function serverRegistryDir(): string {
  return (
    process.env.ATTESTA_SERVER_REGISTRY ?? join(tmpdir(), `attesta-servers-${process.getuid?.() ?? 'user'}`)
  );
}

const registryEntry = (pid: number) => join(serverRegistryDir(), `${pid}.json`);

function registerServer(dataDir: string, pid: number): void {
  try {
    mkdirSync(serverRegistryDir(), { recursive: true, mode: 0o700 });
    writeFileSync(registryEntry(pid), JSON.stringify({ pid, dataDir: resolve(dataDir) }) + '\n', {
      mode: 0o600,
    });
  } catch {
    // Only a convenience for the local tools: a server runs without it.
  }
}

/**
 * The data folders of the embedded servers that run now (their server.json names a live process),
 * besides `except`; entries of servers gone are removed on the way.
 */
export function runningServerDataDirs(except?: string): string[] {
  const dir = serverRegistryDir();
  if (!existsSync(dir)) return [];
  const found = new Set<string>();
  for (const name of readdirSync(dir)) {
    if (!/^\d+\.json$/.test(name)) continue;
    const path = join(dir, name);
    let dataDir: string | undefined;
    try {
      dataDir = z.object({ dataDir: z.string() }).parse(JSON.parse(readFileSync(path, 'utf8'))).dataDir;
    } catch {
      dataDir = undefined;
    }
    const server = dataDir === undefined ? null : readServerFile(dataDir);
    if (dataDir === undefined || !server || `${server.pid}.json` !== name || !isProcessAlive(server.pid)) {
      rmSync(path, { force: true });
      continue;
    }
    if (except === undefined || resolve(except) !== dataDir) found.add(dataDir);
  }
  return [...found].sort();
}

export function readServerFile(dataDir: string): ServerFile | null {
  try {
    const parsed = serverFileSchema.safeParse(JSON.parse(readFileSync(serverFilePath(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Removes the file if it is ours: a second server on the same folder must not erase the first's. */
export function removeServerFile(dataDir: string, pid = process.pid): void {
  if (readServerFile(dataDir)?.pid === pid) {
    rmSync(serverFilePath(dataDir), { force: true });
    rmSync(registryEntry(pid), { force: true });
  }
}

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
