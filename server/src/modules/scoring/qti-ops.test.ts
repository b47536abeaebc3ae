import {
  qtiMaxScore,
  qtiPatternToRegExp,
  qtiScoringSchema,
  taskDefinitionSchema,
  unsupportedQtiOperators,
  type QtiExpression,
  type QtiRule,
} from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { answerFromQti, qtiCorrectAnswer, referenceFromAnswer, responseValue } from './qti/bind.js';
import { compileQti, roundDecimal, runQti } from './qti/evaluate.js';
import { container, single, toJson, type Value } from './qti/values.js';
import { scoreAnswer } from './score.js';

/*
 * QTI response processing, operator by operator (NULL handling, containers, numbers, strings),
 * rule by rule, the definition checks the importer relies on, and the conversions between saved
 * values and response variables.
 */

// ---------------------------------------------------------------- a small harness

const B = (
  baseType: 'identifier' | 'string' | 'float' | 'integer' | 'boolean' | 'pair' | 'directedPair' | 'point',
  value: string | number | boolean,
): QtiExpression => ({
  op: 'baseValue',
  baseType,
  value,
});
const id = (v: string) => B('identifier', v);
const int = (v: number) => B('integer', v);
const flt = (v: number) => B('float', v);
const str = (v: string) => B('string', v);
const T = B('boolean', true);
const F = B('boolean', false);
const NULL: QtiExpression = { op: 'null' };
const multiple = (...args: QtiExpression[]): QtiExpression => ({ op: 'multiple', args });
const ordered = (...args: QtiExpression[]): QtiExpression => ({ op: 'ordered', args });
const op = (name: string, ...args: QtiExpression[]) => ({ op: name, args }) as unknown as QtiExpression;
const v = (name: string): QtiExpression => ({ op: 'variable', id: name });

const RESPONSES = [
  { id: 'R', cardinality: 'multiple', baseType: 'identifier', correct: ['A', 'B'] },
  {
    id: 'M',
    cardinality: 'multiple',
    baseType: 'identifier',
    mapping: {
      defaultValue: -0.5,
      lowerBound: -1,
      entries: [
        { key: 'A', value: 1 },
        { key: 'B', value: 2 },
      ],
    },
  },
  {
    id: 'S',
    cardinality: 'single',
    baseType: 'string',
    mapping: {
      defaultValue: 0,
      entries: [
        { key: 'PARIS', value: 1, caseSensitive: false },
        { key: 'Lyon', value: 0.5 },
      ],
    },
  },
  {
    id: 'I',
    cardinality: 'single',
    baseType: 'identifier',
    mapping: { defaultValue: 0, entries: [{ key: 'a', value: 1, caseSensitive: false }] },
  },
  {
    id: 'P',
    cardinality: 'multiple',
    baseType: 'point',
    areaMapping: {
      defaultValue: -1,
      upperBound: 2.5,
      entries: [
        { shape: 'rect', coords: [0, 0, 10, 10], value: 1 },
        { shape: 'circle', coords: [50, 50, 10], value: 2 },
      ],
    },
  },
] as const;

/** The value of an expression (as JSON) given response values. */
function evaluate(expr: QtiExpression, responses: Record<string, Value> = {}) {
  const scoring = qtiScoringSchema.parse({
    method: 'qti',
    responses: RESPONSES,
    outcomes: [
      { id: 'OUT', cardinality: 'record' },
      { id: 'N', cardinality: 'single', baseType: 'integer', defaultValue: 4 },
    ],
    rules: [{ rule: 'setOutcomeValue', id: 'OUT', value: expr }],
    bind: { response: 'R' },
  });
  return toJson(runQti(compileQti(scoring), new Map(Object.entries(responses))).outcomes.get('OUT') ?? null);
}

const ids = (...xs: string[]) => container('multiple', 'identifier', xs);

// ---------------------------------------------------------------- operators

