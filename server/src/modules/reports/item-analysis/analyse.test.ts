import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseItems } from './analyse.js';
import { choiceCode, MatrixBuilder, type ItemColumn, type VariantLayout } from './matrix.js';

/*
 * The classical figures on a 6 × 4 matrix worked by hand (one variant, max scores 1, 1, 2, 1):
 *
 *          t1 t2 t3 t4   total  percent
 *   p1      1  1  2  1     5     1.0
 *   p2      1  1  1  0     3     0.6
 *   p3      1  0  2  1     4     0.8
 *   p4      0  1  0  0     1     0.2
 *   p5      1  0  1  1     3     0.6
 *   p6      0  0  0  0     0     0.0
 *
 * Sample variances: t1 4/15, t2 3/10, t3 4/5, t4 3/10 (sum 5/3); total 52/15.
 * α = 4/3 · (1 − (5/3)/(52/15)) = 4/3 · 27/52 = 9/13.
 * Without t1: totals 4 2 3 1 2 0 (variance 2), item variances 3/10 + 4/5 + 3/10 = 7/5,
 *   α = 3/2 · (1 − 0.7) = 0.45.
 * Corrected point-biserial of t1: x = 1 1 1 0 1 0 against the rest 4 2 3 1 2 0:
 *   Σ(x − x̄)(R − R̄) = 3, Σ(x − x̄)² = 4/3, Σ(R − R̄)² = 10, r = 3/√(40/3).
 * Upper–lower 27 %: g = round(0.27 · 6) = 2; lower p6, p4; upper p1, p3 (by percent):
 *   t1 (2 − 0)/2 = 1, t2 (1 − 1)/2 = 0, t3 (4 − 0)/(2 · 2) = 1, t4 (2 − 0)/2 = 1.
 */
const ROWS = [
  [1, 1, 2, 1],
  [1, 1, 1, 0],
  [1, 0, 2, 1],
  [0, 1, 0, 0],
  [1, 0, 1, 1],
  [0, 0, 0, 0],
];
const opts = (...keys: boolean[]) => keys.map((key, i) => ({ id: `o${i + 1}`, key }));
const ITEMS: ItemColumn[] = [
  {
    taskId: 11,
    answerType: 'single_choice',
    maxScore: 1,
    options: opts(true, false, false),
    multiple: false,
  },
  {
    taskId: 12,
    answerType: 'multiple_choice',
    maxScore: 1,
    options: opts(true, false, true),
    multiple: true,
  },
  { taskId: 13, answerType: 'short_text', maxScore: 2, options: null, multiple: false },
  { taskId: 14, answerType: 'number', maxScore: 1, options: null, multiple: false },
];
const ONE_VARIANT: VariantLayout[] = [{ variantId: 1, number: 1, columns: [0, 1, 2, 3] }];
/** What each participant chose in the two choice tasks. */
const SINGLE = ['o1', 'o1', 'o1', 'o2', 'o1', null];
const MULTIPLE = [['o1', 'o3'], ['o1', 'o3'], ['o1'], ['o1', 'o3'], ['o2'], []];

function handMatrix() {
  const b = new MatrixBuilder(ITEMS, ONE_VARIANT);
  ROWS.forEach((row, p) =>
    b.add(0, row, [choiceCode(ITEMS[0]!, SINGLE[p]), choiceCode(ITEMS[1]!, MULTIPLE[p]), -1, -1]),
  );
  return b.build();
}

