import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import {
  createExamWork,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  tasksOfEveryType,
  unique,
  type TaskSpec,
  type TestApp,
} from '../../../test/helpers.js';
import {
  answers,
  examWorks,
  expertAssignments,
  participantTests,
  queueItems,
  results,
  subjectExams,
  subjectTests,
  taskScores,
  users,
} from '../../db/schema/index.js';
import { queueScoring, scoreWork, scoreWorks } from './results.service.js';

/*
 * Batch scoring (issue 15, the finish storm): many finished works' result jobs are scored by one
 * run of the job runner in one transaction, with as many statements for 20 works as for 5, giving
 * every work what scoring it alone gives, and experts balanced as when assigned one by one.
 */

const SECRET = 'BATCHSECRETZZ';
/** Answers over tasksOfEveryType: a few right, a few wrong, the extended text for the experts. */
const ANSWERS: unknown[] = [
  'o2',
  ['o1'],
  `${SECRET}-ref-3`,
  '12',
  '312',
  null,
  { a: 'o2' },
  null,
  'Ответ',
  null,
];

let t: TestApp;
let fixture: {
  participantTestId: number;
  diagnosticId: number;
  subjectTestId: number;
  variantId: number;
  variantTaskIds: number[];
};
let experts: number[];

beforeAll(async () => {
  t = await createTestApp();
  const school = await createSchoolWithStaff(t.app);
  const pt = await createParticipantTest(t.app, school, { status: 'in_progress' });
  const v = await createVariantWithTasks(t.app, pt.subjectTestId, tasksOfEveryType(SECRET));
  fixture = { ...pt, variantId: v.variantId, variantTaskIds: v.variantTaskIds };
  const [st] = await t.app.ctx.db
    .select({ subjectId: subjectExams.subjectId })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .where(eq(subjectTests.id, pt.subjectTestId));
  experts = [];
  for (let i = 0; i < 4; i++) {
    const e = await signedIn(t.app, ['expert']);
    await t.app.ctx.db
      .update(users)
      .set({ profile: { expert: { subjectIds: [st!.subjectId], parallels: [7] } } })
      .where(eq(users.id, e.user.id));
    experts.push(e.user.id);
  }
});
afterAll(async () => t?.close());

/** `n` finished works of the fixture's subject test (each its own participant test), answered ANSWERS. */
async function finishedWorks(n: number): Promise<number[]> {
  const db = t.app.ctx.db;
  const [base] = await db
    .select()
    .from(participantTests)
    .where(eq(participantTests.id, fixture.participantTestId));
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = base!;
    const [pt] = await db
      .insert(participantTests)
      .values({
        ...copy,
        studentId: null,
        isImpersonal: true,
        activationCode: unique('B').slice(-12),
        registrationCode: unique('R').slice(-12),
        status: 'finished',
      })
      .returning({ id: participantTests.id });
    const workId = await createExamWork(t.app, pt!.id, fixture.variantId, { status: 'finished' });
    await db
      .update(examWorks)
      .set({ finishedAt: new Date(), finishReason: 'manual' })
      .where(eq(examWorks.id, workId));
    await db
      .insert(answers)
      .values(
        ANSWERS.flatMap((value, k) =>
          value === null
            ? []
            : [{ examWorkId: workId, variantTaskId: fixture.variantTaskIds[k]!, value, seq: 1 }],
        ),
      );
    ids.push(workId);
  }
  return ids;
}

/** What scoring left of each work, without ids and times: to compare works scored two ways. */
async function scoredState(workIds: number[]) {
  const db = t.app.ctx.db;
  const scores = await db.select().from(taskScores).where(inArray(taskScores.examWorkId, workIds));
  const rows = await db.select().from(results).where(inArray(results.examWorkId, workIds));
  const works = await db.select().from(examWorks).where(inArray(examWorks.id, workIds));
  return workIds.map((id) => ({
    work: works.find((w) => w.id === id)!.status,
    scores: scores
      .filter((s) => s.examWorkId === id)
      .sort((a, b) => a.variantTaskId - b.variantTaskId)
      .map(({ variantTaskId, autoStatus, autoScore, finalScore, maxScore, status, details }) => ({
        variantTaskId,
        autoStatus,
        autoScore,
        finalScore,
        maxScore,
        status,
        details,
      })),
    result: rows
      .filter((r) => r.examWorkId === id)
      .map(({ status, primaryScore, maxScore, percent, mark, level, perElement }) => ({
        status,
        primaryScore,
        maxScore,
        percent,
        mark,
        level,
        perElement,
      }))[0],
  }));
}

