import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseItems } from './analyse.js';
import { analyseDif, anchoredDifficulty, etsClass, mantelHaenszel, type Grouping } from './dif.js';
import { MatrixBuilder, type ItemColumn, type ResponseMatrix, type VariantLayout } from './matrix.js';
import { emptyGroups, esf, estimateRasch } from './rasch.js';

/*
 * Mantel–Haenszel against R: fixtures/dif.csv (generate-dif.mjs: 480 reference and 320 focal
 * participants, the focal group 0.3 logit less able, two variants, task I8 scored 0–2, DIF planted
 * in I3 (1 logit harder for the focal group) and I5 (0.7 easier)) and fixtures/dif-mh.json, base
 * R's mantelhaen.test on the same strata (fixtures/dif-mh.R, committed output; R is not needed
 * here). Tolerance 1e-6.
 */
const TOL = 1e-6;
const dir = new URL('./fixtures/', import.meta.url);

interface Reference {
  tasks: {
    task: string;
    nReference: number;
    nFocal: number;
    alpha: number;
    chiSquare: number;
    p: number;
    seLogAlpha: number;
    delta: number;
  }[];
}
const reference = JSON.parse(readFileSync(new URL('dif-mh.json', dir), 'utf8')) as Reference;

const ITEMS: ItemColumn[] = Array.from({ length: 8 }, (_, i) => ({
  taskId: 101 + i,
  answerType: 'short_text',
  maxScore: i === 7 ? 2 : 1,
  options: null,
  multiple: false,
}));
const VARIANTS: VariantLayout[] = [
  { variantId: 1, number: 1, columns: [0, 1, 2, 3, 4, 5, 6, 7] },
  { variantId: 2, number: 2, columns: [0, 1, 2, 3, 4, 5, 7] },
];

function fixture(copies = 1): { m: ResponseMatrix; group: number[] } {
  const [, ...lines] = readFileSync(new URL('dif.csv', dir), 'utf8').trim().split('\n');
  const b = new MatrixBuilder(ITEMS, VARIANTS);
  const group: number[] = [];
  for (let c = 0; c < copies; c++)
    for (const line of lines) {
      const [g, v, ...cells] = line.split(',');
      const x = cells.filter((cell) => cell !== 'NA').map(Number);
      b.add(Number(v) - 1, x);
      group.push(copies === 1 ? Number(g) : c);
    }
  return { m: b.build(), group };
}

const pair = (groupOf: number[]): Grouping => ({
  kind: 'gender',
  design: 'pair',
  groups: [
    { key: 'male', label: null },
    { key: 'female', label: null },
  ],
  groupOf: Int32Array.from(groupOf),
});

describe('Mantel–Haenszel', () => {
  const { m, group } = fixture();
  const [comparison] = analyseDif(m, [pair(group)]).comparisons;

  it('matches R’s mantelhaen.test: α, χ², p, Δ and SE(ln α) per task, with the counts', () => {
    expect(comparison!.tasks).toHaveLength(8);
    reference.tasks.forEach((r, i) => {
      const t = comparison!.tasks[i]!;
      expect(t.taskId).toBe(101 + i);
      expect(t.nReference).toBe(r.nReference);
      expect(t.nFocal).toBe(r.nFocal);
      expect(Math.abs(t.mh!.alpha - r.alpha)).toBeLessThan(TOL);
      expect(Math.abs(t.mh!.chiSquare - r.chiSquare)).toBeLessThan(TOL);
      expect(Math.abs(t.mh!.p - r.p)).toBeLessThan(TOL);
      expect(Math.abs(t.mh!.delta - r.delta)).toBeLessThan(TOL);
      expect(Math.abs(t.mh!.seDelta / 2.35 - r.seLogAlpha)).toBeLessThan(TOL);
    });
  });

  it('classifies the planted DIF and leaves the other tasks at A', () => {
    const byTask = comparison!.tasks;
    expect(byTask[2]!.mh).toMatchObject({ ets: 'C', favours: 'reference' });
    // |Δ| = 1.59 ≥ 1.5 but not significantly above 1: (1.59 − 1) / (2.35 · 0.177) = 1.42 < 1.645
    expect(byTask[4]!.mh).toMatchObject({ ets: 'B', favours: 'focal' });
    for (const i of [0, 1, 3, 5, 6, 7]) expect(byTask[i]!.mh!.ets).toBe('A');
    expect(byTask.map((t) => t.flagged)).toEqual([false, false, true, false, true, false, false, false]);
    expect(comparison).toMatchObject({ grouping: 'gender', group: 'female', reference: 'male' });
    expect(comparison).toMatchObject({ nFocal: 320, nReference: 480, checked: true });
  });

  it('the standardized mean difference shows the planted direction', () => {
    expect(comparison!.tasks[2]!.smd!).toBeLessThan(-0.1);
    expect(comparison!.tasks[4]!.smd!).toBeGreaterThan(0.1);
    expect(Math.abs(comparison!.tasks[0]!.smd!)).toBeLessThan(0.1);
  });

  it('needs every stratum of at least 2 and a positive estimate', () => {
    expect(mantelHaenszel([{ a: 1, b: 0, c: 0, d: 0 }])).toBeNull();
    expect(mantelHaenszel([{ a: 3, b: 0, c: 3, d: 0 }])).toBeNull();
    // one 2 × 2 table: α is the odds ratio (3·4)/(2·1) = 6
    const one = mantelHaenszel([{ a: 3, b: 2, c: 1, d: 4 }])!;
    expect(one.alpha).toBeCloseTo(6, 12);
    expect(one.delta).toBeCloseTo(-2.35 * Math.log(6), 12);
  });
});

