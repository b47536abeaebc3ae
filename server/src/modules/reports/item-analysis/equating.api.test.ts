import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Equating } from '@attesta/contract';
import {
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
  auditEvents,
  diagnostics,
  equatingTables,
  examWorks,
  participantTests,
  results,
  taskScores,
  variants,
  variantTasks,
} from '../../../db/schema/index.js';
import { activationCode, registrationCode } from '../../../lib/tokens.js';

/*
 * GET /api/reports/equating, POST …/adopt, PUT …/cutScores over a real database (issue 28,
 * item 2): access (401, 403 for a role and for an ugnik's write or another's diagnostic, 404), bad
 * input (400 and nothing changed), the proposal from two variants sharing two tasks, adoption as
 * versions, cut scores and the participants per level, and the audit rows.
 */

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => t?.close());

/** mulberry32 */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface World {
  diagnosticId: number;
  subjectTestId: number;
  variantIds: [number, number];
}

/**
 * Two variants of four one-point tasks sharing the first two (variant 2's own tasks harder), 60
 * participants each, answers drawn from the Rasch model (seeded).
 */
async function world(): Promise<World> {
  const db = app.ctx.db;
  const school = await createSchoolWithStaff(app);
  const first = await createParticipantTest(app, school);
  const { diagnosticId, subjectTestId } = first;
  await db
    .update(diagnostics)
    .set({ endsAt: new Date(Date.now() - 3_600_000) })
    .where(eq(diagnostics.id, diagnosticId));
  const spec = { answerType: 'number', reference: { value: 1 }, maxScore: 1 };
  const v1 = await createVariantWithTasks(app, subjectTestId, [spec, spec, spec, spec], 1);
  const v2 = await createVariantWithTasks(app, subjectTestId, [spec, spec], 2);
  // variant 2 also holds variant 1's first two tasks
  const shared = await db
    .insert(variantTasks)
    .values(
      [0, 1].map((i) => ({ variantId: v2.variantId, taskId: v1.taskIds[i]!, position: 3 + i, maxScore: 1 })),
    )
    .returning({ id: variantTasks.id });
  const layout = [
    { variantId: v1.variantId, vt: v1.variantTaskIds, d: [-0.8, 0.4, -0.2, 0.6] },
    {
      variantId: v2.variantId,
      vt: [...v2.variantTaskIds, ...shared.map((s) => s.id)],
      d: [1.2, 0.9, -0.8, 0.4],
    },
  ];
  const u = rng(28);
  let firstPt: number | undefined = first.participantTestId;
  for (const v of layout)
    for (let p = 0; p < 60; p++) {
      const theta = (u() + u() + u() - 1.5) * 1.6;
      let ptId = firstPt;
      firstPt = undefined;
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
      const now = new Date();
      const [work] = await db
        .insert(examWorks)
        .values({
          participantTestId: ptId,
          variantId: v.variantId,
          status: 'scored',
          answerMode: 'online',
          startedAt: now,
          timeLimitSeconds: 2700,
          deadlineAt: new Date(now.getTime() + 2_700_000),
          windowEndsAt: new Date(now.getTime() + 86_400_000),
          finishedAt: now,
        })
        .returning({ id: examWorks.id });
      const scores = v.d.map((d) => (u() < 1 / (1 + Math.exp(d - theta)) ? 1 : 0));
      await db.insert(taskScores).values(
        scores.map((s, j) => ({
          examWorkId: work!.id,
          variantTaskId: v.vt[j]!,
          autoStatus: 'scored',
          autoScore: s,
          finalScore: s,
          maxScore: 1,
          status: 'auto',
        })),
      );
      const total = scores.reduce<number>((a, b) => a + b, 0);
      await db.insert(results).values({
        examWorkId: work!.id,
        participantTestId: ptId,
        diagnosticId,
        subjectTestId,
        status: 'scored',
        primaryScore: total,
        maxScore: 4,
        percent: total * 25,
        verificationCode: unique('R-'),
      });
    }
  return { diagnosticId, subjectTestId, variantIds: [v1.variantId, v2.variantId] };
}

let w: World;
let admin: Session;
beforeAll(async () => {
  w = await world();
  admin = (await signedIn(app, ['admin'])).session;
});

const BASE = '/api/reports/equating';
const query = (over: Partial<{ diagnosticId: number | string; subjectTestId: number | string }> = {}) =>
  `diagnosticId=${over.diagnosticId ?? w.diagnosticId}&subjectTestId=${over.subjectTestId ?? w.subjectTestId}`;
const get = (session: Session | null, q = query()) =>
  app.inject({ method: 'GET', url: `${BASE}?${q}`, headers: session?.headers ?? {} });