describe('QTI operators', () => {
  it.each<[string, QtiExpression, unknown, Record<string, Value>?]>([
    // NULL
    ['isNull of NULL', op('isNull', NULL), true],
    ['an empty string is NULL', op('isNull', str('')), true],
    ['an empty container is NULL', op('isNull', multiple()), true],
    ['a response not given is NULL', op('isNull', v('R')), true],
    ['isNull of a value', op('isNull', id('A')), false],
    ['not NULL is NULL', op('not', NULL), null],
    ['not true', op('not', T), false],
    // three-valued logic
    ['and: true, NULL → NULL', op('and', T, NULL), null],
    ['and: false, NULL → false', op('and', F, NULL), false],
    ['and: true, true', op('and', T, T), true],
    ['or: true, NULL → true', op('or', T, NULL), true],
    ['or: false, NULL → NULL', op('or', F, NULL), null],
    ['or: false, false', op('or', F, F), false],
    ['anyN 1..2 of true, false, NULL → true', { op: 'anyN', min: 1, max: 2, args: [T, F, NULL] }, true],
    ['anyN 2..2 of true, NULL, false → NULL', { op: 'anyN', min: 2, max: 2, args: [T, NULL, F] }, null],
    ['anyN 0..1 of true, true → false', { op: 'anyN', min: 0, max: 1, args: [T, T] }, false],
    // match
    ['match: bags ignore order', op('match', multiple(id('A'), id('B')), multiple(id('B'), id('A'))), true],
    [
      'match: bags count repeats',
      op('match', multiple(id('A'), id('A'), id('B')), multiple(id('A'), id('B'), id('B'))),
      false,
    ],
    ['match: sequences keep order', op('match', ordered(id('A'), id('B')), ordered(id('B'), id('A'))), false],
    ['match: a pair is unordered', op('match', B('pair', 'A B'), B('pair', 'B A')), true],
    [
      'match: a directedPair is ordered',
      op('match', B('directedPair', 'A B'), B('directedPair', 'B A')),
      false,
    ],
    ['match: NULL → NULL', op('match', NULL, id('A')), null],
    [
      'match: the response and its correct value',
      op('match', v('R'), { op: 'correct', id: 'R' }),
      true,
      { R: ids('B', 'A') },
    ],
    // containers
    ['member', op('member', id('A'), multiple(id('A'), id('B'))), true],
    ['member: not there', op('member', id('C'), multiple(id('A'), id('B'))), false],
    ['member: NULL → NULL', op('member', NULL, multiple(id('A'))), null],
    [
      'contains: [A,B,C] ⊇ [C,A]',
      op('contains', multiple(id('A'), id('B'), id('C')), multiple(id('C'), id('A'))),
      true,
    ],
    [
      'contains: [A,B,C] ⊉ [B,B]',
      op('contains', multiple(id('A'), id('B'), id('C')), multiple(id('B'), id('B'))),
      false,
    ],
    [
      'contains: [A,B,B,C] ⊇ [B,B]',
      op('contains', multiple(id('A'), id('B'), id('B'), id('C')), multiple(id('B'), id('B'))),
      true,
    ],
    [
      'contains: ordered, a run',
      op('contains', ordered(id('A'), id('B'), id('C')), ordered(id('B'), id('C'))),
      true,
    ],
    [
      'contains: ordered, not a run',
      op('contains', ordered(id('A'), id('B'), id('C')), ordered(id('A'), id('C'))),
      false,
    ],
    [
      'contains: ordered, wrong order',
      op('contains', ordered(id('A'), id('B'), id('C')), ordered(id('C'), id('A'))),
      false,
    ],
    ['delete every instance', op('delete', id('A'), multiple(id('A'), id('B'), id('A'))), ['B']],
    ['delete the last value → NULL', op('delete', id('A'), multiple(id('A'))), null],
    ['index 2', { op: 'index', n: 2, args: [ordered(id('A'), id('B'), id('C'))] }, 'B'],
    ['index beyond → NULL', { op: 'index', n: 4, args: [ordered(id('A'), id('B'), id('C'))] }, null],
    [
      'index by a variable',
      { op: 'index', n: 'N', args: [ordered(id('A'), id('B'), id('C'), id('D'))] },
      'D',
    ],
    ['containerSize of NULL is 0', op('containerSize', NULL), 0],
    ['containerSize', op('containerSize', multiple(id('A'), id('B'))), 2],
    [
      'multiple flattens and skips NULL',
      multiple(id('A'), NULL, multiple(id('B'), id('C'))),
      ['A', 'B', 'C'],
    ],
    ['multiple of nothing is NULL', multiple(NULL), null],
    // numbers
    ['sum of integers', op('sum', int(1), int(2)), 3],
    ['sum with a float', op('sum', int(1), flt(0.5)), 1.5],
    ['sum with NULL → NULL', op('sum', int(1), NULL), null],
    ['sum of a not-number → NULL', op('sum', int(1), str('x')), null],
    ['product', op('product', int(3), flt(0.5)), 1.5],
    ['subtract', op('subtract', int(5), int(7)), -2],
    ['divide', op('divide', int(1), int(4)), 0.25],
    ['divide by 0 → NULL', op('divide', int(1), int(0)), null],
    ['integerDivide rounds down', op('integerDivide', int(-7), int(2)), -4],
    ['integerModulus = x − (x div y)·y', op('integerModulus', int(-7), int(2)), 1],
    ['integerDivide by 0 → NULL', op('integerDivide', int(1), int(0)), null],
    ['integerDivide of floats → NULL', op('integerDivide', flt(7), int(2)), null],
    ['power', op('power', int(2), int(10)), 1024],
    ['round 6.5 → 7', op('round', flt(6.5)), 7],
    ['round −6.5 → −6', op('round', flt(-6.5)), -6],
    ['round 6.49 → 6', op('round', flt(6.49)), 6],
    ['truncate −6.8 → −6', op('truncate', flt(-6.8)), -6],
    ['max over values and containers', op('max', int(1), flt(3.5), multiple(flt(2), flt(7))), 7],
    ['min', op('min', int(4), int(2)), 2],
    ['max with NULL → NULL', op('max', int(1), NULL), null],
    ['lt', op('lt', int(1), int(2)), true],
    ['gte with NULL → NULL', op('gte', NULL, int(1)), null],
    ['lt of a string → NULL', op('lt', str('a'), int(1)), null],
    ['integerToFloat', op('integerToFloat', int(3)), 3],
    // equal
    ['equal exact', op('equal', int(3), flt(3)), true],
    ['equal exact is exact', op('equal', op('sum', flt(0.1), flt(0.2)), flt(0.3)), false],
    [
      'equal absolute',
      { op: 'equal', toleranceMode: 'absolute', tolerance: [0.1], args: [flt(10), flt(10.1)] },
      true,
    ],
    [
      'equal absolute, upper bound excluded',
      {
        op: 'equal',
        toleranceMode: 'absolute',
        tolerance: [0.5],
        includeUpperBound: false,
        args: [flt(10), flt(10.5)],
      },
      false,
    ],
    [
      'equal absolute with t0 and t1',
      { op: 'equal', toleranceMode: 'absolute', tolerance: [0, 1], args: [flt(10), flt(9.9)] },
      false,
    ],
    [
      'equal relative (percent)',
      { op: 'equal', toleranceMode: 'relative', tolerance: [10], args: [flt(-10), flt(-11)] },
      true,
    ],
    [
      'equal relative, beyond',
      { op: 'equal', toleranceMode: 'relative', tolerance: [10], args: [flt(-10), flt(-11.5)] },
      false,
    ],
    ['equal with NULL → NULL', op('equal', NULL, flt(1)), null],
    // rounding
    [
      'equalRounded 3 significant figures',
      { op: 'equalRounded', figures: 3, args: [flt(3.175), flt(3.18)] },
      true,
    ],
    [
      'equalRounded 1 decimal place',
      { op: 'equalRounded', roundingMode: 'decimalPlaces', figures: 1, args: [flt(1.25), flt(1.3)] },
      true,
    ],
    [
      'equalRounded differs',
      { op: 'equalRounded', roundingMode: 'decimalPlaces', figures: 1, args: [flt(1.24), flt(1.3)] },
      false,
    ],
    ['roundTo 3 significant figures', { op: 'roundTo', figures: 3, args: [flt(3.175)] }, 3.18],
    [
      'roundTo 2 decimal places, negative',
      { op: 'roundTo', roundingMode: 'decimalPlaces', figures: 2, args: [flt(-3.175)] },
      -3.18,
    ],
    ['roundTo 2 significant figures of 1234', { op: 'roundTo', figures: 2, args: [int(1234)] }, 1200],
    // strings
    [
      'stringMatch ignoring case',
      { op: 'stringMatch', caseSensitive: false, args: [str('York'), str('york')] },
      true,
    ],
    [
      'stringMatch with case',
      { op: 'stringMatch', caseSensitive: true, args: [str('York'), str('york')] },
      false,
    ],
    [
      'stringMatch substring',
      { op: 'stringMatch', caseSensitive: true, substring: true, args: [str('ork'), str('New York')] },
      true,
    ],
    ['substring', op('substring', str('York'), str('New York')), true],
    ['substring is case-sensitive by default', op('substring', str('york'), str('New York')), false],
    [
      'stringMatch with NULL → NULL',
      { op: 'stringMatch', caseSensitive: true, args: [str(''), str('a')] },
      null,
    ],
    ['patternMatch', { op: 'patternMatch', pattern: '[0-9]{3}', args: [str('123')] }, true],
    ['patternMatch is anchored', { op: 'patternMatch', pattern: '[0-9]{3}', args: [str('1234')] }, false],
    ['patternMatch \\d', { op: 'patternMatch', pattern: '\\d+(,\\d+)?', args: [str('3,14')] }, true],
    // areas
    ['inside', { op: 'inside', shape: 'rect', coords: [0, 0, 10, 10], args: [B('point', '5 5')] }, true],
    [
      'inside: any of the points',
      {
        op: 'inside',
        shape: 'circle',
        coords: [50, 50, 10],
        args: [multiple(B('point', '5 5'), B('point', '50 55'))],
      },
      true,
    ],
    ['inside: NULL → NULL', { op: 'inside', shape: 'circle', coords: [50, 50, 10], args: [NULL] }, null],
    // variables
    ['correct', { op: 'correct', id: 'R' }, ['A', 'B']],
    ['default of an outcome', { op: 'default', id: 'N' }, 4],
    ['an outcome variable', v('N'), 4],
  ])('%s', (_, expr, expected, responses) => {
    expect(evaluate(expr, responses)).toEqual(expected);
  });
});

