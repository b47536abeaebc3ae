import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { NO_ACCOMMODATIONS, type ItemAnalysis } from '@attesta/contract';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  unique,
  type Session,
  type TestApp,
} from '../../../../test/helpers.js';
import {
  answers,
  diagnosticSchools,
  diagnostics,
  examWorks,
  participantTests,
  results,
  schools,
  students,
  taskScores,
} from '../../../db/schema/index.js';
import { activationCode, registrationCode } from '../../../lib/tokens.js';
import { parseScores } from './item-analysis.repo.js';

/*
 * GET /api/reports/itemAnalysis over a real database: scope (401, 403 for a role, a school or an
 * ugnik outside it, 404 unknown ids), the withheld rule, and the figures read from task scores
 * and answers (facility and distractors of a small world, the coordinator's school only).
 */

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => t?.close());

const URL_ = '/api/reports/itemAnalysis';
const get = (query: string, session: Session | null) =>
  app.inject({ method: 'GET', url: `${URL_}?${query}`, headers: session?.headers ?? {} });

/**
 * Answers of the world, per participant: the single-choice option chosen (key o2) and the points
 * of a 2-point number task. School A has four participants, school B two.
 */
const SCHOOL_A = [
  { choice: 'o2', points: 2 },
  { choice: 'o2', points: 1 },
  { choice: 'o1', points: 0 },
  { choice: null, points: 2 },
];
const SCHOOL_B = [
  { choice: 'o3', points: 0 },
  { choice: 'o2', points: 2 },
];

interface World {
  diagnosticId: number;
  subjectTestId: number;
  taskIds: number[];
  variantId: number;
  schoolA: Awaited<ReturnType<typeof createSchoolWithStaff>>;
  schoolB: Awaited<ReturnType<typeof createSchoolWithStaff>>;
}

async function world(): Promise<World> {
  const db = app.ctx.db;
  const schoolA = await createSchoolWithStaff(app);
  const schoolB = await createSchoolWithStaff(app);
  const first = await createParticipantTest(app, schoolA);
  const { diagnosticId, subjectTestId } = first;
  await db
    .update(diagnostics)
    .set({ endsAt: new Date(Date.now() - 3_600_000) })
    .where(eq(diagnostics.id, diagnosticId));
  await db.insert(diagnosticSchools).values([
    { diagnosticId, schoolId: schoolA.schoolId },
    { diagnosticId, schoolId: schoolB.schoolId },
  ]);
  const v = await createVariantWithTasks(app, subjectTestId, [
    {
      answerType: 'single_choice',
      content: {
        options: [
          { id: 'o1', html: '<p>x<sup>2</sup> &gt; 0 при любом x</p>' },
          {
            id: 'o2',
            html: `<p>${'Длинный ответ, который не помещается в таблицу дистракторов целиком '.repeat(2)}</p>`,
          },
          { id: 'o3', html: '<p><b>Нет</b> решений</p>' },
        ],
      },
      reference: { correct: 'o2' },
      maxScore: 1,
    },
    { answerType: 'number', reference: { value: 12 }, maxScore: 2 },
  ]);
  const add = async (school: typeof schoolA, rows: typeof SCHOOL_A, firstPt?: number) => {
    for (const [i, row] of rows.entries()) {
      let ptId = i === 0 ? firstPt : undefined;
      if (ptId === undefined) {
        const [pt] = await db
          .insert(participantTests)
          .values({
            diagnosticId,
            subjectTestId,
            schoolId: school.schoolId,
            classId: school.classId,
            buildingId: school.buildingId,
            testDate: '2025-01-01',
            activationCode: activationCode(),
            registrationCode: registrationCode(),
            status: 'finished',
          })
          .returning();
        ptId = pt!.id;
      }
      const workId = await createExamWork(app, ptId, v.variantId, { status: 'scored' });
      await db.update(examWorks).set({ finishedAt: new Date() }).where(eq(examWorks.id, workId));
      const score = row.choice === 'o2' ? 1 : 0;
      await db.insert(taskScores).values([
        {
          examWorkId: workId,
          variantTaskId: v.variantTaskIds[0]!,
          autoStatus: 'scored',
          autoScore: score,
          finalScore: score,
          maxScore: 1,
          status: 'auto',
        },
        {
          examWorkId: workId,
          variantTaskId: v.variantTaskIds[1]!,
          autoStatus: 'scored',
          autoScore: row.points,
          finalScore: row.points,
          maxScore: 2,
          status: 'auto',
        },
      ]);
      if (row.choice)
        await db
          .insert(answers)
          .values({ examWorkId: workId, variantTaskId: v.variantTaskIds[0]!, value: row.choice, seq: 1 });
      await db.insert(results).values({
        examWorkId: workId,
        participantTestId: ptId,
        diagnosticId,
        subjectTestId,
        status: 'scored',
        primaryScore: score + row.points,
        maxScore: 3,
        percent: Math.round(((score + row.points) / 3) * 1000) / 10,
        verificationCode: unique('R-'),
      });
    }
  };
  await add(schoolA, SCHOOL_A, first.participantTestId);
  await add(schoolB, SCHOOL_B);
  return { diagnosticId, subjectTestId, taskIds: v.taskIds, variantId: v.variantId, schoolA, schoolB };
}