const adopt = (
  session: Session | null,
  body: unknown = { diagnosticId: w.diagnosticId, subjectTestId: w.subjectTestId },
) =>
  app.inject({
    method: 'POST',
    url: `${BASE}/adopt`,
    headers: session?.headers ?? {},
    payload: body as object,
  });
const cut = (session: Session | null, cutScores: unknown, over: object = {}) =>
  app.inject({
    method: 'PUT',
    url: `${BASE}/cutScores`,
    headers: session?.headers ?? {},
    payload: { diagnosticId: w.diagnosticId, subjectTestId: w.subjectTestId, cutScores, ...over },
  });
const stored = () =>
  app.ctx.db
    .select()
    .from(equatingTables)
    .where(
      and(eq(equatingTables.diagnosticId, w.diagnosticId), eq(equatingTables.subjectTestId, w.subjectTestId)),
    );
const audited = (action: string) =>
  app.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, action));

describe('access', () => {
  it('401 without a session', async () => {
    expect((await get(null)).statusCode).toBe(401);
    expect((await adopt(null)).statusCode).toBe(401);
    expect((await cut(null, { basic: 1, advanced: 2, high: 3 })).statusCode).toBe(401);
  });

  it('403 for other roles; an ugnik reads its own diagnostics only and never writes', async () => {
    const coordinator = await signedIn(app, ['coordinator']);
    expect((await get(coordinator.session)).statusCode).toBe(403);
    expect((await adopt(coordinator.session)).statusCode).toBe(403);
    const ugnik = await signedIn(app, ['ugnik']);
    expect((await get(ugnik.session)).statusCode).toBe(403);
    await app.ctx.db
      .update(diagnostics)
      .set({ createdBy: ugnik.user.id, createdByRole: 'ugnik' })
      .where(eq(diagnostics.id, w.diagnosticId));
    try {
      expect((await get(ugnik.session)).statusCode).toBe(200);
      expect((await adopt(ugnik.session)).statusCode).toBe(403);
      expect((await cut(ugnik.session, { basic: 1, advanced: 2, high: 3 })).statusCode).toBe(403);
    } finally {
      await app.ctx.db
        .update(diagnostics)
        .set({ createdBy: null, createdByRole: null })
        .where(eq(diagnostics.id, w.diagnosticId));
    }
    expect(await stored()).toEqual([]);
  });

  it('400 for malformed ids and bodies, 404 for unknown ones; nothing stored', async () => {
    expect((await get(admin, 'diagnosticId=x&subjectTestId=1')).statusCode).toBe(400);
    expect((await adopt(admin, { diagnosticId: 'x', subjectTestId: 1 })).statusCode).toBe(400);
    expect((await adopt(admin, { diagnosticId: w.diagnosticId })).statusCode).toBe(400);
    expect((await get(admin, query({ diagnosticId: 999_999 }))).statusCode).toBe(404);
    expect((await adopt(admin, { diagnosticId: 999_999, subjectTestId: w.subjectTestId })).statusCode).toBe(
      404,
    );
    expect((await cut(admin, { basic: 1, advanced: 2 })).statusCode).toBe(400);
    expect(
      (await cut(admin, { basic: 1, advanced: 2, high: 3 }, { subjectTestId: 999_999 })).statusCode,
    ).toBe(404);
    expect(await stored()).toEqual([]);
  });

  it('409 equating_not_adopted for cut scores before an adoption', async () => {
    const res = await cut(admin, { basic: 1, advanced: 2, high: 3 });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('equating_not_adopted');
  });
});

