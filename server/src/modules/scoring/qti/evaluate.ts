import {
  qtiPatternToRegExp,
  type QtiExpression,
  type QtiOutcomeDeclaration,
  type QtiResponseDeclaration,
  type QtiRule,
  type QtiScoring,
} from '@attesta/contract';
import { insideShape } from '../geometry.js';
import {
  baseFrom,
  bool,
  container,
  distinct,
  float,
  integer,
  isInteger,
  numberOf,
  numbersOf,
  sameBase,
  sameValue,
  single,
  valueFrom,
  type Base,
  type QtiValue,
  type Value,
} from './values.js';

/*
 * QTI response processing (QTI 2.1/2.2/3.0 §"Response Processing"), run over the JSON AST of
 * content-qti.ts. A pure function of the compiled program and the response values: no clock, no
 * randomness (random operators are refused when the task is defined), no I/O, no loops in the
 * language, so it always ends.
 *
 * Semantics kept from the specification:
 *  - NULL: empty containers and empty strings are NULL; an operator with a NULL operand gives NULL
 *    (and/or/anyN follow three-valued logic; containerSize of NULL is 0; multiple/ordered skip
 *    NULL); a condition that is NULL counts as false.
 *  - mapResponse: a single value maps to its entry or the defaultValue (NULL → defaultValue); a
 *    container sums the entries of its distinct values, each value without an entry adding the
 *    defaultValue; then lowerBound/upperBound. String keys compare case-sensitively unless the
 *    entry says caseSensitive=false; the first matching entry counts.
 *  - mapResponsePoint: each area entry that holds one of the points counts once; no area hit (or
 *    NULL) gives the defaultValue; then the bounds.
 *  - match: same cardinality and base type; multiple = same bag, ordered = same sequence; pair is
 *    unordered, directedPair ordered.
 *  - equal: exact, absolute [x − t0, x + t1] or relative [x·(1 − t0/100), x·(1 + t1/100)] around
 *    the first operand, bounds included unless includeLowerBound/includeUpperBound say false.
 *  - round: n for [n − 0.5, n + 0.5) (−6.5 → −6); truncate towards 0; integerDivide rounds down,
 *    division by 0 is NULL; roundTo/equalRounded round the decimal digits half away from zero.
 *  - outcomes start at their defaultValue, else 0 for a single numeric outcome, else NULL.
 * Operands of the wrong type (a string for lt, a container for equal) give NULL rather than an
 * error: a processing error in a delivery engine means "no score", which here is 0.
 */

interface MapEntry {
  key: Base;
  value: number;
  caseSensitive: boolean;
}

export interface CompiledQti {
  responses: Map<string, QtiResponseDeclaration>;
  /** Mapping entries with their keys read for the response's base type. */
  mappings: Map<string, MapEntry[]>;
  correct: Map<string, Value>;
  outcomes: Map<string, QtiOutcomeDeclaration>;
  initial: Map<string, Value>;
  rules: QtiRule[];
  scoreOutcome: string;
  patterns: Map<string, RegExp>;
}

/** The response processing templates, as rules (QTI rptemplates, on RESPONSE and SCORE). */
function templateRules(template: NonNullable<QtiScoring['template']>): QtiRule[] {
  const response: QtiExpression = { op: 'variable', id: 'RESPONSE' };
  const setScore = (value: QtiExpression): QtiRule => ({ rule: 'setOutcomeValue', id: 'SCORE', value });
  const zero = setScore({ op: 'baseValue', baseType: 'float', value: 0 });
  if (template === 'match_correct')
    return [
      {
        rule: 'responseCondition',
        if: {
          cond: { op: 'match', args: [response, { op: 'correct', id: 'RESPONSE' }] },
          then: [setScore({ op: 'baseValue', baseType: 'float', value: 1 })],
        },
        else: [zero],
      },
    ];
  const map: QtiExpression =
    template === 'map_response'
      ? { op: 'mapResponse', id: 'RESPONSE' }
      : { op: 'mapResponsePoint', id: 'RESPONSE' };
  return [
    {
      rule: 'responseCondition',
      if: { cond: { op: 'isNull', args: [response] }, then: [zero] },
      else: [setScore(map)],
    },
  ];
}

