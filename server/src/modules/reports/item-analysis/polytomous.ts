/*
 * The Partial Credit Model and the Rating Scale Model, estimated by conditional maximum likelihood
 * as eRm's PCM() and RSM() (docs/item-analysis.md). Item i has categories 0..m_i:
 *
 *   P(X_pi = h) = exp(h θ_p + β_ih) / Σ_l exp(l θ_p + β_il),   β_i0 = 0,
 *
 * with β_ih eRm's item-category ("beta") parameters, easinesses accumulated over the steps:
 * the thresholds (eRm's thresholds()) are τ_ih = −(β_ih − β_i,h−1), the item location their mean.
 * PCM: every β_ih is free; RSM: β_ih = h·β_i + ω_h, one set of category parameters ω for all
 * items (which then have the same m).
 *
 * Given a participant's raw score r on the items they took, P(x | r) = exp(Σ_i β_i,x_i) / γ_r,
 * where γ_r, the elementary symmetric function of order r, sums Π_i ε_i,x_i (ε_ih = exp β_ih) over
 * the response patterns of total r; the summation algorithm adds the items one at a time:
 *   γ^(1..j)_r = Σ_h ε_jh γ^(1..j−1)_{r−h}.
 * Only score groups enter: per set of items taken together and raw score, how many persons, and
 * how many of them answered each item in each category.
 *
 * Conditional log-likelihood ℓ(β) = Σ_ih s_ih β_ih − Σ_g Σ_r N_gr log γ_r, s_ih: persons with
 * category h on item i; gradient s_ih − Σ N_gr π_ih|r, π_ih|r = ε_ih γ^(i)_{r−h} / γ_r; information
 *   I_ih,il = Σ N_gr (δ_hl π_ih|r − π_ih|r π_il|r),
 *   I_ih,jl = Σ N_gr (ε_ih ε_jl γ^(ij)_{r−h−l} / γ_r − π_ih|r π_jl|r)   (i ≠ j).
 * ℓ does not change along β_ih += h·c (a shift of θ), so the β are identified through a design
 * matrix, β = W η, as eRm does (eRm's default sum0 = TRUE: the β of the model sum to zero); Newton
 * steps in η solve (Wᵀ I W) Δ = Wᵀ ∇ℓ, and the covariance of β is W (Wᵀ I W)⁻¹ Wᵀ, eRm's
 * delta-method standard errors. Persons with an extreme score (0 or the maximum on their items)
 * have P(x | r) = 1 and carry no information; they are left out of ℓ as of the sums.
 */
import { add, solveSpd } from './rasch.js';

/** Persons who took one set of items, by raw score. */
export interface PolyGroups {
  /** Model item of each position (k positions). */
  items: number[];
  /** m of each position (categories 0..m), the model item's. */
  maxCat: number[];
  /** count[r]: persons with raw score r (0..Σ m). */
  count: Float64Array;
  /** cats[r * width + offset[j] + h]: persons with raw score r and category h at position j. */
  cats: Float64Array;
  offset: number[];
  width: number;
}

export function emptyPolyGroups(items: number[], maxCatOf: ArrayLike<number>): PolyGroups {
  const maxCat = items.map((i) => maxCatOf[i]!);
  const offset: number[] = [];
  let width = 0;
  for (const m of maxCat) {
    offset.push(width);
    width += m + 1;
  }
  const top = maxCat.reduce((s, m) => s + m, 0);
  return {
    items,
    maxCat,
    count: new Float64Array(top + 1),
    cats: new Float64Array((top + 1) * width),
    offset,
    width,
  };
}

/** Adds a person's categories (in the group's position order). */
export function addResponses(g: PolyGroups, x: ArrayLike<number>) {
  let r = 0;
  for (let j = 0; j < g.items.length; j++) r += x[j]!;
  g.count[r]!++;
  const row = r * g.width;
  for (let j = 0; j < g.items.length; j++) g.cats[row + g.offset[j]! + x[j]!]!++;
}

