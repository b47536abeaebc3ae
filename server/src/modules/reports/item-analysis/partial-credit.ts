import type { ItemAnalysis, ItemRasch } from '@attesta/contract';
import type { ResponseMatrix } from './matrix.js';
import {
  addResponses,
  betaOffsets,
  betaRows,
  emptyPolyGroups,
  estimateCml,
  pcmDesign,
  polyAbility,
  polyItemFit,
  thresholds,
  type CmlFit,
  type PolyGroups,
} from './polytomous.js';
import { add, componentsOf } from './rasch.js';

/*
 * The partial credit calibration of a response matrix (docs/item-analysis.md): used by analyse.ts
 * when some task has three or more different scores; every task is then a PCM item (a task with
 * two scores is a dichotomous Rasch item within it). A task's categories are the scores observed
 * on it, in order (0, ½, 1, 2 → categories 0–3): for whole points with none skipped this is how
 * eRm reads a column (shifted to the lowest observed, up to the largest). A category that no
 * participant with an informative score (0 < r < max on their variant's calibrated tasks) used has
 * no finite parameter (eRm's estimate runs off); it is merged into the category below it (the
 * lowest into the one above) and the groups are counted again; a task left with one category is
 * left out.
 */

/** The model's figures of one task, as the contract's ItemRasch. */
export type TaskRasch = ItemRasch;

/** A calibration of the matrix, whichever model. */
export interface Calibration {
  model: 'rasch_dichotomous' | 'partial_credit';
  components: number;
  iterations: number;
  converged: boolean;
  logLikelihood: number;
  byTask: (TaskRasch | null)[];
  personsUsed: number;
  /** The Wright map of every participant and task, or of one variant's (index into the matrix's variants). */
  wrightMap: (binWidth: number, variant?: number) => NonNullable<ItemAnalysis['rasch']>['wrightMap'];
  /** Expected full marks (probability) and points of column `c` at `ability`; null when not calibrated. */
  expect: (c: number, ability: number) => { full: number; points: number } | null;
}

const SAME = 5e-6;

/** Whether the scores observed on some task (sorted lists per task) make it polytomous. */
export const anyPolytomous = (scores: { score: number }[][]) => scores.some((s) => s.length >= 3);

/**
 * The Wright map's bins: persons (ability, count) and tasks (location) on one logit scale, cut
 * into bins of `binWidth` that span both. Shared by the dichotomous and partial-credit models.
 */
export function wrightBins(
  people: { theta: number; count: number }[],
  tasks: { taskId: number; at: number }[],
  binWidth: number,
) {
  const thetas = [...people.map((x) => x.theta), ...tasks.map((t) => t.at)];
  const lo = Math.floor(Math.min(...thetas) / binWidth) * binWidth;
  const hi = Math.floor(Math.max(...thetas) / binWidth) * binWidth + binWidth;
  const bins = Math.max(1, Math.round((hi - lo) / binWidth));
  const out = Array.from({ length: bins }, (_, b) => ({
    from: lo + b * binWidth,
    to: lo + (b + 1) * binWidth,
    persons: 0,
    taskIds: [] as number[],
  }));
  const at = (t: number) => Math.min(bins - 1, Math.max(0, Math.floor((t - lo) / binWidth)));
  for (const x of people) out[at(x.theta)]!.persons += x.count;
  for (const t of tasks) out[at(t.at)]!.taskIds.push(t.taskId);
  return out;
}

