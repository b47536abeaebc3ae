/*
 * The dichotomous Rasch model (1PL), estimated by conditional maximum likelihood as eRm's RM() does.
 *
 *   P(x_pi = 1) = exp(θ_p − δ_i) / (1 + exp(θ_p − δ_i))
 *
 * Given a participant's raw score r on the items they took, their answers no longer depend on θ:
 *   P(x | r) = Π ε_i^x_i / γ_r(ε),   ε_i = exp(−δ_i),
 * where γ_r is the elementary symmetric function of order r of the ε of those items. So the data
 * enter only as score groups: for each set of items taken together (a variant) and each raw score,
 * how many participants had it and how many of them solved each item. One iteration costs
 * O(groups × items² × items) and nothing per participant.
 *
 * Conditional log-likelihood (a_i = log ε_i = −δ_i):
 *   ℓ(a) = Σ_i s_i a_i − Σ_g Σ_r N_gr log γ_r(ε_g)
 * gradient  ∂ℓ/∂a_i = s_i − Σ_gr N_gr π_i|r,            π_i|r = ε_i γ_{r−1}^{(i)} / γ_r
 * information I_ii = Σ_gr N_gr π_i|r (1 − π_i|r),
 *             I_ij = Σ_gr N_gr (ε_i ε_j γ_{r−2}^{(ij)} / γ_r − π_i|r π_j|r),
 * (γ^{(i)}, γ^{(ij)}: the same functions without item i, without items i and j).
 * ℓ is concave and unchanged by adding a constant to every a of a linked part (component) of the
 * design, so Newton steps solve (I + Σ_c u_c u_cᵀ) Δ = ∇ℓ with u_c the unit vector of component c:
 * the extra term pins each component's sum, which stays 0 (eRm's sum0 normalisation). The
 * covariance of the estimate under that constraint is the pseudo-inverse of I, which is
 * (I + Σ u_c u_cᵀ)⁻¹ − Σ u_c u_cᵀ; eRm's W (Wᵀ I W)⁻¹ Wᵀ is the same matrix.
 */

/** a[i] += x on a typed array. */
export const add = (a: Float64Array, i: number, x: number) => {
  a[i] = a[i]! + x;
};

/** Participants of one set of items taken together, by raw score (0..k). */
export interface ScoreGroups {
  /** Parameter index of each item, in a fixed order (k items). */
  items: number[];
  /** count[r]: participants with raw score r. */
  count: Float64Array;
  /** ones[r * k + j]: participants with raw score r who solved item j. */
  ones: Float64Array;
}

export function emptyGroups(items: number[]): ScoreGroups {
  const k = items.length;
  return { items, count: new Float64Array(k + 1), ones: new Float64Array((k + 1) * k) };
}

/** Elementary symmetric functions γ_0..γ_n of `eps`, skipping indices `skipA` and `skipB`. */
export function esf(eps: ArrayLike<number>, skipA = -1, skipB = -1): Float64Array {
  const g = new Float64Array(eps.length + 1);
  g[0] = 1;
  let n = 0;
  for (let i = 0; i < eps.length; i++) {
    if (i === skipA || i === skipB) continue;
    const e = eps[i]!;
    n++;
    for (let r = n; r >= 1; r--) g[r] = g[r]! + e * g[r - 1]!;
  }
  return g;
}

