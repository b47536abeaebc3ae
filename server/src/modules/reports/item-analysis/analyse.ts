import type { ItemAnalysis, ItemAnalysisTask, ItemAnalysisVariant } from '@attesta/contract';
import { NO_CHOICE, type ResponseMatrix } from './matrix.js';
import { anyPolytomous, calibratePartialCredit, wrightBins, type Calibration } from './partial-credit.js';
import {
  abilityFor,
  add,
  emptyGroups,
  estimateRasch,
  expectedScore,
  itemFit,
  type RaschFit,
  type ScoreGroups,
} from './rasch.js';

/*
 * The item analysis of a response matrix, a pure function (docs/item-analysis.md):
 *
 * 1. one pass over the participants accumulates, per variant and position, Σx, Σx², Σx·T (T the
 *    participant's variant total), per variant n, ΣT, ΣT², and per task the full marks, the score
 *    distribution and the chosen options. Facility, sd, corrected point-biserial, Cronbach's α
 *    and α-if-deleted follow from those sums;
 * 2. the participants sorted once by total percent give, per task, the lower and upper 27 % of
 *    those who had it (ties at the cut broken by the order of the rows): upper–lower index and
 *    the options chosen in each group;
 * 3. one pass per round of exclusions counts the Rasch score groups (variant × raw score, tasks
 *    dichotomised at full marks) from which CML, item fit, the Wright map and the variants'
 *    expected scores are computed without looking at a participant again; when some task has
 *    three or more different scores the partial credit model is calibrated instead
 *    (partial-credit.ts), from score groups that keep each task's category.
 */

export type ItemAnalysisFigures = Pick<
  ItemAnalysis,
  'participants' | 'alpha' | 'variants' | 'tasks' | 'rasch'
>;

export interface AnalysisOptions {
  /** Share of the participants in each of the upper and lower groups (0.27). */
  groupShare?: number;
  /** Abilities (logits) at which the variants' expected scores are given. */
  abilities?: number[];
  /** Width of the Wright map's bins (logits). */
  binWidth?: number;
}

const FULL = 1e-6;
const MISFIT_LOW = 0.7;
const MISFIT_HIGH = 1.3;

/** Sample variance from sums (n − 1 in the denominator); null below 2 values. */
const variance = (n: number, sum: number, squares: number) =>
  n >= 2 ? Math.max((squares - (sum * sum) / n) / (n - 1), 0) : null;

/** Pearson correlation from sums; null when either side has no variance. */
function correlation(n: number, sx: number, sxx: number, sy: number, syy: number, sxy: number) {
  const vx = n * sxx - sx * sx;
  const vy = n * syy - sy * sy;
  if (!(vx > 1e-12 * n * n) || !(vy > 1e-12 * n * n)) return null;
  return (n * sxy - sx * sy) / Math.sqrt(vx * vy);
}

/** Cronbach's α of k items from their variances and the variance of their sum. */
function cronbach(k: number, itemVariances: number, totalVariance: number | null) {
  if (k < 2 || totalVariance === null || !(totalVariance > 0)) return null;
  return (k / (k - 1)) * (1 - itemVariances / totalVariance);
}

/** Counts by score: halves in an array, anything else (fractions) in a map. */
class Distribution {
  private halves: Float64Array;
  private other = new Map<number, number>();
  constructor(max: number) {
    this.halves = new Float64Array(Math.max(0, Math.floor(max * 2)) + 1);
  }
  add(x: number) {
    const h = x * 2;
    if (Number.isInteger(h) && h >= 0 && h < this.halves.length) this.halves[h]!++;
    else {
      const key = Math.round(x * 1e6) / 1e6;
      this.other.set(key, (this.other.get(key) ?? 0) + 1);
    }
  }
  list() {
    const out: { score: number; count: number }[] = [];
    this.halves.forEach((count, h) => count > 0 && out.push({ score: h / 2, count }));
    for (const [score, count] of this.other) out.push({ score, count });
    return out.sort((a, b) => a.score - b.score);
  }
}

