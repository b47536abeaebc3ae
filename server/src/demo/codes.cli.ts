// npm run demo:codes — prints today's demo activation codes, one a line:
// CODE<TAB>Фамилия Имя<TAB>subject test. Works while the server runs: with DATABASE_URL it just
// connects; with the embedded database it asks the running server (server.json), or, when no
// server runs, opens the data folder itself. When DATA_DIR holds no database it asks the one
// embedded server running elsewhere, or refuses (it never creates a second database).
import { formatDemoCodes, listDemoCodes, type DemoCode } from './codes.js';
import { demoDataPlace, fail, loadConfigOrExit, openConfiguredDatabase } from './cli.js';
import { moscowToday } from './dates.js';
import { LOCAL_TOKEN_HEADER } from './internal.routes.js';
import { ensureDemoToday, loadDemoData } from './seed.js';
import type { Config } from '../config.js';
import type { ServerFile } from '../lib/server-file.js';

async function askServer(server: ServerFile): Promise<DemoCode[]> {
  const res = await fetch(`http://127.0.0.1:${server.port}/internal/demo/codes`, {
    headers: { [LOCAL_TOKEN_HEADER]: server.token },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as DemoCode[];
}

async function readDatabase(config: Config): Promise<DemoCode[]> {
  const today = moscowToday();
  const database = await openConfiguredDatabase(config);
  try {
    if (await loadDemoData(database.db, { password: config.demoPassword, today }))
      process.stderr.write('Demo data loaded.\n');
    await ensureDemoToday(database.db, today);
    return await listDemoCodes(database.db, today);
  } finally {
    await database.close();
  }
}

async function main() {
  const config = loadConfigOrExit();
  if (!config.demoData) fail('DEMO_DATA=false: demo data is off, there are no demo codes.');
  const place = demoDataPlace(config, 'demo:codes');
  if (place.kind === 'refuse') fail(place.message);
  let rows: DemoCode[];
  if (place.kind === 'ask') {
    const { server, dataDir } = place;
    if (place.elsewhere)
      process.stderr.write(
        `No database in ${config.dataDir}: asking the server running with DATA_DIR=${dataDir}\n`,
      );
    try {
      rows = await askServer(server);
    } catch (err) {
      // Never open the folder behind a live server's back: PGlite would be corrupted.
      fail(
        `Attesta (pid ${server.pid}) holds the embedded database in ${dataDir} but did not answer ` +
          `on port ${server.port}: ${(err as Error).message}\nRestart it or stop it, then try again.`,
      );
    }
  } else {
    rows = await readDatabase(config);
  }
  if (!rows.length) process.stderr.write('No demo activation codes for today.\n');
  process.stdout.write(formatDemoCodes(rows));
}

main().catch((err: unknown) => fail(`demo:codes failed: ${(err as Error).stack ?? String(err)}`));