export interface RaschFit {
  /** δ_i, logits; each linked component sums to 0 (before any random-groups shift). */
  difficulty: Float64Array;
  se: Float64Array;
  /** Component of each parameter (0 = the one with most information). */
  component: Int32Array;
  components: number;
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

interface Evaluation {
  ll: number;
  grad: Float64Array;
  info: Float64Array;
}

/** ℓ, its gradient and the information matrix (m × m, row-major) at `a`. */
function evaluate(m: number, groups: ScoreGroups[], s: Float64Array, a: Float64Array): Evaluation {
  const grad = Float64Array.from(s);
  const info = new Float64Array(m * m);
  let ll = 0;
  for (let i = 0; i < m; i++) ll += s[i]! * a[i]!;
  for (const g of groups) {
    const k = g.items.length;
    if (k < 2) continue;
    const eps = g.items.map((p) => Math.exp(a[p]!));
    const gamma = esf(eps);
    let any = false;
    for (let r = 1; r < k; r++)
      if (g.count[r]! > 0) {
        ll -= g.count[r]! * Math.log(gamma[r]!);
        any = true;
      }
    if (!any) continue;
    const without = eps.map((_, j) => esf(eps, j));
    // π_j|r for every item and informative score
    const pi = new Float64Array(k * k);
    for (let j = 0; j < k; j++) {
      let sum = 0;
      let var_ = 0;
      for (let r = 1; r < k; r++) {
        const n = g.count[r]!;
        if (n === 0) continue;
        const p = (eps[j]! * without[j]![r - 1]!) / gamma[r]!;
        pi[r * k + j] = p;
        sum += n * p;
        var_ += n * p * (1 - p);
      }
      const pj = g.items[j]!;
      grad[pj] = grad[pj]! - sum;
      info[pj * m + pj] = info[pj * m + pj]! + var_;
    }
    for (let j = 0; j < k; j++)
      for (let l = j + 1; l < k; l++) {
        const both = esf(eps, j, l);
        let cov = 0;
        for (let r = 1; r < k; r++) {
          const n = g.count[r]!;
          if (n === 0) continue;
          const pjl = r >= 2 ? (eps[j]! * eps[l]! * both[r - 2]!) / gamma[r]! : 0;
          cov += n * (pjl - pi[r * k + j]! * pi[r * k + l]!);
        }
        const pj = g.items[j]!;
        const pl = g.items[l]!;
        info[pj * m + pl] = info[pj * m + pl]! + cov;
        info[pl * m + pj] = info[pl * m + pj]! + cov;
      }
  }
  return { ll, grad, info };
}

/** Solves A x = b for a symmetric positive definite A (Cholesky); A and b are not changed. */
export function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j]!;
      for (let k = 0; k < j; k++) sum -= l[i * n + k]! * l[j * n + k]!;
      if (i === j) {
        if (!(sum > 0)) throw new Error('matrix not positive definite');
        l[i * n + i] = Math.sqrt(sum);
      } else l[i * n + j] = sum / l[j * n + j]!;
    }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i * n + k]! * y[k]!;
    y[i] = sum / l[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i]! * x[k]!;
    x[i] = sum / l[i * n + i]!;
  }
  return x;
}

/** Linked parts of the design: items taken together by someone are in one component. */
export function componentsOf(
  m: number,
  groups: { items: number[] }[],
): { component: Int32Array; count: number } {
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const g of groups)
    for (let j = 1; j < g.items.length; j++) parent[find(g.items[j]!)] = find(g.items[0]!);
  const ids = new Map<number, number>();
  const component = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const root = find(i);
    if (!ids.has(root)) ids.set(root, ids.size);
    component[i] = ids.get(root)!;
  }
  return { component, count: ids.size };
}

/**
 * CML estimates of `m` item difficulties from score groups. Every parameter must be finite: the
 * caller leaves out items that no informative participant (0 < r < k) solved, or all solved.
 */