describe('mapResponse and mapResponsePoint', () => {
  const map = (id: string, value: Value) => evaluate({ op: 'mapResponse', id }, { [id]: value });
  const points = (...ps: [number, number][]) => container('multiple', 'point', ps);
  it.each<[string, () => unknown, unknown]>([
    ['each distinct value once', () => map('M', ids('A', 'A', 'B')), 3],
    ['a value without an entry takes the default', () => map('M', ids('A', 'C')), 0.5],
    ['the lowerBound', () => map('M', ids('C', 'D', 'E')), -1],
    ['NULL takes the default', () => map('M', null), -0.5],
    ['a case-insensitive string key', () => map('S', single('string', 'paris')), 1],
    ['a case-sensitive string key (the default)', () => map('S', single('string', 'lyon')), 0],
    ['caseSensitive applies to strings only', () => map('I', single('identifier', 'A')), 0],
    [
      'points: each area once',
      () => evaluate({ op: 'mapResponsePoint', id: 'P' }, { P: points([1, 1], [2, 2]) }),
      1,
    ],
    [
      'points: two areas, bounded',
      () => evaluate({ op: 'mapResponsePoint', id: 'P' }, { P: points([1, 1], [50, 50]) }),
      2.5,
    ],
    [
      'points: no area takes the default',
      () => evaluate({ op: 'mapResponsePoint', id: 'P' }, { P: points([99, 99]) }),
      -1,
    ],
  ])('%s', (_, run, expected) => expect(run()).toEqual(expected));
});