describe('ETS classes', () => {
  it('A below 1 or when not significant, C from 1.5 and significantly above 1, B otherwise', () => {
    expect(etsClass({ delta: -0.99, seDelta: 0.01, p: 1e-9 })).toBe('A');
    expect(etsClass({ delta: -2, seDelta: 0.1, p: 0.06 })).toBe('A');
    expect(etsClass({ delta: 1.2, seDelta: 0.1, p: 0.001 })).toBe('B');
    expect(etsClass({ delta: 1.6, seDelta: 0.1, p: 0.001 })).toBe('C');
    // 1.6 but not significantly above 1: (1.6 − 1) / 0.4 = 1.5 < 1.645
    expect(etsClass({ delta: -1.6, seDelta: 0.4, p: 0.001 })).toBe('B');
  });
});

describe('Rasch check (other tasks anchored)', () => {
  it('finds the planted differences and flags only them', () => {
    const { m, group } = fixture();
    const tasks = analyseDif(m, [pair(group)]).comparisons[0]!.tasks;
    expect(tasks[2]!.rasch!.difference).toBeGreaterThan(0.6);
    expect(tasks[2]!.rasch!.difference).toBeLessThan(1.6);
    expect(tasks[2]!.rasch!.flagged).toBe(true);
    expect(tasks[4]!.rasch!.difference).toBeLessThan(-0.5);
    expect(tasks[4]!.rasch!.flagged).toBe(true);
    for (const i of [0, 1, 3, 5, 6, 7]) expect(tasks[i]!.rasch!.flagged).toBe(false);
    const r = tasks[2]!.rasch!;
    expect(r.difference).toBeCloseTo(r.focal - r.reference, 12);
    expect(r.z).toBeCloseTo(r.difference / r.se, 12);
  });

  it('on a group that is everyone, the estimate is the CML difficulty itself', () => {
    // two identical copies of the data as the two groups: each group is the whole sample
    const { m, group } = fixture(2);
    const tasks = analyseDif(m, [pair(group)]).comparisons[0]!.tasks;
    // the dichotomised full-marks calibration of the data by rasch.ts
    const solved = (x: number, i: number): number => (x >= ITEMS[i]!.maxScore ? 1 : 0);
    const [, ...lines] = readFileSync(new URL('dif.csv', dir), 'utf8').trim().split('\n');
    const groups = VARIANTS.map((v) => emptyGroups(v.columns));
    for (const line of lines) {
      const [, v, ...cells] = line.split(',');
      const g = groups[Number(v) - 1]!;
      const x = VARIANTS[Number(v) - 1]!.columns.map((c) => solved(Number(cells[c]), c));
      const r = x.reduce((a, b) => a + b, 0);
      g.count[r]!++;
      x.forEach((s, j) => (g.ones[r * x.length + j]! += s));
    }
    const fit = estimateRasch(8, groups);
    tasks.forEach((t, i) => {
      expect(Math.abs(t.rasch!.focal - fit.difficulty[i]!)).toBeLessThan(1e-6);
      expect(Math.abs(t.rasch!.reference - fit.difficulty[i]!)).toBeLessThan(1e-6);
      expect(t.rasch!.flagged).toBe(false);
      expect(t.mh!.ets).toBe('A');
    });
  });

  it('has no estimate when a group solved the task at every informative score or none', () => {
    const others = esf([1, 2]).subarray(0, 2);
    expect(anchoredDifficulty([{ others, count: [0, 5, 5], solved: [0, 0, 0] }])).toBeNull();
    expect(anchoredDifficulty([{ others, count: [0, 5, 5], solved: [0, 5, 5] }])).toBeNull();
    expect(anchoredDifficulty([{ others, count: [0, 5, 5], solved: [0, 2, 3] }])).not.toBeNull();
  });
});

