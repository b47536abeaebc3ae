import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  sessionFrom,
  tasksOfEveryType,
  type OrgFixture,
  type ParticipantTestFixture,
  type TestApp,
} from '../../../test/helpers.js';
import * as client from '../../db/client.js';
import { auditEvents, examWorks, participantTests, sessions, users } from '../../db/schema/index.js';

/*
 * The 10:00 start: sign-ins and starts that arrive together share their statements (db/client
 * coalesced). Each participant must still get their own user, session, work and audit entries,
 * exactly as one by one.
 */

let t: TestApp;
let org: OrgFixture;
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const login = (code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/Account/login',
    headers: XHR,
    payload: { activationCode: code },
  });

async function room(n: number): Promise<ParticipantTestFixture[]> {
  const fixtures: ParticipantTestFixture[] = [];
  for (let i = 0; i < n; i++) {
    // Impersonal tests: each sign-in creates a participant user of its own.
    const pt = await createParticipantTest(t.app, org, { impersonal: i > 0, studentId: org.studentIds[1] });
    await createVariantWithTasks(t.app, pt.subjectTestId, tasksOfEveryType('x'));
    fixtures.push(pt);
  }
  return fixtures;
}

/**
 * How many statements of each name ran while `work` ran. Each statement takes 150 ms longer than
 * it would: the requests' earlier steps end at different moments on a database server, and
 * calls that arrive while two statements of their name run gather into the next one.
 */
async function statements<T>(work: () => Promise<T>): Promise<[T, Map<string, number>]> {
  const real = client.runPrepared;
  const counts = new Map<string, number>();
  const spy = vi.spyOn(client, 'runPrepared').mockImplementation(async (db, name, query) => {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 150));
    return real(db, name, query);
  });
  try {
    return [await work(), counts];
  } finally {
    spy.mockRestore();
  }
}

describe('sign-ins and starts at the same moment', () => {
  it('share their statements, and each participant gets their own user, session, work and audit entries', async () => {
    const fixtures = await room(6);
    const ids = fixtures.map((f) => f.participantTestId);

    const [signedIn, loginStatements] = await statements(() =>
      Promise.all(fixtures.map((f) => login(f.activationCode))),
    );
    expect(signedIn.map((r) => r.statusCode)).toEqual(fixtures.map(() => 200));
    expect(signedIn.map((r) => r.json().user.participantTestId)).toEqual(ids);
    expect(signedIn[0]!.json().user.login).toBe(`student-${org.studentIds[1]}`);
    expect(new Set(signedIn.map((r) => r.json().user.login)).size).toBe(6);
    // Fewer writes than sign-ins: at most two run at once, the rest gather into the next.
    expect(loginStatements.get('account_code_logins')).toBeLessThanOrEqual(3);
    // The session is written by the login's own statement: no statement of its own.
    expect(loginStatements.has('session_insert_many')).toBe(false);

    const rows = await t.app.ctx.db.select().from(sessions).where(inArray(sessions.participantTestId, ids));
    expect(rows.map((s) => s.participantTestId).sort()).toEqual([...ids].sort());
    const people = await t.app.ctx.db
      .select({ id: users.id, login: users.login })
      .from(users)
      .where(
        inArray(
          users.login,
          signedIn.map((r) => r.json().user.login as string),
        ),
      );
    expect(people).toHaveLength(6);
    expect(new Set(rows.map((s) => s.userId))).toEqual(new Set(people.map((p) => p.id)));

    const [started, startStatements] = await statements(() =>
      Promise.all(
        signedIn.map((r) =>
          t.app.inject({
            method: 'POST',
            url: '/api/exam/test/examwork/new',
            headers: { ...sessionFrom(r).headers, 'x-device-id': 'dev' },
            payload: {},
          }),
        ),
      ),
    );
    expect(started.map((r) => r.statusCode)).toEqual(fixtures.map(() => 200));
    expect(startStatements.get('exam_start_works_once')).toBeLessThanOrEqual(3);
    const works = await t.app.ctx.db
      .select()
      .from(examWorks)
      .where(inArray(examWorks.participantTestId, ids));
    expect(works.map((w) => w.id).sort()).toEqual(started.map((r) => r.json().id as number).sort());
    const tests = await t.app.ctx.db
      .select({ status: participantTests.status })
      .from(participantTests)
      .where(inArray(participantTests.id, ids));
    expect(tests.map((s) => s.status)).toEqual(fixtures.map(() => 'in_progress'));
    const audited = await t.app.ctx.db
      .select({ action: auditEvents.action, userId: auditEvents.userId, entityId: auditEvents.entityId })
      .from(auditEvents)
      .where(
        and(
          inArray(auditEvents.action, ['login', 'exam_work.start']),
          inArray(auditEvents.entityId, [...ids, ...works.map((w) => w.id)].map(String)),
        ),
      );
    const sessionUser = new Map(rows.map((s) => [String(s.participantTestId), s.userId]));
    expect(
      audited
        .filter((a) => a.action === 'login')
        .map((a) => [a.entityId, a.userId])
        .sort(),
    ).toEqual([...sessionUser].sort());
    const workUser = new Map(works.map((w) => [String(w.id), sessionUser.get(String(w.participantTestId))]));
    expect(
      audited
        .filter((a) => a.action === 'exam_work.start')
        .map((a) => [a.entityId, a.userId])
        .sort(),
    ).toEqual([...workUser].sort());
  });

  it('signs one code in twice at once as one user, and starts its work once', async () => {
    const [pt] = await room(1);
    const [a, b] = await Promise.all([login(pt!.activationCode), login(pt!.activationCode)]);
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    expect(a!.json().user.login).toBe(b!.json().user.login);
    const [x, y] = await Promise.all(
      [a!, b!].map((r) =>
        t.app.inject({
          method: 'POST',
          url: '/api/exam/test/examwork/new',
          headers: sessionFrom(r).headers,
          payload: {},
        }),
      ),
    );
    expect([x!.statusCode, y!.statusCode]).toEqual([200, 200]);
    expect(x!.json().id).toBe(y!.json().id);
    const works = await t.app.ctx.db
      .select()
      .from(examWorks)
      .where(eq(examWorks.participantTestId, pt!.participantTestId));
    expect(works).toHaveLength(1);
  });

  it('answers a wrong code in a batch of right ones 401, and signs the others in', async () => {
    const fixtures = await room(2);
    const res = await Promise.all([
      login(fixtures[0]!.activationCode),
      login('ZZZZZ-ZZZZZ'),
      login(fixtures[1]!.activationCode),
    ]);
    expect(res.map((r) => r.statusCode)).toEqual([200, 401, 200]);
    expect(res[1]!.json().code).toBe('invalid_activation_code');
  });
});
