// npm run backup [-- <folder>] — backs up the embedded database (PGlite) and its uploaded files
// into <folder> (default backups/attesta-<UTC time>), while the server runs: the running server
// (server.json in DATA_DIR) dumps its own database between two statements and the tool copies the
// files; with no server running it opens the folder itself. A PostgreSQL server (DATABASE_URL) is
// backed up with PostgreSQL's own tools (docs/operations.md). Prints the folder on stdout.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fail, hasEmbeddedDatabase, loadConfigOrExit, runningEmbeddedServer } from '../demo/cli.js';
import { openDatabase } from '../db/client.js';
import { LOCAL_TOKEN_HEADER } from '../lib/local-tool.js';
import type { Config } from '../config.js';
import type { ServerFile } from '../lib/server-file.js';
import {
  BACKUP_DATABASE,
  BACKUP_FILES,
  copyBlobs,
  copySessionSecret,
  isEmptyOrAbsent,
  writeManifest,
  type BackupManifest,
} from './backup.js';

interface Dumped {
  tarball: Buffer;
  at: string;
  filesDir: string;
  takenBy: BackupManifest['takenBy'];
}

const filesDirOf = (config: Config) => config.filesDir ?? join(config.dataDir, 'files');

async function askServer(server: ServerFile, config: Config): Promise<Dumped> {
  const res = await fetch(`http://127.0.0.1:${server.port}/internal/backup/database`, {
    headers: { [LOCAL_TOKEN_HEADER]: server.token },
    signal: AbortSignal.timeout(10 * 60_000),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const filesDir = decodeURIComponent(res.headers.get('x-attesta-files-dir') ?? '') || filesDirOf(config);
  return {
    tarball: Buffer.from(await res.arrayBuffer()),
    at: res.headers.get('x-attesta-database-at') ?? new Date().toISOString(),
    filesDir,
    takenBy: 'server',
  };
}

async function dumpFolder(config: Config): Promise<Dumped> {
  const database = await openDatabase({ dataDir: join(config.dataDir, 'pglite') });
  try {
    const at = new Date().toISOString();
    const tarball = Buffer.from(await (await database.dump!('gzip')).arrayBuffer());
    return { tarball, at, filesDir: filesDirOf(config), takenBy: 'tool' };
  } finally {
    await database.close();
  }
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

async function main() {
  const config = loadConfigOrExit();
  if (config.databaseUrl)
    fail(
      'DATABASE_URL is set: back up the PostgreSQL server with its own tools (pg_dump, or ' +
        'pg_basebackup with WAL archiving): docs/operations.md, "Backup and restore".',
    );
  const target = resolve(process.argv[2] ?? join('backups', `attesta-${stamp()}`));
  if (!isEmptyOrAbsent(target)) fail(`${target} is not empty: name a new folder.`);
  const server = runningEmbeddedServer(config);
  if (!server && !hasEmbeddedDatabase(config.dataDir))
    fail(`No Attesta database in ${config.dataDir} (DATA_DIR) and no server holds it: nothing to back up.`);
  await mkdir(join(target, BACKUP_FILES), { recursive: true, mode: 0o700 });
  // Files first, then the database, then the files that came meanwhile: every file a row of the
  // dumped database names is in the copy.
  await copyBlobs(filesDirOf(config), join(target, BACKUP_FILES));
  let dumped: Dumped;
  if (server) {
    try {
      dumped = await askServer(server, config);
    } catch (err) {
      // Never open the folder behind a live server's back: PGlite would be corrupted.
      fail(
        `Attesta (pid ${server.pid}) holds the embedded database in ${config.dataDir} but did not ` +
          `answer on port ${server.port}: ${(err as Error).message}`,
      );
    }
  } else dumped = await dumpFolder(config);
  const files = await copyBlobs(dumped.filesDir, join(target, BACKUP_FILES));
  await writeFile(join(target, BACKUP_DATABASE), dumped.tarball, { mode: 0o600 });
  await copySessionSecret(config.dataDir, target);
  await writeManifest(target, {
    format: 'attesta-embedded-backup',
    version: 1,
    databaseAt: dumped.at,
    databaseBytes: dumped.tarball.length,
    files,
    takenBy: dumped.takenBy,
  });
  process.stderr.write(
    `Backed up the database as of ${dumped.at} (${(dumped.tarball.length / 1e6).toFixed(1)} MB, ` +
      `${dumped.takenBy === 'server' ? `by the running server, pid ${server!.pid}` : 'no server was running'}) ` +
      `and ${files} uploaded files.\nRestore: DATA_DIR=<new folder> npm run restore -- ${target}\n`,
  );
  process.stdout.write(target + '\n');
}

main().catch((err: unknown) => fail(`backup failed: ${(err as Error).stack ?? String(err)}`));