function initialValue(decl: QtiOutcomeDeclaration): Value {
  if (decl.defaultValue !== undefined)
    return valueFrom(
      decl.cardinality,
      decl.baseType,
      Array.isArray(decl.defaultValue) ? decl.defaultValue : [decl.defaultValue],
    );
  if (decl.cardinality === 'single' && decl.baseType === 'integer') return integer(0);
  if (decl.cardinality === 'single' && decl.baseType === 'float') return float(0);
  return null;
}

/** Declarations read once: correct responses, outcome defaults, patterns. */
export function compileQti(scoring: QtiScoring): CompiledQti {
  const outcomes = new Map(scoring.outcomes.map((o) => [o.id, o]));
  const score = scoring.scoreOutcome;
  const templateScore = scoring.template ? 'SCORE' : null;
  for (const id of [score, templateScore])
    if (id && !outcomes.has(id)) outcomes.set(id, { id, cardinality: 'single', baseType: 'float' });
  const rules = scoring.template ? templateRules(scoring.template) : (scoring.rules ?? []);
  const patterns = new Map<string, RegExp>();
  const collect = (e: QtiExpression) => {
    if (e.op === 'patternMatch' && !patterns.has(e.pattern)) {
      const re = qtiPatternToRegExp(e.pattern);
      if (re) patterns.set(e.pattern, re);
    }
    if ('args' in e) e.args.forEach(collect);
  };
  const walk = (rs: readonly QtiRule[]): void =>
    rs.forEach((r) => {
      if (r.rule === 'setOutcomeValue') collect(r.value);
      else if (r.rule === 'responseCondition') {
        collect(r.if.cond);
        walk(r.if.then);
        r.elseIf?.forEach((b) => {
          collect(b.cond);
          walk(b.then);
        });
        if (r.else) walk(r.else);
      } else if (r.rule === 'responseProcessingFragment') walk(r.rules);
    });
  walk(rules);
  const mappings = new Map(
    scoring.responses.map((r) => [
      r.id,
      (r.mapping?.entries ?? []).flatMap((e) => {
        const key = r.baseType ? baseFrom(r.baseType, e.key) : null;
        return key === null ? [] : [{ key, value: e.value, caseSensitive: e.caseSensitive ?? true }];
      }),
    ]),
  );
  return {
    responses: new Map(scoring.responses.map((r) => [r.id, r])),
    mappings,
    correct: new Map(scoring.responses.map((r) => [r.id, valueFrom(r.cardinality, r.baseType, r.correct)])),
    outcomes,
    initial: new Map([...outcomes].map(([id, o]) => [id, initialValue(o)])),
    rules,
    scoreOutcome: score,
    patterns,
  };
}

// ---------------------------------------------------------------- helpers

const singleOf = (v: Value): Base | null => (v && v.cardinality === 'single' ? v.values[0]! : null);
const stringOf = (v: Value): string | null => {
  const b = singleOf(v);
  return typeof b === 'string' ? b : null;
};
const truth = (v: Value): boolean | null => {
  const b = singleOf(v);
  return typeof b === 'boolean' ? b : null;
};
const isContainer = (v: Value): v is QtiValue =>
  !!v && (v.cardinality === 'multiple' || v.cardinality === 'ordered');

/** A number rounded on its decimal digits, half away from zero (roundTo, equalRounded). */
export function roundDecimal(
  x: number,
  mode: 'significantFigures' | 'decimalPlaces',
  figures: number,
): number | null {
  if (Number.isNaN(x)) return null;
  if (!Number.isFinite(x) || x === 0) return x;
  if (mode === 'significantFigures' && figures < 1) return null;
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(exponent);
  const keep = mode === 'significantFigures' ? figures : exp + 1 + figures;
  if (keep < 0) return 0;
  let kept = BigInt(digits.slice(0, keep).padEnd(keep, '0') || '0');
  if ((digits[keep] ?? '0') >= '5') kept += 1n;
  const result = Number(`${kept}e${exp + 1 - keep}`);
  return x < 0 ? -result : result;
}

function inBounds(x: number, lower?: number, upper?: number): number {
  let r = x;
  if (lower !== undefined && r < lower) r = lower;
  if (upper !== undefined && r > upper) r = upper;
  return r;
}

// ---------------------------------------------------------------- evaluation

interface State {
  c: CompiledQti;
  responses: Map<string, Value>;
  outcomes: Map<string, Value>;
}

function variable(s: State, id: string): Value {
  if (s.responses.has(id)) return s.responses.get(id)!;
  if (s.c.responses.has(id)) return null;
  return s.outcomes.get(id) ?? null;
}

