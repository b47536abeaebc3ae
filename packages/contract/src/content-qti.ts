import { z } from 'zod';
import type { PartAnswerType } from './answer-types.js';

/*
 * QTI response processing as part of a task's secret `scoring` (`method: 'qti'`), for content
 * imported from QTI 2.1/2.2/3.0 (docs/content-model.md). The importer writes the item's response
 * and outcome declarations and its response processing (a template or the rules) as JSON:
 *  - declarations: `responses` (cardinality, baseType, correct response, mapping, area mapping)
 *    and `outcomes` (cardinality, baseType, default value, normalMaximum);
 *  - rules: a JSON AST mirroring the XML one element for one node: a rule is
 *    `{ rule: <element>, … }`, an expression `{ op: <element>, …attributes, args: [sub-expressions] }`;
 *    QTI 2.x names in camelCase (QTI 3 `qti-map-response` → `mapResponse`);
 *  - `bind`: how the participant's saved value becomes response variables (one response for the
 *    whole value, or one per cloze gap / composite part);
 *  - `scoreOutcome` (SCORE): the outcome that is the task's score (clamped to [0, maxScore]).
 * An element this engine does not evaluate makes the definition invalid, naming the element
 * (`unsupportedQtiOperators` lists them for the importer's message).
 */

export const QTI_BASE_TYPES = [
  'identifier',
  'string',
  'float',
  'integer',
  'boolean',
  'pair',
  'directedPair',
  'point',
  'file',
] as const;
export type QtiBaseType = (typeof QTI_BASE_TYPES)[number];
export const QTI_CARDINALITIES = ['single', 'multiple', 'ordered', 'record'] as const;
export type QtiCardinality = (typeof QTI_CARDINALITIES)[number];

export const HOTSPOT_SHAPES = ['rect', 'circle', 'ellipse', 'poly'] as const;
export type HotspotShape = (typeof HOTSPOT_SHAPES)[number];
export const QTI_SHAPES = [...HOTSPOT_SHAPES, 'default'] as const;
export type QtiShape = (typeof QTI_SHAPES)[number];

/** rect x1,y1,x2,y2 (left, top, right, bottom); circle cx,cy,r; ellipse cx,cy,rx,ry; poly x1,y1,x2,y2,… */
export function coordsProblem(shape: QtiShape, coords: readonly number[]): string | null {
  switch (shape) {
    case 'rect':
      return coords.length === 4 ? null : 'a rect has 4 coords: left, top, right, bottom';
    case 'circle':
      return coords.length === 3 && coords[2]! >= 0 ? null : 'a circle has 3 coords: x, y, radius';
    case 'ellipse':
      return coords.length === 4 && coords[2]! >= 0 && coords[3]! >= 0
        ? null
        : 'an ellipse has 4 coords: x, y, horizontal and vertical radius';
    case 'poly':
      return coords.length >= 6 && coords.length % 2 === 0 ? null : 'a poly has 3 or more x, y pairs';
    case 'default':
      return null;
  }
}

const qtiIdSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/)
  .describe('A QTI identifier (response, outcome, choice)');

/** A value as written in the XML: "ChoiceA", "A P" (a pair), "10 20" (a point), 4.136, true. */
const qtiScalarSchema = z.union([z.string().max(1000), z.number().finite(), z.boolean()]);
export type QtiScalar = z.infer<typeof qtiScalarSchema>;

const finite = z.number().finite();

export const qtiMappingSchema = z
  .object({
    entries: z
      .array(
        z.object({
          key: qtiScalarSchema,
          value: finite,
          caseSensitive: z.boolean().optional().describe('string keys: default true'),
        }),
      )
      .max(1000),
    defaultValue: finite.default(0),
    lowerBound: finite.optional(),
    upperBound: finite.optional(),
  })
  .describe('QTI mapping: response values → points (mapResponse)');
export type QtiMapping = z.output<typeof qtiMappingSchema>;

