import type { ItemAnalysisTask } from '@attesta/contract';
import type { ItemAnalysisFigures } from './analyse.js';
import { categoryProbabilities } from './polytomous.js';

/*
 * IRT true-score equating of the variants of a subject test (docs/item-analysis.md, "Equating"),
 * a pure function of the item analysis' calibration: every task's parameters are already on one
 * scale (concurrent CML calibration, variants linked through their common tasks).
 *
 * For each variant X and each primary score x:
 *   1. θ(x): the ability whose expected score on X is x, T_X(θ) = x, by bisection (T_X, the
 *      variant's test characteristic curve, Σ_i Σ_h P_ih(θ) s_ih over its tasks, strictly
 *      increasing). A score at or below T_X's lower bound (0 for tasks scored from 0) or at or
 *      above its upper bound (the variant's max) has no finite θ: it is equated to the reference's
 *      bound (0 → the reference's lowest, full → the reference's max) and `theta` is null;
 *   2. the scaled score S = T_R(θ(x)): the expected (true) score on the reference variant R at that
 *      ability. The scale is thus the reference variant's points: the participants of R keep their
 *      primary score exactly (T_R(θ(x)) = x), every other variant's score becomes "the points this
 *      participant would be expected to get on R", bounded by R's max, in a unit teachers know;
 *   3. a conditional standard error of S by the Lord–Wingersky recursion: at θ(x) the
 *      distribution of the primary score on X (tasks added one at a time, each by its category
 *      probabilities) is read through X's table, and the CSEM is the standard deviation of the
 *      scaled scores it gives — the spread of the scaled score of participants of that ability,
 *      bounds and steps of the table included. For 0 and full marks (θ infinite) it is taken at the
 *      θ of a score half a step inside the range. (`csem: 'delta'` gives the delta-method value
 *      T_R′(θ)·√Var(x|θ)/T_X′(θ) instead, with T′ = Σ Cov(s, h); it covers less in the recovery
 *      test, see equating.test.ts.)
 *
 * A task's curve: under the PCM its categories and their lowest scores (thresholds τ_h; β_h =
 * −Σ_{l≤h} τ_l); under the dichotomous model P(full) at its difficulty, scored full marks or the
 * lowest score observed on it. A task left out of the calibration (everybody or nobody solved it)
 * adds its observed mean score as a constant.
 *
 * Linking: variants sharing a calibrated task (directly or through others) are one linked part.
 * The reference is the variant with most participants (ties: the lowest number) of the part with
 * most participants. A variant outside that part is `not_linked` and gets no table — unless the
 * caller states that variants were handed out at random (`randomGroups`), when the calibration's
 * equal-mean-ability placement of the parts stands in for the link (`random_groups`).
 */

export type EquatingStatus = 'reference' | 'common_items' | 'random_groups' | 'not_linked';

export interface EquatingRow {
  /** Primary score on the variant. */
  primary: number;
  /** The ability of that score (logits); null for 0 and full marks (infinite). */
  theta: number | null;
  /** Equated score on the reference variant's scale (points of the reference variant). */
  scaled: number;
  /** Conditional standard error of `scaled` (points of the scale). */
  csem: number;
}

export interface EquatingVariant {
  variantId: number;
  number: number;
  participants: number;
  maxScore: number;
  status: EquatingStatus;
  /** Rows from 0 to the max in steps of `step`; empty when not linked. */
  rows: EquatingRow[];
}

export interface EquatingTables {
  method: 'irt_true_score';
  model: 'rasch_dichotomous' | 'partial_credit';
  referenceVariantId: number;
  referenceNumber: number;
  /** The scale's range: the reference variant's lowest and highest expected score. */
  scaleMin: number;
  scaleMax: number;
  /** Primary scores are tabled at multiples of this (1 for whole points, 0.5 for halves, else 0.1). */
  step: number;
  variants: EquatingVariant[];
}

export type EquatingFailure = 'no_calibration' | 'no_participants';

/** A task's score curve: category scores s_0..s_m and β_1..β_m (P_h ∝ exp(hθ + β_h)). */
export interface TaskCurve {
  scores: number[];
  beta: number[];
}