describe('decimal rounding (roundTo, equalRounded)', () => {
  it.each<[number, 'significantFigures' | 'decimalPlaces', number, number | null]>([
    [3.175, 'significantFigures', 3, 3.18],
    [3.1749, 'significantFigures', 3, 3.17],
    [-3.175, 'significantFigures', 3, -3.18],
    [0.000123456, 'significantFigures', 2, 0.00012],
    [1.005, 'decimalPlaces', 2, 1.01],
    [9.99, 'decimalPlaces', 1, 10],
    [0.4, 'decimalPlaces', 0, 0],
    [0.04, 'decimalPlaces', 0, 0],
    [5, 'significantFigures', 0, null],
  ])('%d to %s %d', (x, mode, figures, expected) => expect(roundDecimal(x, mode, figures)).toBe(expected));
});

// ---------------------------------------------------------------- rules

describe('QTI rules', () => {
  const setScore = (value: QtiExpression): QtiRule => ({ rule: 'setOutcomeValue', id: 'SCORE', value });
  const run = (rules: unknown[], outcomes: unknown[] = []) => {
    const scoring = qtiScoringSchema.parse({
      method: 'qti',
      responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'identifier' }],
      outcomes,
      rules,
      bind: { response: 'RESPONSE' },
    });
    const result = runQti(compileQti(scoring), new Map([['RESPONSE', single('identifier', 'A')]]));
    return Object.fromEntries([...result.outcomes].map(([k, x]) => [k, toJson(x)]));
  };
  const ifThen = (
    cond: QtiExpression,
    then: QtiRule[],
    rest: Partial<Extract<QtiRule, { rule: 'responseCondition' }>> = {},
  ): QtiRule => ({
    rule: 'responseCondition',
    if: { cond, then },
    ...rest,
  });
  it('exitResponse stops processing', () => {
    expect(run([setScore(flt(1)), { rule: 'exitResponse' }, setScore(flt(2))])).toEqual({ SCORE: 1 });
  });
  it('exitResponse inside a fragment stops everything', () => {
    expect(
      run([
        { rule: 'responseProcessingFragment', rules: [setScore(flt(1)), { rule: 'exitResponse' }] },
        setScore(flt(2)),
      ]),
    ).toEqual({ SCORE: 1 });
  });
  it('only the first true branch runs', () => {
    const rules = [
      ifThen(F, [setScore(flt(1))], {
        elseIf: [
          { cond: T, then: [setScore(flt(2))] },
          { cond: T, then: [setScore(flt(3))] },
        ],
        else: [setScore(flt(4))],
      }),
    ];
    expect(run(rules)).toEqual({ SCORE: 2 });
  });
  it('a NULL condition counts as false', () => {
    expect(run([ifThen(NULL, [setScore(flt(1))], { else: [setScore(flt(5))] })])).toEqual({ SCORE: 5 });
  });
  it('outcomes start at their default: numbers 0, others NULL, or the declared value', () => {
    expect(
      run(
        [],
        [
          { id: 'SCORE', cardinality: 'single', baseType: 'float' },
          { id: 'COUNT', cardinality: 'single', baseType: 'integer' },
          { id: 'FEEDBACK', cardinality: 'single', baseType: 'identifier' },
          { id: 'LEVEL', cardinality: 'single', baseType: 'identifier', defaultValue: 'low' },
        ],
      ),
    ).toEqual({ SCORE: 0, COUNT: 0, FEEDBACK: null, LEVEL: 'low' });
  });
  it('an undeclared SCORE is a float starting at 0', () => {
    expect(run([setScore(op('sum', v('SCORE'), int(2)))])).toEqual({ SCORE: 2 });
  });
  it('an integer outcome keeps the whole part of a float', () => {
    expect(
      run(
        [{ rule: 'setOutcomeValue', id: 'N', value: flt(2.7) }],
        [{ id: 'N', cardinality: 'single', baseType: 'integer' }],
      ),
    ).toMatchObject({
      N: 2,
    });
  });
  it('an outcome may hold a container', () => {
    expect(
      run(
        [{ rule: 'setOutcomeValue', id: 'SEEN', value: multiple(v('RESPONSE'), id('B')) }],
        [{ id: 'SEEN', cardinality: 'multiple', baseType: 'identifier' }],
      ),
    ).toMatchObject({ SEEN: ['A', 'B'] });
  });
});