export const qtiAreaMappingSchema = z
  .object({
    entries: z
      .array(z.object({ shape: z.enum(QTI_SHAPES), coords: z.array(finite).max(200), value: finite }))
      .max(200),
    defaultValue: finite.default(0),
    lowerBound: finite.optional(),
    upperBound: finite.optional(),
  })
  .describe('QTI areaMapping: areas of an image → points (mapResponsePoint)');
export type QtiAreaMapping = z.output<typeof qtiAreaMappingSchema>;

export const qtiResponseDeclarationSchema = z.object({
  id: qtiIdSchema,
  cardinality: z.enum(QTI_CARDINALITIES),
  baseType: z.enum(QTI_BASE_TYPES).optional().describe('Every cardinality but record has one'),
  correct: z.array(qtiScalarSchema).max(200).optional().describe('correctResponse values'),
  mapping: qtiMappingSchema.optional(),
  areaMapping: qtiAreaMappingSchema.optional(),
});
export type QtiResponseDeclaration = z.output<typeof qtiResponseDeclarationSchema>;

export const qtiOutcomeDeclarationSchema = z.object({
  id: qtiIdSchema,
  cardinality: z.enum(QTI_CARDINALITIES),
  baseType: z.enum(QTI_BASE_TYPES).optional(),
  defaultValue: z
    .union([qtiScalarSchema, z.array(qtiScalarSchema).max(200)])
    .optional()
    .describe('Absent: 0 for a single numeric outcome, else NULL'),
  normalMaximum: finite.optional(),
  normalMinimum: finite.optional(),
});
export type QtiOutcomeDeclaration = z.output<typeof qtiOutcomeDeclarationSchema>;

// ---------------------------------------------------------------- the response processing AST

export type QtiExpression =
  | { op: 'baseValue'; baseType: QtiBaseType; value: QtiScalar }
  | { op: 'variable' | 'correct' | 'mapResponse' | 'mapResponsePoint' | 'default'; id: string }
  | { op: 'null' }
  | {
      op: 'isNull' | 'not' | 'containerSize' | 'round' | 'truncate' | 'integerToFloat';
      args: [QtiExpression];
    }
  | {
      op:
        | 'match'
        | 'member'
        | 'contains'
        | 'delete'
        | 'subtract'
        | 'divide'
        | 'integerDivide'
        | 'integerModulus'
        | 'power'
        | 'lt'
        | 'lte'
        | 'gt'
        | 'gte';
      args: [QtiExpression, QtiExpression];
    }
  | {
      op: 'equal';
      toleranceMode?: 'exact' | 'absolute' | 'relative';
      /** t0 (and t1); absolute: [x − t0, x + t1]; relative (percent): [x(1 − t0/100), x(1 + t1/100)]. */
      tolerance?: number[];
      includeLowerBound?: boolean;
      includeUpperBound?: boolean;
      args: [QtiExpression, QtiExpression];
    }
  | {
      op: 'equalRounded';
      roundingMode?: 'significantFigures' | 'decimalPlaces';
      figures: number;
      args: [QtiExpression, QtiExpression];
    }
  | {
      op: 'roundTo';
      roundingMode?: 'significantFigures' | 'decimalPlaces';
      figures: number;
      args: [QtiExpression];
    }
  | { op: 'stringMatch'; caseSensitive: boolean; substring?: boolean; args: [QtiExpression, QtiExpression] }
  | { op: 'substring'; caseSensitive?: boolean; args: [QtiExpression, QtiExpression] }
  | { op: 'patternMatch'; pattern: string; args: [QtiExpression] }
  | { op: 'and' | 'or' | 'sum' | 'product' | 'max' | 'min'; args: QtiExpression[] }
  | { op: 'multiple' | 'ordered'; args: QtiExpression[] }
  | { op: 'anyN'; min: number; max: number; args: QtiExpression[] }
  | { op: 'index'; n: number | string; args: [QtiExpression] }
  | { op: 'fieldValue'; fieldId: string; args: [QtiExpression] }
  | { op: 'inside'; shape: QtiShape; coords: number[]; args: [QtiExpression] };

