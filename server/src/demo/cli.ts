import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { isProcessAlive, readServerFile, type ServerFile } from '../lib/server-file.js';

/** Shared by the demo command line tools: stdout carries results only, messages go to stderr. */
export function fail(message: string, code = 1): never {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n');
  process.exit(code);
}

/** The same configuration the server reads (environment variables, defaults, validation). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 2);
    throw err;
  }
}

/** The running server that owns the embedded database, if any (a stale file of a dead one is ignored). */
export function runningEmbeddedServer(config: Config): ServerFile | null {
  if (config.databaseUrl) return null;
  const server = readServerFile(config.dataDir);
  return server && server.pid !== process.pid && isProcessAlive(server.pid) ? server : null;
}

/** Opens and migrates the configured database, exactly as the server would. */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir + '/pglite',
    poolSize: 2,
  });
  await database.migrate();
  return database;
}
