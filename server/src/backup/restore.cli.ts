// npm run restore -- <backup folder> — restores a backup of `npm run backup` into DATA_DIR (and
// FILES_DIR), which must hold no database: a running server keeps its own data, so restore into a
// new folder and start the server on it (or stop the server and move its folder away first).
import { join, resolve } from 'node:path';
import { fail, hasEmbeddedDatabase, loadConfigOrExit, runningEmbeddedServer } from '../demo/cli.js';
import { copySessionSecret, isEmptyOrAbsent, restoreEmbedded } from './backup.js';

async function main() {
  const config = loadConfigOrExit();
  if (config.databaseUrl)
    fail(
      'DATABASE_URL is set: restore a PostgreSQL server with its own tools (pg_restore, or a base ' +
        'backup and its WAL): docs/operations.md, "Backup and restore".',
    );
  const source = process.argv[2];
  if (!source) fail('Usage: DATA_DIR=<new folder> npm run restore -- <backup folder>');
  const server = runningEmbeddedServer(config);
  if (server)
    fail(
      `Attesta (pid ${server.pid}) is running on ${config.dataDir}: restore into another folder ` +
        `(DATA_DIR=<new folder> npm run restore -- ${source}) and start the server there, or stop it first.`,
    );
  const pgliteDir = join(config.dataDir, 'pglite');
  if (hasEmbeddedDatabase(config.dataDir) || !isEmptyOrAbsent(pgliteDir))
    fail(
      `${pgliteDir} holds a database already: move it away first (the restore never overwrites one), ` +
        `or restore into a new DATA_DIR.`,
    );
  const filesDir = config.filesDir ?? join(config.dataDir, 'files');
  const { manifest, migrations, files } = await restoreEmbedded(resolve(source), pgliteDir, filesDir);
  // Sessions signed with the generated secret stay valid (SESSION_SECRET, when set, wins anyway).
  await copySessionSecret(resolve(source), config.dataDir);
  process.stderr.write(
    `Restored the database as of ${manifest.databaseAt} (${migrations} migrations) into ${pgliteDir} ` +
      `and ${files} uploaded files into ${filesDir}.\nStart the server with DATA_DIR=${config.dataDir}: ` +
      `it applies any newer migrations.\n`,
  );
}

main().catch((err: unknown) => fail(`restore failed: ${(err as Error).stack ?? String(err)}`));