describe('proposal, adoption and cut scores', () => {
  it('proposes a table per variant: the reference keeps its scores, the harder variant gets more', async () => {
    const res = await get(admin);
    expect(res.statusCode).toBe(200);
    const e = res.json() as Equating;
    expect(e.unavailable).toBeNull();
    expect(e.adopted).toBeNull();
    const p = e.proposed!;
    expect(p).toMatchObject({
      method: 'irt_true_score',
      model: 'rasch_dichotomous',
      scaleMin: 0,
      scaleMax: 4,
    });
    expect(p.variants.map((v) => v.status).sort()).toEqual(['common_items', 'reference']);
    const ref = p.variants.find((v) => v.status === 'reference')!;
    expect(ref.rows.map((r) => r.scaled)).toEqual([0, 1, 2, 3, 4]);
    const other = p.variants.find((v) => v.status === 'common_items')!;
    expect(other.rows).toHaveLength(5);
    expect(other.rows[0]).toMatchObject({ primary: 0, theta: null, scaled: 0 });
    for (const r of other.rows) expect(r.csem).toBeGreaterThan(0);
    // variant 2's own tasks are harder: the same primary score is worth more on the scale
    const hard = p.variants.find((v) => v.variantId === w.variantIds[1])!;
    const easy = p.variants.find((v) => v.variantId === w.variantIds[0])!;
    for (let k = 1; k < 4; k++) expect(hard.rows[k]!.scaled).toBeGreaterThan(easy.rows[k]!.scaled);
  });

  it('withheld while grading is unfinished: nothing to adopt (409 equating_unavailable)', async () => {
    const [one] = await app.ctx.db
      .select({ id: results.id })
      .from(results)
      .where(eq(results.diagnosticId, w.diagnosticId))
      .limit(1);
    await app.ctx.db.update(results).set({ status: 'awaiting_experts' }).where(eq(results.id, one!.id));
    try {
      const e = (await get(admin)).json() as Equating;
      expect(e).toMatchObject({ proposed: null, unavailable: 'awaiting_grading' });
      const res = await adopt(admin);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('equating_unavailable');
    } finally {
      await app.ctx.db.update(results).set({ status: 'scored' }).where(eq(results.id, one!.id));
    }
    expect(await stored()).toEqual([]);
  });

  it('adopts (audited), sets cut scores (audited), shows the participants per level, re-adopts as version 2', async () => {
    const proposed = ((await get(admin)).json() as Equating).proposed!;
    const res = await adopt(admin);
    expect(res.statusCode).toBe(200);
    const e = res.json() as Equating;
    expect(e.adopted).toMatchObject({ version: 1, cutScores: null, levels: [] });
    expect(e.adopted!.tables).toEqual(proposed);
    expect(e.adopted!.adoptedBy).toBeTruthy();
    const [row] = await audited('equating.adopt');
    expect(row).toMatchObject({ entity: 'diagnostic', entityId: String(w.diagnosticId) });
    expect(row!.details).toMatchObject({ subjectTestId: w.subjectTestId, version: 1 });

    // bad cut scores: 400 with the field, nothing changed
    for (const bad of [
      { basic: 3, advanced: 2, high: 3.5 },
      { basic: 1, advanced: 2, high: 5 },
      { basic: 0, advanced: 2, high: 3 },
      { basic: 1, advanced: 2, high: 'x' },
    ]) {
      const r = await cut(admin, bad);
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toMatch(/cut_scores_invalid|validation_failed/);
    }
    expect((await stored())[0]!.cutScores).toBeNull();

    const ok = await cut(admin, { basic: 1, advanced: 2.5, high: 3.5 });
    expect(ok.statusCode).toBe(200);
    const withCuts = ok.json() as Equating;
    expect(withCuts.adopted!.cutScores).toEqual({ basic: 1, advanced: 2.5, high: 3.5 });
    const levels = withCuts.adopted!.levels;
    expect(levels.map((l) => l.level)).toEqual(['below_basic', 'basic', 'advanced', 'high']);
    expect(levels.reduce((a, l) => a + l.participants, 0)).toBe(120);
    // counted from the results: the reference variant's scores are its scaled scores
    const tables = withCuts.adopted!.tables;
    const rows = await app.ctx.db
      .select({ variantId: examWorks.variantId, primary: results.primaryScore })
      .from(results)
      .innerJoin(examWorks, eq(examWorks.id, results.examWorkId))
      .where(eq(results.diagnosticId, w.diagnosticId));
    let high = 0;
    for (const r of rows) {
      const v = tables.variants.find((x) => x.variantId === r.variantId)!;
      const scaled = Math.round(v.rows.find((x) => x.primary === Number(r.primary))!.scaled * 10) / 10;
      if (scaled >= 3.5) high++;
    }
    expect(levels[3]!.participants).toBe(high);
    const [cutRow] = await audited('equating.cut_scores');
    expect(cutRow!.details).toMatchObject({ before: null, after: { basic: 1, advanced: 2.5, high: 3.5 } });

    // re-adoption: version 2, the cut scores carried over and said so in the audit
    const again = (await adopt(admin)).json() as Equating;
    expect(again.adopted).toMatchObject({ version: 2, cutScores: { basic: 1, advanced: 2.5, high: 3.5 } });
    expect((await stored()).map((r) => r.version).sort()).toEqual([1, 2]);
    const adoptions = await audited('equating.adopt');
    expect(adoptions).toHaveLength(2);
    expect(adoptions.find((a) => (a.details as { version: number }).version === 2)!.details).toMatchObject({
      cutScoresCarried: { basic: 1, advanced: 2.5, high: 3.5 },
    });
  });
});

