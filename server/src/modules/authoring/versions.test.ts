import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  countRows,
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  signedIn,
  signedInParticipant,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import {
  answers,
  examWorks,
  participantTests,
  specificationElements,
  specifications,
  taskScores,
  tasks,
  variants,
  variantTasks,
} from '../../db/schema/index.js';
import { scoreWork } from '../exam-results/results.service.js';
import { drawVariants, mulberry32, seedOf } from './generate.js';
import { api, essay, forUpdate, ok, singleChoice } from './test-support.js';

// Publication checks, versions of used content (old works keep their rows, new works get the new
// ones) and seeded variant generation (issue 11).

let t: TestApp;
let admin: Session;
let a: ReturnType<typeof api>;
let org: OrgFixture;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  a = api(t.app, admin);
  org = await createOrg(t.app);
});
afterAll(async () => t.close());

let seq = 0;
async function newSubjectTest(markScale: { mark: string; minScore: number }[] = []) {
  const subjectId = ok<{ id: number }>(
    await a.post('/api/admin/content/subjects', { name: `Предмет ${++seq}` }),
  ).id;
  const examId = ok<{ id: number }>(
    await a.post(`/api/admin/content/subjects/${subjectId}/exams`, {
      kind: 'diagnostic',
      name: 'Диагностика',
    }),
  ).id;
  const testId = ok<{ id: number }>(
    await a.post('/api/admin/content/subjectTests', {
      subjectExamId: examId,
      name: `Тест ${seq}`,
      parallels: [7],
      durationMinutes: 45,
      markScale,
    }),
  ).id;
  return { subjectId, examId, testId };
}
const createTask = async (body: object) =>
  ok<{ id: number }>(await a.post('/api/admin/content/tasks', body)).id;
const createVariant = async (testId: number, taskIds: number[], extra: object = {}) =>
  ok<{ id: number }>(
    await a.post(`/api/admin/content/subjectTests/${testId}/variants`, {
      tasks: taskIds.map((taskId) => ({ taskId })),
      ...extra,
    }),
  ).id;

/** A task stored as is, past the API's checks (an import, an older version of the model). */
async function rawTask(values: Partial<typeof tasks.$inferInsert>) {
  const [row] = await t.app.ctx.db
    .insert(tasks)
    .values({ answerType: 'single_choice', html: '<p>x</p>', ...values })
    .returning({ id: tasks.id });
  return row!.id;
}