/** A variant's curve: calibrated tasks plus a constant for tasks left out. */
interface VariantCurve {
  tasks: TaskCurve[];
  constant: number;
  low: number;
  high: number;
}

const STEP_SAME = 1e-6;

/** The curve of a task from its figures; null when it was left out of the calibration. */
export function taskCurve(t: ItemAnalysisTask): TaskCurve | null {
  const r = t.rasch;
  if (!r) return null;
  const lowest = t.scoreDistribution.length ? t.scoreDistribution[0]!.score : 0;
  if (r.thresholds && r.thresholds.length) {
    const beta: number[] = [];
    let sum = 0;
    for (const th of r.thresholds) {
      sum -= th.threshold;
      beta.push(sum);
    }
    return {
      scores: [Math.min(lowest, r.thresholds[0]!.score), ...r.thresholds.map((th) => th.score)],
      beta,
    };
  }
  return { scores: [lowest < t.maxScore - STEP_SAME ? lowest : 0, t.maxScore], beta: [-r.difficulty] };
}

/**
 * At θ: the expected score T(θ), its derivative T′(θ) = Σ Cov(s, h) and the score variance
 * Σ Var(s) of the tasks.
 */
export function curveAt(tasks: TaskCurve[], theta: number) {
  let expected = 0;
  let slope = 0;
  let variance = 0;
  const p = new Float64Array(16);
  for (const t of tasks) {
    const m = t.beta.length;
    const q = m + 1 <= p.length ? p : new Float64Array(m + 1);
    categoryProbabilities(theta, t.beta, q);
    let es = 0;
    let eh = 0;
    let ess = 0;
    let esh = 0;
    for (let h = 0; h <= m; h++) {
      const s = t.scores[h]!;
      es += q[h]! * s;
      eh += q[h]! * h;
      ess += q[h]! * s * s;
      esh += q[h]! * s * h;
    }
    expected += es;
    slope += esh - es * eh;
    variance += Math.max(ess - es * es, 0);
  }
  return { expected, slope, variance };
}

/**
 * Lord–Wingersky: the distribution of the primary score at θ over the grid 0, step, 2·step, … (n
 * points), tasks added one at a time; `shift` grid steps of constant score (tasks left out).
 */
export function scoreDistribution(tasks: TaskCurve[], theta: number, step: number, shift: number, n: number) {
  let dist = new Float64Array(n);
  dist[Math.min(Math.max(shift, 0), n - 1)] = 1;
  const p = new Float64Array(64);
  for (const t of tasks) {
    const m = t.beta.length;
    const q = m + 1 <= p.length ? p : new Float64Array(m + 1);
    categoryProbabilities(theta, t.beta, q);
    const next = new Float64Array(n);
    for (let y = 0; y < n; y++) {
      const d = dist[y]!;
      if (d === 0) continue;
      for (let h = 0; h <= m; h++) {
        const to = Math.min(n - 1, y + Math.round(t.scores[h]! / step));
        next[to] = next[to]! + d * q[h]!;
      }
    }
    dist = next;
  }
  return dist;
}