// ---------------------------------------------------------------- definitions

describe('QTI definitions', () => {
  const base = {
    method: 'qti',
    responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'identifier', correct: ['a'] }],
    outcomes: [{ id: 'SCORE', cardinality: 'single', baseType: 'float' }],
    bind: { response: 'RESPONSE' },
  };
  const choice = (scoring: object) => ({
    answerType: 'single_choice',
    content: {
      options: [
        { id: 'a', html: 'A' },
        { id: 'b', html: 'B' },
      ],
    },
    reference: { correct: 'a' },
    scoring: { ...base, ...scoring },
    maxScore: 1,
  });
  const messages = (d: unknown) =>
    taskDefinitionSchema.safeParse(d).error?.issues.map((i) => i.message) ?? [];

  it('lists unsupported elements by name, each once, however deep', () => {
    const program = [
      {
        rule: 'responseCondition',
        if: {
          cond: { op: 'random', args: [{ op: 'multiple', args: [] }] },
          then: [{ rule: 'lookupOutcomeValue' }],
        },
        else: [
          {
            rule: 'setOutcomeValue',
            id: 'SCORE',
            value: { op: 'sum', args: [{ op: 'customOperator' }, { op: 'random' }] },
          },
        ],
      },
    ];
    expect(unsupportedQtiOperators(program).sort()).toEqual([
      'customOperator',
      'lookupOutcomeValue',
      'random',
    ]);
    expect(
      unsupportedQtiOperators([
        { rule: 'setOutcomeValue', id: 'SCORE', value: { op: 'mapResponse', id: 'R' } },
      ]),
    ).toEqual([]);
  });

  it('a definition with an unsupported element names it', () => {
    expect(
      messages(
        choice({
          rules: [{ rule: 'setOutcomeValue', id: 'SCORE', value: { op: 'randomInteger', min: 0, max: 1 } }],
        }),
      ),
    ).toContain('unsupported QTI elements: randomInteger');
  });

  it('accepts a template', () => {
    expect(messages(choice({ template: 'match_correct' }))).toEqual([]);
  });

  it.each<[string, object, string]>([
    ['neither template nor rules', {}, 'give either a template or rules'],
    ['both', { template: 'match_correct', rules: [] }, 'give either a template or rules'],
    [
      'a template without a correct response',
      {
        template: 'match_correct',
        responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'identifier' }],
      },
      'match_correct needs RESPONSE’s correct response',
    ],
    ['map_response without a mapping', { template: 'map_response' }, 'map_response needs RESPONSE’s mapping'],
    [
      'an undeclared variable',
      { rules: [{ rule: 'setOutcomeValue', id: 'SCORE', value: { op: 'variable', id: 'X' } }] },
      'X is not declared',
    ],
    [
      'an undeclared outcome',
      { rules: [{ rule: 'setOutcomeValue', id: 'OTHER', value: flt(1) }] },
      'OTHER is not a declared outcome',
    ],
    [
      'mapResponse without a mapping',
      { rules: [{ rule: 'setOutcomeValue', id: 'SCORE', value: { op: 'mapResponse', id: 'RESPONSE' } }] },
      'RESPONSE is not a response with a mapping',
    ],
    [
      'a baseValue of the wrong type',
      { rules: [{ rule: 'setOutcomeValue', id: 'SCORE', value: int(1.5) }] },
      'not a valid integer value',
    ],
    [
      'equal absolute without a tolerance',
      {
        rules: [
          {
            rule: 'setOutcomeValue',
            id: 'SCORE',
            value: { op: 'equal', toleranceMode: 'absolute', args: [flt(1), flt(1)] },
          },
        ],
      },
      'required for this toleranceMode',
    ],
    [
      'a pattern this engine cannot run',
      {
        rules: [
          {
            rule: 'setOutcomeValue',
            id: 'SCORE',
            value: { op: 'patternMatch', pattern: '[a-z-[aeiou]]', args: [str('a')] },
          },
        ],
      },
      'not a pattern this engine can run',
    ],
    [
      'a correct value of the wrong type',
      {
        template: 'match_correct',
        responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'integer', correct: ['a'] }],
      },
      'not a valid integer value',
    ],
    [
      'two declarations with one id',
      { template: 'match_correct', outcomes: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'float' }] },
      'response and outcome ids must be distinct',
    ],
    [
      'binding an undeclared response',
      { template: 'match_correct', bind: { response: 'OTHER' } },
      'OTHER is not a declared response',
    ],
    [
      'a score outcome that is not a number',
      {
        template: 'match_correct',
        outcomes: [{ id: 'SCORE', cardinality: 'single', baseType: 'identifier' }],
      },
      'must be a single float or integer outcome',
    ],
    [
      'an areaMapping on a response without points',
      { template: 'match_correct', responses: [{ ...base.responses[0], areaMapping: { entries: [] } }] },
      'needs a point response',
    ],
    [
      'a choice bound to a pair response',
      {
        template: 'match_correct',
        responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'pair', correct: ['a b'] }],
      },
      'RESPONSE (single pair) does not fit single_choice',
    ],
  ])('%s', (_, patch, message) => {
    expect(messages(choice(patch))).toContain(message);
  });

  it('an ordering needs an ordered response', () => {
    const d = {
      answerType: 'ordering',
      content: {
        items: [
          { id: 'a', html: 'A' },
          { id: 'b', html: 'B' },
        ],
      },
      reference: { order: ['a', 'b'] },
      scoring: {
        ...base,
        responses: [{ id: 'RESPONSE', cardinality: 'multiple', baseType: 'identifier', correct: ['a', 'b'] }],
        template: 'match_correct',
      },
      maxScore: 1,
    };
    expect(messages(d)).toContain('RESPONSE (multiple identifier) does not fit ordering');
  });

  it('a hotspot selecting points needs a point response', () => {
    const d = {
      answerType: 'hotspot',
      content: {
        image: { src: 'a.png', width: 10, height: 10 },
        areas: [{ id: 'a', shape: 'rect', coords: [0, 0, 5, 5] }],
        select: 'points',
      },
      reference: { correct: ['a'] },
      scoring: { ...base, template: 'match_correct' },
      maxScore: 1,
    };
    expect(messages(d)).toContain('RESPONSE: a hotspot selecting points needs a point response');
  });

  it('a cloze binds its gaps', () => {
    const cloze = {
      answerType: 'cloze',
      content: { blanks: [{ id: 'g1', kind: 'text' }] },
      reference: { blanks: { g1: ['x'] } },
      scoring: {
        ...base,
        responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'string', correct: ['x'] }],
        template: 'match_correct',
      },
      maxScore: 1,
    };
    expect(messages(cloze)).toContain('cloze and composite tasks bind { parts }');
    expect(
      messages({ ...cloze, scoring: { ...cloze.scoring, bind: { parts: { g9: 'RESPONSE' } } } }),
    ).toContain('not a gap or part of the task');
    expect(
      messages({ ...cloze, scoring: { ...cloze.scoring, bind: { parts: { g1: 'RESPONSE' } } } }),
    ).toEqual([]);
  });

  it('under QTI the key may leave items out (it only shows the correct answer)', () => {
    const matching = {
      answerType: 'matching',
      content: {
        left: [
          { id: 'C', html: 'C' },
          { id: 'D', html: 'D' },
        ],
        right: [{ id: 'R', html: 'R' }],
      },
      reference: { pairs: { C: 'R' } },
      scoring: {
        ...base,
        responses: [{ id: 'RESPONSE', cardinality: 'multiple', baseType: 'directedPair', correct: ['C R'] }],
        template: 'match_correct',
      },
      maxScore: 1,
    };
    expect(messages(matching)).toEqual([]);
    expect(messages({ ...matching, scoring: {} })).toContain('must match every left item');
    expect(messages({ ...matching, reference: { pairs: { X: 'R' } } })).toContain(
      'must match every left item',
    );
  });

  it('manually graded types have no QTI rule', () => {
    const d = {
      answerType: 'extended_text',
      content: {},
      reference: null,
      scoring: { ...base, template: 'match_correct' },
      maxScore: 1,
      criteria: [{ code: 'K1', text: 't', maxScore: 1 }],
    };
    expect(taskDefinitionSchema.safeParse(d).success).toBe(false);
  });

  it('suggests no maxScore for rules that compute it', () => {
    const scoring = qtiScoringSchema.parse({
      ...base,
      rules: [{ rule: 'setOutcomeValue', id: 'SCORE', value: op('sum', v('SCORE'), int(1)) }],
    });
    expect(qtiMaxScore(scoring)).toBeNull();
  });
});