describe('groups and minimum sizes', () => {
  const { m, group } = fixture();

  it('gives counts but no flag below the minimum group size', () => {
    const [c] = analyseDif(m, [pair(group)], { minGroup: 400 }).comparisons;
    expect(c).toMatchObject({ nFocal: 320, nReference: 480, checked: false });
    for (const t of c!.tasks) {
      expect(t).toMatchObject({ mh: null, rasch: null, flagged: false });
      expect(t.nFocal).toBeGreaterThan(0);
    }
  });

  it('compares each of several groups with all the others; unknown groups take no part', () => {
    // reference split into schools 0 and 1 by row parity, focal = school 2; every 10th row unknown
    const groupOf = group.map((g, p) => (p % 10 === 9 ? -1 : g === 1 ? 2 : p % 2));
    const known = groupOf.filter((g) => g >= 0).length;
    const schools: Grouping = {
      kind: 'school',
      design: 'one_vs_rest',
      groups: [
        { key: '7', label: 'Школа 7' },
        { key: '8', label: 'Школа 8' },
        { key: '9', label: 'Школа 9' },
        { key: '10', label: 'Школа без участников' },
      ],
      groupOf: Int32Array.from(groupOf),
    };
    const { comparisons } = analyseDif(m, [schools]);
    expect(comparisons.map((c) => c.group)).toEqual(['7', '8', '9']);
    for (const c of comparisons) {
      expect(c.reference).toBeNull();
      expect(c.nFocal + c.nReference).toBe(known);
      expect(c.tasks[0]!.nFocal + c.tasks[0]!.nReference).toBe(known);
    }
    // school 9 is the focal group with the planted DIF
    expect(comparisons[2]!.tasks[2]!.mh!.favours).toBe('reference');
    expect(comparisons[2]!.tasks[2]!.flagged).toBe(true);
  });

  it('a grouping with one group present gives no comparison', () => {
    const only = pair(group.map(() => 0));
    expect(analyseDif(m, [only]).comparisons).toEqual([]);
  });
});

describe('Wright map per variant (analyse.ts)', () => {
  it('holds each variant’s participants and only its tasks, under both models', () => {
    const { m } = fixture();
    // the same answers with I8 cut to right/wrong: the dichotomous model
    const scores = Float32Array.from(m.scores);
    for (let p = 0; p < m.persons; p++) {
      const j = m.variants[m.variantOf[p]!]!.columns.indexOf(7);
      scores[p * m.width + j] = Math.min(scores[p * m.width + j]!, 1);
    }
    const dichotomous = {
      ...m,
      scores,
      items: m.items.map((it, i) => (i === 7 ? { ...it, maxScore: 1 } : it)),
    };
    for (const [matrix, model] of [
      [m, 'partial_credit'],
      [dichotomous, 'rasch_dichotomous'],
    ] as const) {
      const a = analyseItems(matrix);
      expect(a.rasch!.model).toBe(model);
      const persons = (bins: { persons: number }[]) => bins.reduce((s, b) => s + b.persons, 0);
      const tasks = (bins: { taskIds: number[] }[]) => bins.flatMap((b) => b.taskIds).sort();
      expect(a.variants.map((v) => persons(v.wrightMap!))).toEqual([400, 400]);
      expect(tasks(a.variants[0]!.wrightMap!)).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
      expect(tasks(a.variants[1]!.wrightMap!)).toEqual([101, 102, 103, 104, 105, 106, 108]);
      expect(persons(a.rasch!.wrightMap)).toBe(800);
    }
  });
});
