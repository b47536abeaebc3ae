import type { FastifyInstance } from 'fastify';
import { ROLE_LABELS } from '@attesta/contract';
import type { Config } from '../config.js';
import { DEMO_USERS } from './data/org.js';
import { moscowToday } from './dates.js';
import { demoInternalRoutes } from './internal.routes.js';
import { ensureDemoToday, loadDemoData } from './seed.js';

/** How often a long-running server re-checks the date, so demo codes keep working after midnight. */
const TODAY_CHECK_MS = 10 * 60_000;

/**
 * Demo mode at server start (config.demoData only): loads the demo on first run, moves the demo
 * diagnostic to today, keeps it there while the server runs, and adds the local-tool route.
 * Call after buildApp and before listen. Returns the banner lines.
 */
export async function startDemo(app: FastifyInstance, config: Config, localToken: string): Promise<string[]> {
  if (!config.demoData) return [];
  const db = app.ctx.db;
  const today = moscowToday();
  const loaded = await loadDemoData(db, { password: config.demoPassword, today });
  await ensureDemoToday(db, today);
  if (loaded) app.log.info('demo data loaded');

  const timer = setInterval(() => {
    ensureDemoToday(db, moscowToday()).catch((err: unknown) =>
      app.log.warn({ err }, 'could not move the demo diagnostic to today'),
    );
  }, TODAY_CHECK_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  await app.register(demoInternalRoutes, { token: localToken });
  return demoBanner(config);
}

export function demoBanner(config: Config): string[] {
  const width = Math.max(...DEMO_USERS.map((u) => u.login.length));
  return [
    `  Demo data:          on — production must set DEMO_DATA=false`,
    `  Demo logins (password "${config.demoPassword}"):`,
    ...DEMO_USERS.map(
      (u) =>
        `    ${u.login.padEnd(width)}  ${u.roles.map((r) => ROLE_LABELS[r].ru).join(', ')} — ${u.surname} ${u.name}`,
    ),
    `  Today's activation codes: npm run demo:codes`,
  ];
}