describe('publication', () => {
  it('reports each kind of problem, answers 409 content_invalid and stays a draft', async () => {
    const { subjectId, testId } = await newSubjectTest([
      { mark: '5', minScore: 9 },
      { mark: '3', minScore: 1 },
    ]);
    const good = await createTask(singleChoice(subjectId));
    const options = [
      { id: 'a', html: 'A' },
      { id: 'b', html: 'B' },
    ];
    const noKey = await rawTask({ content: { options }, reference: null });
    const noOptions = await rawTask({ content: { options: [] }, reference: { correct: 'a' } });
    const outside = await rawTask({ content: { options }, reference: { correct: 'z' } });
    const unknownType = await rawTask({ answerType: 'telepathy', content: {}, reference: {} });
    const v1 = await createVariant(testId, [good]);
    const [v2] = await t.app.ctx.db.insert(variants).values({ subjectTestId: testId, number: 2 }).returning();
    const [v3] = await t.app.ctx.db.insert(variants).values({ subjectTestId: testId, number: 3 }).returning();
    await t.app.ctx.db.insert(variantTasks).values(
      [good, noKey, noOptions, outside, unknownType].map((taskId, i) => ({
        variantId: v3!.id,
        taskId,
        position: i + 1,
        maxScore: 1,
      })),
    );

    const report = ok<{ valid: boolean; maxScore: number | null; problems: Record<string, unknown>[] }>(
      await a.get(`/api/admin/content/subjectTests/${testId}/validation`),
    );
    expect(report.valid).toBe(false);
    expect(report.maxScore).toBeNull();
    const pick = (p: Record<string, unknown>) => [
      p.code,
      p.variantId ?? null,
      p.taskId ?? null,
      p.position ?? null,
    ];
    expect(report.problems.map(pick)).toEqual([
      ['variant_empty', v2!.id, null, null],
      ['missing_key', v3!.id, noKey, 2],
      ['empty_options', v3!.id, noOptions, 3],
      ['key_outside_options', v3!.id, outside, 4],
      ['unknown_answer_type', v3!.id, unknownType, 5],
      ['unequal_max_score', v3!.id, null, null],
      ['mark_scale_not_from_zero', null, null, null],
      ['mark_scale_above_max', v1, null, null],
      ['mark_scale_above_max', v3!.id, null, null],
    ]);

    const refused = await a.post(`/api/admin/content/subjectTests/${testId}/publish`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'content_invalid']);
    expect(refused.json().errors).toContainEqual(
      expect.objectContaining({
        code: 'key_outside_options',
        path: `variants[${v3!.id}].tasks[4]`,
        params: { variantId: v3!.id, taskId: outside, position: 4 },
      }),
    );
    expect(ok<{ status: string }>(await a.get(`/api/admin/content/subjectTests/${testId}`)).status).toBe(
      'draft',
    );
  });

  it('no variants, and no mark scale, are problems too', async () => {
    const { testId } = await newSubjectTest();
    const report = ok<{ problems: { code: string }[] }>(
      await a.get(`/api/admin/content/subjectTests/${testId}/validation`),
    );
    expect(report.problems.map((p) => p.code)).toEqual(['no_variants', 'mark_scale_missing']);
  });

  it('publishes valid content (variants of equal max score, a scale from 0 within it)', async () => {
    const { subjectId, testId } = await newSubjectTest([
      { mark: '2', minScore: 0 },
      { mark: '5', minScore: 3 },
    ]);
    const [c1, c2, e1, e2] = [
      await createTask(singleChoice(subjectId)),
      await createTask(singleChoice(subjectId)),
      await createTask(essay(subjectId)),
      await createTask(essay(subjectId)),
    ];
    await createVariant(testId, [c1!, e1!]);
    await createVariant(testId, [c2!, e2!]);
    expect(ok(await a.get(`/api/admin/content/subjectTests/${testId}/validation`))).toEqual({
      valid: true,
      maxScore: 3,
      problems: [],
      // A warning, not a problem: no expert can grade the essays yet.
      expertCoverage: expect.objectContaining({ experts: 0 }),
    });
    expect(ok(await a.post(`/api/admin/content/subjectTests/${testId}/publish`))).toMatchObject({
      status: 'published',
    });
    expect(await countRows(t.database, 'audit_events', `action = 'content.subject_test.publish'`)).toBe(1);
  });
});