let w: World;
let admin: Session;
beforeAll(async () => {
  w = await world();
  admin = (await signedIn(app, ['admin'])).session;
});
const q = (over: Partial<{ diagnosticId: number | string; subjectTestId: number | string }> = {}) =>
  `diagnosticId=${over.diagnosticId ?? w.diagnosticId}&subjectTestId=${over.subjectTestId ?? w.subjectTestId}`;

describe('access', () => {
  it('401 without a session; 403 for roles other than coordinator, ugnik and admin', async () => {
    expect((await get(q(), null)).statusCode).toBe(401);
    expect((await get(q(), w.schoolA.organizator.session)).statusCode).toBe(403);
    expect((await get(q(), (await signedIn(app, ['expert'])).session)).statusCode).toBe(403);
  });

  it('400 for malformed ids, 404 for unknown ones', async () => {
    expect((await get('diagnosticId=x&subjectTestId=1', admin)).statusCode).toBe(400);
    expect((await get(`diagnosticId=${w.diagnosticId}`, admin)).statusCode).toBe(400);
    expect((await get(q({ diagnosticId: 999_999 }), admin)).statusCode).toBe(404);
    expect((await get(q({ subjectTestId: 999_999 }), admin)).statusCode).toBe(404);
  });

  it('403 for a coordinator whose school the diagnostic does not cover', async () => {
    const other = await createOrg(app);
    const coordinator = await signedIn(app, ['coordinator'], { schoolId: other.schoolId });
    const res = await get(q(), coordinator.session);
    expect(res.statusCode).toBe(403);
  });

  it('an ugnik: its own diagnostics only', async () => {
    const ugnik = await signedIn(app, ['ugnik']);
    expect((await get(q(), ugnik.session)).statusCode).toBe(403);
    await app.ctx.db
      .update(diagnostics)
      .set({ createdBy: ugnik.user.id, createdByRole: 'ugnik' })
      .where(eq(diagnostics.id, w.diagnosticId));
    try {
      const res = await get(q(), ugnik.session);
      expect(res.statusCode).toBe(200);
      expect((res.json() as ItemAnalysis).participants).toBe(6);
    } finally {
      await app.ctx.db
        .update(diagnostics)
        .set({ createdBy: null, createdByRole: null })
        .where(eq(diagnostics.id, w.diagnosticId));
    }
  });
});