/** θ with T(θ) = x for low < x < high (bisection: T is increasing). */
export function invertCurve(tasks: TaskCurve[], x: number, constant = 0): number {
  let lo = -30;
  let hi = 30;
  for (let it = 0; it < 200 && hi - lo > 1e-12; it++) {
    const mid = (lo + hi) / 2;
    if (constant + curveAt(tasks, mid).expected < x) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function variantCurve(
  curves: (TaskCurve | null)[],
  figures: ItemAnalysisFigures,
  taskIds: number[],
): VariantCurve {
  const at = new Map(figures.tasks.map((t, i) => [t.taskId, i]));
  const tasks: TaskCurve[] = [];
  let constant = 0;
  for (const id of taskIds) {
    const i = at.get(id);
    if (i === undefined) continue;
    const c = curves[i];
    if (c) tasks.push(c);
    else constant += figures.tasks[i]!.meanScore ?? 0;
  }
  let low = constant;
  let high = constant;
  for (const t of tasks) {
    low += t.scores[0]!;
    high += t.scores[t.scores.length - 1]!;
  }
  return { tasks, constant, low, high };
}

/** The step of the primary scores: 1 for whole points, 0.5 for halves, else 0.1. */
function scoreStep(figures: ItemAnalysisFigures): number {
  let halves = false;
  for (const t of figures.tasks) {
    for (const s of [t.maxScore, ...t.scoreDistribution.map((d) => d.score)]) {
      if (Math.abs(s - Math.round(s)) < STEP_SAME) continue;
      if (Math.abs(s * 2 - Math.round(s * 2)) < STEP_SAME) halves = true;
      else return 0.1;
    }
  }
  return halves ? 0.5 : 1;
}

/** Linked parts of the variants: a part per set of variants joined by shared calibrated tasks. */
function linkedParts(variantTasks: number[][], calibrated: Set<number>): number[] {
  const parent = variantTasks.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const holder = new Map<number, number>();
  variantTasks.forEach((ids, v) => {
    for (const id of ids) {
      if (!calibrated.has(id)) continue;
      const other = holder.get(id);
      if (other === undefined) holder.set(id, v);
      else parent[find(v)] = find(other);
    }
  });
  return variantTasks.map((_, v) => find(v));
}

/**
 * The conversion tables of every variant the analysis' participants took. `randomGroups`: the
 * design handed the variants out at random (then unlinked parts are equated through the
 * calibration's equal-mean-ability placement); otherwise unlinked variants get no table.
 */
export function equateVariants(
  figures: ItemAnalysisFigures,
  options: { randomGroups?: boolean; csem?: 'delta' | 'lord_wingersky' } = {},
): EquatingTables | EquatingFailure {
  if (!figures.rasch) return 'no_calibration';
  const variants = figures.variants.filter((v) => v.participants > 0);
  if (!variants.length) return 'no_participants';
  const curves = figures.tasks.map(taskCurve);
  const calibrated = new Set(figures.tasks.flatMap((t, i) => (curves[i] ? [t.taskId] : [])));
  const part = linkedParts(
    variants.map((v) => v.taskIds),
    calibrated,
  );
  const partSize = new Map<number, number>();
  variants.forEach((v, i) => partSize.set(part[i]!, (partSize.get(part[i]!) ?? 0) + v.participants));
  // the reference: most participants in the part with most participants; ties the lowest number
  let ref = -1;
  variants.forEach((v, i) => {
    if (ref < 0) return void (ref = i);
    const a = partSize.get(part[i]!)!;
    const b = partSize.get(part[ref]!)!;
    const r = variants[ref]!;
    if (
      a > b ||
      (a === b &&
        (v.participants > r.participants || (v.participants === r.participants && v.number < r.number)))
    )
      ref = i;
  });
  const refVariant = variants[ref]!;
  const refCurve = variantCurve(curves, figures, refVariant.taskIds);
  if (!refCurve.tasks.length) return 'no_calibration';
  const step = scoreStep(figures);
  const round = (x: number) => Math.round(x / step) * step;

  const out: EquatingVariant[] = variants.map((v, i) => {
    const status: EquatingStatus =
      i === ref
        ? 'reference'
        : part[i] === part[ref]
          ? 'common_items'
          : options.randomGroups
            ? 'random_groups'
            : 'not_linked';
    const base = {
      variantId: v.variantId,
      number: v.number,
      participants: v.participants,
      maxScore: v.maxScore,
      status,
    };
    const curve = variantCurve(curves, figures, v.taskIds);
    if (status === 'not_linked' || !curve.tasks.length)
      return { ...base, status: 'not_linked' as const, rows: [] };
    const rows: EquatingRow[] = [];
    const last = Math.round(v.maxScore / step);
    /** The scaled score and its CSEM at θ. */
    const at = (theta: number) => {
      const own = curveAt(curve.tasks, theta);
      const onRef = curveAt(refCurve.tasks, theta);
      const seTheta = own.slope > 0 ? Math.sqrt(own.variance) / own.slope : Infinity;
      return { scaled: refCurve.constant + onRef.expected, csem: onRef.slope * seTheta };
    };
    /** θ of each row (extremes: half a step inside the range), for the CSEM. */
    const thetaOf: number[] = [];
    for (let k = 0; k <= last; k++) {
      const x = round(k * step);
      if (x <= curve.low + STEP_SAME || x >= curve.high - STEP_SAME) {
        const bottom = x <= curve.low + STEP_SAME;
        const inside = bottom
          ? Math.min(curve.low + step / 2, curve.high)
          : Math.max(curve.high - step / 2, curve.low);
        thetaOf.push(invertCurve(curve.tasks, inside, curve.constant));
        rows.push({ primary: x, theta: null, scaled: bottom ? refCurve.low : refCurve.high, csem: 0 });
        continue;
      }
      const theta = invertCurve(curve.tasks, x, curve.constant);
      thetaOf.push(theta);
      rows.push({ primary: x, theta, ...at(theta) });
    }
    if (options.csem !== 'delta')
      rows.forEach((row, k) => {
        const p = scoreDistribution(
          curve.tasks,
          thetaOf[k]!,
          step,
          Math.round(curve.constant / step),
          rows.length,
        );
        let mean = 0;
        for (let y = 0; y < rows.length; y++) mean += p[y]! * rows[y]!.scaled;
        let v = 0;
        for (let y = 0; y < rows.length; y++) v += p[y]! * (rows[y]!.scaled - mean) ** 2;
        row.csem = Math.sqrt(v);
      });
    else
      rows.forEach((row, k) => {
        if (row.theta === null) row.csem = at(thetaOf[k]!).csem;
      });
    return { ...base, rows };
  });
  return {
    method: 'irt_true_score',
    model: figures.rasch.model,
    referenceVariantId: refVariant.variantId,
    referenceNumber: refVariant.number,
    scaleMin: refCurve.low,
    scaleMax: refCurve.high,
    step,
    variants: out,
  };
}

/** The row of a primary score in a variant's table: the nearest tabled score (null without rows). */
export function lookupScaled(rows: EquatingRow[], primary: number): EquatingRow | null {
  if (!rows.length) return null;
  let best = rows[0]!;
  for (const r of rows) if (Math.abs(r.primary - primary) < Math.abs(best.primary - primary)) best = r;
  return best;
}

export const LEVELS = ['below_basic', 'basic', 'advanced', 'high'] as const;
export type Level = (typeof LEVELS)[number];
/** Cut scores on the scale: the lowest scaled score of each level above `below_basic`. */
export interface CutScores {
  basic: number;
  advanced: number;
  high: number;
}

/** A scaled score as results show it: to 0.1 (levels are read from this value). */
export const shownScaled = (x: number) => Math.round(x * 10) / 10;

/** The level of a scaled score (a score equal to a cut reaches that level). */
export function levelOf(scaled: number, cuts: CutScores): Level {
  const eps = 1e-9;
  if (scaled >= cuts.high - eps) return 'high';
  if (scaled >= cuts.advanced - eps) return 'advanced';
  if (scaled >= cuts.basic - eps) return 'basic';
  return 'below_basic';
}

/**
 * Participants per level: every variant's distribution of primary totals read through its table
 * (variants without a table are not counted).
 */
export function levelShares(
  tables: EquatingTables,
  totals: Map<number, { score: number; count: number }[]>,
  cuts: CutScores,
): { level: Level; participants: number; share: number }[] {
  const count = new Map<Level, number>(LEVELS.map((l) => [l, 0]));
  let all = 0;
  for (const v of tables.variants) {
    if (!v.rows.length) continue;
    for (const d of totals.get(v.variantId) ?? []) {
      const row = lookupScaled(v.rows, d.score);
      if (!row) continue;
      const l = levelOf(shownScaled(row.scaled), cuts);
      count.set(l, count.get(l)! + d.count);
      all += d.count;
    }
  }
  return LEVELS.map((level) => ({
    level,
    participants: count.get(level)!,
    share: all > 0 ? count.get(level)! / all : 0,
  }));
}