describe('XML Schema patterns', () => {
  it.each<[string, string, boolean | null]>([
    ['[0-9]{3}', '123', true],
    ['[0-9]{3}', 'a123', false],
    ['a^b$', 'a^b$', true],
    ['\\i\\c*', 'x1', true],
    ['\\i\\c*', '1x', false],
    ['[^a]+', 'bcd', true],
    ['[a-z-[aeiou]]', 'b', null],
    ['\\p{IsBasicLatin}+', 'abc', null],
    ['\\p{Lu}\\p{Ll}+', 'Москва', true],
    ['(', 'x', null],
  ])('%s ~ %s', (pattern, text, expected) => {
    const re = qtiPatternToRegExp(pattern);
    expect(re === null ? null : re.test(text)).toBe(expected);
  });
});

// ---------------------------------------------------------------- values ↔ responses

describe('saved values as QTI responses', () => {
  const decl = (cardinality: string, baseType: string) =>
    ({ id: 'R', cardinality, baseType }) as Parameters<typeof responseValue>[2];
  it.each<
    [
      string,
      Parameters<typeof responseValue>[0],
      unknown,
      unknown,
      Parameters<typeof responseValue>[2],
      unknown,
    ]
  >([
    ['a choice', 'single_choice', {}, 'a', decl('single', 'identifier'), 'a'],
    ['a choice into a container', 'single_choice', {}, 'a', decl('multiple', 'identifier'), ['a']],
    ['two choices cannot be one', 'multiple_choice', {}, ['a', 'b'], decl('single', 'identifier'), null],
    [
      'choices, each once',
      'multiple_choice',
      {},
      ['a', 'b', 'a'],
      decl('multiple', 'identifier'),
      ['a', 'b'],
    ],
    ['an order', 'ordering', {}, ['c', 'a', 'b'], decl('ordered', 'identifier'), ['c', 'a', 'b']],
    [
      'matching: source target',
      'matching',
      {},
      { C: 'R', D: 'M' },
      decl('multiple', 'directedPair'),
      ['C R', 'D M'],
    ],
    ['gap match: word gap', 'gap_match', {}, { G1: 'W', G2: '' }, decl('multiple', 'directedPair'), ['W G1']],
    [
      'associate: a pair made twice is one',
      'associate',
      {},
      [
        ['A', 'P'],
        ['P', 'A'],
      ],
      decl('multiple', 'pair'),
      ['A P'],
    ],
    ['a text, spaces collapsed', 'short_text', {}, '  New   York ', decl('single', 'string'), 'New York'],
    ['a blank text is NULL', 'short_text', {}, '   ', decl('single', 'string'), null],
    ['a text read as a float', 'short_text', {}, '2,5', decl('single', 'float'), 2.5],
    ['a number with its unit', 'number', { unit: 'см' }, '31,4 см', decl('single', 'float'), 31.4],
    ['an integer response refuses a fraction', 'number', {}, '2,5', decl('single', 'integer'), null],
    [
      'a hotspot point',
      'hotspot',
      { select: 'points' },
      ['10 20', 'x'],
      decl('multiple', 'point'),
      ['10 20'],
    ],
    ['hotspot areas', 'hotspot', {}, ['a', 'b'], decl('multiple', 'identifier'), ['a', 'b']],
    ['files', 'file', {}, { fileIds: [3, 4] }, decl('multiple', 'file'), ['3', '4']],
    ['a numeric gap', 'gap_number', {}, '1 250', decl('single', 'integer'), 1250],
  ])('%s', (_, slot, content, value, d, expected) => {
    expect(toJson(responseValue(slot, content, d, value))).toEqual(expected);
  });

  it.each<[string, Parameters<typeof answerFromQti>[0], string, string[], unknown]>([
    ['matching', 'matching', 'directedPair', ['C R', 'D M'], { C: 'R', D: 'M' }],
    ['gap match', 'gap_match', 'directedPair', ['W G1', 'Su G2'], { G1: 'W', G2: 'Su' }],
    ['associate', 'associate', 'pair', ['A P'], [['A', 'P']]],
    ['ordering', 'ordering', 'identifier', ['c', 'a'], ['c', 'a']],
    ['a number', 'number', 'float', ['4.136'], '4.136'],
    ['a point', 'hotspot', 'point', ['10  20'], ['10 20']],
  ])('back from QTI: %s', (_, slot, baseType, values, expected) => {
    expect(
      answerFromQti(
        slot,
        { id: 'R', cardinality: 'multiple', baseType } as Parameters<typeof answerFromQti>[1],
        values,
      ),
    ).toEqual(expected);
  });

  it('a reference from the correct responses', () => {
    const scoring = qtiScoringSchema.parse({
      method: 'qti',
      responses: [{ id: 'RESPONSE', cardinality: 'multiple', baseType: 'point', correct: ['5 5'] }],
      template: 'match_correct',
      bind: { response: 'RESPONSE' },
    });
    const content = {
      select: 'points',
      areas: [
        { id: 'x', shape: 'circle', coords: [50, 50, 5] },
        { id: 'y', shape: 'rect', coords: [0, 0, 10, 10] },
      ],
    };
    expect(referenceFromAnswer('hotspot', content, qtiCorrectAnswer('hotspot', content, scoring))).toEqual({
      correct: ['y'],
    });
    expect(referenceFromAnswer('number', {}, '4.136')).toEqual({ value: 4.136 });
    expect(referenceFromAnswer('extended_text', {}, 'x')).toBeNull();
  });
});