/**
 * Polytomous elementary symmetric functions γ_0..γ_R of items whose category weights are
 * `eps[j]` (eps[j][0] = 1), skipping positions `skipA` and `skipB` (summation algorithm).
 */
export function polyEsf(eps: ArrayLike<number>[], skipA = -1, skipB = -1): Float64Array {
  let top = 0;
  for (const e of eps) top += e.length - 1;
  let g = new Float64Array(top + 1);
  let next = new Float64Array(top + 1);
  g[0] = 1;
  let reach = 0;
  for (let j = 0; j < eps.length; j++) {
    if (j === skipA || j === skipB) continue;
    const e = eps[j]!;
    const m = e.length - 1;
    next.fill(0, 0, reach + m + 1);
    for (let r = 0; r <= reach; r++) {
      const gr = g[r]!;
      if (gr === 0) continue;
      for (let h = 0; h <= m; h++) next[r + h] = next[r + h]! + e[h]! * gr;
    }
    reach += m;
    [g, next] = [next, g];
  }
  return g;
}

/**
 * How eRm reads an item from `counts[v]`, the persons who gave response v (integers from 0): a
 * response below the lowest observed does not exist (eRm shifts the item down to start at 0), nor
 * one above the largest; `maxCat` is then largest − lowest. `unused` lists the categories in
 * between that nobody gave (after the shift): their β are not finite (eRm warns that estimation
 * may not be feasible and drifts without bound); the caller merges them or leaves the item out.
 */
export function categoriesOf(counts: ArrayLike<number>): {
  lowest: number;
  maxCat: number;
  unused: number[];
} {
  let lowest = -1;
  let largest = -1;
  for (let v = 0; v < counts.length; v++)
    if (counts[v]! > 0) {
      if (lowest < 0) lowest = v;
      largest = v;
    }
  if (lowest < 0) return { lowest: 0, maxCat: 0, unused: [] };
  const unused: number[] = [];
  for (let v = lowest + 1; v < largest; v++) if (!(counts[v]! > 0)) unused.push(v - lowest);
  return { lowest, maxCat: largest - lowest, unused };
}

/** A linear design β = W η (rows: the model's β in item-then-category order). */
export interface Design {
  /** nBeta × nEta, row-major. */
  w: Float64Array;
  nBeta: number;
  nEta: number;
  /** A readable name of each η (eRm's etapar order). */
  names: string[];
}

/** β index of item i's category 1 (categories 1..m_i follow). */
export function betaOffsets(maxCat: ArrayLike<number>): number[] {
  const out: number[] = [];
  let at = 0;
  for (let i = 0; i < maxCat.length; i++) {
    out.push(at);
    at += maxCat[i]!;
  }
  return out;
}

/**
 * The PCM's design in eRm's default (sum0 = TRUE): η are the β of every item-category but the
 * last one, which is minus their sum. `components` (the linked parts of an incomplete design,
 * a component id per item) each get their own sum-zero constraint.
 */
export function pcmDesign(maxCat: ArrayLike<number>, component?: ArrayLike<number>): Design {
  const off = betaOffsets(maxCat);
  const nBeta = off.length ? off[off.length - 1]! + maxCat[maxCat.length - 1]! : 0;
  const compOfBeta = new Int32Array(nBeta);
  for (let i = 0; i < maxCat.length; i++)
    for (let h = 0; h < maxCat[i]!; h++) compOfBeta[off[i]! + h] = component ? component[i]! : 0;
  // the last β of each component is dependent
  const lastOf = new Map<number, number>();
  for (let b = 0; b < nBeta; b++) lastOf.set(compOfBeta[b]!, b);
  const dependent = new Set(lastOf.values());
  const etaOf = new Int32Array(nBeta).fill(-1);
  const names: string[] = [];
  let nEta = 0;
  for (let i = 0; i < maxCat.length; i++)
    for (let h = 1; h <= maxCat[i]!; h++) {
      const b = off[i]! + h - 1;
      if (dependent.has(b)) continue;
      etaOf[b] = nEta++;
      names.push(`I${i + 1}.c${h}`);
    }
  const w = new Float64Array(nBeta * nEta);
  for (let b = 0; b < nBeta; b++) {
    if (etaOf[b]! >= 0) w[b * nEta + etaOf[b]!] = 1;
    else
      for (let o = 0; o < nBeta; o++)
        if (o !== b && compOfBeta[o] === compOfBeta[b]) w[b * nEta + etaOf[o]!] = -1;
  }
  return { w, nBeta, nEta, names };
}

