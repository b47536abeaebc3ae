// npm run files:move -- --to s3|database|disk — moves the bytes of every stored file into one
// storage (lib/file-storage/move.ts): one file at a time, each checked by sha256 before its row is
// switched and its old bytes removed. Safe to stop and run again: it goes on where it stopped.
// It uses the server's settings (FILES_DIR, FILES_S3_*, DATABASE_URL, DATA_DIR); the target needs
// its own (--to s3: FILES_S3_BUCKET and the rest). On PostgreSQL it may run beside the servers;
// the embedded database must be free (stop the server first). Exit code 1 when a file failed.
import { parseArgs } from 'node:util';
import {
  fail,
  hasEmbeddedDatabase,
  loadConfigOrExit,
  openConfiguredDatabase,
  runningEmbeddedServer,
} from './demo/cli.js';
import { openFileStorage, type FilesDriver } from './lib/file-storage/index.js';
import { moveFiles } from './lib/file-storage/move.js';

const DRIVERS: FilesDriver[] = ['database', 'disk', 's3'];

async function main() {
  const { values } = parseArgs({ options: { to: { type: 'string' } } });
  const to = values.to as FilesDriver | undefined;
  if (!to || !DRIVERS.includes(to)) fail(`Usage: npm run files:move -- --to ${DRIVERS.join('|')}`, 2);
  const config = loadConfigOrExit();
  if (to === 's3' && !config.filesS3) fail('--to s3 needs FILES_S3_BUCKET (and FILES_S3_ENDPOINT, keys…)', 2);
  if (!config.databaseUrl) {
    const server = runningEmbeddedServer(config);
    if (server)
      fail(
        `Attesta is running (pid ${server.pid}) and holds the embedded database in ${config.dataDir}: ` +
          'stop it, move the files, set FILES_STORAGE and start it again.',
      );
    if (!hasEmbeddedDatabase(config.dataDir)) fail(`No Attesta database in ${config.dataDir} (DATA_DIR).`);
  }
  const database = await openConfiguredDatabase(config);
  const storage = await openFileStorage({
    driver: to,
    s3: config.filesS3,
    dir: config.filesDir,
    dataDir: config.dataDir,
    database: { kind: database.kind, dataDir: config.databaseUrl ? undefined : config.dataDir + '/pglite' },
  });
  process.stderr.write(
    `Moving files into ${to === 'database' ? 'the database' : storage.blobs!.location}…\n`,
  );
  try {
    let done = 0;
    const report = await moveFiles(database.db, storage, {
      onFile: (file) => {
        done++;
        if (file.error) process.stderr.write(`file ${file.id} (${file.from}): NOT moved: ${file.error}\n`);
        else if (done % 100 === 0) process.stderr.write(`${done} files…\n`);
      },
    });
    process.stdout.write(
      `Moved ${report.moved} files (${(report.bytes / 1024 / 1024).toFixed(1)} MB) into ${to}; ` +
        `${report.failed.length} failed.\n`,
    );
    if (report.failed.length) {
      process.stdout.write('The failed files stay where they were: fix the cause and run it again.\n');
      process.exitCode = 1;
    } else if ((config.filesStorage ?? (config.databaseUrl ? 'database' : 'disk')) !== to) {
      process.stdout.write(`Now set FILES_STORAGE=${to}, or new files keep going where they went.\n`);
    }
  } finally {
    await storage.close();
    await database.close();
  }
}

main().catch((err: unknown) => fail(`files:move failed: ${(err as Error).stack ?? String(err)}`));