// ---------------------------------------------------------------- whole tasks

describe('QTI over the parts of a composite task', () => {
  const content = {
    parts: [
      {
        id: 'p1',
        answerType: 'single_choice',
        content: {
          options: [
            { id: 'a', html: 'A' },
            { id: 'b', html: 'B' },
          ],
        },
      },
      { id: 'p2', answerType: 'short_text', content: {} },
      { id: 'p3', answerType: 'extended_text', content: {} },
    ],
  };
  const scoring = {
    method: 'qti',
    responses: [
      { id: 'R1', cardinality: 'single', baseType: 'identifier', correct: ['a'] },
      { id: 'R2', cardinality: 'single', baseType: 'string', correct: ['Paris'] },
      { id: 'R3', cardinality: 'single', baseType: 'string' },
    ],
    outcomes: [{ id: 'SCORE', cardinality: 'single', baseType: 'float' }],
    rules: [
      {
        rule: 'responseCondition',
        if: {
          cond: op('match', v('R1'), { op: 'correct', id: 'R1' }),
          then: [{ rule: 'setOutcomeValue', id: 'SCORE', value: op('sum', v('SCORE'), flt(1)) }],
        },
      },
      {
        rule: 'responseCondition',
        if: {
          cond: { op: 'stringMatch', caseSensitive: false, args: [v('R2'), { op: 'correct', id: 'R2' }] },
          then: [{ rule: 'setOutcomeValue', id: 'SCORE', value: op('sum', v('SCORE'), flt(1)) }],
        },
      },
      {
        rule: 'responseCondition',
        if: {
          cond: op('not', op('isNull', v('R3'))),
          then: [{ rule: 'setOutcomeValue', id: 'SCORE', value: op('sum', v('SCORE'), flt(0.5)) }],
        },
      },
    ],
    bind: { parts: { p1: 'R1', p2: 'R2', p3: 'R3' } },
  };
  const definition = {
    answerType: 'composite',
    content,
    reference: referenceFromAnswer(
      'composite',
      content,
      qtiCorrectAnswer('composite', content, qtiScoringSchema.parse(scoring)),
    ),
    scoring,
    maxScore: 2.5,
  };
  it('is a valid definition, its key taken from the correct responses', () => {
    expect(definition.reference).toEqual({ parts: { p1: { correct: 'a' }, p2: { accepted: ['Paris'] } } });
    expect(taskDefinitionSchema.safeParse(definition).error?.issues ?? []).toEqual([]);
  });
  it.each<[string, unknown, unknown]>([
    ['every part', { p1: 'a', p2: 'paris', p3: 'Because…' }, 2.5],
    ['a part of the wrong shape is NULL', { p1: ['a'], p2: 'Paris' }, 1],
    ['only the written part', { p3: 'Because…' }, 0.5],
    ['nothing', { p1: '', p2: '', p3: '' }, 'empty'],
  ])('%s', (_, value, expected) => {
    const r = scoreAnswer(definition, value);
    expect(r.status === 'scored' ? r.score : r.status).toBe(expected);
  });
});

