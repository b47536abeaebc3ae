import {
  QTI_BASE_TYPES,
  QTI_CARDINALITIES,
  QTI_SHAPES,
  type QtiBaseType,
  type QtiCardinality,
  type QtiOutcomeDeclaration,
  type QtiResponseDeclaration,
  type QtiScalar,
  type QtiShape,
  type QtiTemplate,
} from '@attesta/contract';
import { note, type ImportNote } from '../notes.js';
import { attr, boolAttr, intAttr, isElement, kid, kids, numAttr, textOf, type XElement } from './qti-xml.js';

/*
 * Response and outcome declarations and response processing of a QTI item as the JSON of the task
 * model's `scoring.method: 'qti'` (content-qti.ts): one node per XML element, QTI 2 names (the DOM
 * of qti-xml.ts already turned QTI 3 names into them). An element the model does not know keeps
 * its name (`{ op: 'random' }`, `{ rule: 'lookupOutcomeValue' }`), so `unsupportedQtiOperators`
 * names it and the item is refused with that name. Problems that make the rules unreadable (a
 * tolerance given by a variable, a template we cannot find) are collected in `problems`.
 */

const BASE_TYPES = new Set<string>(QTI_BASE_TYPES);
const CARDINALITIES = new Set<string>(QTI_CARDINALITIES);
const SHAPES = new Set<string>(QTI_SHAPES);

/** Text of a `<value>` element: trimmed (indentation is not part of a value). */
const valueText = (el: XElement) => textOf(el).trim();

export interface ReadDeclarations {
  responses: QtiResponseDeclaration[];
  outcomes: QtiOutcomeDeclaration[];
  /** Outcomes left out because their base type is not one the engine has (duration, uri…). */
  skippedOutcomes: { id: string; baseType: string }[];
  /** Template variables (item cloning) declared by the item. */
  templateIds: string[];
  problems: ImportNote[];
}

function numbers(list: string | undefined): number[] | null {
  if (list === undefined || !list.trim()) return [];
  const parts = list.trim().split(/[\s,]+/);
  const xs = parts.map(Number);
  return xs.every((x) => Number.isFinite(x)) ? xs : null;
}

function readMapping(el: XElement, problems: ImportNote[], id: string): QtiResponseDeclaration['mapping'] {
  const entries = kids(el, 'mapEntry').map((e) => {
    const value = numAttr(e, 'mappedValue');
    if (value === undefined) problems.push(note('qti_map_entry_unreadable', { response: id }));
    const caseSensitive = attr(e, 'caseSensitive');
    return {
      key: attr(e, 'mapKey') ?? '',
      value: value ?? 0,
      ...(caseSensitive !== undefined ? { caseSensitive: boolAttr(e, 'caseSensitive', true) } : {}),
    };
  });
  return {
    entries,
    defaultValue: numAttr(el, 'defaultValue') ?? 0,
    ...(numAttr(el, 'lowerBound') !== undefined ? { lowerBound: numAttr(el, 'lowerBound') } : {}),
    ...(numAttr(el, 'upperBound') !== undefined ? { upperBound: numAttr(el, 'upperBound') } : {}),
  };
}

function readAreaMapping(
  el: XElement,
  problems: ImportNote[],
  id: string,
): QtiResponseDeclaration['areaMapping'] {
  const entries = kids(el, 'areaMapEntry').flatMap((e) => {
    const shape = attr(e, 'shape') ?? '';
    const coords = numbers(attr(e, 'coords'));
    const value = numAttr(e, 'mappedValue');
    if (!SHAPES.has(shape) || coords === null || value === undefined) {
      problems.push(note('qti_area_map_entry_unreadable', { response: id }));
      return [];
    }
    return [{ shape: shape as QtiShape, coords, value }];
  });
  return {
    entries,
    defaultValue: numAttr(el, 'defaultValue') ?? 0,
    ...(numAttr(el, 'lowerBound') !== undefined ? { lowerBound: numAttr(el, 'lowerBound') } : {}),
    ...(numAttr(el, 'upperBound') !== undefined ? { upperBound: numAttr(el, 'upperBound') } : {}),
  };
}

