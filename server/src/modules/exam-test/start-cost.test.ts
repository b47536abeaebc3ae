import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { NO_ACCOMMODATIONS } from '@attesta/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  sessionFrom,
  tasksOfEveryType,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';
import { diagnostics, examWorks, participantTests, students } from '../../db/schema/index.js';
import { activationCode, registrationCode } from '../../lib/tokens.js';

/*
 * What one participant's start at 10:00 asks of the database (issue 24 item 7): code login →
 * POST examwork/new → GET variant/current, alone (no other start to share a statement with,
 * db/client coalesced), once the room's content is in memory (the storm's case: everyone after the
 * first of a room). Each statement is a round trip and, on PostgreSQL, a commit; a transaction
 * adds its BEGIN and COMMIT. The counts are pinned: a change that adds one fails here (and says
 * which), one that saves one lowers the pin. bench/start-flow.mjs measures the CPU.
 */

const steps = new AsyncLocalStorage<string[]>();
const logger: Logger = {
  logQuery(query) {
    steps.getStore()?.push(query.trim());
  },
};
/** Transaction control (node-postgres shows it to the logger, PGlite does not). */
const CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i;

let t: TestApp;
let org: OrgFixture;
beforeAll(async () => {
  t = await createTestApp({}, { logger });
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** Runs a request and returns its answer with the statements it sent (transactions apart). */
async function counted(run: () => PromiseLike<LightMyRequestResponse>) {
  const sent: string[] = [];
  // inject's answer is lazy: it is sent when awaited, so inside the step's context.
  const res = await steps.run(sent, async () => await run());
  expect(res.statusCode, res.body).toBe(200);
  return {
    res,
    statements: sent.filter((s) => !CONTROL.test(s)),
    transactions: sent.filter((s) => /^begin\b/i.test(s)).length,
  };
}

/** One participant's start flow; the statements of each call. */
async function startFlow(code: string) {
  const login = await counted(() =>
    t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: XHR,
      payload: { activationCode: code },
    }),
  );
  const headers = { ...sessionFrom(login.res).headers, 'x-device-id': `dev-${code}` };
  const start = await counted(() =>
    t.app.inject({ method: 'POST', url: '/api/exam/test/examwork/new', headers, payload: {} }),
  );
  const variant = await counted(() =>
    t.app.inject({ method: 'GET', url: '/api/exam/test/variant/current', headers }),
  );
  expect(variant.res.json().tasks.length).toBeGreaterThan(0);
  return { login, start, variant };
}

/** Another participant test of the same room, diagnostic and subject test (an impersonal one). */
async function neighbour(of: { participantTestId: number }) {
  const [pt] = await t.app.ctx.db
    .select()
    .from(participantTests)
    .where(eq(participantTests.id, of.participantTestId));
  const code = activationCode();
  await t.app.ctx.db.insert(participantTests).values({
    diagnosticId: pt!.diagnosticId,
    subjectTestId: pt!.subjectTestId,
    schoolId: pt!.schoolId,
    classId: pt!.classId,
    buildingId: pt!.buildingId,
    testDate: pt!.testDate,
    activationCode: code,
    registrationCode: registrationCode(),
    status: 'planned',
    isImpersonal: true,
  });
  return code;
}

describe('the start flow’s statements', () => {
  it('a participant after the first of their room: login, start and the variant in few statements, no transaction', async () => {
    const first = await createParticipantTest(t.app, org, { impersonal: true });
    await createVariantWithTasks(t.app, first.subjectTestId, tasksOfEveryType('x'));
    await startFlow(first.activationCode); // fills the room's content memos
    const flow = await startFlow(await neighbour(first));

    const names = (s: { statements: string[] }) =>
      s.statements.map((q) => q.replace(/\s+/g, ' ').slice(0, 80));
    // The pins (issue 24 item 7). Lower them when a change saves one; never raise them.
    expect(names(flow.login), 'login: the code look-up, the login statement').toHaveLength(2);
    // The start decides on what the login read (lib/start-prime.ts): its one statement.
    expect(names(flow.start), 'examwork/new: the start statement').toHaveLength(1);
    expect(names(flow.variant), 'variant/current: the live work').toHaveLength(1);
    expect(flow.login.transactions + flow.start.transactions + flow.variant.transactions).toBe(0);
  });
});