export function analyseItems(m: ResponseMatrix, options: AnalysisOptions = {}): ItemAnalysisFigures {
  const groupShare = options.groupShare ?? 0.27;
  const abilities = options.abilities ?? [-3, -2, -1, 0, 1, 2, 3];
  const { items, variants, persons: P, width: W, variantOf, scores, choices } = m;
  const M = items.length;
  const V = variants.length;

  // ---------------------------------------------------------------- pass 1: sums
  const base = new Int32Array(V + 1);
  variants.forEach((v, i) => (base[i + 1] = base[i]! + v.columns.length));
  const variantMax = variants.map((v) => v.columns.reduce((s, c) => s + items[c]!.maxScore, 0));
  const vN = new Float64Array(V);
  const vT = new Float64Array(V);
  const vTT = new Float64Array(V);
  const pX = new Float64Array(base[V]!);
  const pXX = new Float64Array(base[V]!);
  const pXT = new Float64Array(base[V]!);
  const full = new Float64Array(M);
  const itemDist = items.map((it) => new Distribution(it.maxScore));
  const totalDist = variantMax.map((max) => new Distribution(max));
  const optionCount = items.map((it) => (it.options ? new Float64Array(it.options.length + 1) : null));
  const totals = new Float64Array(P);

  for (let p = 0; p < P; p++) {
    const v = variantOf[p]!;
    const cols = variants[v]!.columns;
    const off = p * W;
    let t = 0;
    for (let j = 0; j < cols.length; j++) t += scores[off + j]!;
    totals[p] = t;
    vN[v]!++;
    add(vT, v, t);
    add(vTT, v, t * t);
    totalDist[v]!.add(Math.round(t * 1e6) / 1e6);
    const b = base[v]!;
    for (let j = 0; j < cols.length; j++) {
      const x = scores[off + j]!;
      const i = cols[j]!;
      add(pX, b + j, x);
      add(pXX, b + j, x * x);
      add(pXT, b + j, x * t);
      if (x >= items[i]!.maxScore - FULL) full[i]!++;
      itemDist[i]!.add(x);
      const counts = optionCount[i];
      if (counts && choices) countChoice(counts, items[i]!.multiple, choices[off + j]!);
    }
  }

  // ---------------------------------------------------------------- per variant: α, α-if-deleted
  const variantAlpha: (number | null)[] = [];
  const alphaWithout: (number | null)[][] = [];
  for (let v = 0; v < V; v++) {
    const cols = variants[v]!.columns;
    const k = cols.length;
    const n = vN[v]!;
    const b = base[v]!;
    const varT = variance(n, vT[v]!, vTT[v]!);
    const varX = cols.map((_, j) => variance(n, pX[b + j]!, pXX[b + j]!) ?? 0);
    const sumVar = varX.reduce((s, x) => s + x, 0);
    variantAlpha.push(cronbach(k, sumVar, varT));
    alphaWithout.push(
      cols.map((_, j) => {
        if (varT === null) return null;
        const cov = n >= 2 ? (pXT[b + j]! - (pX[b + j]! * vT[v]!) / n) / (n - 1) : 0;
        return cronbach(k - 1, sumVar - varX[j]!, varT - 2 * cov + varX[j]!);
      }),
    );
  }

  // ---------------------------------------------------------------- per task: pooled sums
  const n = new Float64Array(M);
  const sx = new Float64Array(M);
  const sxx = new Float64Array(M);
  const sxt = new Float64Array(M);
  const st = new Float64Array(M);
  const stt = new Float64Array(M);
  const variantsOf: number[][] = items.map(() => []);
  const alphaDeleted = new Float64Array(M);
  const alphaWeight = new Float64Array(M);
  for (let v = 0; v < V; v++)
    variants[v]!.columns.forEach((i, j) => {
      const b = base[v]! + j;
      add(n, i, vN[v]!);
      add(sx, i, pX[b]!);
      add(sxx, i, pXX[b]!);
      add(sxt, i, pXT[b]!);
      add(st, i, vT[v]!);
      add(stt, i, vTT[v]!);
      if (!variantsOf[i]!.includes(v)) variantsOf[i]!.push(v);
      const a = alphaWithout[v]![j];
      if (a !== null && a !== undefined && vN[v]! > 0) {
        add(alphaDeleted, i, vN[v]! * a);
        add(alphaWeight, i, vN[v]!);
      }
    });

  // ---------------------------------------------------------------- pass 2: upper and lower 27 %
  const percent = new Float64Array(P);
  for (let p = 0; p < P; p++) {
    const max = variantMax[variantOf[p]!]!;
    percent[p] = max > 0 ? totals[p]! / max : 0;
  }
  const order = new Uint32Array(P);
  for (let p = 0; p < P; p++) order[p] = p;
  order.sort((a, b) => percent[a]! - percent[b]! || a - b);
  const groupSize = Array.from(n, (x) => Math.round(groupShare * x));
  const group = (descending: boolean) => {
    const taken = new Float64Array(M);
    const sum = new Float64Array(M);
    const opts = items.map((it) => (it.options ? new Float64Array(it.options.length + 1) : null));
    let open = groupSize.filter((g) => g > 0).length;
    for (let q = 0; q < P && open > 0; q++) {
      const p = order[descending ? P - 1 - q : q]!;
      const cols = variants[variantOf[p]!]!.columns;
      const off = p * W;
      for (let j = 0; j < cols.length; j++) {
        const i = cols[j]!;
        if (taken[i]! >= groupSize[i]!) continue;
        taken[i]!++;
        add(sum, i, scores[off + j]!);
        const counts = opts[i];
        if (counts && choices) countChoice(counts, items[i]!.multiple, choices[off + j]!);
        if (taken[i] === groupSize[i]) open--;
      }
    }
    return { taken, sum, opts };
  };
  const lower = group(false);
  const upper = group(true);

  // ---------------------------------------------------------------- pass 3: Rasch
  const observed = itemDist.map((d) => d.list());
  // the partial credit model when some task has three or more scores; should it find no finite
  // estimate, the dichotomous model still may (rasch.model says which)
  const rasch: Calibration | null =
    (anyPolytomous(observed) ? calibratePartialCredit(m, observed) : null) ?? calibrate(m, full, n);

  // ---------------------------------------------------------------- the figures
  const tasks: ItemAnalysisTask[] = items.map((it, i) => {
    const ni = n[i]!;
    const maxSum = ni * it.maxScore;
    const facility = ni > 0 && it.maxScore > 0 ? sx[i]! / maxSum : null;
    const sr = st[i]! - sx[i]!;
    const srr = stt[i]! - 2 * sxt[i]! + sxx[i]!;
    const sxr = sxt[i]! - sxx[i]!;
    const discrimination = ni >= 2 ? correlation(ni, sx[i]!, sxx[i]!, sr, srr, sxr) : null;
    const g = groupSize[i]!;
    const upperLower = g > 0 && it.maxScore > 0 ? (upper.sum[i]! - lower.sum[i]!) / (g * it.maxScore) : null;
    const v = variance(ni, sx[i]!, sxx[i]!);
    const r = rasch?.byTask[i] ?? null;
    const flags: ItemAnalysisTask['flags'] = [];
    if (ni > 0 && full[i] === 0) flags.push('none_solved');
    if (ni > 0 && full[i] === ni) flags.push('all_solved');
    if (discrimination !== null && discrimination < 0) flags.push('negative_discrimination');
    if (r && (outside(r.infit) || outside(r.outfit))) flags.push('misfit');
    const counts = optionCount[i];
    return {
      taskId: it.taskId,
      answerType: it.answerType,
      maxScore: it.maxScore,
      variantIds: variantsOf[i]!.map((x) => variants[x]!.variantId),
      n: ni,
      facility,
      meanScore: ni > 0 ? sx[i]! / ni : null,
      sd: v === null ? null : Math.sqrt(v),
      fullMarks: ni > 0 ? full[i]! / ni : null,
      discrimination,
      upperLower,
      alphaIfDeleted: alphaWeight[i]! > 0 ? alphaDeleted[i]! / alphaWeight[i]! : null,
      scoreDistribution: itemDist[i]!.list(),
      distractors:
        counts && it.options
          ? {
              options: it.options.map((o, k) => ({
                option: o.id,
                text: o.text ?? '',
                key: o.key,
                share: ni > 0 ? counts[k]! / ni : 0,
                upper: g > 0 ? upper.opts[i]![k]! / g : 0,
                lower: g > 0 ? lower.opts[i]![k]! / g : 0,
              })),
              noAnswer: ni > 0 ? counts[it.options.length]! / ni : 0,
            }
          : null,
      rasch: r,
      flags,
    };
  });

  const variantFigures: ItemAnalysisVariant[] = variants.map((v, x) => {
    const nv = vN[x]!;
    const varT = variance(nv, vT[x]!, vTT[x]!);
    const d = v.columns.flatMap((c) => (rasch?.byTask[c] ? [rasch.byTask[c].difficulty] : []));
    return {
      variantId: v.variantId,
      number: v.number,
      participants: nv,
      maxScore: variantMax[x]!,
      meanScore: nv > 0 ? vT[x]! / nv : null,
      sd: varT === null ? null : Math.sqrt(varT),
      alpha: variantAlpha[x]!,
      taskIds: v.columns.map((c) => items[c]!.taskId),
      totalDistribution: totalDist[x]!.list(),
      meanDifficulty: d.length ? d.reduce((s, y) => s + y, 0) / d.length : null,
      // the Wright map of this variant's participants and tasks, on the common scale
      ...(rasch && nv > 0 ? { wrightMap: rasch.wrightMap(options.binWidth ?? 0.5, x) } : {}),
      expected: rasch
        ? abilities.map((ability) => {
            let solved = 0;
            let points = 0;
            for (const c of v.columns) {
              const e = rasch.expect(c, ability);
              // a task left out of the calibration keeps its observed share of full marks
              const p = e ? e.full : n[c]! > 0 ? full[c]! / n[c]! : 0;
              solved += p;
              points += e ? e.points : p * items[c]!.maxScore;
            }
            return {
              ability,
              tasksSolved: solved,
              percent: variantMax[x]! > 0 ? (100 * points) / variantMax[x]! : 0,
            };
          })
        : [],
    };
  });

  let alphaSum = 0;
  let alphaN = 0;
  variantAlpha.forEach((a, x) => {
    if (a !== null && vN[x]! > 0) {
      alphaSum += a * vN[x]!;
      alphaN += vN[x]!;
    }
  });

  return {
    participants: P,
    alpha: alphaN > 0 ? alphaSum / alphaN : null,
    variants: variantFigures,
    tasks,
    rasch: rasch
      ? {
          model: rasch.model,
          estimation: 'cml',
          linking: rasch.components > 1 ? 'random_groups' : 'common_items',
          iterations: rasch.iterations,
          converged: rasch.converged,
          logLikelihood: rasch.logLikelihood,
          personsUsed: rasch.personsUsed,
          excludedTaskIds: items.flatMap((it, i) => (rasch.byTask[i] ? [] : [it.taskId])),
          wrightMap: rasch.wrightMap(options.binWidth ?? 0.5),
        }
      : null,
  };

  function outside(x: number) {
    return !(x >= MISFIT_LOW && x <= MISFIT_HIGH);
  }
}

