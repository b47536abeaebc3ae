// npm run demo:reset — deletes the demo data and loads it anew (fresh codes, no works, today's date).
// With the embedded database it refuses while the server runs: the server caches sessions and the
// demo objects in memory, so resetting under it would leave it inconsistent. Stop it, reset, start.
import { demoDataPlace, fail, loadConfigOrExit, openConfiguredDatabase } from './cli.js';
import { listDemoCodes } from './codes.js';
import { moscowToday } from './dates.js';
import { resetDemoData } from './reset.js';

async function main() {
  const config = loadConfigOrExit();
  if (!config.demoData) fail('DEMO_DATA=false: demo data is off, nothing to reset.');
  const place = demoDataPlace(config, 'demo:reset');
  if (place.kind === 'refuse') fail(place.message);
  if (place.kind === 'ask') {
    const { server, dataDir } = place;
    fail(
      `Attesta is running (pid ${server.pid}, port ${server.port}) and holds the embedded database in ` +
        `${dataDir}.\nStop the server, run \`${place.elsewhere ? `DATA_DIR=${dataDir} ` : ''}npm run demo:reset\`, ` +
        `then start it again.`,
    );
  }
  const today = moscowToday();
  const database = await openConfiguredDatabase(config);
  try {
    await resetDemoData(database.db, { password: config.demoPassword, today });
    const codes = await listDemoCodes(database.db, today);
    process.stdout.write(
      `Demo data reset: ${codes.length} activation codes for ${today}. ` +
        `Logins admin, coordinator, organizator, expert, ugnik, guest (password from DEMO_PASSWORD).\n` +
        `Codes: npm run demo:codes\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => fail(`demo:reset failed: ${(err as Error).stack ?? String(err)}`));
