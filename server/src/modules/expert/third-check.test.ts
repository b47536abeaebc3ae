import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExpertWork,
  createTestApp,
  signedIn,
  type ExpertWorkFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

/*
 * The third expert sees where rounds 1 and 2 disagreed (marks per criterion, totals, threshold),
 * anonymised as expert 1 / expert 2, without comments; rounds 1 and 2 stay blind.
 */

let t: TestApp;
let w: ExpertWorkFixture;
type Expert = { user: { id: number; login: string }; session: Session };
let experts: Expert[];
let admin: Session;

const call = (session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
const mark = (e: Expert, id: number, marks: [string, number][], comment?: string) =>
  call(e.session, 'POST', `/api/expert/assignment/${id}/marks`, {
    marks: marks.map(([criterionCode, score]) => ({ criterionCode, score })),
    ...(comment ? { comment } : {}),
  });
const roundsOf = (variantTaskId: number) =>
  t.database.query<{ id: number; expert_id: number; round: number }>(
    'select id, expert_id, round from expert_assignments where exam_work_id = $1 and variant_task_id = $2 order by round',
    [w.examWorkId, variantTaskId],
  );
const expertById = (id: number) => experts.find((e) => e.user.id === id)!;

beforeAll(async () => {
  t = await createTestApp();
  w = await createExpertWork(t.app, { threshold: 1, expertRule: 'third' });
  experts = [];
  for (let i = 0; i < 3; i++) experts.push((await signedIn(t.app, ['expert'])) as Expert);
  admin = (await signedIn(t.app, ['admin'])).session;
  // Saving the profiles assigns rounds 1 and 2 of both tasks (assignPending).
  for (const e of experts) {
    const res = await call(e.session, 'PUT', '/api/Profile/expert/saveProfile', {
      subjectIds: [w.subjectId],
      parallels: [7],
    });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => t.close());

describe('third check: the disagreement summary', () => {
  it('is never shown to rounds 1 and 2; the third expert gets it anonymised, without comments', async () => {
    const vt = w.variantTaskIds[0]!;
    const [r1, r2] = await roundsOf(vt);
    const [e1, e2] = [expertById(r1!.expert_id), expertById(r2!.expert_id)];

    // Round 1 graded, round 2 open: neither sees a summary (blind).
    expect(
      (
        await mark(
          e1,
          r1!.id,
          [
            ['К1', 2],
            ['К2', 1],
          ],
          'ПОДПИСЬ-ПЕРВОГО',
        )
      ).statusCode,
    ).toBe(200);
    const blind2 = await call(e2.session, 'GET', `/api/expert/assignment/${r2!.id}`);
    expect(blind2.statusCode).toBe(200);
    expect(blind2.json().disagreement).toBeNull();
    expect(blind2.body).not.toContain('ПОДПИСЬ-ПЕРВОГО');

    // Round 2 disagrees by 2.5 > 1: a third check.
    const second = await mark(
      e2,
      r2!.id,
      [
        ['К1', 0],
        ['К2', 0.5],
      ],
      'ПОДПИСЬ-ВТОРОГО',
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().disagreement).toBeNull();
    const rounds = await roundsOf(vt);
    const r3 = rounds.find((r) => r.round === 3)!;
    expect(r3).toBeDefined();
    const e3 = expertById(r3.expert_id);

    // The first two still get no summary, through either call.
    for (const [e, id] of [
      [e1, r1!.id],
      [e2, r2!.id],
    ] as const) {
      const own = await call(e.session, 'GET', `/api/expert/assignment/${id}`);
      expect(own.statusCode).toBe(200);
      expect(own.json().round).toBeLessThan(3);
      expect(own.json().disagreement).toBeNull();
      const next = (await call(e.session, 'GET', '/api/expert/next')).json();
      if (next.assignment) expect(next.assignment.disagreement).toBeNull();
    }

    // The third expert: per criterion, both marks and the difference, the totals and the threshold.
    const expected = {
      criteria: [
        { criterionCode: 'К1', expert1: 2, expert2: 0, difference: 2 },
        { criterionCode: 'К2', expert1: 1, expert2: 0.5, difference: 0.5 },
      ],
      totals: { expert1: 3, expert2: 0.5, difference: 2.5 },
      threshold: 1,
    };
    const next = await call(e3.session, 'GET', '/api/expert/next');
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().assignment).toMatchObject({ id: r3.id, round: 3, marks: null });
    expect(next.json().assignment.disagreement).toEqual(expected);
    const view = await call(e3.session, 'GET', `/api/expert/assignment/${r3.id}`);
    expect(view.json().disagreement).toEqual(expected);
    // Anonymised: no comment, id, login or name of the first two experts.
    for (const body of [next.body, view.body]) {
      expect(body).not.toContain('ПОДПИСЬ-ПЕРВОГО');
      expect(body).not.toContain('ПОДПИСЬ-ВТОРОГО');
      for (const e of [e1, e2]) expect(body).not.toContain(e.user.login);
      expect(body).not.toContain('Тестов');
    }
    expect(Object.keys(view.json().disagreement).sort()).toEqual(['criteria', 'threshold', 'totals']);
    expect(Object.keys(view.json().disagreement.criteria[0]).sort()).toEqual([
      'criterionCode',
      'difference',
      'expert1',
      'expert2',
    ]);

    // The round-3 assignment is the third expert's: 401 without a session, 403 for the other experts.
    expect((await t.app.inject({ method: 'GET', url: `/api/expert/assignment/${r3.id}` })).statusCode).toBe(
      401,
    );
    for (const e of [e1, e2]) {
      const peek = await call(e.session, 'GET', `/api/expert/assignment/${r3.id}`);
      expect(peek.statusCode).toBe(403);
      expect(peek.body).not.toContain('expert1');
      expect(
        (
          await mark(e, r3.id, [
            ['К1', 1],
            ['К2', 1],
          ])
        ).statusCode,
      ).toBe(403);
    }

    // Grading the third check keeps the summary in its answer; an admin's oversight sees it too.
    const graded = await mark(e3, r3.id, [
      ['К1', 1],
      ['К2', 0.5],
    ]);
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json()).toMatchObject({ status: 'graded', total: 1.5, disagreement: expected });
    expect((await call(admin, 'GET', `/api/expert/assignment/${r3.id}`)).json().disagreement).toEqual(
      expected,
    );
    expect((await call(admin, 'GET', `/api/expert/assignment/${r1!.id}`)).json().disagreement).toBeNull();
  });

  it('gives no summary while rounds 1 and 2 agree (no third check)', async () => {
    const vt = w.variantTaskIds[1]!;
    const [r1, r2] = await roundsOf(vt);
    expect((await mark(expertById(r1!.expert_id), r1!.id, [['К1', 2]])).statusCode).toBe(200);
    const agreed = await mark(expertById(r2!.expert_id), r2!.id, [['К1', 2.5]]);
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(agreed.json().disagreement).toBeNull();
    expect((await roundsOf(vt)).some((r) => r.round === 3)).toBe(false);
  });
});