function mapResponse(s: State, id: string): Value {
  const decl = s.c.responses.get(id);
  const mapping = decl?.mapping;
  if (!decl || !mapping) return null;
  const baseType = decl.baseType ?? null;
  const entries = s.c.mappings.get(id) ?? [];
  const lookup = (b: Base): number => {
    const hit = entries.find((e) =>
      !e.caseSensitive && typeof e.key === 'string' && typeof b === 'string' && baseType === 'string'
        ? e.key.toLowerCase() === b.toLowerCase()
        : sameBase(baseType, e.key, b),
    );
    return hit ? hit.value : mapping.defaultValue;
  };
  const v = variable(s, id);
  let total: number;
  if (v === null) total = mapping.defaultValue;
  else if (v.cardinality === 'single') total = lookup(v.values[0]!);
  else if (v.cardinality === 'record') return null;
  else total = distinct(baseType, v.values).reduce<number>((sum, b) => sum + lookup(b), 0);
  return float(inBounds(total, mapping.lowerBound, mapping.upperBound));
}

function mapResponsePoint(s: State, id: string): Value {
  const decl = s.c.responses.get(id);
  const mapping = decl?.areaMapping;
  if (!decl || !mapping) return null;
  const v = variable(s, id);
  const points = (v?.values ?? []).filter(
    (b): b is readonly [number, number] => Array.isArray(b) && typeof b[0] === 'number',
  );
  let hit = false;
  let total = 0;
  for (const entry of mapping.entries) {
    if (points.some(([x, y]) => insideShape(entry.shape, entry.coords, { x, y }))) {
      hit = true;
      total += entry.value;
    }
  }
  return float(inBounds(hit ? total : mapping.defaultValue, mapping.lowerBound, mapping.upperBound));
}

function numeric(args: Value[], f: (xs: number[]) => number, allowContainers: boolean): Value {
  if (args.some((a) => a === null)) return null;
  const xs: number[] = [];
  for (const a of args) {
    const ns = allowContainers ? numbersOf(a) : numberOf(a) === null ? null : [numberOf(a)!];
    if (!ns) return null;
    xs.push(...ns);
  }
  const r = f(xs);
  if (!Number.isFinite(r)) return null;
  return args.every(isInteger) ? integer(r) : float(r);
}

function compare(args: Value[], f: (a: number, b: number) => boolean): Value {
  const a = numberOf(args[0] ?? null);
  const b = numberOf(args[1] ?? null);
  return a === null || b === null ? null : bool(f(a, b));
}

function collectInto(cardinality: 'multiple' | 'ordered', args: Value[]): Value {
  const values: Base[] = [];
  let baseType: QtiValue['baseType'] = null;
  for (const a of args) {
    if (a === null || a.cardinality === 'record') continue;
    baseType ??= a.baseType;
    values.push(...a.values);
  }
  return container(cardinality, baseType, values);
}

function equal(e: Extract<QtiExpression, { op: 'equal' }>, args: Value[]): Value {
  const x = numberOf(args[0] ?? null);
  const y = numberOf(args[1] ?? null);
  if (x === null || y === null) return null;
  const mode = e.toleranceMode ?? 'exact';
  if (mode === 'exact') return bool(x === y);
  const t0 = e.tolerance?.[0] ?? 0;
  const t1 = e.tolerance?.[1] ?? t0;
  const [a, b] = mode === 'absolute' ? [x - t0, x + t1] : [x * (1 - t0 / 100), x * (1 + t1 / 100)];
  const lower = Math.min(a, b);
  const upper = Math.max(a, b);
  const aboveLower = e.includeLowerBound === false ? y > lower : y >= lower;
  const belowUpper = e.includeUpperBound === false ? y < upper : y <= upper;
  return bool(aboveLower && belowUpper);
}

function contains(a: Value, b: Value): Value {
  if (!isContainer(a) || !isContainer(b)) return a === null || b === null ? null : bool(false);
  const baseType = a.baseType ?? b.baseType;
  if (a.cardinality === 'ordered' && b.cardinality === 'ordered') {
    for (let i = 0; i + b.values.length <= a.values.length; i++)
      if (b.values.every((v, j) => sameBase(baseType, v, a.values[i + j]!))) return bool(true);
    return bool(false);
  }
  const count = (list: readonly Base[], v: Base) => list.filter((x) => sameBase(baseType, x, v)).length;
  return bool(b.values.every((v) => count(a.values, v) >= count(b.values, v)));
}

