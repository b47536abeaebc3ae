import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';

/**
 * The OpenAPI document the server generates from its route schemas, built on an empty in-memory
 * database. `docs/openapi.json` is this document committed (reviewed like a migration): a test
 * fails when it is stale, `npm run openapi` rewrites it.
 */
export async function generateOpenApi(): Promise<unknown> {
  const database = await openDatabase({});
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'false',
    DATA_DIR: '/tmp/attesta-openapi',
  });
  const app = await buildApp(config, { database, logger: false, web: false });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    if (res.statusCode !== 200) throw new Error(`GET /api/docs/json answered ${res.statusCode}`);
    return res.json();
  } finally {
    await app.close();
    await database.close();
  }
}

/** The committed form: two-space JSON with a final newline. */
export const openApiText = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;