/**
 * The RSM's design in eRm's default (sum0 = TRUE): β_ih = h·b_i + ω_h for k items with the same m,
 * η = (b_2..b_k, ω_2..ω_m), b_1 = −(b_2 + … + b_k) and ω_1 = 0.
 */
export function rsmDesign(k: number, m: number): Design {
  const nBeta = k * m;
  const nEta = k - 1 + m - 1;
  const w = new Float64Array(nBeta * nEta);
  for (let i = 0; i < k; i++)
    for (let h = 1; h <= m; h++) {
      const row = (i * m + h - 1) * nEta;
      if (i === 0) for (let e = 0; e < k - 1; e++) w[row + e] = -h;
      else w[row + i - 1] = h;
      if (h >= 2) w[row + k - 1 + h - 2] = 1;
    }
  const names = [
    ...Array.from({ length: k - 1 }, (_, i) => `I${i + 2}`),
    ...Array.from({ length: m - 1 }, (_, h) => `Cat ${h + 2}`),
  ];
  return { w, nBeta, nEta, names };
}

export interface CmlFit {
  /** β_ih, item-then-category order (betaOffsets). */
  beta: Float64Array;
  /** Covariance of β (nBeta × nBeta), W (Wᵀ I W)⁻¹ Wᵀ. */
  covariance: Float64Array;
  se: Float64Array;
  eta: Float64Array;
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

interface Evaluation {
  ll: number;
  grad: Float64Array;
  info: Float64Array;
}

/** ℓ, its gradient and information in β at `beta`. */
function evaluate(
  nBeta: number,
  off: number[],
  groups: PolyGroups[],
  s: Float64Array,
  beta: Float64Array,
): Evaluation {
  const grad = Float64Array.from(s);
  const info = new Float64Array(nBeta * nBeta);
  let ll = 0;
  for (let b = 0; b < nBeta; b++) ll += s[b]! * beta[b]!;
  for (const g of groups) {
    const k = g.items.length;
    const top = g.count.length - 1;
    let any = false;
    for (let r = 1; r < top; r++) if (g.count[r]! > 0) any = true;
    if (!any || k < 2) continue;
    const eps = g.items.map((i, j) => {
      const e = new Float64Array(g.maxCat[j]! + 1);
      e[0] = 1;
      for (let h = 1; h <= g.maxCat[j]!; h++) e[h] = Math.exp(beta[off[i]! + h - 1]!);
      return e;
    });
    const gamma = polyEsf(eps);
    for (let r = 1; r < top; r++) if (g.count[r]! > 0) ll -= g.count[r]! * Math.log(gamma[r]!);
    // π_jh|r for every position, category ≥ 1 and informative score
    const pi: Float64Array[] = [];
    for (let j = 0; j < k; j++) {
      const m = g.maxCat[j]!;
      const without = polyEsf(eps, j);
      const p = new Float64Array((top + 1) * (m + 1));
      const b0 = off[g.items[j]!]! - 1;
      for (let r = 1; r < top; r++) {
        const n = g.count[r]!;
        if (n === 0) continue;
        for (let h = 1; h <= m && h <= r; h++)
          p[r * (m + 1) + h] = (eps[j]![h]! * without[r - h]!) / gamma[r]!;
        for (let h = 1; h <= m; h++) {
          const ph = p[r * (m + 1) + h]!;
          if (ph === 0) continue;
          const bh = b0 + h;
          add(grad, bh, -n * ph);
          add(info, bh * nBeta + bh, n * ph);
          for (let l = 1; l <= m; l++) add(info, bh * nBeta + b0 + l, -n * ph * p[r * (m + 1) + l]!);
        }
      }
      pi.push(p);
    }
    for (let j = 0; j < k; j++)
      for (let q = j + 1; q < k; q++) {
        const both = polyEsf(eps, j, q);
        const mj = g.maxCat[j]!;
        const mq = g.maxCat[q]!;
        const bj = off[g.items[j]!]! - 1;
        const bq = off[g.items[q]!]! - 1;
        for (let h = 1; h <= mj; h++)
          for (let l = 1; l <= mq; l++) {
            let cov = 0;
            for (let r = 1; r < top; r++) {
              const n = g.count[r]!;
              if (n === 0) continue;
              const joint = r - h - l >= 0 ? (eps[j]![h]! * eps[q]![l]! * both[r - h - l]!) / gamma[r]! : 0;
              cov += n * (joint - pi[j]![r * (mj + 1) + h]! * pi[q]![r * (mq + 1) + l]!);
            }
            add(info, (bj + h) * nBeta + bq + l, cov);
            add(info, (bq + l) * nBeta + bj + h, cov);
          }
      }
  }
  return { ll, grad, info };
}

/** Wᵀ A W for a symmetric nBeta × nBeta A. */
function project(design: Design, a: Float64Array): Float64Array {
  const { w, nBeta, nEta } = design;
  const aw = new Float64Array(nBeta * nEta);
  for (let i = 0; i < nBeta; i++)
    for (let k = 0; k < nBeta; k++) {
      const x = a[i * nBeta + k]!;
      if (x === 0) continue;
      for (let e = 0; e < nEta; e++) aw[i * nEta + e] = aw[i * nEta + e]! + x * w[k * nEta + e]!;
    }
  const out = new Float64Array(nEta * nEta);
  for (let i = 0; i < nBeta; i++)
    for (let e = 0; e < nEta; e++) {
      const wie = w[i * nEta + e]!;
      if (wie === 0) continue;
      for (let f = 0; f < nEta; f++) out[e * nEta + f] = out[e * nEta + f]! + wie * aw[i * nEta + f]!;
    }
  return out;
}

const times = (design: Design, eta: Float64Array) => {
  const { w, nBeta, nEta } = design;
  const beta = new Float64Array(nBeta);
  for (let b = 0; b < nBeta; b++) {
    let sum = 0;
    for (let e = 0; e < nEta; e++) sum += w[b * nEta + e]! * eta[e]!;
    beta[b] = sum;
  }
  return beta;
};

/**
 * CML estimates of the β of items with categories 0..maxCat[i] under `design` from score groups.
 * Every category of every item must be used by some person with an informative score (otherwise
 * its β is not finite; the caller merges or drops it first).
 */
export function estimateCml(
  maxCat: ArrayLike<number>,
  groups: PolyGroups[],
  design: Design,
  options: { maxIterations?: number; tolerance?: number } = {},
): CmlFit {
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  const off = betaOffsets(maxCat);
  const { nBeta, nEta, w } = design;
  const s = new Float64Array(nBeta);
  for (const g of groups) {
    const top = g.count.length - 1;
    for (let r = 1; r < top; r++)
      g.items.forEach((i, j) => {
        for (let h = 1; h <= g.maxCat[j]!; h++)
          add(s, off[i]! + h - 1, g.cats[r * g.width + g.offset[j]! + h]!);
      });
  }
  const gradEta = (grad: Float64Array) => {
    const out = new Float64Array(nEta);
    for (let b = 0; b < nBeta; b++)
      for (let e = 0; e < nEta; e++) out[e] = out[e]! + w[b * nEta + e]! * grad[b]!;
    return out;
  };

  let eta: Float64Array = new Float64Array(nEta);
  let beta = times(design, eta);
  let ev = evaluate(nBeta, off, groups, s, beta);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations++;
    const step = solveSpd(project(design, ev.info), gradEta(ev.grad), nEta);
    let largest = 0;
    for (let e = 0; e < nEta; e++) largest = Math.max(largest, Math.abs(step[e]!));
    let scale = largest > 3 ? 3 / largest : 1;
    let nextEta: Float64Array;
    let next: Evaluation;
    for (;;) {
      nextEta = eta.map((x, e) => x + scale * step[e]!);
      next = evaluate(nBeta, off, groups, s, times(design, nextEta));
      if (next.ll >= ev.ll - 1e-12 * Math.abs(ev.ll) || scale < 1e-6) break;
      scale /= 2;
    }
    eta = nextEta;
    ev = next;
    if (largest * scale < tolerance) {
      converged = true;
      break;
    }
  }
  beta = times(design, eta);
  // covariance W (Wᵀ I W)⁻¹ Wᵀ, by columns of the inverse
  const j = project(design, ev.info);
  const inv = new Float64Array(nEta * nEta);
  for (let e = 0; e < nEta; e++) {
    const unit = new Float64Array(nEta);
    unit[e] = 1;
    const col = solveSpd(j, unit, nEta);
    for (let f = 0; f < nEta; f++) inv[f * nEta + e] = col[f]!;
  }
  const covariance = new Float64Array(nBeta * nBeta);
  for (let a = 0; a < nBeta; a++)
    for (let b = 0; b < nBeta; b++) {
      let sum = 0;
      for (let e = 0; e < nEta; e++) {
        const wa = w[a * nEta + e]!;
        if (wa === 0) continue;
        for (let f = 0; f < nEta; f++) sum += wa * inv[e * nEta + f]! * w[b * nEta + f]!;
      }
      covariance[a * nBeta + b] = sum;
    }
  const se = new Float64Array(nBeta);
  for (let b = 0; b < nBeta; b++) se[b] = Math.sqrt(Math.max(covariance[b * nBeta + b]!, 0));
  return { beta, covariance, se, eta, logLikelihood: ev.ll, iterations, converged };
}

