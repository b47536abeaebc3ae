import {
  parseQtiScalar,
  walkRules,
  type QtiAreaMapping,
  type QtiExpression,
  type QtiMapping,
  type QtiRule,
  type QtiScoring,
} from './content-qti.js';

/**
 * The full marks a QTI-scored task gets (the importer sets maxScore from this): the RESPONSE
 * mapping's upperBound for the map templates, else the score outcome's normalMaximum, else 1 for
 * match_correct, else for map_response the best the mapping can give (the largest entry for a
 * single response, the sum of positive entries for a container), else for rules the largest
 * baseValue ever set to the score outcome when every assignment to it is a baseValue; null when
 * none of these says (the importer then tries the MAXSCORE outcome, the correct response's score
 * and `qtiRulesMaximum`, and refuses when none says).
 */
export function qtiMaxScore(scoring: QtiScoring): number | null {
  const response = scoring.responses.find((r) => r.id === 'RESPONSE');
  const normal = scoring.outcomes.find((o) => o.id === scoring.scoreOutcome)?.normalMaximum;
  const positive = (xs: number[]) => (xs.length ? Math.max(0, ...xs) : null);
  if (scoring.template === 'map_response' || scoring.template === 'map_response_point') {
    const mapping = scoring.template === 'map_response' ? response?.mapping : response?.areaMapping;
    if (mapping?.upperBound !== undefined) return mapping.upperBound;
    if (normal !== undefined) return normal;
    const values = mapping?.entries.map((e) => e.value) ?? [];
    if (response?.cardinality === 'single') return positive(values);
    return values.reduce((sum, v) => sum + Math.max(0, v), 0) || null;
  }
  if (normal !== undefined) return normal;
  if (scoring.template === 'match_correct') return 1;
  if (!scoring.rules) return null;
  const set: (number | null)[] = [];
  walkRules(scoring.rules, (r) => {
    if (r.rule !== 'setOutcomeValue' || r.id !== scoring.scoreOutcome) return;
    const v = r.value;
    set.push(
      v.op === 'baseValue' && typeof parseQtiScalar(v.baseType, v.value) === 'number'
        ? Number(parseQtiScalar(v.baseType, v.value))
        : null,
    );
  });
  return set.length && set.every((x) => x !== null) ? positive(set as number[]) : null;
}

/** The values a numeric outcome or expression can take: lo ≤ x ≤ hi (either may be infinite). */
interface Range {
  lo: number;
  hi: number;
}
/** The ranges of the outcomes on one path through the rules; null: no path reaches here. */
type State = Map<string, Range> | null;

const ANY: Range = { lo: -Infinity, hi: Infinity };
const exactly = (x: number): Range => ({ lo: x, hi: x });
const join = (a: Range, b: Range): Range => ({ lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi) });
/** a × b where 0 × ∞ is 0 (a zero factor wins: the product of a real 0 and any real is 0). */
const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);

function joinStates(a: State, b: State): State {
  if (!a) return b;
  if (!b) return a;
  const out = new Map<string, Range>();
  for (const id of new Set([...a.keys(), ...b.keys()])) out.set(id, join(a.get(id) ?? ANY, b.get(id) ?? ANY));
  return out;
}

/** What a mapping can give a response: each entry once at most, the default for any other value. */
function mappingRange(mapping: QtiMapping | QtiAreaMapping | undefined, single: boolean): Range {
  if (!mapping) return exactly(0);
  const values = mapping.entries.map((e) => e.value);
  const d = mapping.defaultValue;
  let range: Range = single
    ? { lo: Math.min(d, 0, ...values), hi: Math.max(d, 0, ...values) }
    : {
        lo: values.reduce((s, v) => s + Math.min(0, v), 0) + (d < 0 ? -Infinity : 0),
        hi: values.reduce((s, v) => s + Math.max(0, v), 0) + (d > 0 ? Infinity : 0),
      };
  if (mapping.lowerBound !== undefined)
    range = { lo: Math.max(range.lo, mapping.lowerBound), hi: Math.max(range.hi, mapping.lowerBound) };
  if (mapping.upperBound !== undefined)
    range = { lo: Math.min(range.lo, mapping.upperBound), hi: Math.min(range.hi, mapping.upperBound) };
  return range;
}

/**
 * The highest score the processing's rules can reach, found by following every path through them
 * with the range each numeric outcome can hold (interval analysis): sums, products, differences,
 * min/max, rounding, the mappings' bounds, and conditions that compare an outcome with a constant
 * (so `SCORE = SCORE + 1` for each part, then "if SCORE > 3 then SCORE = 3", gives 3). Null when
 * the score is not bounded that way (a typed number copied into the score, say): the importer then
 * asks for the full marks or refuses.
 */
