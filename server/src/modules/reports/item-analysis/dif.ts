import { DIF_MIN_GROUP_SIZE, type ItemAnalysis, type ItemDif } from '@attesta/contract';
import type { ResponseMatrix } from './matrix.js';
import { add, emptyGroups, esf, estimateRasch, type ScoreGroups } from './rasch.js';

/*
 * Differential item functioning (issue 28, item 4; docs/item-analysis.md, «Проверка на
 * предвзятость»): does a task behave differently for two groups of participants of the same
 * ability? A pure function of the response matrix and the participants' groups.
 *
 * Comparisons. A grouping with two groups (gender: male reference, female focal; accommodations:
 * without reference, with focal) is one comparison. A grouping with more (school, area, grade) is
 * one comparison per group: the group (focal) against all the other participants whose group is
 * known (reference). A participant whose group is unknown takes part in no comparison of that
 * grouping.
 *
 * Full marks. Both checks read a task as solved (full marks) or not, as the dichotomous Rasch
 * model does; for a partial-credit task this is a documented simplification, and its
 * standardized mean difference (SMD, on the whole score) is given beside it.
 *
 * 1. Mantel–Haenszel. Participants are matched on their total score on their own variant (the
 *    studied task included, rounded to half a point): one stratum per variant and total. No
 *    thinning: a stratum with one group absent adds nothing to the sums; a stratum of fewer than
 *    two participants is left out (as R's mantelhaen.test requires). Per stratum k: A, B the
 *    reference solved / not, C, D the focal solved / not, N = A + B + C + D;
 *      α_MH = Σ A D / N ÷ Σ B C / N           (> 1: the task favours the reference group)
 *      χ²_MH = (|Σ A − Σ E(A)| − ½)² / Σ Var(A),  E(A) = n_R m_1 / N,
 *              Var(A) = n_R n_F m_1 m_0 / (N² (N − 1))  (the ½ only when |Σ A − Σ E(A)| ≥ ½)
 *      Δ_MH = −2.35 ln α_MH (ETS delta scale; negative: harder for the focal group)
 *      SE(ln α_MH) by Robins, Breslow and Greenland; SE(Δ) = 2.35 SE(ln α).
 *    These are R's mantelhaen.test (checked to 1e-6 in dif.test.ts against fixtures/dif-mh.R).
 *    ETS classes (Zwick 2012): A when |Δ| < 1 or χ²_MH is not significant at 5 %; C when |Δ| ≥ 1.5
 *    and |Δ| is significantly above 1 ((|Δ| − 1) / SE(Δ) > 1.645, one-sided 5 %); B otherwise.
 * 2. Rasch. The tasks' difficulties are calibrated once on everyone (dichotomous CML, rasch.ts).
 *    Then, for each group and task, that task's difficulty alone is estimated by conditional
 *    maximum likelihood from the group's answers, every other task anchored at its calibrated
 *    difficulty: per variant and raw score r (full marks on the calibrated tasks),
 *      P(task solved | r) = ε γ⁽ⁱ⁾_{r−1} / (γ⁽ⁱ⁾_r + ε γ⁽ⁱ⁾_{r−1}),  ε = exp(−δ),
 *    Newton on Σ solved = Σ_r n_r P(r), SE = 1/√(Σ_r n_r P (1 − P)). The difference focal −
 *    reference (positive: harder for the focal group), its SE √(SE_F² + SE_R²) and z; flagged when
 *    |difference| > 0.5 logit and |z| > 1.96. On everyone together the estimate is the calibrated
 *    difficulty itself (tested). The anchors include the studied task's own answers of every
 *    group (no purification): a task with strong DIF shifts the others slightly.
 *
 * No flag below DIF_MIN_GROUP participants who had the task in either group: the counts are
 * shown, the classes are not.
 */

/** Each of the reference and focal groups needs this many participants who had the task. */
export const DIF_MIN_GROUP = DIF_MIN_GROUP_SIZE;
/** Rasch check: flagged when |difference| exceeds this (logits) and |z| > RASCH_Z. */
export const RASCH_DIFF = 0.5;
const RASCH_Z = 1.96;
const ETS_B = 1;
const ETS_C = 1.5;
const Z_ONE_SIDED = 1.645;
const SIGNIFICANT = 0.05;
const FULL = 1e-6;