/** Thresholds τ_ih = −(β_ih − β_i,h−1) with their standard errors, and each item's location. */
export function thresholds(maxCat: ArrayLike<number>, fit: Pick<CmlFit, 'beta' | 'covariance'>) {
  const off = betaOffsets(maxCat);
  const n = fit.beta.length;
  return Array.from(maxCat, (m, i) => {
    const tau: number[] = [];
    const se: number[] = [];
    for (let h = 1; h <= m; h++) {
      const a = off[i]! + h - 1;
      const b = h > 1 ? a - 1 : -1;
      tau.push(-(fit.beta[a]! - (b >= 0 ? fit.beta[b]! : 0)));
      const v =
        fit.covariance[a * n + a]! +
        (b >= 0 ? fit.covariance[b * n + b]! - 2 * fit.covariance[a * n + b]! : 0);
      se.push(Math.sqrt(Math.max(v, 0)));
    }
    return { location: tau.reduce((x, y) => x + y, 0) / m, thresholds: tau, se };
  });
}

/** Category probabilities of an item with β (categories 1..m) at θ (equating.ts uses them too). */
export function categoryProbabilities(theta: number, beta: ArrayLike<number>, out: Float64Array) {
  const m = beta.length;
  let top = 0;
  for (let h = 1; h <= m; h++) top = Math.max(top, h * theta + beta[h - 1]!);
  let total = Math.exp(-top);
  out[0] = total;
  for (let h = 1; h <= m; h++) {
    const e = Math.exp(h * theta + beta[h - 1]! - top);
    out[h] = e;
    total += e;
  }
  for (let h = 0; h <= m; h++) out[h] = out[h]! / total;
}