describe('versions of content a work uses', () => {
  it('an edit of a used task makes a new version; the old work keeps scoring by the old row; a new work gets the new one', async () => {
    // A participant test of a subject test whose subject gets a task pool.
    const pt1 = await createParticipantTest(t.app, org);
    const testId = pt1.subjectTestId;
    const subjectId = ok<{ subjectId: number }>(
      await a.get(`/api/admin/content/subjectTests/${testId}`),
    ).subjectId;
    const taskId = await createTask(singleChoice(subjectId, { reference: { correct: 'o2' } }));
    const otherId = await createTask(singleChoice(subjectId));
    const variantId = await createVariant(testId, [taskId, otherId]);

    // A work on the variant, with an answer right by the old key.
    const workId = await createExamWork(t.app, pt1.participantTestId, variantId);
    const [vt] = await t.app.ctx.db
      .select()
      .from(variantTasks)
      .where(and(eq(variantTasks.variantId, variantId), eq(variantTasks.taskId, taskId)));
    await t.app.ctx.db
      .insert(answers)
      .values({ examWorkId: workId, variantTaskId: vt!.id, value: 'o2', seq: 1 });
    expect(ok<{ usedByWorks: boolean }>(await a.get(`/api/admin/content/tasks/${taskId}`)).usedByWorks).toBe(
      true,
    );

    // The key changes: a new version.
    const edited = ok<{ id: number; version: number; previousVersionId: number; reference: unknown }>(
      await a.put(`/api/admin/content/tasks/${taskId}`, {
        ...forUpdate(singleChoice(subjectId)),
        reference: { correct: 'o3' },
      }),
    );
    expect(edited.id).not.toBe(taskId);
    expect(edited).toMatchObject({ version: 2, previousVersionId: taskId, reference: { correct: 'o3' } });
    const old = ok<{ supersededAt: string | null; reference: unknown }>(
      await a.get(`/api/admin/content/tasks/${taskId}`),
    );
    expect(old.supersededAt).not.toBeNull();
    expect(old.reference).toEqual({ correct: 'o2' });

    // The used variant is superseded by a new row of the same number holding the new version.
    const current = ok<
      { id: number; number: number; previousVersionId: number; tasks: { taskId: number }[] }[]
    >(await a.get(`/api/admin/content/subjectTests/${testId}/variants`));
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ number: 1, previousVersionId: variantId });
    expect(current[0]!.tasks.map((x) => x.taskId)).toEqual([edited.id, otherId]);
    const [oldVariant] = await t.app.ctx.db.select().from(variants).where(eq(variants.id, variantId));
    expect(oldVariant!.supersededAt).not.toBeNull();
    const oldRows = await t.app.ctx.db
      .select()
      .from(variantTasks)
      .where(eq(variantTasks.variantId, variantId));
    expect(oldRows.map((r) => r.taskId).sort()).toEqual([taskId, otherId].sort());

    // The old work is scored by the row it took: its answer is still right.
    await t.app.ctx.db
      .update(examWorks)
      .set({ status: 'finished', finishedAt: new Date(), finishReason: 'manual' })
      .where(eq(examWorks.id, workId));
    await t.app.ctx.db.transaction((tx) => scoreWork(tx, workId));
    const [score] = await t.app.ctx.db
      .select()
      .from(taskScores)
      .where(and(eq(taskScores.examWorkId, workId), eq(taskScores.variantTaskId, vt!.id)));
    expect(Number(score!.finalScore)).toBe(1);

    // A new work of the same subject test is offered the current variant only.
    const pt2 = await createParticipantTest(t.app, org, { studentId: org.studentIds[1] });
    await t.app.ctx.db
      .update(participantTests)
      .set({ subjectTestId: testId, diagnosticId: pt1.diagnosticId })
      .where(eq(participantTests.id, pt2.participantTestId));
    const { session } = await signedInParticipant(t.app, pt2);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/examwork/new',
      headers: { ...session.headers, 'x-device-id': 'dev-1' },
      payload: {},
    });
    expect(started.statusCode).toBe(200);
    expect(started.json().variantId).toBe(current[0]!.id);

    // The new version is now used too: history lists both, oldest first.
    const versions = ok<{ id: number; version: number; usedByWorks: boolean }[]>(
      await a.get(`/api/admin/content/tasks/${edited.id}/versions`),
    );
    expect(versions.map((v) => [v.id, v.version, v.usedByWorks])).toEqual([
      [taskId, 1, true],
      [edited.id, 2, true],
    ]);
    // An old version is not edited.
    const stale = await a.put(`/api/admin/content/tasks/${taskId}`, forUpdate(singleChoice(subjectId)));
    expect([stale.statusCode, stale.json().code]).toEqual([409, 'conflict']);
  });

  it('an edit of a task no work has changes it in place and keeps variants pointing at it', async () => {
    const { subjectId, testId } = await newSubjectTest();
    const taskId = await createTask(singleChoice(subjectId));
    const variantId = await createVariant(testId, [taskId]);
    const edited = ok<{ id: number; version: number; maxScore: number }>(
      await a.put(`/api/admin/content/tasks/${taskId}`, {
        ...forUpdate(singleChoice(subjectId)),
        maxScore: 2,
        title: 'Новое',
      }),
    );
    expect(edited).toMatchObject({ id: taskId, version: 1, maxScore: 2 });
    const [row] = await t.app.ctx.db.select().from(variantTasks).where(eq(variantTasks.variantId, variantId));
    expect([row!.taskId, Number(row!.maxScore)]).toEqual([taskId, 2]);
  });

  it('a used task in an unused variant: the variant is repointed, not versioned; files and classifiers follow', async () => {
    const { subjectId, testId } = await newSubjectTest();
    const pt = await createParticipantTest(t.app, org);
    const taskId = await createTask(singleChoice(subjectId));
    const [spec] = await t.app.ctx.db.insert(specifications).values({ name: 'К', subjectId }).returning();
    const [element] = await t.app.ctx.db
      .insert(specificationElements)
      .values({ specificationId: spec!.id, code: '1.1', name: 'Элемент' })
      .returning();
    ok(await a.put(`/api/admin/content/tasks/${taskId}/elements`, { elementIds: [element!.id] }));
    await t.app.ctx.db.execute(
      // a picture of the task
      (await import('drizzle-orm'))
        .sql`insert into files (owner_type, owner_id, name, mime, size, sha256, data)
        values ('task', ${taskId}, 'рис.png', 'image/png', 3, 'x', '\\x010203')`,
    );
    const usedVariant = await createVariant(testId, [taskId]);
    const freeVariant = await createVariant(testId, [taskId]);
    await createExamWork(t.app, pt.participantTestId, usedVariant);

    const edited = ok<{ id: number; elementIds: number[]; files: { name: string }[] }>(
      await a.put(
        `/api/admin/content/tasks/${taskId}`,
        forUpdate(singleChoice(subjectId, { html: '<p>Новый текст</p>' })),
      ),
    );
    expect(edited.elementIds).toEqual([element!.id]);
    expect(edited.files.map((f) => f.name)).toEqual(['рис.png']);
    const list = ok<{ id: number; previousVersionId: number | null; tasks: { taskId: number }[] }[]>(
      await a.get(`/api/admin/content/subjectTests/${testId}/variants`),
    );
    const free = list.find((v) => v.id === freeVariant)!;
    expect(free).toMatchObject({ previousVersionId: null });
    expect(free.tasks.map((x) => x.taskId)).toEqual([edited.id]);
    const replaced = list.find((v) => v.previousVersionId === usedVariant)!;
    expect(replaced.tasks.map((x) => x.taskId)).toEqual([edited.id]);
    expect(list.map((v) => v.id)).not.toContain(usedVariant);
  });

  it('an edit of a used variant makes a new variant version; a superseded one is not edited', async () => {
    const { subjectId, testId } = await newSubjectTest();
    const pt = await createParticipantTest(t.app, org);
    const [t1, t2] = [await createTask(singleChoice(subjectId)), await createTask(singleChoice(subjectId))];
    const variantId = await createVariant(testId, [t1!]);
    await createExamWork(t.app, pt.participantTestId, variantId);
    const next = ok<{ id: number; number: number; previousVersionId: number; tasks: { taskId: number }[] }>(
      await a.put(`/api/admin/content/variants/${variantId}`, { tasks: [{ taskId: t1 }, { taskId: t2 }] }),
    );
    expect(next.id).not.toBe(variantId);
    expect(next).toMatchObject({ number: 1, previousVersionId: variantId });
    const oldRows = await t.app.ctx.db
      .select()
      .from(variantTasks)
      .where(eq(variantTasks.variantId, variantId));
    expect(oldRows.map((r) => r.taskId)).toEqual([t1]);
    const stale = await a.put(`/api/admin/content/variants/${variantId}`, { tasks: [{ taskId: t2 }] });
    expect([stale.statusCode, stale.json().code]).toEqual([409, 'conflict']);
  });
});