const assignmentsOf = (workIds: number[]) =>
  t.app.ctx.db
    .select()
    .from(expertAssignments)
    .where(inArray(expertAssignments.examWorkId, workIds))
    .orderBy(expertAssignments.examWorkId, expertAssignments.variantTaskId, expertAssignments.round);

describe('batch scoring of a finish storm', () => {
  it('one runner run scores every queued work; each work gets what scoreWork gives it alone, experts balanced the same way', async () => {
    const batch = await finishedWorks(10);
    const single = await finishedWorks(10);
    await queueScoring(t.app.ctx.db, batch);
    const items = await t.app.ctx.db
      .select()
      .from(queueItems)
      .where(
        inArray(
          queueItems.dedupeKey,
          batch.map((id) => `result:${id}`),
        ),
      );
    expect(items).toHaveLength(10);

    expect(await t.app.jobs.runOnce()).toMatchObject({ status: 'done' });
    const after = await t.app.ctx.db
      .select()
      .from(queueItems)
      .where(
        inArray(
          queueItems.id,
          items.map((i) => i.id),
        ),
      );
    expect(after.every((i) => i.status === 'done' && i.attempts === 1)).toBe(true);
    expect(after[0]!.result).toEqual({ works: 1, scored: 0, awaitingExperts: 1, failed: [] });
    expect(await t.app.jobs.runOnce()).toBeNull();

    for (const id of single) await t.app.ctx.db.transaction((tx) => scoreWork(tx, id));
    const [a, b] = [await scoredState(batch), await scoredState(single)];
    expect(a[0]!.result).toMatchObject({ status: 'awaiting_experts', mark: null });
    expect(a[0]!.scores.filter((s) => s.status === 'awaiting_experts')).toHaveLength(1);
    expect(a).toEqual(b);

    // Blind double marking: two different experts per answer, one code per work, loads balanced.
    const given = await assignmentsOf(batch);
    expect(given).toHaveLength(20);
    const codes = new Set<string>();
    for (const id of batch) {
      const mine = given.filter((g) => g.examWorkId === id);
      expect(mine.map((g) => g.round)).toEqual([1, 2]);
      expect(new Set(mine.map((g) => g.expertId)).size).toBe(2);
      expect(new Set(mine.map((g) => g.anonCode)).size).toBe(1);
      codes.add(mine[0]!.anonCode);
    }
    expect(codes.size).toBe(10);
    const load = (rows: { expertId: number }[]) =>
      experts.map((e) => rows.filter((r) => r.expertId === e).length);
    expect(load(given)).toEqual([5, 5, 5, 5]);
    // One by one (from equal loads) the experts come in the same order as in the batch.
    const one = await assignmentsOf(single);
    expect(load(one)).toEqual([5, 5, 5, 5]);
    expect(one.map((g) => [g.round, g.expertId])).toEqual(given.map((g) => [g.round, g.expertId]));
  });

  it('re-scoring a batch changes nothing and keeps codes and rounds (a retried job)', async () => {
    const ids = await finishedWorks(5);
    await t.app.ctx.db.transaction((tx) => scoreWorks(tx, ids));
    const state = await scoredState(ids);
    const codes = await t.app.ctx.db.select().from(results).where(inArray(results.examWorkId, ids));
    const rounds = await assignmentsOf(ids);
    const again = await t.app.ctx.db.transaction((tx) => scoreWorks(tx, ids));
    expect(again.failed).toEqual([]);
    expect(await scoredState(ids)).toEqual(state);
    expect(new Map(again.scored.map((r) => [r.examWorkId, r.verificationCode]))).toEqual(
      new Map(codes.map((r) => [r.examWorkId, r.verificationCode])),
    );
    expect(await assignmentsOf(ids)).toEqual(rounds);
  });

  it('a work that cannot be scored fails alone; the others of its batch are scored', async () => {
    const ids = await finishedWorks(3);
    await t.app.ctx.db.update(examWorks).set({ deletedAt: new Date() }).where(eq(examWorks.id, ids[1]!));
    const out = await t.app.ctx.db.transaction((tx) => scoreWorks(tx, [...ids, 999_999_999]));
    expect(out.scored.map((r) => r.examWorkId)).toEqual([ids[0], ids[2]]);
    expect(out.failed.map((f) => [f.examWorkId, f.error.code])).toEqual([
      [ids[1], 'work_deleted'],
      [999_999_999, 'not_found'],
    ]);
    expect(await t.app.ctx.db.select().from(results).where(eq(results.examWorkId, ids[1]!))).toEqual([]);
  });

  it('scores 20 works with as many statements as 5 (set-based, not one round per work)', async () => {
    const statements = async (n: number) => {
      const ids = await finishedWorks(n);
      const spy = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
      try {
        const out = await t.app.ctx.db.transaction((tx) => scoreWorks(tx, ids));
        expect(out.scored).toHaveLength(n);
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    const five = await statements(5);
    const twenty = await statements(20);
    expect(twenty).toBe(five);
    // ~20 reads and writes (the transaction's own begin and commit count on node-postgres).
    expect(twenty).toBeLessThanOrEqual(24);
  });
});

/*
 * An oracle independent of the scoring engine: every expected figure below is worked out by hand
 * from the answers and the keys (the rule of each method is written next to it), never by calling
 * scoreAnswer, markFor or scoreWork. One batch mixes two subject tests (each its own diagnostic and
 * mark scale), two variants of one of them with different tasks, and works answered differently.
 */
describe('batch scoring against hand-worked scores', () => {
  const options = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `o${i + 1}`, html: `Вариант ${i + 1}` }));
  /** Subject test A, variant 1: 6 points. */
  const A1: TaskSpec[] = [
    // all or nothing: o2 gives 1.
    {
      answerType: 'single_choice',
      content: { options: options(4) },
      reference: { correct: 'o2' },
      scoring: { method: 'all_or_nothing' },
    },
    // per choice: the points of the options chosen, summed, kept within 0..2.
    {
      answerType: 'multiple_choice',
      content: { options: options(4), maxChoices: 3 },
      reference: { correct: ['o1', 'o3'] },
      scoring: { method: 'per_choice', map: { o1: 1, o2: -1, o3: 1, o4: 0 } },
      maxScore: 2,
    },
    // one mistake: 2 less one point per position that differs from 312, at least 0.
    {
      answerType: 'digit_sequence',
      content: { length: 3 },
      reference: { digits: '312' },
      scoring: { method: 'one_mistake' },
      maxScore: 2,
    },
    // 12.5 exactly gives 1.
    {
      answerType: 'number',
      content: {},
      reference: { value: 12.5, tolerance: 0 },
      scoring: { method: 'all_or_nothing' },
    },
  ];
  /** Subject test A, variant 2 (other tasks): 8 points, 3 of them for experts. */
  const A2: TaskSpec[] = [
    // «Москва» in any case gives 1.
    {
      answerType: 'short_text',
      content: { maxLength: 20 },
      reference: { accepted: ['Москва'] },
      scoring: { method: 'all_or_nothing', caseSensitive: false },
    },
    // per pair: whole points for the share of the two pairs right (a–o2, b–o1).
    {
      answerType: 'matching',
      content: {
        left: [
          { id: 'a', html: 'А' },
          { id: 'b', html: 'Б' },
        ],
        right: options(3),
      },
      reference: { pairs: { a: 'o2', b: 'o1' } },
      scoring: { method: 'per_pair' },
      maxScore: 2,
    },
    // per blank: one point per blank right (b1 «Волга», b2 the option c2).
    {
      answerType: 'cloze',
      html: '<p>Река {{b1}}, столица {{b2}}</p>',
      content: {
        blanks: [
          { id: 'b1', kind: 'text', width: 10 },
          {
            id: 'b2',
            kind: 'choice',
            options: [
              { id: 'c1', text: 'Казань' },
              { id: 'c2', text: 'Москва' },
            ],
          },
        ],
      },
      reference: { blanks: { b1: ['Волга'], b2: ['c2'] } },
      scoring: { method: 'per_blank' },
      maxScore: 2,
    },
    // experts: an answer waits for them; no answer is 0.
    {
      answerType: 'extended_text',
      content: { maxLength: 2000 },
      reference: null,
      scoring: { method: 'expert' },
      criteria: [{ code: 'К1', text: 'Полнота', maxScore: 3 }],
      maxScore: 3,
    },
  ];
  /** Subject test B: 4 points. */
  const B1: TaskSpec[] = [
    // all or nothing: the order o3, o1, o4, o2 gives 1.
    {
      answerType: 'ordering',
      content: { items: options(4) },
      reference: { order: ['o3', 'o1', 'o4', 'o2'] },
      scoring: { method: 'all_or_nothing' },
    },
    // all or nothing, worth 3: o4 gives 3.
    {
      answerType: 'single_choice',
      content: { options: options(4) },
      reference: { correct: 'o4' },
      scoring: { method: 'all_or_nothing' },
      maxScore: 3,
    },
  ];
  const SCALE_A = [
    { mark: '5', minScore: 6, level: 'высокий' },
    { mark: '4', minScore: 4, level: 'повышенный' },
    { mark: '3', minScore: 2, level: 'базовый' },
    { mark: '2', minScore: 0, level: 'низкий' },
  ];
  const SCALE_B = [
    { mark: 'зачёт', minScore: 3 },
    { mark: 'незачёт', minScore: 0 },
  ];

  type Variant = 'A1' | 'A2' | 'B1';
  /**
   * Each work: its variant, its answers by position (undefined: not answered), and the expected
   * figures. `tasks` is each task's final score (null: waits for experts).
   */
  const WORKS: {
    variant: Variant;
    answers: unknown[];
    tasks: (number | null)[];
    primary: number;
    max: number;
    percent: number;
    mark: string | null;
    level: string | null;
    status: 'scored' | 'awaiting_experts';
  }[] = [
    // All right: 1 + (1 + 1) + 2 + 1 = 6 of 6.
    {
      variant: 'A1',
      answers: ['o2', ['o1', 'o3'], '312', '12.5'],
      tasks: [1, 2, 2, 1],
      primary: 6,
      max: 6,
      percent: 100,
      mark: '5',
      level: 'высокий',
      status: 'scored',
    },
    // Wrong option 0; o1 + o2 = 1 − 1 = 0; 310 differs once: 2 − 1 = 1; 13 is not 12.5: 0. 1 of 6 = 16.7 %.
    {
      variant: 'A1',
      answers: ['o1', ['o1', 'o2'], '310', '13'],
      tasks: [0, 0, 1, 0],
      primary: 1,
      max: 6,
      percent: 16.7,
      mark: '2',
      level: 'низкий',
      status: 'scored',
    },
    // No choice 0; 1 − 1 + 1 = 1; 321 differs twice: 0; 12.5: 1. 2 of 6 = 33.3 %.
    {
      variant: 'A1',
      answers: [undefined, ['o1', 'o2', 'o3'], '321', '12.5'],
      tasks: [0, 1, 0, 1],
      primary: 2,
      max: 6,
      percent: 33.3,
      mark: '3',
      level: 'базовый',
      status: 'scored',
    },
    // «москва» 1; one pair of two: 1; one blank of two: 1; no essay: 0. 3 of 8 = 37.5 %.
    {
      variant: 'A2',
      answers: ['москва', { a: 'o2', b: 'o3' }, { b1: 'Волга', b2: 'c1' }, undefined],
      tasks: [1, 1, 1, 0],
      primary: 3,
      max: 8,
      percent: 37.5,
      mark: '3',
      level: 'базовый',
      status: 'scored',
    },
    // «Казань» 0; both pairs 2; both blanks 2; an essay waits: 4 so far of 8, no mark yet.
    {
      variant: 'A2',
      answers: ['Казань', { a: 'o2', b: 'o1' }, { b1: 'Волга', b2: 'c2' }, 'Сочинение'],
      tasks: [0, 2, 2, null],
      primary: 4,
      max: 8,
      percent: 50,
      mark: null,
      level: null,
      status: 'awaiting_experts',
    },
    // Right order 1, o4 3: 4 of 4.
    {
      variant: 'B1',
      answers: [['o3', 'o1', 'o4', 'o2'], 'o4'],
      tasks: [1, 3],
      primary: 4,
      max: 4,
      percent: 100,
      mark: 'зачёт',
      level: null,
      status: 'scored',
    },
    // Two items swapped 0, o4 3: 3 of 4 = 75 %, still «зачёт» (3 reaches the step).
    {
      variant: 'B1',
      answers: [['o1', 'o3', 'o4', 'o2'], 'o4'],
      tasks: [0, 3],
      primary: 3,
      max: 4,
      percent: 75,
      mark: 'зачёт',
      level: null,
      status: 'scored',
    },
    // Right order 1, o1 0: 1 of 4 = 25 %.
    {
      variant: 'B1',
      answers: [['o3', 'o1', 'o4', 'o2'], 'o1'],
      tasks: [1, 0],
      primary: 1,
      max: 4,
      percent: 25,
      mark: 'незачёт',
      level: null,
      status: 'scored',
    },
  ];

  let variants: Record<Variant, { variantId: number; variantTaskIds: number[]; participantTestId: number }>;

  beforeAll(async () => {
    const school = await createSchoolWithStaff(t.app);
    const a = await createParticipantTest(t.app, school, { status: 'finished' });
    const b = await createParticipantTest(t.app, school, { status: 'finished' });
    await t.app.ctx.db
      .update(subjectTests)
      .set({ markScale: SCALE_A })
      .where(eq(subjectTests.id, a.subjectTestId));
    await t.app.ctx.db
      .update(subjectTests)
      .set({ markScale: SCALE_B })
      .where(eq(subjectTests.id, b.subjectTestId));
    const made = async (pt: typeof a, specs: TaskSpec[]) => ({
      ...(await createVariantWithTasks(t.app, pt.subjectTestId, specs)),
      participantTestId: pt.participantTestId,
    });
    variants = { A1: await made(a, A1), A2: await made(a, A2), B1: await made(b, B1) };
  });

  /** The works of WORKS, each a finished work of its own participant test. */
  async function worksOfTable(): Promise<number[]> {
    const db = t.app.ctx.db;
    const ids: number[] = [];
    for (const w of WORKS) {
      const v = variants[w.variant];
      const [base] = await db
        .select()
        .from(participantTests)
        .where(eq(participantTests.id, v.participantTestId));
      const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = base!;
      const [pt] = await db
        .insert(participantTests)
        .values({
          ...copy,
          studentId: null,
          isImpersonal: true,
          activationCode: unique('O').slice(-12),
          registrationCode: unique('Q').slice(-12),
        })
        .returning({ id: participantTests.id });
      const workId = await createExamWork(t.app, pt!.id, v.variantId, { status: 'finished' });
      await db
        .update(examWorks)
        .set({ finishedAt: new Date(), finishReason: 'manual' })
        .where(eq(examWorks.id, workId));
      const given = w.answers.flatMap((value, k) =>
        value === undefined
          ? []
          : [{ examWorkId: workId, variantTaskId: v.variantTaskIds[k]!, value, seq: 1 }],
      );
      if (given.length) await db.insert(answers).values(given);
      ids.push(workId);
    }
    return ids;
  }

  /** What the database holds for each work, in the oracle's terms. */
  async function stored(workIds: number[]) {
    const db = t.app.ctx.db;
    const scores = await db.select().from(taskScores).where(inArray(taskScores.examWorkId, workIds));
    const rows = await db.select().from(results).where(inArray(results.examWorkId, workIds));
    const works = await db.select().from(examWorks).where(inArray(examWorks.id, workIds));
    return workIds.map((id, i) => {
      const v = variants[WORKS[i]!.variant];
      const r = rows.find((x) => x.examWorkId === id)!;
      return {
        tasks: v.variantTaskIds.map(
          (vt) => scores.find((s) => s.examWorkId === id && s.variantTaskId === vt)?.finalScore,
        ),
        primary: r.primaryScore,
        max: r.maxScore,
        percent: r.percent,
        mark: r.mark,
        level: r.level,
        status: r.status,
        work: works.find((x) => x.id === id)!.status,
      };
    });
  }

  const expected = () =>
    WORKS.map(({ tasks, primary, max, percent, mark, level, status }) => ({
      tasks,
      primary,
      max,
      percent,
      mark,
      level,
      status,
      work: status === 'scored' ? 'scored' : 'finished',
    }));

  it('scores a batch of different answers, variants and subject tests as worked out by hand, and one at a time alike', async () => {
    const batch = await worksOfTable();
    const single = await worksOfTable();

    // The batch: queued and scored by one run of the job runner, as after a finish storm.
    await queueScoring(t.app.ctx.db, batch);
    expect(await t.app.jobs.runOnce()).toMatchObject({ status: 'done' });
    expect(await stored(batch)).toEqual(expected());

    // One at a time: each work alone in its own transaction.
    for (const id of single) await t.app.ctx.db.transaction((tx) => scoreWork(tx, id));
    expect(await stored(single)).toEqual(expected());
  });

  it('scoreWorks answers each work of a mixed batch with its own figures', async () => {
    const ids = await worksOfTable();
    const out = await t.app.ctx.db.transaction((tx) => scoreWorks(tx, [...ids].reverse()));
    expect(out.failed).toEqual([]);
    const byWork = new Map(out.scored.map((s) => [s.examWorkId, s]));
    expect(
      ids.map((id) => {
        const s = byWork.get(id)!;
        return {
          primary: s.primaryScore,
          max: s.maxScore,
          percent: s.percent,
          mark: s.mark,
          status: s.status,
        };
      }),
    ).toEqual(
      WORKS.map(({ primary, max, percent, mark, status }) => ({ primary, max, percent, mark, status })),
    );
  });
});