/** Two-pass textbook formulas, independent of the one-pass sums of the implementation. */
const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const sampleVar = (x: number[]) => {
  const m = mean(x);
  return x.reduce((a, b) => a + (b - m) ** 2, 0) / (x.length - 1);
};
const pearson = (x: number[], y: number[]) => {
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  x.forEach((xi, i) => {
    sxy += (xi - mx) * (y[i]! - my);
    sxx += (xi - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
};

describe('classical figures on the hand-worked 6 × 4 matrix', () => {
  const a = analyseItems(handMatrix());
  const col = (j: number) => ROWS.map((r) => r[j]!);
  const totals = ROWS.map((r) => r.reduce((s, x) => s + x, 0));

  it('facility: mean score ÷ max score', () => {
    expect(a.participants).toBe(6);
    expect(a.tasks.map((t) => t.n)).toEqual([6, 6, 6, 6]);
    expect(a.tasks[0]!.facility).toBeCloseTo(4 / 6, 12);
    expect(a.tasks[1]!.facility).toBeCloseTo(3 / 6, 12);
    expect(a.tasks[2]!.facility).toBeCloseTo(6 / 12, 12);
    expect(a.tasks[3]!.facility).toBeCloseTo(3 / 6, 12);
    expect(a.tasks[2]!.meanScore).toBeCloseTo(1, 12);
    expect(a.tasks[2]!.sd).toBeCloseTo(Math.sqrt(0.8), 12);
    expect(a.tasks[2]!.fullMarks).toBeCloseTo(2 / 6, 12);
  });

  it('corrected point-biserial: the task against the total without it', () => {
    expect(a.tasks[0]!.discrimination).toBeCloseTo(3 / Math.sqrt(40 / 3), 12);
    ROWS[0]!.forEach((_, j) => {
      const rest = totals.map((t, p) => t - ROWS[p]![j]!);
      expect(a.tasks[j]!.discrimination).toBeCloseTo(pearson(col(j), rest), 12);
    });
  });

  it("Cronbach's α and α-if-deleted", () => {
    expect(a.alpha).toBeCloseTo(9 / 13, 12);
    expect(a.variants[0]!.alpha).toBeCloseTo(9 / 13, 12);
    expect(a.tasks[0]!.alphaIfDeleted).toBeCloseTo(0.45, 12);
    const k = 3;
    ROWS[0]!.forEach((_, j) => {
      const others = [0, 1, 2, 3].filter((x) => x !== j);
      const rest = totals.map((t, p) => t - ROWS[p]![j]!);
      const expected =
        (k / (k - 1)) * (1 - others.reduce((s, o) => s + sampleVar(col(o)), 0) / sampleVar(rest));
      expect(a.tasks[j]!.alphaIfDeleted).toBeCloseTo(expected, 12);
    });
  });

  it('upper–lower 27 % index', () => {
    expect(a.tasks.map((t) => t.upperLower)).toEqual([1, 0, 1, 1]);
  });

  it('score distributions of the tasks and of the totals', () => {
    expect(a.tasks[2]!.scoreDistribution).toEqual([
      { score: 0, count: 2 },
      { score: 1, count: 2 },
      { score: 2, count: 2 },
    ]);
    expect(a.variants[0]!.totalDistribution).toEqual([
      { score: 0, count: 1 },
      { score: 1, count: 1 },
      { score: 3, count: 2 },
      { score: 4, count: 1 },
      { score: 5, count: 1 },
    ]);
    expect(a.variants[0]!.meanScore).toBeCloseTo(16 / 6, 12);
    expect(a.variants[0]!.sd).toBeCloseTo(Math.sqrt(52 / 15), 12);
  });

  it('distractors: the share choosing each option, overall and in the upper and lower groups', () => {
    expect(a.tasks[0]!.distractors).toEqual({
      options: [
        { option: 'o1', text: '', key: true, share: 4 / 6, upper: 1, lower: 0 },
        { option: 'o2', text: '', key: false, share: 1 / 6, upper: 0, lower: 0.5 },
        { option: 'o3', text: '', key: false, share: 0, upper: 0, lower: 0 },
      ],
      noAnswer: 1 / 6,
    });
    // multiple choice: each chosen option counts; an empty choice is no answer
    expect(a.tasks[1]!.distractors).toEqual({
      options: [
        { option: 'o1', text: '', key: true, share: 4 / 6, upper: 1, lower: 0.5 },
        { option: 'o2', text: '', key: false, share: 1 / 6, upper: 0, lower: 0 },
        { option: 'o3', text: '', key: true, share: 3 / 6, upper: 0.5, lower: 0.5 },
      ],
      noAnswer: 1 / 6,
    });
    expect(a.tasks[2]!.distractors).toBeNull();
  });
});

describe('flags', () => {
  it('marks tasks no one or everyone solves and negative discrimination', () => {
    const items: ItemColumn[] = [0, 1, 2, 3].map((i) => ({
      taskId: i + 1,
      answerType: 'number',
      maxScore: i === 3 ? 2 : 1,
      options: null,
      multiple: false,
    }));
    const b = new MatrixBuilder(items, [{ variantId: 7, number: 1, columns: [0, 1, 2, 3] }]);
    // task 1 all right, task 2 right for the weakest only, task 4 never full marks (at most 1 of 2)
    const rows = [
      [1, 0, 1, 1],
      [1, 0, 1, 1],
      [1, 0, 1, 0],
      [1, 1, 0, 0],
      [1, 1, 0, 1],
      [1, 1, 0, 0],
    ];
    rows.forEach((r) => b.add(0, r));
    const a = analyseItems(b.build());
    expect(a.tasks[0]!.flags).toContain('all_solved');
    expect(a.tasks[0]!.discrimination).toBeNull();
    expect(a.tasks[1]!.flags).toContain('negative_discrimination');
    expect(a.tasks[1]!.discrimination).toBeLessThan(0);
    expect(a.tasks[3]!.flags).toContain('none_solved');
    expect(a.tasks[3]!.facility).toBeCloseTo(3 / 12, 12);
    expect(a.tasks[2]!.flags).not.toContain('all_solved');
    expect(a.tasks[2]!.flags).not.toContain('none_solved');
    // tasks without a finite difficulty stay out of the calibration
    expect(a.rasch?.excludedTaskIds).toEqual(expect.arrayContaining([1, 4]));
    expect(a.tasks[0]!.rasch).toBeNull();
  });

  it('an empty matrix has no figures but its tasks', () => {
    const a = analyseItems(new MatrixBuilder(ITEMS, ONE_VARIANT).build());
    expect(a.participants).toBe(0);
    expect(a.alpha).toBeNull();
    expect(a.tasks.map((t) => [t.n, t.facility, t.discrimination])).toEqual([
      [0, null, null],
      [0, null, null],
      [0, null, null],
      [0, null, null],
    ]);
    expect(a.rasch).toBeNull();
  });
});

// ---------------------------------------------------------------- Rasch through the matrix

interface Fixture {
  file: string;
  difficulty: number[];
  se: number[];
  infitMSQ: number[];
  outfitMSQ: number[];
}
const dir = new URL('./fixtures/', import.meta.url);
const reference = JSON.parse(readFileSync(new URL('erm-reference.json', dir), 'utf8')) as Record<
  'complete' | 'linked',
  Fixture
>;
const csvRows = (file: string) =>
  readFileSync(new URL(file, dir), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').map((c) => (c === 'NA' ? null : Number(c))));

const dichotomous = (m: number): ItemColumn[] =>
  Array.from({ length: m }, (_, i) => ({
    taskId: 100 + i,
    answerType: 'single_choice',
    maxScore: 1,
    options: null,
    multiple: false,
  }));

describe('Rasch calibration of the matrix against eRm', () => {
  it('one variant (complete fixture): difficulties, standard errors, infit and outfit', () => {
    const ref = reference.complete;
    const rows = csvRows(ref.file);
    const b = new MatrixBuilder(dichotomous(10), [
      { variantId: 1, number: 1, columns: [...Array(10).keys()] },
    ]);
    rows.forEach((r) => b.add(0, r as number[]));
    const a = analyseItems(b.build());
    expect(a.rasch).toMatchObject({ linking: 'common_items', converged: true, excludedTaskIds: [] });
    a.tasks.forEach((t, i) => {
      expect(Math.abs(t.rasch!.difficulty - ref.difficulty[i]!)).toBeLessThan(1e-4);
      expect(Math.abs(t.rasch!.se - ref.se[i]!)).toBeLessThan(1e-4);
      expect(Math.abs(t.rasch!.infit - ref.infitMSQ[i]!)).toBeLessThan(1e-4);
      expect(Math.abs(t.rasch!.outfit - ref.outfitMSQ[i]!)).toBeLessThan(1e-4);
    });
  });

  it('two variants sharing four tasks (linked fixture) are calibrated on one scale', () => {
    const ref = reference.linked;
    const rows = csvRows(ref.file);
    const v1 = [0, 1, 2, 3, 4, 5, 6, 7];
    const v2 = [4, 5, 6, 7, 8, 9, 10, 11];
    const b = new MatrixBuilder(dichotomous(12), [
      { variantId: 1, number: 1, columns: v1 },
      { variantId: 2, number: 2, columns: v2 },
    ]);
    rows.forEach((r) => {
      const first = r[0] !== null;
      b.add(
        first ? 0 : 1,
        (first ? v1 : v2).map((c) => r[c]!),
      );
    });
    const a = analyseItems(b.build());
    expect(a.rasch?.linking).toBe('common_items');
    a.tasks.forEach((t, i) => {
      expect(Math.abs(t.rasch!.difficulty - ref.difficulty[i]!)).toBeLessThan(1e-4);
      expect(Math.abs(t.rasch!.se - ref.se[i]!)).toBeLessThan(1e-4);
      expect(Math.abs(t.rasch!.infit - ref.infitMSQ[i]!)).toBeLessThan(1e-4);
      expect(Math.abs(t.rasch!.outfit - ref.outfitMSQ[i]!)).toBeLessThan(1e-4);
    });
    // the variant with the harder tasks is expected to score less at every ability
    const [e1, e2] = a.variants.map((v) => v.expected);
    expect(a.variants[1]!.meanDifficulty!).toBeGreaterThan(a.variants[0]!.meanDifficulty!);
    e1!.forEach((p, k) => expect(e2![k]!.percent).toBeLessThan(p.percent));
    // Wright map: every participant and every calibrated task in one bin
    const map = a.rasch!.wrightMap;
    expect(map.reduce((s, bin) => s + bin.persons, 0)).toBe(rows.length);
    expect(map.flatMap((bin) => bin.taskIds).sort()).toEqual(a.tasks.map((t) => t.taskId).sort());
  });

  it('variants with no task in common are placed by equal mean ability (random groups)', () => {
    const ref = csvRows(reference.complete.file);
    // the same answers to tasks 0–4 in variant 1 and to 5–9 in variant 2: equal difficulties
    const b = new MatrixBuilder(dichotomous(10), [
      { variantId: 1, number: 1, columns: [0, 1, 2, 3, 4] },
      { variantId: 2, number: 2, columns: [5, 6, 7, 8, 9] },
    ]);
    ref.forEach((r) => {
      b.add(0, r.slice(0, 5) as number[]);
      b.add(1, r.slice(0, 5) as number[]);
    });
    const a = analyseItems(b.build());
    expect(a.rasch?.linking).toBe('random_groups');
    for (let i = 0; i < 5; i++)
      expect(a.tasks[i]!.rasch!.difficulty).toBeCloseTo(a.tasks[i + 5]!.rasch!.difficulty, 9);
    expect(a.variants[0]!.expected).toEqual(a.variants[1]!.expected);
  });

  it('a task with three or more scores makes it the partial credit model, not a cut at full marks', () => {
    const items: ItemColumn[] = [
      ...dichotomous(3),
      { taskId: 200, answerType: 'cloze', maxScore: 2, options: null, multiple: false },
    ];
    const build = (scores: number[][]) => {
      const b = new MatrixBuilder(items, [{ variantId: 1, number: 1, columns: [0, 1, 2, 3] }]);
      scores.forEach((r) => b.add(0, r));
      return analyseItems(b.build());
    };
    const rows = csvRows(reference.complete.file).map((r) => r.slice(0, 4) as number[]);
    const whole = build(rows.map((r) => [r[0]!, r[1]!, r[2]!, r[3]! * 2]));
    expect(whole.rasch?.model).toBe('rasch_dichotomous');
    // half marks (1 of 2) now differ from a 0: the task gets two thresholds
    const half = build(rows.map((r) => [r[0]!, r[1]!, r[2]!, r[3]! * 2 || (r[0]! ? 1 : 0)]));
    expect(half.rasch?.model).toBe('partial_credit');
    expect(half.tasks[3]!.rasch!.thresholds!.map((t) => t.score)).toEqual([1, 2]);
    expect(half.tasks[0]!.rasch!.thresholds!.map((t) => t.score)).toEqual([1]);
    expect(half.tasks[3]!.rasch!.difficulty).not.toBeCloseTo(whole.tasks[3]!.rasch!.difficulty, 2);
  });
});

// ---------------------------------------------------------------- partial credit through the matrix

interface PcmModelRef {
  loglik: number;
  seBeta: number[];
  categories: number[];
  thresholds: number[];
  seThresholds: number[];
  locations: number[];
  outfitMSQ: number[];
  infitMSQ: number[];
  outfitZ: number[];
  infitZ: number[];
}
const pcmReference = JSON.parse(readFileSync(new URL('erm-pcm-reference.json', dir), 'utf8')) as Record<
  'mixed' | 'unused',
  { file: string; PCM: PcmModelRef }
>;
const partial = (maxScores: number[]): ItemColumn[] =>
  maxScores.map((maxScore, i) => ({
    taskId: 300 + i,
    answerType: 'cloze',
    maxScore,
    options: null,
    multiple: false,
  }));

/** Each task's figures against eRm's PCM (thresholds in eRm's order, item by item). */
function expectPcm(a: ReturnType<typeof analyseItems>, ref: PcmModelRef) {
  expect(a.rasch).toMatchObject({ model: 'partial_credit', converged: true, excludedTaskIds: [] });
  expect(Math.abs(a.rasch!.logLikelihood - ref.loglik)).toBeLessThan(1e-4);
  let at = 0;
  a.tasks.forEach((t, i) => {
    const r = t.rasch!;
    const m = ref.categories[i]!;
    expect(r.thresholds).toHaveLength(m);
    r.thresholds!.forEach((x, h) => {
      expect(Math.abs(x.threshold - ref.thresholds[at + h]!)).toBeLessThan(1e-4);
      expect(Math.abs(x.se - ref.seThresholds[at + h]!)).toBeLessThan(1e-4);
    });
    expect(Math.abs(r.difficulty - ref.locations[i]!)).toBeLessThan(1e-4);
    // the location is −β_im / m: its standard error is eRm's se.beta of the last category over m
    expect(Math.abs(r.se - ref.seBeta[at + m - 1]! / m)).toBeLessThan(1e-4);
    expect(Math.abs(r.infit - ref.infitMSQ[i]!)).toBeLessThan(1e-4);
    expect(Math.abs(r.outfit - ref.outfitMSQ[i]!)).toBeLessThan(1e-4);
    expect(Math.abs(r.infitT! - ref.infitZ[i]!)).toBeLessThan(1e-4);
    expect(Math.abs(r.outfitT! - ref.outfitZ[i]!)).toBeLessThan(1e-4);
    at += m;
  });
}

describe('partial credit model of the matrix against eRm’s PCM', () => {
  it('one variant, tasks of 3 and 2 points (mixed fixture)', () => {
    const ref = pcmReference.mixed;
    const b = new MatrixBuilder(partial([3, 3, 3, 3, 2, 2, 2, 2]), [
      { variantId: 1, number: 1, columns: [...Array(8).keys()] },
    ]);
    csvRows(ref.file).forEach((r) => b.add(0, r as number[]));
    const a = analyseItems(b.build());
    expectPcm(a, ref.PCM);
    expect(a.tasks[0]!.rasch!.thresholds!.map((t) => t.score)).toEqual([1, 2, 3]);
    expect(a.tasks[7]!.rasch!.thresholds!.map((t) => t.score)).toEqual([1, 2]);
    // expected points at an ability: the model's, not full marks × max
    const e = a.variants[0]!.expected;
    for (let k = 1; k < e.length; k++) expect(e[k]!.percent).toBeGreaterThan(e[k - 1]!.percent);
    const map = a.rasch!.wrightMap;
    expect(map.reduce((s, bin) => s + bin.persons, 0)).toBe(400);
  });

  it('two variants sharing two tasks, a top score nobody reached and a lowest score nobody got', () => {
    const ref = pcmReference.unused;
    const v1 = [0, 1, 2, 3];
    const v2 = [0, 1, 4, 5];
    const b = new MatrixBuilder(partial([3, 3, 3, 3, 2, 3]), [
      { variantId: 1, number: 1, columns: v1 },
      { variantId: 2, number: 2, columns: v2 },
    ]);
    csvRows(ref.file).forEach((r) => {
      const first = r[2] !== null;
      b.add(
        first ? 0 : 1,
        (first ? v1 : v2).map((c) => r[c]!),
      );
    });
    const a = analyseItems(b.build());
    expect(a.rasch?.linking).toBe('common_items');
    expectPcm(a, ref.PCM);
    // task 2 (max 3) was never given 3; task 3 never 0: its steps reach 2 and 3
    expect(a.tasks[1]!.rasch!.thresholds!.map((t) => t.score)).toEqual([1, 2]);
    expect(a.tasks[2]!.rasch!.thresholds!.map((t) => t.score)).toEqual([2, 3]);
  });

  it('half points are categories; a score only extreme participants got is merged into the one below', () => {
    const ref = csvRows(pcmReference.mixed.file) as number[][];
    const build = (rows: number[][], maxScores: number[]) => {
      const b = new MatrixBuilder(partial(maxScores), [
        { variantId: 1, number: 1, columns: [...Array(8).keys()] },
      ]);
      rows.forEach((r) => b.add(0, r));
      return analyseItems(b.build());
    };
    const whole = build(ref, [3, 3, 3, 3, 2, 2, 2, 2]);
    const halves = build(
      ref.map((r) => r.map((x, i) => (i === 4 ? x / 2 : x))),
      [3, 3, 3, 3, 1, 2, 2, 2],
    );
    expect(halves.tasks[4]!.rasch!.thresholds!.map((t) => t.score)).toEqual([0.5, 1]);
    whole.tasks.forEach((t, i) =>
      expect(halves.tasks[i]!.rasch!.difficulty).toBeCloseTo(t.rasch!.difficulty, 10),
    );
    // task 5's 2 points: only for one extra participant with full marks everywhere (an extreme
    // score, no information), everyone else's 2 recorded as 1 — the same as a task of 0–1
    const capped = ref.map((r) => r.map((x, i) => (i === 4 ? Math.min(x, 1) : x)));
    const merged = build([...capped, [3, 3, 3, 3, 2, 2, 2, 2]], [3, 3, 3, 3, 2, 2, 2, 2]);
    const plain = build(capped, [3, 3, 3, 3, 1, 2, 2, 2]);
    expect(merged.tasks[4]!.rasch!.thresholds!.map((t) => t.score)).toEqual([1]);
    plain.tasks.forEach((t, i) =>
      expect(merged.tasks[i]!.rasch!.difficulty).toBeCloseTo(t.rasch!.difficulty, 8),
    );
  });
});