export function calibratePartialCredit(
  m: ResponseMatrix,
  observed: { score: number; count: number }[][],
): Calibration | null {
  const { items, variants, persons: P, width: W, variantOf, scores } = m;
  const M = items.length;
  const levels = observed.map((list) => list.filter((s) => s.count > 0).map((s) => s.score));
  if (levels.some((l) => l.length > 255)) return null;
  // the level index of every cell, once
  const level = new Uint8Array(P * W);
  for (let p = 0; p < P; p++) {
    const cols = variants[variantOf[p]!]!.columns;
    for (let j = 0; j < cols.length; j++) {
      const l = levels[cols[j]!]!;
      const x = scores[p * W + j]!;
      let k = 0;
      while (k < l.length - 1 && x > l[k]! + SAME) k++;
      level[p * W + j] = k;
    }
  }
  // category of each level, per task; maxCat 0 = left out
  const catOf = levels.map((l) => l.map((_, k) => k));
  const maxCat = levels.map((l) => Math.max(0, l.length - 1));

  let param = new Int32Array(M);
  let groups: PolyGroups[] = [];
  let positions: number[][] = [];
  for (let round = 0; round <= M * 256; round++) {
    let k = 0;
    param = Int32Array.from(maxCat, (mc) => (mc > 0 ? k++ : -1));
    const paramCat = maxCat.filter((mc) => mc > 0);
    positions = variants.map((v) => v.columns.flatMap((c, j) => (maxCat[c]! > 0 ? [j] : [])));
    groups = variants.map((v, x) =>
      emptyPolyGroups(
        positions[x]!.map((j) => param[v.columns[j]!]!),
        paramCat,
      ),
    );
    const x = new Int32Array(Math.max(1, ...positions.map((pos) => pos.length)));
    for (let p = 0; p < P; p++) {
      const v = variantOf[p]!;
      const pos = positions[v]!;
      const cols = variants[v]!.columns;
      for (let jj = 0; jj < pos.length; jj++) {
        const j = pos[jj]!;
        x[jj] = catOf[cols[j]!]![level[p * W + j]!]!;
      }
      addResponses(groups[v]!, x.subarray(0, pos.length));
    }
    // categories used by informative participants, per task
    const used = maxCat.map((mc) => new Float64Array(mc + 1));
    groups.forEach((g, v) => {
      const top = g.count.length - 1;
      for (let r = 1; r < top; r++)
        positions[v]!.forEach((j, jj) => {
          const c = variants[v]!.columns[j]!;
          for (let h = 0; h <= g.maxCat[jj]!; h++) add(used[c]!, h, g.cats[r * g.width + g.offset[jj]! + h]!);
        });
    });
    let changed = false;
    for (let c = 0; c < M; c++) {
      if (maxCat[c]! === 0) continue;
      const u = used[c]!;
      const kept: number[] = [];
      for (let h = 0; h < u.length; h++) if (u[h]! > 0) kept.push(h);
      if (kept.length === u.length) continue;
      changed = true;
      // old category h → the kept category at or below it (the lowest kept for those under it)
      const renumber = (h: number) => {
        let at = 0;
        for (let q = 0; q < kept.length; q++) if (kept[q]! <= h) at = q;
        return at;
      };
      catOf[c] = catOf[c]!.map(renumber);
      maxCat[c] = Math.max(0, kept.length - 1);
    }
    if (!changed) break;
  }
  const mCount = maxCat.filter((mc) => mc > 0).length;
  if (mCount < 2) return null;
  const paramCat = maxCat.filter((mc) => mc > 0);
  const used = groups.filter((g) => g.items.length >= 2);
  const { component, count: components } = componentsOf(mCount, used);
  let fit: CmlFit;
  try {
    fit = estimateCml(paramCat, used, pcmDesign(paramCat, component));
  } catch {
    return null; // a singular information matrix or an overflow: no calibration rather than a 500
  }
  if (!fit.beta.every(Number.isFinite) || !fit.se.every(Number.isFinite)) return null;
  const beta = Float64Array.from(fit.beta);
  const off = betaOffsets(paramCat);

  const abilityOf = (g: PolyGroups, r: number) => {
    const rows = betaRows(paramCat, beta);
    const top = g.count.length - 1;
    return polyAbility(
      g.items.map((i) => rows[i]!),
      r === 0 ? 0.5 : r === top ? top - 0.5 : r,
    );
  };
  // several unlinked parts: shift each (θ and thresholds together) so that its participants' mean
  // ability is the largest part's, then make the β sum to 0 again
  if (components > 1) {
    const sum = new Float64Array(components);
    const count = new Float64Array(components);
    for (const g of used) {
      const c = component[g.items[0]!]!;
      for (let r = 0; r < g.count.length; r++) {
        if (g.count[r] === 0) continue;
        add(sum, c, g.count[r]! * abilityOf(g, r));
        add(count, c, g.count[r]!);
      }
    }
    let ref = 0;
    for (let c = 1; c < components; c++) if (count[c]! > count[ref]!) ref = c;
    const meanOf = (c: number) => (count[c]! > 0 ? sum[c]! / count[c]! : 0);
    let total = 0;
    let steps = 0;
    for (let i = 0; i < mCount; i++) {
      const shift = meanOf(ref) - meanOf(component[i]!);
      for (let h = 1; h <= paramCat[i]!; h++) {
        add(beta, off[i]! + h - 1, -h * shift);
        total += beta[off[i]! + h - 1]!;
        steps += h;
      }
    }
    for (let i = 0; i < mCount; i++)
      for (let h = 1; h <= paramCat[i]!; h++) add(beta, off[i]! + h - 1, (-h * total) / steps);
  }
  const rows = betaRows(paramCat, beta);
  const th = thresholds(paramCat, { beta, covariance: fit.covariance });
  const fitStats = polyItemFit(paramCat, used, beta);
  const nBeta = beta.length;
  /** The lowest score of each category of column c. */
  const categoryScores = (c: number) => {
    const out: number[] = [];
    catOf[c]!.forEach((h, k) => {
      if (out[h] === undefined) out[h] = levels[c]![k]!;
    });
    return out;
  };
  const byTask: (TaskRasch | null)[] = items.map((_, c) => {
    const i = param[c]!;
    if (i < 0 || maxCat[c]! === 0) return null;
    const mc = paramCat[i]!;
    const last = off[i]! + mc - 1;
    const s = categoryScores(c);
    return {
      difficulty: th[i]!.location,
      se: Math.sqrt(Math.max(fit.covariance[last * nBeta + last]!, 0)) / mc,
      infit: fitStats.infit[i]!,
      outfit: fitStats.outfit[i]!,
      // t needs variance in the fit (eRm gives NaN without it): left out then
      ...(Number.isFinite(fitStats.infitZ[i]) ? { infitT: fitStats.infitZ[i]! } : {}),
      ...(Number.isFinite(fitStats.outfitZ[i]) ? { outfitT: fitStats.outfitZ[i]! } : {}),
      thresholds: th[i]!.thresholds.map((threshold, h) => ({
        score: s[h + 1]!,
        threshold,
        se: th[i]!.se[h]!,
      })),
    };
  });
  let personsUsed = 0;
  for (const g of used) for (let r = 1; r < g.count.length - 1; r++) personsUsed += g.count[r]!;

  const wrightMap = (binWidth: number, variant?: number) => {
    const people: { theta: number; count: number }[] = [];
    for (const [x, g] of groups.entries()) {
      if (g.items.length < 1 || (variant !== undefined && x !== variant)) continue;
      for (let r = 0; r < g.count.length; r++)
        if (g.count[r]! > 0) people.push({ theta: abilityOf(g, r), count: g.count[r]! });
    }
    const tasks = byTask.flatMap((t, c) =>
      t && (variant === undefined || variants[variant]!.columns.includes(c))
        ? [{ taskId: items[c]!.taskId, at: t.difficulty }]
        : [],
    );
    return wrightBins(people, tasks, binWidth);
  };

  const expect = (c: number, ability: number) => {
    const i = param[c]!;
    if (i < 0 || maxCat[c]! === 0) return null;
    const b = rows[i]!;
    const s = categoryScores(c);
    // category probabilities P_h ∝ exp(hθ + β_h)
    let top = 0;
    for (let h = 1; h <= b.length; h++) top = Math.max(top, h * ability + b[h - 1]!);
    const w = [Math.exp(-top)];
    for (let h = 1; h <= b.length; h++) w.push(Math.exp(h * ability + b[h - 1]! - top));
    const total = w.reduce((x, y) => x + y, 0);
    let points = 0;
    w.forEach((x, h) => (points += (x / total) * s[h]!));
    const full = s[b.length]! >= items[c]!.maxScore - 1e-6 ? w[b.length]! / total : 0;
    return { full, points };
  };

  return {
    model: 'partial_credit',
    components,
    iterations: fit.iterations,
    converged: fit.converged,
    logLikelihood: fit.logLikelihood,
    byTask,
    personsUsed,
    wrightMap,
    expect,
  };
}