/** The declarations of an item (assessmentItem root). */
export function readDeclarations(item: XElement): ReadDeclarations {
  const problems: ImportNote[] = [];
  const responses: QtiResponseDeclaration[] = [];
  for (const el of kids(item, 'responseDeclaration')) {
    const id = attr(el, 'identifier') ?? '';
    const cardinality = attr(el, 'cardinality') ?? 'single';
    const baseType = attr(el, 'baseType');
    if (!CARDINALITIES.has(cardinality)) {
      problems.push(note('qti_cardinality_unknown', { response: id, cardinality }));
      continue;
    }
    if (baseType !== undefined && !BASE_TYPES.has(baseType)) {
      problems.push(note('qti_base_type_unsupported', { response: id, baseType }));
      continue;
    }
    const correctEl = kid(el, 'correctResponse');
    const mappingEl = kid(el, 'mapping');
    const areaEl = kid(el, 'areaMapping');
    responses.push({
      id,
      cardinality: cardinality as QtiCardinality,
      ...(baseType ? { baseType: baseType as QtiBaseType } : {}),
      ...(correctEl ? { correct: kids(correctEl, 'value').map(valueText) } : {}),
      ...(mappingEl ? { mapping: readMapping(mappingEl, problems, id) } : {}),
      ...(areaEl ? { areaMapping: readAreaMapping(areaEl, problems, id) } : {}),
    });
  }
  const outcomes: QtiOutcomeDeclaration[] = [];
  const skippedOutcomes: ReadDeclarations['skippedOutcomes'] = [];
  for (const el of kids(item, 'outcomeDeclaration')) {
    const id = attr(el, 'identifier') ?? '';
    const cardinality = attr(el, 'cardinality') ?? 'single';
    const baseType = attr(el, 'baseType');
    if (!CARDINALITIES.has(cardinality) || (baseType !== undefined && !BASE_TYPES.has(baseType))) {
      skippedOutcomes.push({ id, baseType: baseType ?? cardinality });
      continue;
    }
    const defaultEl = kid(el, 'defaultValue');
    const defaults = defaultEl ? kids(defaultEl, 'value').map(valueText) : undefined;
    outcomes.push({
      id,
      cardinality: cardinality as QtiCardinality,
      ...(baseType ? { baseType: baseType as QtiBaseType } : {}),
      ...(defaults && defaults.length
        ? { defaultValue: cardinality === 'single' ? defaults[0]! : defaults }
        : {}),
      ...(numAttr(el, 'normalMaximum') !== undefined ? { normalMaximum: numAttr(el, 'normalMaximum') } : {}),
      ...(numAttr(el, 'normalMinimum') !== undefined ? { normalMinimum: numAttr(el, 'normalMinimum') } : {}),
    });
  }
  const templateIds = kids(item, 'templateDeclaration').map((el) => attr(el, 'identifier') ?? '');
  return { responses, outcomes, skippedOutcomes, templateIds, problems };
}

// ---------------------------------------------------------------- response processing

const ONE_ARG = new Set(['isNull', 'not', 'containerSize', 'round', 'truncate', 'integerToFloat']);
const BY_ID = new Set(['variable', 'correct', 'mapResponse', 'mapResponsePoint', 'default']);

/** A value of an attribute that QTI lets be a variable reference `{VAR}`: refused here. */
const isReference = (v: string | undefined) => v !== undefined && /^\s*\{.*\}\s*$/.test(v);