/** Mean, variance and fourth central moment of the item's score at θ. */
export function moments(theta: number, beta: ArrayLike<number>) {
  const p = new Float64Array(beta.length + 1);
  categoryProbabilities(theta, beta, p);
  let e = 0;
  for (let h = 0; h < p.length; h++) e += h * p[h]!;
  let v = 0;
  let c = 0;
  for (let h = 0; h < p.length; h++) {
    const d2 = (h - e) ** 2;
    v += d2 * p[h]!;
    c += d2 * d2 * p[h]!;
  }
  return { expected: e, variance: v, kurtosis: c };
}

/** The β rows (categories 1..m) of each item. */
export function betaRows(maxCat: ArrayLike<number>, beta: ArrayLike<number>): number[][] {
  const off = betaOffsets(maxCat);
  return Array.from(maxCat, (m, i) => Array.from({ length: m }, (_, h) => beta[off[i]! + h]!));
}

/**
 * Maximum-likelihood ability for raw score r (0 < r < Σ m) on items of β rows `rows`, as eRm's
 * person.parameter(): solves Σ_i E_i(θ) = r by Newton.
 */
export function polyAbility(rows: number[][], r: number): number {
  const top = rows.reduce((s, b) => s + b.length, 0);
  if (!(r > 0 && r < top)) throw new Error('ability needs 0 < r < max');
  let theta = Math.log(r / (top - r));
  for (let it = 0; it < 200; it++) {
    let expected = 0;
    let info = 0;
    for (const b of rows) {
      const mo = moments(theta, b);
      expected += mo.expected;
      info += mo.variance;
    }
    const step = Math.max(-1, Math.min(1, (r - expected) / info));
    theta += step;
    if (Math.abs(step) < 1e-12) break;
  }
  return theta;
}