export interface QtiBranch {
  cond: QtiExpression;
  then: QtiRule[];
}
export type QtiRule =
  | { rule: 'responseCondition'; if: QtiBranch; elseIf?: QtiBranch[]; else?: QtiRule[] }
  | { rule: 'setOutcomeValue'; id: string; value: QtiExpression }
  | { rule: 'exitResponse' }
  | { rule: 'responseProcessingFragment'; rules: QtiRule[] };

/** The expression elements evaluated here (QTI 2.x names). */
export const QTI_OPERATORS = [
  'baseValue',
  'variable',
  'correct',
  'mapResponse',
  'mapResponsePoint',
  'default',
  'null',
  'isNull',
  'not',
  'containerSize',
  'round',
  'truncate',
  'integerToFloat',
  'match',
  'member',
  'contains',
  'delete',
  'subtract',
  'divide',
  'integerDivide',
  'integerModulus',
  'power',
  'lt',
  'lte',
  'gt',
  'gte',
  'equal',
  'equalRounded',
  'roundTo',
  'stringMatch',
  'substring',
  'patternMatch',
  'and',
  'or',
  'sum',
  'product',
  'max',
  'min',
  'multiple',
  'ordered',
  'anyN',
  'index',
  'fieldValue',
  'inside',
] as const satisfies readonly QtiExpression['op'][];
/** The rule elements run here. */
export const QTI_RULES = [
  'responseCondition',
  'setOutcomeValue',
  'exitResponse',
  'responseProcessingFragment',
] as const satisfies readonly QtiRule['rule'][];

const MAX_DEPTH = 60;

/**
 * The elements of a (not yet validated) rules program this engine does not evaluate, each once,
 * e.g. ['random', 'lookupOutcomeValue']; a node without `op`/`rule` is named '(unnamed)', a program
 * nested deeper than 60 levels '(too deep)'. [] — every element is supported.
 */
export function unsupportedQtiOperators(program: unknown): string[] {
  const found = new Set<string>();
  const ops = new Set<string>(QTI_OPERATORS);
  const rules = new Set<string>(QTI_RULES);
  const visitExpression = (node: unknown, depth: number) => {
    if (depth > MAX_DEPTH) return found.add('(too deep)');
    const op = node && typeof node === 'object' ? (node as { op?: unknown }).op : undefined;
    if (typeof op !== 'string') return found.add('(unnamed)');
    if (!ops.has(op)) found.add(op);
    const args = (node as { args?: unknown }).args;
    if (Array.isArray(args)) for (const arg of args) visitExpression(arg, depth + 1);
  };
  const visitRules = (list: unknown, depth: number) => {
    if (!Array.isArray(list)) return;
    for (const node of list) visitRule(node, depth + 1);
  };
  const visitBranch = (branch: unknown, depth: number) => {
    if (!branch || typeof branch !== 'object') return;
    visitExpression((branch as QtiBranch).cond, depth + 1);
    visitRules((branch as QtiBranch).then, depth + 1);
  };
  const visitRule = (node: unknown, depth: number) => {
    if (depth > MAX_DEPTH) return found.add('(too deep)');
    const rule = node && typeof node === 'object' ? (node as { rule?: unknown }).rule : undefined;
    if (typeof rule !== 'string') return found.add('(unnamed)');
    if (!rules.has(rule)) return found.add(rule);
    const r = node as Record<string, unknown>;
    if (rule === 'responseCondition') {
      visitBranch(r.if, depth);
      if (Array.isArray(r.elseIf)) for (const b of r.elseIf) visitBranch(b, depth);
      visitRules(r.else, depth);
    } else if (rule === 'setOutcomeValue') visitExpression(r.value, depth + 1);
    else if (rule === 'responseProcessingFragment') visitRules(r.rules, depth);
  };
  visitRules(program, 0);
  return [...found];
}