describe('results show the scaled score once a table is adopted', () => {
  it('the result and the results list carry the scaled score, its level and the table', async () => {
    const e = (await get(admin)).json() as Equating;
    const adopted = e.adopted!;
    expect(adopted.cutScores).not.toBeNull();
    // one participant of the non-reference variant with a primary score inside the range
    const other = adopted.tables.variants.find((v) => v.status === 'common_items')!;
    const [r] = await app.ctx.db
      .select({ ptId: results.participantTestId, primary: results.primaryScore })
      .from(results)
      .innerJoin(examWorks, eq(examWorks.id, results.examWorkId))
      .where(
        and(
          eq(results.diagnosticId, w.diagnosticId),
          eq(examWorks.variantId, other.variantId),
          eq(results.primaryScore, 2),
        ),
      )
      .limit(1);
    const row = other.rows.find((x) => x.primary === 2)!;
    const expected = {
      scaled: Math.round(row.scaled * 10) / 10,
      csem: Math.round(row.csem * 10) / 10,
      equatingId: adopted.id,
      equatingVersion: adopted.version,
      referenceNumber: adopted.tables.referenceNumber,
    };
    const one = await app.inject({
      method: 'GET',
      url: `/api/examresults/${r!.ptId}`,
      headers: admin.headers,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().primaryScore).toBe(2);
    expect(one.json().scaled).toMatchObject(expected);
    expect(['below_basic', 'basic', 'advanced', 'high']).toContain(one.json().scaled.level);
    const list = await app.inject({
      method: 'POST',
      url: '/api/examresults/participantTest/list',
      headers: admin.headers,
      payload: { page: 1, pageSize: 200, filter: { diagnosticId: w.diagnosticId } },
    });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as { participantTestId: number; scaled: unknown; primaryScore: number }[];
    expect(items.length).toBeGreaterThanOrEqual(120);
    expect(items.find((x) => x.participantTestId === r!.ptId)!.scaled).toMatchObject(expected);
    expect(items.filter((x) => x.scaled).length).toBeGreaterThanOrEqual(120);
  });

  it('a result awaiting experts has no scaled score', async () => {
    const [one] = await app.ctx.db
      .select({ id: results.id, ptId: results.participantTestId })
      .from(results)
      .where(eq(results.diagnosticId, w.diagnosticId))
      .limit(1);
    await app.ctx.db.update(results).set({ status: 'awaiting_experts' }).where(eq(results.id, one!.id));
    try {
      const res = await app.inject({
        method: 'GET',
        url: `/api/examresults/${one!.ptId}`,
        headers: admin.headers,
      });
      expect(res.json().scaled).toBeNull();
    } finally {
      await app.ctx.db.update(results).set({ status: 'scored' }).where(eq(results.id, one!.id));
    }
  });
});

describe('linking', () => {
  it('a variant sharing no task with the reference is not linked: no table', async () => {
    const db = app.ctx.db;
    // a third variant with tasks of its own, and one participant on it
    const v3 = await createVariantWithTasks(
      app,
      w.subjectTestId,
      [
        { answerType: 'number', reference: { value: 1 }, maxScore: 1 },
        { answerType: 'number', reference: { value: 1 }, maxScore: 1 },
      ],
      3,
    );
    const [pt] = await db
      .insert(participantTests)
      .values({
        diagnosticId: w.diagnosticId,
        subjectTestId: w.subjectTestId,
        testDate: '2025-01-01',
        activationCode: activationCode(),
        registrationCode: registrationCode(),
        status: 'finished',
      })
      .returning();
    const now = new Date();
    const [work] = await db
      .insert(examWorks)
      .values({
        participantTestId: pt!.id,
        variantId: v3.variantId,
        status: 'scored',
        answerMode: 'online',
        startedAt: now,
        timeLimitSeconds: 2700,
        deadlineAt: now,
        windowEndsAt: now,
        finishedAt: now,
      })
      .returning({ id: examWorks.id });
    await db.insert(taskScores).values(
      v3.variantTaskIds.map((id, j) => ({
        examWorkId: work!.id,
        variantTaskId: id,
        autoStatus: 'scored',
        autoScore: j,
        finalScore: j,
        maxScore: 1,
        status: 'auto',
      })),
    );
    await db.insert(results).values({
      examWorkId: work!.id,
      participantTestId: pt!.id,
      diagnosticId: w.diagnosticId,
      subjectTestId: w.subjectTestId,
      status: 'scored',
      primaryScore: 1,
      maxScore: 2,
      percent: 50,
      verificationCode: unique('R-'),
    });
    try {
      const e = (await get(admin)).json() as Equating;
      const third = e.proposed!.variants.find((v) => v.variantId === v3.variantId)!;
      expect(third).toMatchObject({ status: 'not_linked', rows: [] });
    } finally {
      await db.update(examWorks).set({ deletedAt: new Date() }).where(eq(examWorks.id, work!.id));
      await db.update(variants).set({ number: 99 }).where(eq(variants.id, v3.variantId));
    }
  });
});