function evaluate(s: State, e: QtiExpression): Value {
  const ev = (x: QtiExpression) => evaluate(s, x);
  switch (e.op) {
    case 'baseValue': {
      const b = baseFrom(e.baseType, e.value);
      return b === null ? null : single(e.baseType, b);
    }
    case 'variable':
      return variable(s, e.id);
    case 'correct':
      return s.c.correct.get(e.id) ?? null;
    case 'default':
      return s.c.initial.get(e.id) ?? null;
    case 'mapResponse':
      return mapResponse(s, e.id);
    case 'mapResponsePoint':
      return mapResponsePoint(s, e.id);
    case 'null':
      return null;
    case 'isNull':
      return bool(ev(e.args[0]) === null);
    case 'not': {
      const t = truth(ev(e.args[0]));
      return t === null ? null : bool(!t);
    }
    case 'and':
    case 'or': {
      let unknown = false;
      for (const arg of e.args) {
        const t = truth(ev(arg));
        if (t === null) unknown = true;
        else if (t === (e.op === 'or')) return bool(t);
      }
      return unknown ? null : bool(e.op === 'and');
    }
    case 'anyN': {
      let yes = 0;
      let unknown = 0;
      for (const arg of e.args) {
        const t = truth(ev(arg));
        if (t === null) unknown++;
        else if (t) yes++;
      }
      if (yes > e.max || yes + unknown < e.min) return bool(false);
      if (yes >= e.min && yes + unknown <= e.max) return bool(true);
      return null;
    }
    case 'match': {
      const a = ev(e.args[0]);
      const b = ev(e.args[1]);
      return a === null || b === null ? null : bool(sameValue(a, b));
    }
    case 'equal':
      return equal(e, e.args.map(ev));
    case 'equalRounded': {
      const x = numberOf(ev(e.args[0]));
      const y = numberOf(ev(e.args[1]));
      if (x === null || y === null) return null;
      const mode = e.roundingMode ?? 'significantFigures';
      const rx = roundDecimal(x, mode, e.figures);
      const ry = roundDecimal(y, mode, e.figures);
      return rx === null || ry === null ? null : bool(rx === ry);
    }
    case 'roundTo': {
      const x = numberOf(ev(e.args[0]));
      const r = x === null ? null : roundDecimal(x, e.roundingMode ?? 'significantFigures', e.figures);
      return r === null ? null : float(r);
    }
    case 'stringMatch':
    case 'substring': {
      let a = stringOf(ev(e.args[0]));
      let b = stringOf(ev(e.args[1]));
      if (a === null || b === null) return null;
      if (
        (e.op === 'stringMatch' && !e.caseSensitive) ||
        (e.op === 'substring' && e.caseSensitive === false)
      ) {
        a = a.toLowerCase();
        b = b.toLowerCase();
      }
      // substring: the first is found within the second.
      return bool(e.op === 'substring' || e.substring ? b.includes(a) : a === b);
    }
    case 'patternMatch': {
      const a = stringOf(ev(e.args[0]));
      const re = s.c.patterns.get(e.pattern);
      return a === null || !re ? null : bool(re.test(a));
    }
    case 'lt':
      return compare(e.args.map(ev), (a, b) => a < b);
    case 'lte':
      return compare(e.args.map(ev), (a, b) => a <= b);
    case 'gt':
      return compare(e.args.map(ev), (a, b) => a > b);
    case 'gte':
      return compare(e.args.map(ev), (a, b) => a >= b);
    case 'sum':
      return numeric(e.args.map(ev), (xs) => xs.reduce((a, b) => a + b, 0), true);
    case 'product':
      return numeric(e.args.map(ev), (xs) => xs.reduce((a, b) => a * b, 1), true);
    case 'max':
      return numeric(e.args.map(ev), (xs) => Math.max(...xs), true);
    case 'min':
      return numeric(e.args.map(ev), (xs) => Math.min(...xs), true);
    case 'subtract':
      return numeric(e.args.map(ev), ([a, b]) => a! - b!, false);
    case 'power':
      return numeric(e.args.map(ev), ([a, b]) => a! ** b!, false);
    case 'divide': {
      const [a, b] = e.args.map(ev).map(numberOf);
      if (a === null || b === null || a === undefined || b === undefined || b === 0) return null;
      return float(a / b);
    }
    case 'integerDivide':
    case 'integerModulus': {
      const args = e.args.map(ev);
      const [a, b] = args.map(numberOf);
      if (a == null || b == null || b === 0 || !args.every(isInteger)) return null;
      const q = Math.floor(a / b);
      return integer(e.op === 'integerDivide' ? q : a - q * b);
    }
    case 'integerToFloat': {
      const x = numberOf(ev(e.args[0]));
      return x === null ? null : float(x);
    }
    case 'round':
    case 'truncate': {
      const x = numberOf(ev(e.args[0]));
      if (x === null || Number.isNaN(x)) return null;
      return integer(e.op === 'round' ? Math.floor(x + 0.5) : Math.trunc(x));
    }
    case 'multiple':
    case 'ordered':
      return collectInto(e.op, e.args.map(ev));
    case 'containerSize': {
      const v = ev(e.args[0]);
      return integer(v === null ? 0 : v.values.length);
    }
    case 'member': {
      const a = ev(e.args[0]);
      const b = ev(e.args[1]);
      if (a === null || b === null) return null;
      const x = singleOf(a);
      if (x === null || !isContainer(b)) return null;
      return bool(b.values.some((v) => sameBase(b.baseType ?? a.baseType, v, x)));
    }
    case 'contains':
      return contains(ev(e.args[0]), ev(e.args[1]));
    case 'delete': {
      const a = ev(e.args[0]);
      const b = ev(e.args[1]);
      const x = singleOf(a);
      if (x === null || !isContainer(b)) return null;
      return container(
        b.cardinality as 'multiple' | 'ordered',
        b.baseType,
        b.values.filter((v) => !sameBase(b.baseType, v, x)),
      );
    }
    case 'index': {
      const v = ev(e.args[0]);
      const n = typeof e.n === 'number' ? e.n : numberOf(variable(s, e.n));
      if (!isContainer(v) || n === null || !Number.isInteger(n) || n < 1 || n > v.values.length) return null;
      return single(v.baseType ?? 'identifier', v.values[n - 1]!);
    }
    case 'fieldValue': {
      const v = ev(e.args[0]);
      return v?.cardinality === 'record' ? (v.fields?.get(e.fieldId) ?? null) : null;
    }
    case 'inside': {
      const v = ev(e.args[0]);
      if (v === null || v.baseType !== 'point') return null;
      return bool(
        v.values.some(
          (b) => Array.isArray(b) && insideShape(e.shape, e.coords, { x: b[0] as number, y: b[1] as number }),
        ),
      );
    }
  }
}