/** One expression element as its JSON node. */
export function expressionOf(el: XElement, problems: ImportNote[]): Record<string, unknown> {
  const args = () => kids(el).map((c) => expressionOf(c, problems));
  const op = el.name;
  const refuse = (attribute: string) => {
    problems.push(note('qti_rp_variable_attribute', { operator: op, attribute }));
    return { op, args: args() };
  };
  if (op === 'baseValue') return { op, baseType: attr(el, 'baseType') ?? 'string', value: valueText(el) };
  if (BY_ID.has(op)) {
    if (op === 'variable' && attr(el, 'weightIdentifier')) problems.push(note('qti_rp_weights_unsupported'));
    return { op, id: attr(el, 'identifier') ?? '' };
  }
  if (op === 'null') return { op };
  if (ONE_ARG.has(op)) return { op, args: args() };
  switch (op) {
    case 'equal': {
      const tolerance = attr(el, 'tolerance');
      if (isReference(tolerance)) return refuse('tolerance');
      const t = numbers(tolerance);
      if (t === null) problems.push(note('qti_rp_tolerance_unreadable'));
      return {
        op,
        ...(attr(el, 'toleranceMode') ? { toleranceMode: attr(el, 'toleranceMode') } : {}),
        ...(t && t.length ? { tolerance: t } : {}),
        ...(attr(el, 'includeLowerBound') !== undefined
          ? { includeLowerBound: boolAttr(el, 'includeLowerBound', true) }
          : {}),
        ...(attr(el, 'includeUpperBound') !== undefined
          ? { includeUpperBound: boolAttr(el, 'includeUpperBound', true) }
          : {}),
        args: args(),
      };
    }
    case 'equalRounded':
    case 'roundTo': {
      if (isReference(attr(el, 'figures'))) return refuse('figures');
      return {
        op,
        ...(attr(el, 'roundingMode') ? { roundingMode: attr(el, 'roundingMode') } : {}),
        figures: intAttr(el, 'figures', -1),
        args: args(),
      };
    }
    case 'stringMatch':
      return {
        op,
        caseSensitive: boolAttr(el, 'caseSensitive', true),
        ...(attr(el, 'substring') !== undefined ? { substring: boolAttr(el, 'substring', false) } : {}),
        args: args(),
      };
    case 'substring':
      return {
        op,
        ...(attr(el, 'caseSensitive') !== undefined
          ? { caseSensitive: boolAttr(el, 'caseSensitive', true) }
          : {}),
        args: args(),
      };
    case 'patternMatch': {
      if (isReference(attr(el, 'pattern'))) return refuse('pattern');
      return { op, pattern: attr(el, 'pattern') ?? '', args: args() };
    }
    case 'anyN': {
      if (isReference(attr(el, 'min')) || isReference(attr(el, 'max'))) return refuse('min/max');
      return { op, min: intAttr(el, 'min', 0), max: intAttr(el, 'max', 0), args: args() };
    }
    case 'index': {
      const n = attr(el, 'n') ?? '';
      const asInt = intAttr(el, 'n');
      return { op, n: asInt ?? n.replace(/^\{|\}$/g, ''), args: args() };
    }
    case 'fieldValue':
      return { op, fieldId: attr(el, 'fieldIdentifier') ?? '', args: args() };
    case 'inside': {
      const coords = numbers(attr(el, 'coords'));
      if (coords === null) problems.push(note('qti_rp_coords_unreadable'));
      return { op, shape: attr(el, 'shape') ?? '', coords: coords ?? [], args: args() };
    }
    default:
      return { op, args: args() };
  }
}

/** Rule elements (children of responseProcessing, responseIf…) as their JSON nodes. */
export function rulesOf(els: readonly XElement[], problems: ImportNote[]): Record<string, unknown>[] {
  return els.map((el) => ruleOf(el, problems));
}

function branchOf(el: XElement, problems: ImportNote[]): { cond: unknown; then: unknown[] } {
  const [cond, ...then] = kids(el);
  if (!cond) problems.push(note('qti_rp_condition_missing', { element: el.name }));
  return {
    cond: cond ? expressionOf(cond, problems) : { op: '(missing)' },
    then: rulesOf(then, problems),
  };
}

function ruleOf(el: XElement, problems: ImportNote[]): Record<string, unknown> {
  switch (el.name) {
    case 'responseCondition': {
      const ifEl = kid(el, 'responseIf');
      if (!ifEl) problems.push(note('qti_rp_if_missing'));
      const elseIfs = kids(el, 'responseElseIf');
      const elseEl = kid(el, 'responseElse');
      return {
        rule: 'responseCondition',
        if: ifEl ? branchOf(ifEl, problems) : { cond: { op: '(missing)' }, then: [] },
        ...(elseIfs.length ? { elseIf: elseIfs.map((b) => branchOf(b, problems)) } : {}),
        ...(elseEl ? { else: rulesOf(kids(elseEl), problems) } : {}),
      };
    }
    case 'setOutcomeValue': {
      const value = kids(el)[0];
      if (!value) problems.push(note('qti_rp_value_missing'));
      return {
        rule: 'setOutcomeValue',
        id: attr(el, 'identifier') ?? '',
        value: value ? expressionOf(value, problems) : { op: '(missing)' },
      };
    }
    case 'exitResponse':
      return { rule: 'exitResponse' };
    case 'responseProcessingFragment':
      return { rule: 'responseProcessingFragment', rules: rulesOf(kids(el), problems) };
    default:
      return { rule: el.name };
  }
}

/** The standard template a URI or file name names (…/rptemplates/match_correct(.xml)), if any. */
export function templateNamed(uri: string | undefined): QtiTemplate | null {
  if (!uri) return null;
  const m = /(?:^|[/\\])(match_correct|map_response_point|map_response)(?:\.xml)?\s*$/i.exec(uri.trim());
  return m ? (m[1]!.toLowerCase() as QtiTemplate) : null;
}

