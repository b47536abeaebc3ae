import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  if (readServerFile(dataDir)?.pid === pid) rmSync(serverFilePath(dataDir), { force: true });
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