export interface PolyItemFit {
  infit: Float64Array;
  outfit: Float64Array;
  /** Standardised (Wilson–Hilferty cube-root) as eRm's i.infitZ, i.outfitZ. */
  infitZ: Float64Array;
  outfitZ: Float64Array;
  /** Persons counted per item (non-extreme scores). */
  n: Float64Array;
}

/**
 * Infit and outfit of each item as eRm's itemfit(person.parameter(.)): over the persons with a
 * non-extreme score, each at the ML ability of their score on their items; z = (x − E)/√V,
 * outfit = mean z², infit = Σ (x − E)² / Σ V, and their t by the cube-root transformation with
 * the variances q²(outfit) = Σ C/V² / n² − 1/n, q²(infit) = Σ (C − V²) / (Σ V)² (C: the fourth
 * central moment).
 */
export function polyItemFit(
  maxCat: ArrayLike<number>,
  groups: PolyGroups[],
  beta: ArrayLike<number>,
): PolyItemFit {
  const m = maxCat.length;
  const rows = betaRows(maxCat, beta);
  const outNum = new Float64Array(m);
  const n = new Float64Array(m);
  const inNum = new Float64Array(m);
  const sumV = new Float64Array(m);
  const outQ = new Float64Array(m);
  const inQ = new Float64Array(m);
  for (const g of groups) {
    const top = g.count.length - 1;
    const own = g.items.map((i) => rows[i]!);
    for (let r = 1; r < top; r++) {
      const count = g.count[r]!;
      if (count === 0) continue;
      const theta = polyAbility(own, r);
      g.items.forEach((i, j) => {
        const mo = moments(theta, rows[i]!);
        let squares = 0;
        for (let h = 0; h <= g.maxCat[j]!; h++)
          squares += g.cats[r * g.width + g.offset[j]! + h]! * (h - mo.expected) ** 2;
        add(outNum, i, squares / mo.variance);
        add(n, i, count);
        add(inNum, i, squares);
        add(sumV, i, count * mo.variance);
        add(outQ, i, (count * mo.kurtosis) / mo.variance ** 2);
        add(inQ, i, count * (mo.kurtosis - mo.variance ** 2));
      });
    }
  }
  const outfit = outNum.map((x, i) => (n[i]! > 0 ? x / n[i]! : NaN));
  const infit = inNum.map((x, i) => (sumV[i]! > 0 ? x / sumV[i]! : NaN));
  const z = (msq: number, q: number) => (Math.cbrt(msq) - 1) * (3 / q) + q / 3;
  return {
    infit,
    outfit,
    outfitZ: outfit.map((x, i) => z(x, Math.sqrt(outQ[i]! / n[i]! ** 2 - 1 / n[i]!))),
    infitZ: infit.map((x, i) => z(x, Math.sqrt(inQ[i]! / sumV[i]! ** 2))),
    n,
  };
}