export function estimateRasch(
  m: number,
  groups: ScoreGroups[],
  options: { maxIterations?: number; tolerance?: number } = {},
): RaschFit {
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  const { component, count: components } = componentsOf(m, groups);
  const size = new Float64Array(components);
  for (let i = 0; i < m; i++) size[component[i]!]!++;

  // sufficient statistics s_i (informative scores only) and a start from the logits of the shares
  const s = new Float64Array(m);
  const seen = new Float64Array(m);
  for (const g of groups) {
    const k = g.items.length;
    for (let r = 1; r < k; r++)
      for (let j = 0; j < k; j++) {
        add(s, g.items[j]!, g.ones[r * k + j]!);
        add(seen, g.items[j]!, g.count[r]!);
      }
  }
  const a = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const p = Math.min(Math.max(s[i]! / (seen[i]! || 1), 1e-3), 1 - 1e-3);
    a[i] = Math.log(p / (1 - p));
  }
  const centre = (x: Float64Array) => {
    const mean = new Float64Array(components);
    for (let i = 0; i < m; i++) add(mean, component[i]!, x[i]! / size[component[i]!]!);
    for (let i = 0; i < m; i++) x[i] = x[i]! - mean[component[i]!]!;
  };
  centre(a);

  /** I + Σ_c u_c u_cᵀ: the information with each component's shift pinned. */
  const pinned = (info: Float64Array) => {
    const out = Float64Array.from(info);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++)
        if (component[i] === component[j]) out[i * m + j] = out[i * m + j]! + 1 / size[component[i]!]!;
    return out;
  };

  let e = evaluate(m, groups, s, a);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations++;
    const step = solveSpd(pinned(e.info), e.grad, m);
    let largest = 0;
    for (let i = 0; i < m; i++) largest = Math.max(largest, Math.abs(step[i]!));
    // Newton on a concave function: damp only a wild first step, and halve while ℓ would fall.
    let scale = largest > 3 ? 3 / largest : 1;
    let next: Float64Array;
    let ne: Evaluation;
    for (;;) {
      next = a.map((x, i) => x + scale * step[i]!);
      centre(next);
      ne = evaluate(m, groups, s, next);
      if (ne.ll >= e.ll - 1e-12 * Math.abs(e.ll) || scale < 1e-6) break;
      scale /= 2;
    }
    a.set(next);
    e = ne;
    if (largest * scale < tolerance) {
      converged = true;
      break;
    }
  }

  // covariance: (I + Σ u uᵀ)⁻¹ − Σ u uᵀ, column by column
  const p = pinned(e.info);
  const se = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const unit = new Float64Array(m);
    unit[i] = 1;
    const column = solveSpd(p, unit, m);
    se[i] = Math.sqrt(Math.max(column[i]! - 1 / size[component[i]!]!, 0));
  }
  const difficulty = a.map((x) => -x);
  return {
    difficulty,
    se,
    component,
    components,
    logLikelihood: e.ll,
    iterations,
    converged,
  };
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * Maximum-likelihood ability for a raw score `r` on items of difficulties `d` (0 < r < k; a
 * fractional r places the extreme scores, e.g. 0.5 and k − 0.5). Solves Σ P_i(θ) = r by Newton.
 */
export function abilityFor(d: ArrayLike<number>, r: number): number {
  const k = d.length;
  if (!(r > 0 && r < k)) throw new Error('ability needs 0 < r < k');
  let mean = 0;
  for (let i = 0; i < k; i++) mean += d[i]! / k;
  let theta = mean + Math.log(r / (k - r));
  for (let it = 0; it < 100; it++) {
    let expected = 0;
    let info = 0;
    for (let i = 0; i < k; i++) {
      const p = logistic(theta - d[i]!);
      expected += p;
      info += p * (1 - p);
    }
    const step = Math.max(-1, Math.min(1, (r - expected) / info));
    theta += step;
    if (Math.abs(step) < 1e-12) break;
  }
  return theta;
}

/**
 * Infit and outfit mean squares of each item, as eRm's itemfit(person.parameter(.)): over the
 * participants with a non-extreme score, each at the ML ability of their score; residuals
 * z = (x − P)/√(P(1 − P)); outfit = mean z², infit = Σ (x − P)² / Σ P(1 − P).
 */
export function itemFit(
  m: number,
  groups: ScoreGroups[],
  difficulty: ArrayLike<number>,
): { infit: Float64Array; outfit: Float64Array } {
  const outNum = new Float64Array(m);
  const outDen = new Float64Array(m);
  const inNum = new Float64Array(m);
  const inDen = new Float64Array(m);
  for (const g of groups) {
    const k = g.items.length;
    const d = g.items.map((p) => difficulty[p]!);
    for (let r = 1; r < k; r++) {
      const n = g.count[r]!;
      if (n === 0) continue;
      const theta = abilityFor(d, r);
      for (let j = 0; j < k; j++) {
        const p = logistic(theta - d[j]!);
        const v = p * (1 - p);
        const solved = g.ones[r * k + j]!;
        const squares = solved * (1 - p) ** 2 + (n - solved) * p ** 2;
        const i = g.items[j]!;
        add(outNum, i, squares / v);
        add(outDen, i, n);
        add(inNum, i, squares);
        add(inDen, i, n * v);
      }
    }
  }
  return {
    infit: inNum.map((x, i) => (inDen[i]! > 0 ? x / inDen[i]! : NaN)),
    outfit: outNum.map((x, i) => (outDen[i]! > 0 ? x / outDen[i]! : NaN)),
  };
}

/** Σ_i w_i P(θ − δ_i): the test characteristic curve of items `d` (weights 1 when omitted). */
export function expectedScore(theta: number, d: ArrayLike<number>, weights?: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < d.length; i++) sum += (weights ? weights[i]! : 1) * logistic(theta - d[i]!);
  return sum;
}