export type DifGroupingKind = 'school' | 'area' | 'grade' | 'gender' | 'accommodations';

/** The participants' groups of one grouping. */
export interface Grouping {
  kind: DifGroupingKind;
  /** pair: groups[0] reference, groups[1] focal; one_vs_rest: each group against the others. */
  design: 'pair' | 'one_vs_rest';
  groups: { key: string; label: string | null }[];
  /** The group index of each participant (matrix row); −1 unknown. */
  groupOf: Int32Array;
}

export interface MantelHaenszel {
  alpha: number;
  chiSquare: number;
  p: number;
  delta: number;
  seDelta: number;
  ets: 'A' | 'B' | 'C';
  /** Whom the task favours at equal totals (by the sign of Δ). */
  favours: 'reference' | 'focal';
}

export interface RaschDif {
  focal: number;
  reference: number;
  difference: number;
  se: number;
  z: number;
  flagged: boolean;
}

export interface DifResult {
  taskId: number;
  nReference: number;
  nFocal: number;
  /** null: too few (below DIF_MIN_GROUP) or no estimate (e.g. no one solved it in a group). */
  mh: MantelHaenszel | null;
  /** Standardized mean difference of the score ÷ max (focal − reference, focal weights). */
  smd: number | null;
  rasch: RaschDif | null;
  flagged: boolean;
}

export interface DifComparison {
  grouping: DifGroupingKind;
  group: string;
  label: string | null;
  /** null: every other participant of the grouping (one_vs_rest). */
  reference: string | null;
  referenceLabel: string | null;
  nFocal: number;
  nReference: number;
  /** Whether both groups reach DIF_MIN_GROUP (per task the counts may be smaller). */
  checked: boolean;
  tasks: DifResult[];
}

export interface DifFigures {
  minGroupSize: number;
  comparisons: DifComparison[];
}

/** erfc(x), x ≥ 0 (Numerical Recipes' erfcc: fractional error below 1.2e-7). */
function erfc(x: number) {
  const t = 1 / (1 + 0.5 * x);
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return y;
}

/** Upper tail of χ² with 1 degree of freedom. */
export const chiSquare1P = (x: number) => (x > 0 ? erfc(Math.sqrt(x / 2)) : 1);

/** One 2 × 2 table: reference solved / not, focal solved / not. */
export interface Table2x2 {
  a: number;
  b: number;
  c: number;
  d: number;
}

/**
 * Mantel–Haenszel over strata of 2 × 2 tables (as R's mantelhaen.test with continuity
 * correction); null when α has no finite, positive estimate or the variance is 0.
 */
export function mantelHaenszel(tables: Table2x2[]): Omit<MantelHaenszel, 'ets' | 'favours'> | null {
  let num = 0;
  let den = 0;
  let sumA = 0;
  let sumE = 0;
  let sumV = 0;
  // Robins–Breslow–Greenland
  let rPR = 0;
  let rPSQR = 0;
  let rQS = 0;
  for (const { a, b, c, d } of tables) {
    const n = a + b + c + d;
    if (n < 2) continue;
    const nR = a + b;
    const nF = c + d;
    const m1 = a + c;
    const m0 = b + d;
    const R = (a * d) / n;
    const S = (b * c) / n;
    const P = (a + d) / n;
    const Q = (b + c) / n;
    num += R;
    den += S;
    sumA += a;
    sumE += (nR * m1) / n;
    sumV += (nR * nF * m1 * m0) / (n * n * (n - 1));
    rPR += P * R;
    rPSQR += P * S + Q * R;
    rQS += Q * S;
  }
  if (!(num > 0) || !(den > 0) || !(sumV > 0)) return null;
  const alpha = num / den;
  const deviation = Math.abs(sumA - sumE);
  const yates = deviation >= 0.5 ? 0.5 : 0;
  const chiSquare = (deviation - yates) ** 2 / sumV;
  const varLog = rPR / (2 * num * num) + rPSQR / (2 * num * den) + rQS / (2 * den * den);
  return {
    alpha,
    chiSquare,
    p: chiSquare1P(chiSquare),
    delta: -2.35 * Math.log(alpha),
    seDelta: 2.35 * Math.sqrt(varLog),
  };
}