const oneArg = z.lazy(() => z.tuple([qtiExpressionSchema]));
const twoArgs = z.lazy(() => z.tuple([qtiExpressionSchema, qtiExpressionSchema]));
const roundingModeSchema = z.enum(['significantFigures', 'decimalPlaces']).optional();

export const qtiExpressionSchema: z.ZodType<QtiExpression> = z.lazy(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('baseValue'), baseType: z.enum(QTI_BASE_TYPES), value: qtiScalarSchema }),
    z.object({
      op: z.enum(['variable', 'correct', 'mapResponse', 'mapResponsePoint', 'default']),
      id: qtiIdSchema,
    }),
    z.object({ op: z.literal('null') }),
    z.object({
      op: z.enum(['isNull', 'not', 'containerSize', 'round', 'truncate', 'integerToFloat']),
      args: oneArg,
    }),
    z.object({
      op: z.enum([
        'match',
        'member',
        'contains',
        'delete',
        'subtract',
        'divide',
        'integerDivide',
        'integerModulus',
        'power',
        'lt',
        'lte',
        'gt',
        'gte',
      ]),
      args: twoArgs,
    }),
    z.object({
      op: z.literal('equal'),
      toleranceMode: z.enum(['exact', 'absolute', 'relative']).optional(),
      tolerance: z.array(finite.min(0)).min(1).max(2).optional(),
      includeLowerBound: z.boolean().optional(),
      includeUpperBound: z.boolean().optional(),
      args: twoArgs,
    }),
    z.object({
      op: z.literal('equalRounded'),
      roundingMode: roundingModeSchema,
      figures: z.number().int().min(0).max(15),
      args: twoArgs,
    }),
    z.object({
      op: z.literal('roundTo'),
      roundingMode: roundingModeSchema,
      figures: z.number().int().min(0).max(15),
      args: oneArg,
    }),
    z.object({
      op: z.literal('stringMatch'),
      caseSensitive: z.boolean(),
      substring: z.boolean().optional(),
      args: twoArgs,
    }),
    z.object({ op: z.literal('substring'), caseSensitive: z.boolean().optional(), args: twoArgs }),
    z.object({ op: z.literal('patternMatch'), pattern: z.string().min(1).max(1000), args: oneArg }),
    z.object({
      op: z.enum(['and', 'or', 'sum', 'product', 'max', 'min']),
      args: z.array(qtiExpressionSchema).min(1).max(100),
    }),
    z.object({ op: z.enum(['multiple', 'ordered']), args: z.array(qtiExpressionSchema).max(100) }),
    z.object({
      op: z.literal('anyN'),
      min: z.number().int().min(0),
      max: z.number().int().min(0),
      args: z.array(qtiExpressionSchema).min(1).max(100),
    }),
    z.object({
      op: z.literal('index'),
      n: z.union([z.number().int().min(1), qtiIdSchema]),
      args: oneArg,
    }),
    z.object({ op: z.literal('fieldValue'), fieldId: qtiIdSchema, args: oneArg }),
    z.object({
      op: z.literal('inside'),
      shape: z.enum(QTI_SHAPES),
      coords: z.array(finite).max(200),
      args: oneArg,
    }),
  ]),
);

const qtiBranchSchema: z.ZodType<QtiBranch> = z.lazy(() =>
  z.object({ cond: qtiExpressionSchema, then: z.array(qtiRuleSchema).max(500) }),
);

export const qtiRuleSchema: z.ZodType<QtiRule> = z.lazy(() =>
  z.discriminatedUnion('rule', [
    z.object({
      rule: z.literal('responseCondition'),
      if: qtiBranchSchema,
      elseIf: z.array(qtiBranchSchema).max(100).optional(),
      else: z.array(qtiRuleSchema).max(500).optional(),
    }),
    z.object({ rule: z.literal('setOutcomeValue'), id: qtiIdSchema, value: qtiExpressionSchema }),
    z.object({ rule: z.literal('exitResponse') }),
    z.object({ rule: z.literal('responseProcessingFragment'), rules: z.array(qtiRuleSchema).max(500) }),
  ]),
);