function countChoice(counts: Float64Array, multiple: boolean, code: number) {
  const none = counts.length - 1;
  if (code === NO_CHOICE) counts[none]!++;
  else if (!multiple) counts[code]!++;
  else for (let k = 0; k < none && k < 31; k++) if (code & (1 << k)) counts[k]!++;
}

/**
 * Rasch calibration of the matrix's tasks, dichotomised at full marks. A task no participant with
 * an informative score (0 < r < k on the calibrated tasks of their variant) solved, or that all
 * of them solved, has no finite difficulty: it is left out and the groups are counted again.
 */
function calibrate(m: ResponseMatrix, full: Float64Array, n: Float64Array): Calibration | null {
  const { items, variants, persons: P, width: W, variantOf, scores } = m;
  const M = items.length;
  const included = items.map((_, i) => n[i]! > 0 && full[i]! > 0 && full[i]! < n[i]!);
  let param = new Int32Array(M);
  let groups: ScoreGroups[] = [];
  let positions: number[][] = [];
  for (let round = 0; round <= M; round++) {
    let k = 0;
    param = Int32Array.from(included, (inc) => (inc ? k++ : -1));
    positions = variants.map((v) => v.columns.flatMap((c, j) => (included[c] ? [j] : [])));
    groups = variants.map((v, x) => emptyGroups(positions[x]!.map((j) => param[v.columns[j]!]!)));
    for (let p = 0; p < P; p++) {
      const x = variantOf[p]!;
      const pos = positions[x]!;
      const cols = variants[x]!.columns;
      const g = groups[x]!;
      const off = p * W;
      let r = 0;
      for (const j of pos) if (scores[off + j]! >= items[cols[j]!]!.maxScore - FULL) r++;
      g.count[r]!++;
      const row = r * pos.length;
      for (let jj = 0; jj < pos.length; jj++) {
        const j = pos[jj]!;
        if (scores[off + j]! >= items[cols[j]!]!.maxScore - FULL) g.ones[row + jj]!++;
      }
    }
    // informative solved / seen per task
    const solved = new Float64Array(M);
    const seen = new Float64Array(M);
    groups.forEach((g, x) => {
      const k = g.items.length;
      for (let r = 1; r < k; r++)
        positions[x]!.forEach((j, jj) => {
          const c = variants[x]!.columns[j]!;
          add(solved, c, g.ones[r * k + jj]!);
          add(seen, c, g.count[r]!);
        });
    });
    let dropped = false;
    for (let i = 0; i < M; i++)
      if (included[i] && (seen[i] === 0 || solved[i] === 0 || solved[i] === seen[i])) {
        included[i] = false;
        dropped = true;
      }
    if (!dropped) break;
  }
  const mCount = included.filter(Boolean).length;
  if (mCount < 2) return null;
  const used = groups.filter((g) => g.items.length >= 2);
  let fit: RaschFit;
  try {
    fit = estimateRasch(mCount, used);
  } catch {
    return null; // a singular information matrix or an overflow: no calibration rather than a 500
  }
  if (!fit.difficulty.every(Number.isFinite) || !fit.se.every(Number.isFinite)) return null;

  // several unlinked parts: place each so that its participants' mean ability is the largest one's
  const abilityOf = (g: ScoreGroups, r: number) => {
    const k = g.items.length;
    const d = g.items.map((i) => fit.difficulty[i]!);
    return abilityFor(d, r === 0 ? 0.5 : r === k ? k - 0.5 : r);
  };
  if (fit.components > 1) {
    const sum = new Float64Array(fit.components);
    const count = new Float64Array(fit.components);
    for (const g of used) {
      const c = fit.component[g.items[0]!]!;
      for (let r = 0; r <= g.items.length; r++) {
        if (g.count[r] === 0) continue;
        add(sum, c, g.count[r]! * abilityOf(g, r));
        add(count, c, g.count[r]!);
      }
    }
    let ref = 0;
    for (let c = 1; c < fit.components; c++) if (count[c]! > count[ref]!) ref = c;
    const meanOf = (c: number) => (count[c]! > 0 ? sum[c]! / count[c]! : 0);
    const shift = Array.from({ length: fit.components }, (_, c) => meanOf(ref) - meanOf(c));
    for (let i = 0; i < mCount; i++) add(fit.difficulty, i, shift[fit.component[i]!]!);
    const mean = fit.difficulty.reduce((s, d) => s + d, 0) / mCount;
    for (let i = 0; i < mCount; i++) add(fit.difficulty, i, -mean);
  }
  const fitStats = itemFit(mCount, used, fit.difficulty);
  const byTask = items.map((_, i) =>
    param[i]! >= 0 && included[i]
      ? {
          difficulty: fit.difficulty[param[i]!]!,
          se: fit.se[param[i]!]!,
          infit: fitStats.infit[param[i]!]!,
          outfit: fitStats.outfit[param[i]!]!,
        }
      : null,
  );
  let personsUsed = 0;
  for (const g of used) for (let r = 1; r < g.items.length; r++) personsUsed += g.count[r]!;

  const wrightMap = (binWidth: number, variant?: number) => {
    const people: { theta: number; count: number }[] = [];
    for (const [x, g] of groups.entries()) {
      if (g.items.length < 1 || (variant !== undefined && x !== variant)) continue;
      for (let r = 0; r <= g.items.length; r++)
        if (g.count[r]! > 0) people.push({ theta: abilityOf(g, r), count: g.count[r]! });
    }
    const tasks = byTask.flatMap((t, i) =>
      t && (variant === undefined || variants[variant]!.columns.includes(i))
        ? [{ taskId: items[i]!.taskId, at: t.difficulty }]
        : [],
    );
    return wrightBins(people, tasks, binWidth);
  };
  const expect = (c: number, ability: number) => {
    const t = byTask[c];
    if (!t) return null;
    const p = expectedScore(ability, [t.difficulty]);
    return { full: p, points: p * items[c]!.maxScore };
  };
  return {
    model: 'rasch_dichotomous',
    components: fit.components,
    iterations: fit.iterations,
    converged: fit.converged,
    logLikelihood: fit.logLikelihood,
    byTask,
    personsUsed,
    wrightMap,
    expect,
  };
}