/** The ETS class of a Mantel–Haenszel result. */
export function etsClass(mh: Pick<MantelHaenszel, 'delta' | 'seDelta' | 'p'>): 'A' | 'B' | 'C' {
  const size = Math.abs(mh.delta);
  if (size < ETS_B || !(mh.p < SIGNIFICANT)) return 'A';
  if (size >= ETS_C && mh.seDelta > 0 && (size - ETS_B) / mh.seDelta > Z_ONE_SIDED) return 'C';
  return 'B';
}

/**
 * One task's difficulty from score groups (count and solved by raw score, per variant), the
 * other tasks of each variant anchored: `others[v]` the γ of the anchored tasks of variant v.
 */
export function anchoredDifficulty(
  strata: { others: Float64Array; count: ArrayLike<number>; solved: ArrayLike<number> }[],
): { difficulty: number; se: number } | null {
  let target = 0;
  let informative = 0;
  for (const s of strata) {
    const k = s.others.length; // γ_0..γ_{k−1}: k − 1 anchored tasks, scores 0..k
    for (let r = 1; r < k; r++) {
      target += s.solved[r]!;
      informative += s.count[r]!;
    }
  }
  if (!(target > 0) || !(target < informative)) return null;
  let a = Math.log(target / (informative - target));
  for (let it = 0; it < 100; it++) {
    const e = Math.exp(a);
    let expected = 0;
    let info = 0;
    for (const s of strata) {
      const g = s.others;
      const k = g.length;
      for (let r = 1; r < k; r++) {
        const n = s.count[r]!;
        if (!n) continue;
        const on = e * g[r - 1]!;
        const off = g[r]!;
        const p = on / (on + off);
        expected += n * p;
        info += n * p * (1 - p);
      }
    }
    if (!(info > 0)) return null;
    const step = Math.max(-2, Math.min(2, (target - expected) / info));
    a += step;
    if (Math.abs(step) < 1e-10) return { difficulty: -a, se: 1 / Math.sqrt(info) };
  }
  return null;
}

/** Dichotomous CML calibration of everyone (tasks with no finite difficulty left out). */
function anchors(m: ResponseMatrix, solved: Uint8Array): Float64Array | null {
  const { items, variants, persons: P, width: W, variantOf } = m;
  const M = items.length;
  const n = new Float64Array(M);
  const s = new Float64Array(M);
  for (let p = 0; p < P; p++) {
    const cols = variants[variantOf[p]!]!.columns;
    for (let j = 0; j < cols.length; j++) {
      add(n, cols[j]!, 1);
      add(s, cols[j]!, solved[p * W + j]!);
    }
  }
  const included = items.map((_, i) => n[i]! > 0 && s[i]! > 0 && s[i]! < n[i]!);
  for (let round = 0; round <= M; round++) {
    let k = 0;
    const param = Int32Array.from(included, (inc) => (inc ? k++ : -1));
    const positions = variants.map((v) => v.columns.flatMap((c, j) => (included[c] ? [j] : [])));
    const groups: ScoreGroups[] = variants.map((v, x) =>
      emptyGroups(positions[x]!.map((j) => param[v.columns[j]!]!)),
    );
    for (let p = 0; p < P; p++) {
      const x = variantOf[p]!;
      const pos = positions[x]!;
      const g = groups[x]!;
      let r = 0;
      for (const j of pos) r += solved[p * W + j]!;
      g.count[r]!++;
      for (let jj = 0; jj < pos.length; jj++) if (solved[p * W + pos[jj]!]) g.ones[r * pos.length + jj]!++;
    }
    const inf = new Float64Array(M);
    const seen = new Float64Array(M);
    groups.forEach((g, x) => {
      const kk = g.items.length;
      for (let r = 1; r < kk; r++)
        positions[x]!.forEach((j, jj) => {
          const c = variants[x]!.columns[j]!;
          add(inf, c, g.ones[r * kk + jj]!);
          add(seen, c, g.count[r]!);
        });
    });
    let dropped = false;
    for (let i = 0; i < M; i++)
      if (included[i] && (seen[i] === 0 || inf[i] === 0 || inf[i] === seen[i])) {
        included[i] = false;
        dropped = true;
      }
    if (dropped) continue;
    if (k < 2) return null;
    try {
      const fit = estimateRasch(
        k,
        groups.filter((g) => g.items.length >= 2),
      );
      if (!fit.difficulty.every(Number.isFinite)) return null;
      return Float64Array.from(param, (q) => (q >= 0 ? fit.difficulty[q]! : Number.NaN));
    } catch {
      return null;
    }
  }
  return null;
}