/** A value as the outcome declares it (a number for a numeric outcome, a container for a container). */
function asOutcome(decl: QtiOutcomeDeclaration, v: Value): Value {
  if (v === null) return null;
  if (decl.cardinality === 'single' && (decl.baseType === 'float' || decl.baseType === 'integer')) {
    const x = numberOf(v);
    if (x === null) return null;
    return decl.baseType === 'integer' ? integer(Math.trunc(x)) : float(x);
  }
  if ((decl.cardinality === 'multiple' || decl.cardinality === 'ordered') && v.cardinality !== 'record')
    return container(decl.cardinality, decl.baseType ?? v.baseType, v.values);
  return v;
}

/** Runs the rules; false when exitResponse stopped processing. */
function run(s: State, rules: readonly QtiRule[]): boolean {
  for (const r of rules) {
    switch (r.rule) {
      case 'exitResponse':
        return false;
      case 'setOutcomeValue': {
        const decl = s.c.outcomes.get(r.id);
        if (decl) s.outcomes.set(r.id, asOutcome(decl, evaluate(s, r.value)));
        break;
      }
      case 'responseProcessingFragment':
        if (!run(s, r.rules)) return false;
        break;
      case 'responseCondition': {
        const branch = [r.if, ...(r.elseIf ?? [])].find((b) => truth(evaluate(s, b.cond)) === true);
        const then = branch ? branch.then : (r.else ?? []);
        if (!run(s, then)) return false;
        break;
      }
    }
  }
  return true;
}

export interface QtiRun {
  outcomes: Map<string, Value>;
  /** The score outcome as a number (NULL or not a number: 0), before any clamping. */
  score: number;
}

/** Response processing over these response values (a response not given is NULL). */
export function runQti(c: CompiledQti, responses: Map<string, Value>): QtiRun {
  const s: State = { c, responses, outcomes: new Map(c.initial) };
  run(s, c.rules);
  return { outcomes: s.outcomes, score: numberOf(s.outcomes.get(c.scoreOutcome) ?? null) ?? 0 };
}
