import { constants, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { z } from 'zod';

/**
 * A backup of the embedded database (`npm run backup`): a folder with
 * - `database.tar.gz`: the PGlite cluster as PGlite's `dumpDataDir` gives it (taken by the running
 *   server between two statements, so it is the database as of that moment: every save
 *   acknowledged before it is in);
 * - `files/`: the uploaded files' bytes of the `disk` storage (blobs are written once under a
 *   random key and renamed into place, never changed, so copying them beside a running server is
 *   safe);
 * - `.session-secret`: the data folder's generated session secret, when it has one;
 * - `backup.json`: what it is and its recovery point (`databaseAt`).
 */
export const BACKUP_MANIFEST = 'backup.json';
export const BACKUP_DATABASE = 'database.tar.gz';
export const BACKUP_FILES = 'files';
/** The generated session secret of DATA_DIR (when SESSION_SECRET is not set): sessions outlive a restore. */
export const SESSION_SECRET_FILE = '.session-secret';

export const manifestSchema = z.object({
  format: z.literal('attesta-embedded-backup'),
  version: z.literal(1),
  /** The recovery point: the moment the database was dumped. */
  databaseAt: z.string(),
  databaseBytes: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  /** Who took it: the running server (`server`) or the tool on a folder no server held (`tool`). */
  takenBy: z.enum(['server', 'tool']),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** The relative paths of the blobs under `dir` (its `.incoming` part-writes left out). */
async function blobPaths(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const shard of await readdir(dir, { withFileTypes: true })) {
    if (!shard.isDirectory() || shard.name.startsWith('.')) continue;
    for (const blob of await readdir(join(dir, shard.name), { withFileTypes: true }))
      if (blob.isFile()) out.push(join(shard.name, blob.name));
  }
  return out;
}

/**
 * Copies the blobs of `from` that `to` lacks (a blob never changes, so one already there is the
 * same). Returns how many `to` holds now.
 */
export async function copyBlobs(from: string, to: string): Promise<number> {
  const paths = await blobPaths(from);
  for (const path of paths) {
    const target = join(to, path);
    if (existsSync(target)) continue;
    await mkdir(join(target, '..'), { recursive: true });
    try {
      await copyFile(join(from, path), target, constants.COPYFILE_EXCL);
    } catch (err) {
      // Deleted since it was listed: its row is gone from the database too (or will be).
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return (await blobPaths(to)).length;
}

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(dir, BACKUP_MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
}

export function readManifest(dir: string): BackupManifest {
  const path = join(dir, BACKUP_MANIFEST);
  if (!existsSync(path)) throw new Error(`${dir} is not an Attesta backup: ${BACKUP_MANIFEST} is missing`);
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const database = join(dir, BACKUP_DATABASE);
  if (!existsSync(database) || statSync(database).size !== manifest.databaseBytes)
    throw new Error(
      `${database} is missing or not the size ${BACKUP_MANIFEST} gives: the backup is incomplete`,
    );
  return manifest;
}

/** Whether a folder may receive a backup: absent or empty. */
export function isEmptyOrAbsent(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Restores a backup into an embedded database folder that must not hold one (`pgliteDir`) and the
 * files folder. PGlite unpacks the tarball and replays the WAL on the first start; the restored
 * cluster is opened once here and asked for its migrations, so a broken backup fails now.
 */
export async function restoreEmbedded(
  backupDir: string,
  pgliteDir: string,
  filesDir: string,
): Promise<{ manifest: BackupManifest; migrations: number; files: number }> {
  const manifest = readManifest(backupDir);
  const tarball = new Blob([readFileSync(join(backupDir, BACKUP_DATABASE))]);
  await mkdir(pgliteDir, { recursive: true });
  const client = new PGlite(pgliteDir, { loadDataDir: tarball });
  let migrations: number;
  try {
    await client.waitReady;
    const rows = await client.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    migrations = rows.rows[0]?.n ?? 0;
  } finally {
    await client.close();
  }
  const files = await copyBlobs(join(backupDir, BACKUP_FILES), filesDir);
  return { manifest, migrations, files };
}

/** Copies the generated session secret from one folder to another that has none. */
export async function copySessionSecret(fromDir: string, toDir: string): Promise<boolean> {
  const from = join(fromDir, SESSION_SECRET_FILE);
  const to = join(toDir, SESSION_SECRET_FILE);
  if (!existsSync(from) || existsSync(to)) return false;
  await mkdir(toDir, { recursive: true });
  await copyFile(from, to, constants.COPYFILE_EXCL);
  return true;
}