export interface DifOptions {
  minGroup?: number;
  /** Anchored difficulties per column (NaN: not calibrated); computed when left out. */
  anchors?: Float64Array | null;
}

/** The DIF comparisons of every grouping with two or more groups present. */
export function analyseDif(m: ResponseMatrix, groupings: Grouping[], options: DifOptions = {}): DifFigures {
  const minGroup = options.minGroup ?? DIF_MIN_GROUP;
  const { items, variants, persons: P, width: W, variantOf, scores } = m;
  const V = variants.length;

  // per cell solved (full marks); per person the matching stratum and the Rasch raw score
  const solved = new Uint8Array(P * W);
  for (let p = 0; p < P; p++) {
    const cols = variants[variantOf[p]!]!.columns;
    for (let j = 0; j < cols.length; j++)
      solved[p * W + j] = scores[p * W + j]! >= items[cols[j]!]!.maxScore - FULL ? 1 : 0;
  }
  // the calibration is needed only when some comparison can reach the minimum in both groups
  const comparable = groupings.some((g) => {
    const seen = new Set<number>();
    for (let p = 0; p < P && seen.size < 2; p++) if (g.groupOf[p]! >= 0) seen.add(g.groupOf[p]!);
    return seen.size >= 2;
  });
  const delta =
    options.anchors !== undefined
      ? options.anchors
      : comparable && P >= 2 * minGroup
        ? anchors(m, solved)
        : null;
  const calibrated = items.map((_, i) => !!delta && Number.isFinite(delta[i]!));
  const variantMax = variants.map((v) => v.columns.reduce((s, c) => s + items[c]!.maxScore, 0));
  const strataBase = new Int32Array(V + 1);
  variants.forEach((_, v) => (strataBase[v + 1] = strataBase[v]! + Math.floor(variantMax[v]! * 2) + 1));
  const strata = strataBase[V]!;
  const stratum = new Int32Array(P);
  const raw = new Int32Array(P);
  for (let p = 0; p < P; p++) {
    const v = variantOf[p]!;
    const cols = variants[v]!.columns;
    let t = 0;
    let r = 0;
    for (let j = 0; j < cols.length; j++) {
      t += scores[p * W + j]!;
      if (calibrated[cols[j]!]) r += solved[p * W + j]!;
    }
    const h = Math.min(Math.max(Math.round(t * 2), 0), strataBase[v + 1]! - strataBase[v]! - 1);
    stratum[p] = strataBase[v]! + h;
    raw[p] = r;
  }
  // per variant: the calibrated positions, and per calibrated position the γ of the others
  const calibratedPositions = variants.map((v) => v.columns.flatMap((c, j) => (calibrated[c] ? [j] : [])));
  const rawBase = new Int32Array(V + 1);
  calibratedPositions.forEach((pos, v) => (rawBase[v + 1] = rawBase[v]! + pos.length + 1));
  const othersOf = variants.map((v, x) => {
    const pos = calibratedPositions[x]!;
    const eps = pos.map((j) => Math.exp(-delta![v.columns[j]!]!));
    return new Map(pos.map((j, jj) => [j, esf(eps, jj).subarray(0, pos.length)]));
  });

  /** positionOf[v * M + i]: the position of column i in variant v, −1 absent. */
  const M = items.length;
  const positionOf = new Int32Array(V * M).fill(-1);
  variants.forEach((v, x) => v.columns.forEach((c, j) => (positionOf[x * M + c] = j)));

  const comparisons: DifComparison[] = [];
  for (const grouping of groupings) {
    const G = grouping.groups.length;
    const sizes = new Float64Array(G);
    for (let p = 0; p < P; p++) if (grouping.groupOf[p]! >= 0) sizes[grouping.groupOf[p]!]!++;
    const present = [...sizes].filter((x) => x > 0).length;
    if (present < 2) continue;
    const known = sizes.reduce((s, x) => s + x, 0);
    const pairs: { focal: number; reference: number | null }[] =
      grouping.design === 'pair'
        ? [{ focal: 1, reference: 0 }]
        : grouping.groups.map((_, g) => ({ focal: g, reference: null }));
    const usable = pairs.filter(
      (q) => sizes[q.focal]! > 0 && (q.reference === null || sizes[q.reference]! > 0),
    );
    const perPair = usable.map((q) => ({
      ...q,
      nFocal: sizes[q.focal]!,
      nReference: q.reference === null ? known - sizes[q.focal]! : sizes[q.reference]!,
      tasks: [] as DifResult[],
    }));

    items.forEach((item, i) => {
      // counts by group and stratum: had, solved, score; and by group and raw score for Rasch
      const had = new Float64Array(G * strata);
      const right = new Float64Array(G * strata);
      const points = new Float64Array(G * strata);
      const rawCount = new Float64Array(G * rawBase[V]!);
      const rawSolved = new Float64Array(G * rawBase[V]!);
      const hadTask = new Float64Array(G);
      let any = false;
      for (let p = 0; p < P; p++) {
        const g = grouping.groupOf[p]!;
        if (g < 0) continue;
        const v = variantOf[p]!;
        const j = positionOf[v * M + i]!;
        if (j < 0) continue;
        any = true;
        hadTask[g]!++;
        const at = g * strata + stratum[p]!;
        had[at]!++;
        right[at]! += solved[p * W + j]!;
        points[at]! += scores[p * W + j]! / (item.maxScore || 1);
        if (calibrated[i]) {
          const q = g * rawBase[V]! + rawBase[v]! + raw[p]!;
          rawCount[q]!++;
          rawSolved[q]! += solved[p * W + j]!;
        }
      }
      if (!any) return;
      const totalHad = new Float64Array(strata);
      const totalRight = new Float64Array(strata);
      const totalPoints = new Float64Array(strata);
      const totalRaw = new Float64Array(rawBase[V]!);
      const totalRawSolved = new Float64Array(rawBase[V]!);
      for (let g = 0; g < G; g++) {
        for (let k = 0; k < strata; k++) {
          add(totalHad, k, had[g * strata + k]!);
          add(totalRight, k, right[g * strata + k]!);
          add(totalPoints, k, points[g * strata + k]!);
        }
        for (let k = 0; k < rawBase[V]!; k++) {
          add(totalRaw, k, rawCount[g * rawBase[V]! + k]!);
          add(totalRawSolved, k, rawSolved[g * rawBase[V]! + k]!);
        }
      }
      const slice = (a: Float64Array, g: number, n: number) => a.subarray(g * n, (g + 1) * n);
      const minus = (all: Float64Array, part: Float64Array) => all.map((x, k) => x - part[k]!);
      const anchoredOf = (count: Float64Array, solvedBy: Float64Array) =>
        anchoredDifficulty(
          variants.flatMap((v, x) => {
            const j = positionOf[x * M + i]!;
            const others = j >= 0 ? othersOf[x]!.get(j) : undefined;
            if (!others) return [];
            const from = rawBase[x]!;
            const to = rawBase[x + 1]!;
            return [{ others, count: count.subarray(from, to), solved: solvedBy.subarray(from, to) }];
          }),
        );

      for (const pair of perPair) {
        const f = pair.focal;
        const fHad = slice(had, f, strata);
        const fRight = slice(right, f, strata);
        const fPoints = slice(points, f, strata);
        const rHad = pair.reference === null ? minus(totalHad, fHad) : slice(had, pair.reference, strata);
        const rRight =
          pair.reference === null ? minus(totalRight, fRight) : slice(right, pair.reference, strata);
        const rPoints =
          pair.reference === null ? minus(totalPoints, fPoints) : slice(points, pair.reference, strata);
        const nFocal = hadTask[f]!;
        const nReference =
          pair.reference === null ? hadTask.reduce((s, x) => s + x, 0) - nFocal : hadTask[pair.reference]!;
        if (nFocal === 0 || nReference === 0) continue;
        const enough = nFocal >= minGroup && nReference >= minGroup;

        const tables: Table2x2[] = [];
        let smdSum = 0;
        let smdWeight = 0;
        for (let k = 0; k < strata; k++) {
          const nf = fHad[k]!;
          const nr = rHad[k]!;
          if (nf > 0 && nr > 0) {
            smdSum += nf * (fPoints[k]! / nf - rPoints[k]! / nr);
            smdWeight += nf;
          }
          if (nf + nr >= 2)
            tables.push({ a: rRight[k]!, b: nr - rRight[k]!, c: fRight[k]!, d: nf - fRight[k]! });
        }
        const core = enough ? mantelHaenszel(tables) : null;
        const mh: MantelHaenszel | null = core && {
          ...core,
          ets: etsClass(core),
          favours: core.delta < 0 ? 'reference' : 'focal',
        };

        let rasch: RaschDif | null = null;
        if (enough && calibrated[i]) {
          const n = rawBase[V]!;
          const fc = slice(rawCount, f, n);
          const fs = slice(rawSolved, f, n);
          const rc = pair.reference === null ? minus(totalRaw, fc) : slice(rawCount, pair.reference, n);
          const rs =
            pair.reference === null ? minus(totalRawSolved, fs) : slice(rawSolved, pair.reference, n);
          const focal = anchoredOf(fc, fs);
          const reference = anchoredOf(rc, rs);
          if (focal && reference) {
            const difference = focal.difficulty - reference.difficulty;
            const se = Math.sqrt(focal.se ** 2 + reference.se ** 2);
            const z = difference / se;
            rasch = {
              focal: focal.difficulty,
              reference: reference.difficulty,
              difference,
              se,
              z,
              flagged: Math.abs(difference) > RASCH_DIFF && Math.abs(z) > RASCH_Z,
            };
          }
        }
        pair.tasks.push({
          taskId: item.taskId,
          nReference,
          nFocal,
          mh,
          smd: smdWeight > 0 ? smdSum / smdWeight : null,
          rasch,
          flagged: !!mh && mh.ets !== 'A' ? true : !!rasch?.flagged,
        });
      }
    });

    for (const pair of perPair) {
      const focal = grouping.groups[pair.focal]!;
      const reference = pair.reference === null ? null : grouping.groups[pair.reference]!;
      comparisons.push({
        grouping: grouping.kind,
        group: focal.key,
        label: focal.label,
        reference: reference?.key ?? null,
        referenceLabel: reference?.label ?? null,
        nFocal: pair.nFocal,
        nReference: pair.nReference,
        checked: pair.nFocal >= minGroup && pair.nReference >= minGroup,
        tasks: pair.tasks,
      });
    }
  }
  return { minGroupSize: minGroup, comparisons };
}

/** The response's parts: every comparison with its counts, and per task the flagged ones. */
export function difResponse(f: DifFigures): {
  dif: NonNullable<ItemAnalysis['dif']>;
  byTask: Map<number, ItemDif[]>;
} {
  const byTask = new Map<number, ItemDif[]>();
  const comparisons = f.comparisons.map((c) => {
    const head = {
      grouping: c.grouping,
      group: c.group,
      label: c.label,
      reference: c.reference,
    };
    for (const t of c.tasks) {
      if (!t.flagged) continue;
      const list = byTask.get(t.taskId) ?? [];
      list.push({
        ...head,
        nFocal: t.nFocal,
        nReference: t.nReference,
        mantelHaenszel: t.mh,
        smd: t.smd,
        rasch: t.rasch,
      });
      byTask.set(t.taskId, list);
    }
    return {
      ...head,
      nFocal: c.nFocal,
      nReference: c.nReference,
      checked: c.checked,
      flaggedTaskIds: c.tasks.filter((t) => t.flagged).map((t) => t.taskId),
    };
  });
  return { dif: { minGroupSize: f.minGroupSize, comparisons }, byTask };
}