describe('QTI select point (map_response_point)', () => {
  const definition = {
    answerType: 'hotspot',
    content: {
      image: { src: 'uk.png', width: 206, height: 280 },
      areas: [{ id: 'edinburgh', shape: 'circle', coords: [102, 113, 16] }],
      select: 'points',
      maxChoices: 1,
    },
    reference: { correct: ['edinburgh'] },
    scoring: {
      method: 'qti',
      responses: [
        {
          id: 'RESPONSE',
          cardinality: 'single',
          baseType: 'point',
          correct: ['102 113'],
          areaMapping: { defaultValue: 0, entries: [{ shape: 'circle', coords: [102, 113, 16], value: 1 }] },
        },
      ],
      template: 'map_response_point',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 1,
  };
  it('is valid and worth 1', () => {
    expect(taskDefinitionSchema.safeParse(definition).error?.issues ?? []).toEqual([]);
    expect(qtiMaxScore(qtiScoringSchema.parse(definition.scoring))).toBe(1);
  });
  it.each<[string, unknown, number]>([
    ['inside the circle', ['100 110'], 1],
    ['on its edge', ['118 113'], 1],
    ['outside', ['10 10'], 0],
  ])('%s', (_, value, expected) => {
    expect(scoreAnswer(definition, value)).toMatchObject({ status: 'scored', score: expected });
  });
});
