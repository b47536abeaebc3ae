import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { backupRoutes } from './backup/backup.routes.js';
import { ConfigError, loadConfig } from './config.js';
import { startDemo } from './demo/startup.js';
import { warmPdfFonts } from './lib/pdf/index.js';
import { randomToken } from './lib/tokens.js';
import { removeServerFile, writeServerFile } from './lib/server-file.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  const startup = app.ctx;
  // Local command line tools (npm run demo:codes) ask the running server with this token.
  const localToken = randomToken();
  const demoLines = await startDemo(app, config, localToken);
  const embedded = startup.database.kind === 'pglite';
  if (embedded) {
    app.addHook('onClose', async () => removeServerFile(config.dataDir));
    // `npm run backup` asks the server that holds the embedded database to dump it.
    await app.register(backupRoutes, { token: localToken });
  }
  await app.listen({ host: config.host, port: config.port, backlog: config.listenBacklog });
  if (embedded) {
    const { port } = app.server.address() as AddressInfo;
    writeServerFile(config.dataDir, { pid: process.pid, port, token: localToken });
    process.on('exit', () => removeServerFile(config.dataDir));
  }
  // The first printed document (codes, protocol, result) should not wait for the fonts to load.
  setTimeout(
    () => void warmPdfFonts().catch((err: unknown) => app.log.warn({ err }, 'PDF fonts')),
    1000,
  ).unref();
  const url = config.publicUrl ?? `http://localhost:${config.port}`;
  const lines = [
    '',
    `  Attesta is running: ${url}`,
    `  API docs:           ${url}/api/docs`,
    `  Database:           ${startup.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/pglite` : 'PostgreSQL server'}`,
    `  Uploaded files:     ${startup.files.driver === 'database' ? 'in the database' : `in ${startup.files.blobs?.location}`}`,
    ...demoLines,
  ];
  console.log(lines.join('\n') + '\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A balancer's readiness probe sees 503 from now on; on SIGTERM the instance keeps serving for
    // SHUTDOWN_DRAIN_MS so the balancer stops sending before connections are refused (SIGINT, a
    // person at the terminal, closes at once).
    app.draining = true;
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    const force = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, drainMs + 15_000);
    force.unref();
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    try {
      // Stops accepting connections, lets running requests (answer saves) finish, closes the database.
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

void main();
