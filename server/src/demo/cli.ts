import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  isProcessAlive,
  readServerFile,
  runningServerDataDirs,
  type ServerFile,
} from '../lib/server-file.js';

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

/** Whether the data folder holds an embedded database already. */
export const hasEmbeddedDatabase = (dataDir: string) => existsSync(join(dataDir, 'pglite', 'PG_VERSION'));

/**
 * Where a demo tool finds the demo data:
 * - `open`: a database it opens itself (DATABASE_URL, or a data folder no server holds);
 * - `ask`: the server that holds the embedded database, asked over its local port — the one of
 *   DATA_DIR, or, when DATA_DIR holds no database, the one embedded server that runs elsewhere
 *   (`dataDir` then says where, for the message);
 * - `refuse`: why not. A folder without a database is never created behind the user's back: a
 *   tool run with another DATA_DIR than the server's would otherwise make a second, empty one.
 */
export type DemoDataPlace =
  | { kind: 'open' }
  | { kind: 'ask'; server: ServerFile; dataDir: string; elsewhere: boolean }
  | { kind: 'refuse'; message: string };

export function demoDataPlace(config: Config, command: string): DemoDataPlace {
  if (config.databaseUrl) return { kind: 'open' };
  const own = runningEmbeddedServer(config);
  if (own) return { kind: 'ask', server: own, dataDir: config.dataDir, elsewhere: false };
  if (hasEmbeddedDatabase(config.dataDir)) return { kind: 'open' };
  const others = runningServerDataDirs(config.dataDir);
  const server = others.length === 1 ? readServerFile(others[0]!) : null;
  if (server) return { kind: 'ask', server, dataDir: others[0]!, elsewhere: true };
  if (others.length > 1)
    return {
      kind: 'refuse',
      message:
        `No Attesta database in ${config.dataDir} (DATA_DIR), and several servers run with other data ` +
        `folders:\n${others.map((d) => `  ${d}`).join('\n')}\nSay which: DATA_DIR=<folder> npm run ${command}`,
    };
  return {
    kind: 'refuse',
    message:
      `No Attesta database in ${config.dataDir} (DATA_DIR), and no Attesta server runs on this machine.\n` +
      `Start it first (npm start: it creates the database and loads the demo), or set DATA_DIR to the ` +
      `data folder of the server you started: DATA_DIR=<folder> npm run ${command}`,
  };
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