describe('variant generation', () => {
  let subjectId: number;
  let testId: number;
  let elementId: number;
  let algebra: number[];

  beforeAll(async () => {
    ({ subjectId, testId } = await newSubjectTest());
    const [spec] = await t.app.ctx.db.insert(specifications).values({ name: 'Спец', subjectId }).returning();
    const [element] = await t.app.ctx.db
      .insert(specificationElements)
      .values({ specificationId: spec!.id, code: '2', name: 'Функции' })
      .returning();
    elementId = element!.id;
    algebra = [];
    for (let i = 0; i < 5; i++)
      algebra.push(await createTask(singleChoice(subjectId, { category: 'Алгебра/Уравнения' })));
    for (let i = 0; i < 3; i++)
      await createTask(
        singleChoice(subjectId, { category: 'Геометрия', maxScore: 1 + (i % 2), elementIds: [elementId] }),
      );
  });

  const blueprint = () => [
    { category: 'Алгебра', count: 2 },
    { elementId, count: 1, maxScore: 2 },
  ];
  const generate = (body: object) =>
    a.post(`/api/admin/content/subjectTests/${testId}/variants/generate`, body);

  it('draws distinct tasks per variant by blueprint; variants have equal max score; the same seed gives the same variants', async () => {
    const first = ok<{ number: number; maxScore: number; tasks: { taskId: number; maxScore: number }[] }[]>(
      await generate({ count: 3, seed: 'весна-2026', blueprint: blueprint() }),
    );
    expect(first.map((v) => v.number)).toEqual([1, 2, 3]);
    for (const v of first) {
      expect(v.tasks).toHaveLength(3);
      expect(new Set(v.tasks.map((x) => x.taskId)).size).toBe(3);
      expect(algebra).toEqual(expect.arrayContaining(v.tasks.slice(0, 2).map((x) => x.taskId)));
      expect(v.maxScore).toBe(4);
    }
    const again = ok<{ number: number; tasks: { taskId: number }[] }[]>(
      await generate({ count: 3, seed: 'весна-2026', blueprint: blueprint() }),
    );
    expect(again.map((v) => v.number)).toEqual([4, 5, 6]);
    expect(again.map((v) => v.tasks.map((x) => x.taskId))).toEqual(
      first.map((v) => v.tasks.map((x) => x.taskId)),
    );
    expect(await countRows(t.database, 'audit_events', `action = 'content.variant.generate'`)).toBe(2);
  });

  it('refuses 409 pool_too_small when a row cannot be filled without repeats, creating nothing', async () => {
    const before = await countRows(t.database, 'variants', `subject_test_id = ${testId}`);
    const tooMany = await generate({ count: 1, seed: 1, blueprint: [{ category: 'Алгебра', count: 6 }] });
    expect([tooMany.statusCode, tooMany.json().code]).toEqual([409, 'pool_too_small']);
    expect(tooMany.json().errors[0].params).toEqual({ row: 0, needed: 6, available: 5 });
    // Two rows over one pool: the second finds the first's tasks taken.
    const overlap = await generate({
      count: 1,
      seed: 1,
      blueprint: [
        { category: 'Алгебра', count: 4 },
        { category: 'Алгебра/Уравнения', count: 2 },
      ],
    });
    expect(overlap.json().code).toBe('pool_too_small');
    expect(await countRows(t.database, 'variants', `subject_test_id = ${testId}`)).toBe(before);
  });

  it('asks for maxScore when a row mixes tasks of different points; 400 for an unknown element', async () => {
    const mixed = await generate({ count: 1, seed: 1, blueprint: [{ elementId, count: 1 }] });
    expect([mixed.statusCode, mixed.json().errors[0].code]).toEqual([400, 'mixed_max_score']);
    const unknown = await generate({ count: 1, seed: 1, blueprint: [{ elementId: 999999, count: 1 }] });
    expect([unknown.statusCode, unknown.json().errors[0].path]).toEqual([400, 'body.blueprint.0.elementId']);
    const both = await generate({ count: 1, seed: 1, blueprint: [{ elementId, category: 'x', count: 1 }] });
    expect(both.statusCode).toBe(400);
  });

  it('the draw itself: deterministic, seed-sensitive, never repeating', () => {
    const pool = Array.from({ length: 30 }, (_, i) => ({
      id: i + 1,
      category: null,
      maxScore: 1,
      elementIds: new Set<number>(),
    }));
    const draw = (seed: number | string) => drawVariants(pool, [{ count: 10 }, { count: 10 }], 5, seed);
    const x = draw('a');
    expect(x).toEqual(draw('a'));
    expect(x).not.toEqual(draw('b'));
    if (!x.ok) throw new Error('draw failed');
    for (const v of x.variants) expect(new Set(v.map((t) => t.taskId)).size).toBe(20);
    expect(seedOf(7)).not.toBe(seedOf('7'));
    const r = mulberry32(1);
    const values = Array.from({ length: 1000 }, r);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
  });
});
