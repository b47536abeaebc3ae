import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'drizzle-orm';
import { format } from 'sql-formatter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, startWork, T, type Room } from '../src/modules/exam-test/test-support.js';
import { scoreWork } from '../src/modules/exam-results/index.js';
import { createReportWorld, type ReportWorld } from '../src/modules/reports/test-support.js';
import { createTestApp, type TestApp } from './helpers.js';

/*
 * SQL a reviewer can read (issue 26 item 4): the statements the hot path (sign in by code, start,
 * save, finish, score) and a report send are committed under server/sql/, one file a step, as the
 * code generates them. A change to a statement fails here until its snapshot is written again
 * (`npx vitest run test/sql-snapshots.test.ts -u` in server/), so the review shows the SQL that
 * changed beside the code that changed it.
 *
 * A step's file lists each distinct statement once, in the order first sent; statements are
 * recorded only for work the step itself started (AsyncLocalStorage), so the job runner and the
 * sweeper polling in the background never show up. Parameters are placeholders ($1…), never values;
 * sql-formatter lays each statement out for reading (one it cannot parse stays on one line).
 */

const step = new AsyncLocalStorage<string[]>();
const logger: Logger = {
  logQuery(query) {
    const into = step.getStore();
    if (!into) return;
    // Kept as sent: a statement written by hand may hold `--` comments that end at a line's end.
    const text = query.trim();
    // Transaction control is the driver's (node-postgres shows it, PGlite does not): not the code's SQL.
    if (/^(begin|commit|rollback|savepoint|release)\b/i.test(text)) return;
    if (!into.includes(text)) into.push(text);
  },
};

/** A statement laid out for reading, or as sent where sql-formatter cannot parse it. */
function readable(statement: string): string {
  try {
    return format(statement, {
      language: 'postgresql',
      paramTypes: { numbered: ['$'] },
      expressionWidth: 100,
    });
  } catch {
    return statement;
  }
}

async function statementsOf(work: () => Promise<unknown>): Promise<string> {
  const sent: string[] = [];
  await step.run(sent, work);
  return `${sent.map((s) => `${readable(s)};`).join('\n\n')}\n`;
}

let t: TestApp;
let room: Room;
let world: ReportWorld;
beforeAll(async () => {
  t = await createTestApp({}, { logger });
  room = await createRoom(t.app);
  world = await createReportWorld(t.app);
});
afterAll(() => t.close());

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('SQL snapshots of the hot path and a report (server/sql/)', () => {
  let workId: number;

  it('sign-in by activation code', async () => {
    const sql = await statementsOf(async () =>
      ok(
        await t.app.inject({
          method: 'POST',
          url: '/api/Account/login',
          headers: XHR,
          payload: { activationCode: room.activationCode },
        }),
      ),
    );
    await expect(sql).toMatchFileSnapshot('../sql/01-sign-in.sql');
  });

  it('start of the work and the first read of the participant test', async () => {
    const sql = await statementsOf(async () => {
      ok(await room.api.get('currentParticipantTest'));
      workId = await startWork(room);
    });
    await expect(sql).toMatchFileSnapshot('../sql/02-start.sql');
  });

  it('a save of one answer', async () => {
    const sql = await statementsOf(async () =>
      ok(
        await room.api.put('saveanswer', {
          examWorkId: workId,
          variantTaskId: room.variantTaskIds[T.single],
          value: 'o1',
          seq: 1,
        }),
      ),
    );
    await expect(sql).toMatchFileSnapshot('../sql/03-save.sql');
  });

  it('finish and scoring', async () => {
    const finish = await statementsOf(async () => ok(await room.api.put(`examwork/finish/${workId}/manual`)));
    await expect(finish).toMatchFileSnapshot('../sql/04-finish.sql');
    const score = await statementsOf(() => t.app.ctx.db.transaction((tx) => scoreWork(tx, workId)));
    await expect(score).toMatchFileSnapshot('../sql/05-score.sql');
  });

  it('the common report of a subject test', async () => {
    const sql = await statementsOf(async () =>
      ok(
        await t.app.inject({
          method: 'GET',
          url: `/api/reports/common?subjectTestId=${world.math}`,
          headers: world.coordA.headers,
        }),
      ),
    );
    await expect(sql).toMatchFileSnapshot('../sql/10-report-common.sql');
  });
});