/** Rules checked for unsupported elements first, so the message names them. */
const qtiRulesSchema = z
  .array(z.unknown())
  .max(500)
  .superRefine((rules, ctx) => {
    const unsupported = unsupportedQtiOperators(rules);
    if (unsupported.length)
      ctx.addIssue({ code: 'custom', message: `unsupported QTI elements: ${unsupported.join(', ')}` });
  })
  .pipe(z.array(qtiRuleSchema));

export const QTI_TEMPLATES = ['match_correct', 'map_response', 'map_response_point'] as const;
export type QtiTemplate = (typeof QTI_TEMPLATES)[number];

const bindKeySchema = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/);

// ---------------------------------------------------------------- values as written

/** A QTI value as written (XML text or JSON) read for its base type, or null when it is not one. */
export function parseQtiScalar(baseType: QtiBaseType, raw: QtiScalar): QtiScalar | null {
  const text = typeof raw === 'string' ? raw.trim() : String(raw);
  switch (baseType) {
    case 'identifier':
      return /^[^\s]{1,1000}$/.test(text) ? text : null;
    case 'string':
    case 'file':
      return typeof raw === 'string' ? raw : String(raw);
    case 'float': {
      if (typeof raw === 'number') return raw;
      const x = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
      return Number.isFinite(x) ? x : null;
    }
    case 'integer': {
      if (typeof raw === 'number') return Number.isInteger(raw) ? raw : null;
      return /^[+-]?\d{1,15}$/.test(text) ? Number(text) : null;
    }
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : null;
    case 'pair':
    case 'directedPair':
      return /^[^\s]{1,500} [^\s]{1,500}$/.test(text.replace(/\s+/g, ' ')) ? text.replace(/\s+/g, ' ') : null;
    case 'point':
      return /^-?\d{1,6} -?\d{1,6}$/.test(text.replace(/\s+/g, ' ')) ? text.replace(/\s+/g, ' ') : null;
  }
}

// ---------------------------------------------------------------- patterns (XML Schema → JS)

const XML_NAME_START = 'A-Za-z_:\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF';
const XML_NAME = `${XML_NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F`;

/**
 * An XML Schema regular expression (QTI patternMatch, textEntry patternMask) as a JS RegExp,
 * anchored (XML Schema patterns match the whole string), or null when it cannot be converted:
 * \i \c \I \C become their XML name classes, ^ and $ are ordinary characters, `\p{IsBlock}` and
 * character-class subtraction `[a-z-[aeiou]]` are refused.
 */