export type ReadProcessing =
  | { kind: 'none' }
  | { kind: 'template'; template: QtiTemplate }
  | { kind: 'rules'; rules: Record<string, unknown>[]; fromTemplate?: string }
  | { kind: 'unknownTemplate'; uri: string };

/**
 * An item's responseProcessing: a standard template by its URI (or its templateLocation's file
 * name), the item's own rules, or the rules of a template file found through `loadTemplate`
 * (templateLocation inside the package).
 */
export function readProcessing(
  item: XElement,
  problems: ImportNote[],
  loadTemplate: (location: string) => XElement | null,
): ReadProcessing {
  const rp = kid(item, 'responseProcessing');
  if (!rp) return { kind: 'none' };
  const uri = attr(rp, 'template');
  const location = attr(rp, 'templateLocation');
  const known = templateNamed(uri) ?? templateNamed(location);
  if (known) return { kind: 'template', template: known };
  const own = kids(rp);
  if (own.length) return { kind: 'rules', rules: rulesOf(own, problems) };
  if (location) {
    const loaded = loadTemplate(location);
    if (loaded) return { kind: 'rules', rules: rulesOf(kids(loaded), problems), fromTemplate: location };
  }
  if (uri || location) return { kind: 'unknownTemplate', uri: (uri ?? location)! };
  return { kind: 'none' };
}

// ---------------------------------------------------------------- identifiers inside values

/** Base types whose values are (made of) identifiers of the item's choices. */
const ID_TYPES = new Set<string>(['identifier', 'pair', 'directedPair']);

/** A value of an identifier-like base type with each identifier renamed. */
export function renameValue(
  baseType: string | undefined,
  value: QtiScalar,
  rename: (id: string) => string,
): QtiScalar {
  if (!baseType || !ID_TYPES.has(baseType) || typeof value !== 'string') return value;
  return value
    .trim()
    .split(/\s+/)
    .map((part) => rename(part))
    .join(' ');
}

type Json = Record<string, unknown>;

/**
 * The declarations and rules with every identifier value of the item's choices renamed (QTI
 * identifiers → the task's ids), in correct responses, mapping keys, outcome defaults and
 * baseValues of identifier, pair and directedPair type. The renaming is one-to-one and avoids every
 * other literal of the item, so the rules compute what they did.
 */
export function renameIdentifiers<
  T extends { responses: QtiResponseDeclaration[]; outcomes: QtiOutcomeDeclaration[]; rules?: Json[] },
>(s: T, rename: (id: string) => string): T {
  const responses = s.responses.map((r) => ({
    ...r,
    ...(r.correct ? { correct: r.correct.map((v) => renameValue(r.baseType, v, rename)) } : {}),
    ...(r.mapping
      ? {
          mapping: {
            ...r.mapping,
            entries: r.mapping.entries.map((e) => ({ ...e, key: renameValue(r.baseType, e.key, rename) })),
          },
        }
      : {}),
  }));
  const outcomes = s.outcomes.map((o) =>
    o.defaultValue === undefined
      ? o
      : {
          ...o,
          defaultValue: Array.isArray(o.defaultValue)
            ? o.defaultValue.map((v) => renameValue(o.baseType, v, rename))
            : renameValue(o.baseType, o.defaultValue, rename),
        },
  );
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const n = node as Json;
    if (n.op === 'baseValue')
      return { ...n, value: renameValue(n.baseType as string, n.value as QtiScalar, rename) };
    return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, walk(v)]));
  };
  return { ...s, responses, outcomes, ...(s.rules ? { rules: walk(s.rules) as Json[] } : {}) };
}

/** Every identifier-like literal of the declarations and rules (to keep new ids apart from them). */
export function literalsOf(item: XElement): Set<string> {
  const out = new Set<string>();
  const walk = (el: XElement) => {
    for (const key of ['identifier', 'mapKey', 'responseIdentifier', 'outcomeIdentifier'])
      if (el.attrs[key]) for (const part of el.attrs[key].trim().split(/\s+/)) out.add(part);
    if (el.name === 'value' || el.name === 'baseValue')
      for (const part of textOf(el).trim().split(/\s+/)) if (part) out.add(part);
    for (const c of el.children) if (isElement(c)) walk(c);
  };
  walk(item);
  return out;
}
