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
  it('one runner run scores every queued work; the same numbers and experts as scoring them one by one', async () => {
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