describe('a start right after the code login decides on what the login read', () => {
  /** A participant signed in by code (the login leaves its copy for the start). */
  async function signedIn(options: { impersonal?: boolean; studentId?: number } = {}) {
    const pt = await createParticipantTest(t.app, org, options);
    const variant = await createVariantWithTasks(t.app, pt.subjectTestId, tasksOfEveryType('y'));
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: XHR,
      payload: { activationCode: pt.activationCode },
    });
    expect(login.statusCode, login.body).toBe(200);
    const headers = { ...sessionFrom(login).headers, 'x-device-id': 'dev' };
    const start = () =>
      t.app.inject({ method: 'POST', url: '/api/exam/test/examwork/new', headers, payload: {} });
    return { pt, variant, start };
  }

  it('starts nothing for a participant test annulled after the login', async () => {
    const p = await signedIn({ impersonal: true });
    await t.app.ctx.db
      .update(participantTests)
      .set({ status: 'annulled' })
      .where(eq(participantTests.id, p.pt.participantTestId));
    const res = await p.start();
    expect([res.statusCode, res.json().code]).toEqual([409, 'participant_test_annulled']);
    expect(
      await t.app.ctx.db
        .select()
        .from(examWorks)
        .where(eq(examWorks.participantTestId, p.pt.participantTestId)),
    ).toEqual([]);
  });

  it('gives the work the window of the diagnostic as it is at the start, not as the login read it', async () => {
    const p = await signedIn({ impersonal: true });
    const endsAt = new Date(Date.now() + 3 * 86_400_000 + 123.456);
    await t.app.ctx.db.update(diagnostics).set({ endsAt }).where(eq(diagnostics.id, p.pt.diagnosticId));
    const res = await p.start();
    expect(res.statusCode, res.body).toBe(200);
    const [w] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, res.json().id));
    expect(w!.windowEndsAt.getTime()).toBe(endsAt.getTime());
  });

  it('gives the work the extra time of the student as it is at the start', async () => {
    const studentId = org.studentIds[2]!;
    const p = await signedIn({ studentId });
    await t.app.ctx.db
      .update(students)
      .set({ accommodations: { ...NO_ACCOMMODATIONS, extraTimePercent: 50 } })
      .where(eq(students.id, studentId));
    try {
      const res = await p.start();
      expect(res.statusCode, res.body).toBe(200);
      const [w] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, res.json().id));
      expect(w!.extraSeconds).toBe(Math.round(w!.timeLimitSeconds * 0.5));
    } finally {
      await t.app.ctx.db.update(students).set({ accommodations: null }).where(eq(students.id, studentId));
    }
  });

  it('resumes the work another device started after the login (and refuses this device)', async () => {
    const p = await signedIn({ impersonal: true });
    const [w] = await t.app.ctx.db
      .insert(examWorks)
      .values({
        participantTestId: p.pt.participantTestId,
        variantId: p.variant.variantId,
        status: 'in_progress',
        answerMode: 'online',
        startedAt: new Date(),
        timeLimitSeconds: 2700,
        extraSeconds: 0,
        pausedSeconds: 0,
        windowEndsAt: new Date(Date.now() + 86_400_000),
        deadlineAt: new Date(Date.now() + 2_700_000),
        deviceId: 'other',
      })
      .returning();
    const res = await p.start();
    expect([res.statusCode, res.json().code]).toEqual([409, 'device_mismatch']);
    const works = await t.app.ctx.db
      .select()
      .from(examWorks)
      .where(eq(examWorks.participantTestId, p.pt.participantTestId));
    expect(works.map((x) => x.id)).toEqual([w!.id]);
  });
});