describe('figures', () => {
  it('admin: every participant; facility and distractors from the task scores and the answers', async () => {
    const res = await get(q(), admin);
    expect(res.statusCode).toBe(200);
    const a = res.json() as ItemAnalysis;
    expect(a).toMatchObject({ withheld: false, participants: 6 });
    expect(a.reason).toBeUndefined();
    const [choice, number] = a.tasks;
    expect(choice!.taskId).toBe(w.taskIds[0]);
    expect(choice!.n).toBe(6);
    expect(choice!.facility).toBeCloseTo(3 / 6, 4);
    expect(number!.facility).toBeCloseTo(7 / 12, 4);
    expect(number!.scoreDistribution).toEqual([
      { score: 0, count: 2 },
      { score: 1, count: 1 },
      { score: 2, count: 3 },
    ]);
    expect(choice!.distractors!.options.map((o) => [o.option, o.key, o.share])).toEqual([
      ['o1', false, 0.1667],
      ['o2', true, 0.5],
      ['o3', false, 0.1667],
    ]);
    expect(choice!.distractors!.noAnswer).toBe(0.1667);
    // the 2-point task has three different scores: the partial credit model calibrates the test
    // (docs/item-analysis.md). Only totals of 1–2 of 3 inform it (two participants, 1 + 1 and
    // 0 + 2); a 0 on the number task comes only with a total of 0, so it is merged into the 1.
    expect(a.rasch).toMatchObject({ model: 'partial_credit', converged: true, personsUsed: 2 });
    expect(choice!.rasch!.thresholds!.map((x) => x.score)).toEqual([1]);
    expect(number!.rasch!.thresholds!.map((x) => x.score)).toEqual([2]);
    expect(number!.rasch!.difficulty).toBeCloseTo(0, 6);
    // Each option is labelled by its text: plain, one line, powers kept, a long one cut at a word.
    const texts = choice!.distractors!.options.map((o) => o.text);
    expect(texts[0]).toBe('x^2 > 0 при любом x');
    expect(texts[1]!.length).toBeLessThanOrEqual(80);
    expect(texts[1]).toMatch(/^Длинный ответ, который .* \p{L}+…$/u);
    expect(texts[2]).toBe('Нет решений');
    expect(a.variants).toHaveLength(1);
    expect(a.variants[0]).toMatchObject({ variantId: w.variantId, participants: 6, maxScore: 3 });
    expect(number!.distractors).toBeNull();
  });

  it('a coordinator: the participants of their own school only', async () => {
    const res = await get(q(), w.schoolA.coordinator.session);
    expect(res.statusCode).toBe(200);
    const a = res.json() as ItemAnalysis;
    expect(a.participants).toBe(4);
    expect(a.tasks[0]!.facility).toBe(0.5);
    expect(a.tasks[1]!.facility).toBeCloseTo(5 / 8, 4);
    expect(a.tasks[0]!.distractors!.options.find((o) => o.option === 'o3')!.share).toBe(0);
    const b = (await get(q(), w.schoolB.coordinator.session)).json() as ItemAnalysis;
    expect(b.participants).toBe(2);
  });
});

describe('withheld while the figures would be provisional', () => {
  it('while expert grading of the subject test is unfinished (in any school)', async () => {
    const [one] = await app.ctx.db
      .select({ id: results.id })
      .from(results)
      .where(eq(results.diagnosticId, w.diagnosticId))
      .limit(1);
    await app.ctx.db.update(results).set({ status: 'awaiting_experts' }).where(eq(results.id, one!.id));
    try {
      for (const session of [admin, w.schoolA.coordinator.session]) {
        const a = (await get(q(), session)).json() as ItemAnalysis;
        expect(a).toMatchObject({ withheld: true, reason: 'awaiting_grading', tasks: [], rasch: null });
        expect(a.message).toBeTruthy();
      }
    } finally {
      await app.ctx.db.update(results).set({ status: 'scored' }).where(eq(results.id, one!.id));
    }
  });

  it('while a finished work has no result yet', async () => {
    const [pt] = await app.ctx.db
      .insert(participantTests)
      .values({
        diagnosticId: w.diagnosticId,
        subjectTestId: w.subjectTestId,
        schoolId: w.schoolB.schoolId,
        testDate: '2025-01-01',
        activationCode: activationCode(),
        registrationCode: registrationCode(),
        status: 'finished',
      })
      .returning();
    const workId = await createExamWork(app, pt!.id, w.variantId, { status: 'finished' });
    await app.ctx.db.update(examWorks).set({ finishedAt: new Date() }).where(eq(examWorks.id, workId));
    try {
      const a = (await get(q(), admin)).json() as ItemAnalysis;
      expect(a).toMatchObject({ withheld: true, reason: 'awaiting_grading' });
    } finally {
      await app.ctx.db.update(examWorks).set({ deletedAt: new Date() }).where(eq(examWorks.id, workId));
    }
    expect(((await get(q(), admin)).json() as ItemAnalysis).withheld).toBe(false);
  });

  it('while the diagnostic is running and its results unpublished', async () => {
    const later = new Date(Date.now() + 86_400_000);
    await app.ctx.db.update(diagnostics).set({ endsAt: later }).where(eq(diagnostics.id, w.diagnosticId));
    try {
      const a = (await get(q(), admin)).json() as ItemAnalysis;
      expect(a).toMatchObject({ withheld: true, reason: 'diagnostic_running', participants: 6 });
      await app.ctx.db
        .update(diagnostics)
        .set({ resultsPublished: true })
        .where(eq(diagnostics.id, w.diagnosticId));
      expect(((await get(q(), admin)).json() as ItemAnalysis).withheld).toBe(false);
    } finally {
      await app.ctx.db
        .update(diagnostics)
        .set({ endsAt: new Date(Date.now() - 3_600_000), resultsPublished: false })
        .where(eq(diagnostics.id, w.diagnosticId));
    }
  });
});

