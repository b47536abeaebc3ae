import { parseQtiScalar, type QtiBaseType, type QtiCardinality, type QtiScalar } from '@attesta/contract';

/*
 * QTI runtime values. NULL is `null`; an empty container and an empty string are NULL too (QTI:
 * "empty containers and empty strings are treated as NULL"), so every constructor here normalises
 * them away. Base values: identifier, string, file — strings; float, integer — numbers; boolean;
 * pair, directedPair — [a, b]; point — [x, y].
 */

export type Base = string | number | boolean | readonly [string, string] | readonly [number, number];

export interface QtiValue {
  cardinality: QtiCardinality;
  baseType: QtiBaseType | null;
  /** single: one value; multiple (a bag) and ordered: one or more; record: none (see fields). */
  values: readonly Base[];
  fields?: ReadonlyMap<string, Value>;
}
export type Value = QtiValue | null;

export const single = (baseType: QtiBaseType, value: Base): Value =>
  value === '' ? null : { cardinality: 'single', baseType, values: [value] };

export const container = (
  cardinality: 'multiple' | 'ordered',
  baseType: QtiBaseType | null,
  values: readonly Base[],
): Value => (values.length ? { cardinality, baseType, values } : null);

export const bool = (b: boolean): Value => single('boolean', b);
export const float = (x: number): Value => (Number.isNaN(x) ? null : single('float', x));
export const integer = (x: number): Value => (Number.isNaN(x) ? null : single('integer', x));

/** A value as written in a declaration ("A P", "10 20", "4.136") read for its base type. */
export function baseFrom(baseType: QtiBaseType, raw: QtiScalar): Base | null {
  const parsed = parseQtiScalar(baseType, raw);
  if (parsed === null) return null;
  switch (baseType) {
    case 'pair':
    case 'directedPair': {
      const [a, b] = String(parsed).split(' ');
      return [a!, b!] as const;
    }
    case 'point': {
      const [x, y] = String(parsed).split(' ');
      return [Number(x), Number(y)] as const;
    }
    default:
      return parsed;
  }
}

/** Declared values (correct response, default value) as a value of that cardinality. */
export function valueFrom(
  cardinality: QtiCardinality,
  baseType: QtiBaseType | undefined,
  raw: readonly QtiScalar[] | undefined,
): Value {
  if (!raw || !baseType || cardinality === 'record') return null;
  const values = raw.map((r) => baseFrom(baseType, r)).filter((v): v is Base => v !== null);
  if (cardinality === 'single') return values.length ? single(baseType, values[0]!) : null;
  return container(cardinality, baseType, values);
}

/** Two base values are the same value of this base type (pair: either order; directedPair: in order). */
export function sameBase(baseType: QtiBaseType | null, a: Base, b: Base): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a[0] === b[0] && a[1] === b[1]) return true;
    return baseType === 'pair' && a[0] === b[1] && a[1] === b[0];
  }
  return a === b;
}

/** Values of a container as a bag: how often each distinct value occurs. */
function bag(baseType: QtiBaseType | null, values: readonly Base[]): { value: Base; n: number }[] {
  const out: { value: Base; n: number }[] = [];
  for (const v of values) {
    const hit = out.find((x) => sameBase(baseType, x.value, v));
    if (hit) hit.n++;
    else out.push({ value: v, n: 1 });
  }
  return out;
}

/** The distinct values of a container (in first-seen order). */
export const distinct = (baseType: QtiBaseType | null, values: readonly Base[]): Base[] =>
  bag(baseType, values).map((x) => x.value);

/** QTI `match`: the same value — bags for multiple, sequences for ordered, fields for records. */
export function sameValue(a: QtiValue, b: QtiValue): boolean {
  if (a.cardinality === 'record' || b.cardinality === 'record') {
    if (a.cardinality !== b.cardinality) return false;
    const fa = a.fields ?? new Map<string, Value>();
    const fb = b.fields ?? new Map<string, Value>();
    if (fa.size !== fb.size) return false;
    for (const [k, va] of fa) {
      const vb = fb.get(k);
      if (va === null || vb === null || vb === undefined) {
        if (va !== vb) return false;
      } else if (!sameValue(va, vb)) return false;
    }
    return true;
  }
  if (a.cardinality !== b.cardinality) return false;
  const baseType = a.baseType ?? b.baseType;
  if (a.values.length !== b.values.length) return false;
  if (a.cardinality === 'multiple') {
    const bb = bag(baseType, b.values);
    return bag(baseType, a.values).every((x) =>
      bb.some((y) => sameBase(baseType, x.value, y.value) && x.n === y.n),
    );
  }
  return a.values.every((v, i) => sameBase(baseType, v, b.values[i]!));
}

const isNumeric = (v: Value): v is QtiValue =>
  !!v && (v.baseType === 'float' || v.baseType === 'integer') && v.values.every((x) => typeof x === 'number');

/** The number of a single numeric value, else null. */
export function numberOf(v: Value): number | null {
  return isNumeric(v) && v.cardinality === 'single' ? (v.values[0] as number) : null;
}

/** All numbers of a numeric value (single or container), else null. */
export function numbersOf(v: Value): number[] | null {
  return isNumeric(v) && v.cardinality !== 'record' ? (v.values as number[]) : null;
}

export const isInteger = (v: Value): boolean => !!v && v.baseType === 'integer';

/** The value as JSON for the score details: null, a scalar, or an array ("A B" for pairs, "x y" for points). */
export function toJson(v: Value): unknown {
  if (v === null) return null;
  const one = (b: Base): unknown => (Array.isArray(b) ? b.join(' ') : b);
  if (v.cardinality === 'record')
    return Object.fromEntries([...(v.fields ?? new Map<string, Value>())].map(([k, f]) => [k, toJson(f)]));
  return v.cardinality === 'single' ? one(v.values[0]!) : v.values.map(one);
}