export function qtiRulesMaximum(scoring: QtiScoring): number | null {
  if (!scoring.rules) return null;
  const responses = new Map(scoring.responses.map((r) => [r.id, r]));
  const numeric = new Set(['float', 'integer']);

  const evaluate = (e: QtiExpression, state: Map<string, Range>): Range => {
    switch (e.op) {
      case 'baseValue': {
        const v = parseQtiScalar(e.baseType, e.value);
        return typeof v === 'number' ? exactly(v) : ANY;
      }
      case 'null':
        return exactly(0);
      case 'variable':
        return state.get(e.id) ?? ANY;
      case 'default': {
        const o = scoring.outcomes.find((x) => x.id === e.id);
        const v = Number(o?.defaultValue ?? 0);
        return o && numeric.has(o.baseType ?? '') && Number.isFinite(v) ? exactly(v) : ANY;
      }
      case 'mapResponse': {
        const r = responses.get(e.id);
        return mappingRange(r?.mapping, r?.cardinality === 'single');
      }
      case 'mapResponsePoint': {
        const r = responses.get(e.id);
        return mappingRange(r?.areaMapping, r?.cardinality === 'single');
      }
      case 'round':
      case 'truncate':
      case 'integerToFloat': {
        const a = evaluate(e.args[0], state);
        const f = e.op === 'round' ? Math.round : e.op === 'truncate' ? Math.trunc : (x: number) => x;
        return { lo: f(a.lo), hi: f(a.hi) };
      }
      case 'sum':
        return e.args
          .map((a) => evaluate(a, state))
          .reduce((s, r) => ({ lo: s.lo + r.lo, hi: s.hi + r.hi }), exactly(0));
      case 'product':
        return e.args
          .map((a) => evaluate(a, state))
          .reduce((s, r) => {
            const c = [times(s.lo, r.lo), times(s.lo, r.hi), times(s.hi, r.lo), times(s.hi, r.hi)];
            return { lo: Math.min(...c), hi: Math.max(...c) };
          }, exactly(1));
      case 'subtract': {
        const [a, b] = e.args.map((x) => evaluate(x, state)) as [Range, Range];
        return { lo: a.lo - b.hi, hi: a.hi - b.lo };
      }
      case 'max':
      case 'min': {
        const rs = e.args.map((a) => evaluate(a, state));
        if (!rs.length) return ANY;
        const pick = e.op === 'max' ? Math.max : Math.min;
        return { lo: pick(...rs.map((r) => r.lo)), hi: pick(...rs.map((r) => r.hi)) };
      }
      default:
        return ANY;
    }
  };

  /** The state on the paths where `cond` is `holds`: a comparison of an outcome with a constant narrows it. */
  const refine = (state: Map<string, Range>, cond: QtiExpression, holds: boolean): State => {
    if (cond.op === 'not') return refine(state, cond.args[0], !holds);
    if ((cond.op === 'and' && holds) || (cond.op === 'or' && !holds)) {
      let s: State = state;
      for (const c of cond.args) s = s && refine(s, c, holds);
      return s;
    }
    if (!['lt', 'lte', 'gt', 'gte'].includes(cond.op)) return state;
    const [a, b] = (cond as { args: [QtiExpression, QtiExpression] }).args;
    let op = cond.op as 'lt' | 'lte' | 'gt' | 'gte';
    let variable = a;
    let constant = b;
    if (a.op !== 'variable') {
      variable = b;
      constant = a;
      op = ({ lt: 'gt', lte: 'gte', gt: 'lt', gte: 'lte' } as const)[op];
    }
    if (variable.op !== 'variable' || constant.op !== 'baseValue' || !state.has(variable.id)) return state;
    const c = evaluate(constant, state);
    if (c.lo !== c.hi) return state;
    if (!holds) op = ({ lt: 'gte', lte: 'gt', gt: 'lte', gte: 'lt' } as const)[op];
    const r = state.get(variable.id)!;
    // Strict comparisons keep the bound itself: a range, not a set of reals, so this stays safe.
    const narrowed =
      op === 'lt' || op === 'lte'
        ? { lo: r.lo, hi: Math.min(r.hi, c.hi) }
        : { lo: Math.max(r.lo, c.lo), hi: r.hi };
    if (narrowed.lo > narrowed.hi) return null;
    return new Map(state).set(variable.id, narrowed);
  };

  const exits: State[] = [];
  const run = (rules: readonly QtiRule[], start: State): State => {
    let state = start;
    for (const r of rules) {
      if (!state) return null;
      switch (r.rule) {
        case 'setOutcomeValue':
          if (state.has(r.id)) state = new Map(state).set(r.id, evaluate(r.value, state));
          break;
        case 'exitResponse':
          exits.push(state);
          return null;
        case 'responseProcessingFragment':
          state = run(r.rules, state);
          break;
        case 'responseCondition': {
          let rest: State = state;
          let out: State = null;
          for (const branch of [r.if, ...(r.elseIf ?? [])]) {
            if (!rest) break;
            out = joinStates(out, run(branch.then, refine(rest, branch.cond, true)));
            rest = refine(rest, branch.cond, false);
          }
          state = joinStates(out, r.else ? run(r.else, rest) : rest);
          break;
        }
      }
    }
    return state;
  };

  const initial = new Map<string, Range>();
  for (const o of scoring.outcomes) {
    if (o.cardinality !== 'single' || !numeric.has(o.baseType ?? '')) continue;
    const v = o.defaultValue === undefined ? 0 : Number(o.defaultValue);
    initial.set(o.id, Number.isFinite(v) ? exactly(v) : ANY);
  }
  if (!initial.has(scoring.scoreOutcome)) return null;
  const end = [run(scoring.rules, initial), ...exits].reduce(joinStates, null);
  const hi = end?.get(scoring.scoreOutcome)?.hi;
  return hi !== undefined && Number.isFinite(hi) && hi > 0 ? Math.round(hi * 1e6) / 1e6 : null;
}