describe('reading the grouped scores', () => {
  it('parses `variantTaskId:score` pairs, decimals included', () => {
    expect(parseScores('12:1,13:0.5,140:2,7:0.25,9:0')).toEqual([12, 1, 13, 0.5, 140, 2, 7, 0.25, 9, 0]);
    expect(parseScores('3:1.5e0')).toEqual([3, 1.5]);
  });
});

describe('bias checks (DIF, dif.ts)', () => {
  it('every comparison with its counts; no flag below the minimum group size; null when withheld', async () => {
    const db = app.ctx.db;
    const a = (await get(q(), admin)).json() as ItemAnalysis;
    expect(a.dif!.minGroupSize).toBe(100);
    const bySchool = a.dif!.comparisons.filter((c) => c.grouping === 'school');
    const [nameA] = await db
      .select({ name: schools.name })
      .from(schools)
      .where(eq(schools.id, w.schoolA.schoolId));
    expect(bySchool.map((c) => [c.group, c.nFocal, c.nReference, c.checked, c.reference])).toEqual([
      [String(w.schoolA.schoolId), 4, 2, false, null],
      [String(w.schoolB.schoolId), 2, 4, false, null],
    ]);
    expect(bySchool[0]!.label).toBe(nameA!.name);
    expect(bySchool.every((c) => c.flaggedTaskIds.length === 0)).toBe(true);
    expect(a.tasks.every((t) => Array.isArray(t.dif) && t.dif.length === 0)).toBe(true);
    // no student behind the participant tests: no gender or accommodations comparison
    expect(a.dif!.comparisons.some((c) => c.grouping === 'gender')).toBe(false);

    // school A's participants become students: 2 male, 2 female, one with extra time
    const pts = await db
      .select({ id: participantTests.id })
      .from(participantTests)
      .where(eq(participantTests.schoolId, w.schoolA.schoolId))
      .orderBy(participantTests.id);
    const made = await db
      .insert(students)
      .values(
        ['male', 'male', 'female', 'female'].map((gender, i) => ({
          schoolId: w.schoolA.schoolId,
          surname: `Ученик${i}`,
          name: 'Тест',
          gender,
          accommodations:
            i === 3 ? { ...NO_ACCOMMODATIONS, extraTimePercent: 50 } : i === 2 ? NO_ACCOMMODATIONS : null,
        })),
      )
      .returning({ id: students.id });
    const linked = pts.filter((_, i) => i < 4);
    for (const [i, pt] of linked.entries())
      await db.update(participantTests).set({ studentId: made[i]!.id }).where(eq(participantTests.id, pt.id));
    try {
      const b = (await get(q(), admin)).json() as ItemAnalysis;
      const gender = b.dif!.comparisons.find((c) => c.grouping === 'gender');
      expect(gender).toMatchObject({
        group: 'female',
        reference: 'male',
        nFocal: 2,
        nReference: 2,
        checked: false,
      });
      // a stored profile that changes nothing counts as none
      const acc = b.dif!.comparisons.find((c) => c.grouping === 'accommodations');
      expect(acc).toMatchObject({ group: 'with', reference: 'without', nFocal: 1, nReference: 3 });
      // a coordinator sees one school: no school comparison, the gender one within the school
      const c = (await get(q(), w.schoolA.coordinator.session)).json() as ItemAnalysis;
      expect(c.dif!.comparisons.map((x) => x.grouping)).toEqual(['gender', 'accommodations']);
      expect(c.dif!.comparisons.some((x) => x.grouping === 'school')).toBe(false);
      expect(c.dif!.comparisons.find((x) => x.grouping === 'gender')).toMatchObject({
        nFocal: 2,
        nReference: 2,
      });
    } finally {
      for (const pt of linked)
        await db.update(participantTests).set({ studentId: null }).where(eq(participantTests.id, pt.id));
    }

    const later = new Date(Date.now() + 86_400_000);
    await db.update(diagnostics).set({ endsAt: later }).where(eq(diagnostics.id, w.diagnosticId));
    try {
      expect(((await get(q(), admin)).json() as ItemAnalysis).dif).toBeNull();
    } finally {
      await db
        .update(diagnostics)
        .set({ endsAt: new Date(Date.now() - 3_600_000) })
        .where(eq(diagnostics.id, w.diagnosticId));
    }
  });
});