export function qtiPatternToRegExp(pattern: string): RegExp | null {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return null;
      i++;
      if (next === 'i') out += inClass ? XML_NAME_START : `[${XML_NAME_START}]`;
      else if (next === 'c') out += inClass ? XML_NAME : `[${XML_NAME}]`;
      else if (next === 'I') {
        if (inClass) return null;
        out += `[^${XML_NAME_START}]`;
      } else if (next === 'C') {
        if (inClass) return null;
        out += `[^${XML_NAME}]`;
      } else if ((next === 'p' || next === 'P') && pattern.startsWith('{Is', i + 1)) return null;
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (ch === '[') return null; // subtraction [a-z-[aeiou]]
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += `\\${pattern[++i]}`;
      continue;
    }
    if (ch === '^' || ch === '$') out += `\\${ch}`;
    else out += ch;
  }
  if (inClass) return null;
  try {
    return new RegExp(`^(?:${out})$`, 'u');
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the scoring rule

const qtiScoringBaseSchema = z.object({
  method: z.literal('qti'),
  responses: z.array(qtiResponseDeclarationSchema).min(1).max(50),
  outcomes: z.array(qtiOutcomeDeclarationSchema).max(50).default([]),
  template: z
    .enum(QTI_TEMPLATES)
    .optional()
    .describe('A standard response processing template (on RESPONSE)'),
  rules: qtiRulesSchema.optional().describe('Or the item’s own response processing'),
  bind: z
    .union([
      z.object({ response: qtiIdSchema }).strict(),
      z.object({ parts: z.record(bindKeySchema, qtiIdSchema) }).strict(),
    ])
    .describe(
      'How the saved value becomes response variables: { response } for the whole value, { parts: { gapOrPartId: responseId } } for cloze and composite',
    ),
  scoreOutcome: qtiIdSchema
    .default('SCORE')
    .describe('The outcome that is the score; declared implicitly (float, 0) when not among outcomes'),
});
export type QtiScoring = z.output<typeof qtiScoringBaseSchema>;

type Problem = (path: (string | number)[], message: string) => void;

function walkExpressions(
  rules: readonly QtiRule[],
  visit: (e: QtiExpression, path: (string | number)[]) => void,
) {
  const expression = (e: QtiExpression, path: (string | number)[]) => {
    visit(e, path);
    if ('args' in e) e.args.forEach((arg, i) => expression(arg, [...path, 'args', i]));
  };
  const list = (rs: readonly QtiRule[], path: (string | number)[]): void =>
    rs.forEach((r, i) => {
      const at = [...path, i];
      switch (r.rule) {
        case 'responseCondition':
          expression(r.if.cond, [...at, 'if', 'cond']);
          list(r.if.then, [...at, 'if', 'then']);
          r.elseIf?.forEach((b, j) => {
            expression(b.cond, [...at, 'elseIf', j, 'cond']);
            list(b.then, [...at, 'elseIf', j, 'then']);
          });
          if (r.else) list(r.else, [...at, 'else']);
          break;
        case 'setOutcomeValue':
          expression(r.value, [...at, 'value']);
          break;
        case 'responseProcessingFragment':
          list(r.rules, [...at, 'rules']);
          break;
      }
    });
  list(rules, ['rules']);
}

/** Every rule of a processing, depth first, with its path (for messages). */
export function walkRules(rules: readonly QtiRule[], visit: (r: QtiRule, path: (string | number)[]) => void) {
  const list = (rs: readonly QtiRule[], path: (string | number)[]): void =>
    rs.forEach((r, i) => {
      const at = [...path, i];
      visit(r, at);
      if (r.rule === 'responseCondition') {
        list(r.if.then, [...at, 'if', 'then']);
        r.elseIf?.forEach((b, j) => list(b.then, [...at, 'elseIf', j, 'then']));
        if (r.else) list(r.else, [...at, 'else']);
      } else if (r.rule === 'responseProcessingFragment') list(r.rules, [...at, 'rules']);
    });
  list(rules, ['rules']);
}

/** Declarations, references and values of a QTI scoring rule that do not fit together. */
function checkQtiScoring(s: QtiScoring, problem: Problem): void {
  const ids = [...s.responses.map((r) => r.id), ...s.outcomes.map((o) => o.id)];
  if (new Set(ids).size !== ids.length) problem(['responses'], 'response and outcome ids must be distinct');
  const responses = new Map(s.responses.map((r) => [r.id, r]));
  const outcomes = new Map(s.outcomes.map((o) => [o.id, o]));
  const checkValues = (
    baseType: QtiBaseType | undefined,
    values: readonly QtiScalar[],
    path: (string | number)[],
  ) =>
    values.forEach((v, i) => {
      if (baseType && parseQtiScalar(baseType, v) === null)
        problem([...path, i], `not a valid ${baseType} value`);
    });

  s.responses.forEach((r, i) => {
    const at = ['responses', i];
    if (r.cardinality !== 'record' && !r.baseType) problem([...at, 'baseType'], 'required');
    if (r.correct) {
      checkValues(r.baseType, r.correct, [...at, 'correct']);
      if (r.cardinality === 'single' && r.correct.length > 1)
        problem([...at, 'correct'], 'a single response has one value');
    }
    if (r.mapping) {
      r.mapping.entries.forEach((e, j) => {
        if (r.baseType && parseQtiScalar(r.baseType, e.key) === null)
          problem([...at, 'mapping', 'entries', j, 'key'], `not a valid ${r.baseType} value`);
      });
      if (
        r.mapping.lowerBound !== undefined &&
        r.mapping.upperBound !== undefined &&
        r.mapping.lowerBound > r.mapping.upperBound
      )
        problem([...at, 'mapping', 'lowerBound'], 'exceeds upperBound');
    }
    if (r.areaMapping) {
      if (r.baseType !== 'point') problem([...at, 'areaMapping'], 'needs a point response');
      r.areaMapping.entries.forEach((e, j) => {
        const bad = coordsProblem(e.shape, e.coords);
        if (bad) problem([...at, 'areaMapping', 'entries', j, 'coords'], bad);
      });
    }
  });
  s.outcomes.forEach((o, i) => {
    if (o.cardinality !== 'record' && !o.baseType) problem(['outcomes', i, 'baseType'], 'required');
    if (o.defaultValue !== undefined)
      checkValues(o.baseType, Array.isArray(o.defaultValue) ? o.defaultValue : [o.defaultValue], [
        'outcomes',
        i,
        'defaultValue',
      ]);
  });
  const score = outcomes.get(s.scoreOutcome);
  if (
    score &&
    (score.cardinality !== 'single' || (score.baseType !== 'float' && score.baseType !== 'integer'))
  )
    problem(['scoreOutcome'], 'must be a single float or integer outcome');

  if ((s.template === undefined) === (s.rules === undefined))
    problem(['template'], 'give either a template or rules');
  if (s.template) {
    const response = responses.get('RESPONSE');
    if (!response) problem(['template'], 'templates score the response RESPONSE, which is not declared');
    else if (s.template === 'match_correct' && !response.correct)
      problem(['template'], 'match_correct needs RESPONSE’s correct response');
    else if (s.template === 'map_response' && !response.mapping)
      problem(['template'], 'map_response needs RESPONSE’s mapping');
    else if (s.template === 'map_response_point' && !response.areaMapping)
      problem(['template'], 'map_response_point needs RESPONSE’s areaMapping');
  }
  if (s.rules) {
    walkExpressions(s.rules, (e, path) => {
      switch (e.op) {
        case 'variable':
        case 'default':
          if (!responses.has(e.id) && !outcomes.has(e.id) && e.id !== s.scoreOutcome)
            problem(path, `${e.id} is not declared`);
          break;
        case 'correct':
          if (!responses.has(e.id)) problem(path, `${e.id} is not a response`);
          break;
        case 'mapResponse':
          if (!responses.get(e.id)?.mapping) problem(path, `${e.id} is not a response with a mapping`);
          break;
        case 'mapResponsePoint':
          if (!responses.get(e.id)?.areaMapping)
            problem(path, `${e.id} is not a response with an areaMapping`);
          break;
        case 'baseValue':
          if (parseQtiScalar(e.baseType, e.value) === null)
            problem([...path, 'value'], `not a valid ${e.baseType} value`);
          break;
        case 'equal':
          if ((e.toleranceMode === 'absolute' || e.toleranceMode === 'relative') && !e.tolerance)
            problem([...path, 'tolerance'], 'required for this toleranceMode');
          break;
        case 'patternMatch':
          if (!qtiPatternToRegExp(e.pattern))
            problem([...path, 'pattern'], 'not a pattern this engine can run');
          break;
        case 'index':
          if (typeof e.n === 'string' && !responses.has(e.n) && !outcomes.has(e.n))
            problem([...path, 'n'], `${e.n} is not declared`);
          break;
        case 'inside': {
          const bad = coordsProblem(e.shape, e.coords);
          if (bad) problem([...path, 'coords'], bad);
          break;
        }
        case 'anyN':
          if (e.min > e.max) problem([...path, 'min'], 'exceeds max');
          break;
      }
    });
    walkRules(s.rules, (r, path) => {
      if (r.rule === 'setOutcomeValue' && !outcomes.has(r.id) && r.id !== s.scoreOutcome)
        problem([...path, 'id'], `${r.id} is not a declared outcome`);
    });
  }
  const bound = 'response' in s.bind ? [s.bind.response] : Object.values(s.bind.parts);
  for (const id of bound) if (!responses.has(id)) problem(['bind'], `${id} is not a declared response`);
}

export const qtiScoringSchema = qtiScoringBaseSchema
  .superRefine((s, ctx) =>
    checkQtiScoring(s, (path, message) => ctx.addIssue({ code: 'custom', path, message })),
  )
  .describe('QTI response processing (docs/content-model.md)');

// ---------------------------------------------------------------- binding a task to responses

/** What a response is bound to: a task or part of an answer type, or a cloze gap of a kind. */
export type QtiSlot = PartAnswerType | 'gap_text' | 'gap_choice' | 'gap_number';

const SINGLE: readonly QtiCardinality[] = ['single'];
const ANY: readonly QtiCardinality[] = ['single', 'multiple', 'ordered'];
const SLOT_BINDINGS: Record<
  QtiSlot,
  { baseTypes: readonly QtiBaseType[]; cardinalities: readonly QtiCardinality[] }
> = {
  single_choice: { baseTypes: ['identifier'], cardinalities: ANY },
  multiple_choice: { baseTypes: ['identifier'], cardinalities: ANY },
  hottext: { baseTypes: ['identifier'], cardinalities: ANY },
  hotspot: { baseTypes: ['identifier', 'point'], cardinalities: ANY },
  ordering: { baseTypes: ['identifier'], cardinalities: ['ordered'] },
  matching: { baseTypes: ['directedPair'], cardinalities: ['single', 'multiple'] },
  gap_match: { baseTypes: ['directedPair'], cardinalities: ['single', 'multiple'] },
  associate: { baseTypes: ['pair', 'directedPair'], cardinalities: ['single', 'multiple'] },
  short_text: { baseTypes: ['string', 'identifier', 'float', 'integer'], cardinalities: SINGLE },
  number: { baseTypes: ['float', 'integer', 'string'], cardinalities: SINGLE },
  digit_sequence: { baseTypes: ['string', 'integer'], cardinalities: SINGLE },
  extended_text: { baseTypes: ['string'], cardinalities: SINGLE },
  file: { baseTypes: ['file'], cardinalities: ANY },
  cloze: { baseTypes: [], cardinalities: [] },
  gap_text: { baseTypes: ['string', 'identifier', 'float', 'integer'], cardinalities: SINGLE },
  gap_choice: { baseTypes: ['identifier'], cardinalities: SINGLE },
  gap_number: { baseTypes: ['float', 'integer', 'string'], cardinalities: SINGLE },
};

/**
 * Why a response cannot hold the value of this slot, or null: e.g. an ordering needs an ordered
 * identifier response, a gap match directedPair ("word gap"), a hotspot in points mode a point one.
 */
export function qtiBindingProblem(
  slot: QtiSlot,
  decl: QtiResponseDeclaration,
  content?: unknown,
): string | null {
  const fit = SLOT_BINDINGS[slot];
  if (
    !decl.baseType ||
    !fit.baseTypes.includes(decl.baseType) ||
    !fit.cardinalities.includes(decl.cardinality)
  )
    return `${decl.id} (${decl.cardinality} ${decl.baseType ?? 'record'}) does not fit ${slot}`;
  if (slot === 'hotspot') {
    const points = (content as { select?: string } | undefined)?.select === 'points';
    if (points !== (decl.baseType === 'point'))
      return `${decl.id}: a hotspot selecting ${points ? 'points needs a point' : 'areas needs an identifier'} response`;
  }
  return null;
}
