import {
  qtiMaxScore,
  qtiScoringSchema,
  taskDefinitionSchema,
  type QtiExpression,
  type QtiRule,
} from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { qtiCorrectAnswer, referenceFromAnswer } from './qti/bind.js';
import { scoreAnswer, type ScoreResult, type ScoreTask } from './score.js';

/*
 * Well-known QTI items (the IMS QTI 2.x examples and two custom response processings), their
 * declarations and response processing written here by hand as the importer writes them, scored
 * exactly as the items say. Each is also a valid task definition, and its maxScore is what
 * `qtiMaxScore` suggests.
 */

const labelled = (...ids: string[]) => ids.map((id) => ({ id, html: id }));
const SCORE = { id: 'SCORE', cardinality: 'single', baseType: 'float' } as const;

interface Item {
  answerType: string;
  content: unknown;
  scoring: Record<string, unknown>;
  maxScore: number;
  /** Items without correct responses give their key themselves. */
  reference?: unknown;
}

/** The task of an item: its reference derived from the correct responses, as an importer would. */
function task(item: Item): ScoreTask & { reference: unknown } {
  const scoring = qtiScoringSchema.parse(item.scoring);
  const reference =
    item.reference ??
    referenceFromAnswer(
      item.answerType,
      item.content,
      qtiCorrectAnswer(item.answerType, item.content, scoring),
    );
  return { ...item, reference };
}

const score = (r: ScoreResult) => (r.status === 'scored' ? r.score : r.status);

function itemTable(
  name: string,
  item: Item,
  table: [string, unknown, number | 'empty'][],
  maxScore: number | null = item.maxScore,
) {
  describe(name, () => {
    const t = task(item);
    it('is a valid task definition', () => {
      const parsed = taskDefinitionSchema.safeParse(t);
      expect(parsed.error?.issues ?? []).toEqual([]);
    });
    it(`suggests maxScore ${maxScore}`, () => {
      expect(qtiMaxScore(qtiScoringSchema.parse(item.scoring))).toBe(maxScore);
    });
    it.each(table)('%s', (_, value, expected) => {
      expect(score(scoreAnswer(t, value))).toBe(expected);
    });
  });
}

const single = (response: string): QtiExpression => ({ op: 'variable', id: response });
const set = (value: QtiExpression): QtiRule => ({ rule: 'setOutcomeValue', id: 'SCORE', value });
const float = (value: number): QtiExpression => ({ op: 'baseValue', baseType: 'float', value });

itemTable(
  'IMS choice (match_correct)',
  {
    answerType: 'single_choice',
    content: { options: labelled('ChoiceA', 'ChoiceB', 'ChoiceC') },
    scoring: {
      method: 'qti',
      responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'identifier', correct: ['ChoiceA'] }],
      outcomes: [{ ...SCORE, defaultValue: 0 }],
      template: 'match_correct',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 1,
  },
  [
    ['ChoiceA', 'ChoiceA', 1],
    ['ChoiceB', 'ChoiceB', 0],
    ['nothing chosen', '', 'empty'],
  ],
);

itemTable(
  'IMS choice_multiple (map_response with bounds)',
  {
    answerType: 'multiple_choice',
    content: { options: labelled('H', 'He', 'C', 'O', 'N', 'Cl') },
    scoring: {
      method: 'qti',
      responses: [
        {
          id: 'RESPONSE',
          cardinality: 'multiple',
          baseType: 'identifier',
          correct: ['H', 'O'],
          mapping: {
            lowerBound: 0,
            upperBound: 2,
            defaultValue: -2,
            entries: [
              { key: 'H', value: 1 },
              { key: 'O', value: 1 },
              { key: 'Cl', value: -1 },
            ],
          },
        },
      ],
      outcomes: [SCORE],
      template: 'map_response',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 2,
  },
  [
    ['{H, O}', ['H', 'O'], 2],
    ['{O}', ['O'], 1],
    ['{Cl, H, O}', ['Cl', 'H', 'O'], 1],
    ['{He, Cl, H, O}: He takes the default −2', ['He', 'Cl', 'H', 'O'], 0],
    ['nothing', [], 'empty'],
  ],
);

itemTable(
  'IMS text_entry (case-sensitive map)',
  {
    answerType: 'short_text',
    content: {},
    scoring: {
      method: 'qti',
      responses: [
        {
          id: 'RESPONSE',
          cardinality: 'single',
          baseType: 'string',
          correct: ['York'],
          mapping: {
            defaultValue: 0,
            entries: [
              { key: 'York', value: 1, caseSensitive: true },
              { key: 'york', value: 0.5, caseSensitive: true },
            ],
          },
        },
      ],
      outcomes: [SCORE],
      template: 'map_response',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 1,
  },
  [
    ['York', 'York', 1],
    ['york', 'york', 0.5],
    ['surrounding spaces do not count', '  York ', 1],
    ['newyork', 'newyork', 0],
    ['YORK', 'YORK', 0],
  ],
);

itemTable(
  'IMS associate (unordered pairs)',
  {
    answerType: 'associate',
    content: { items: labelled('A', 'C', 'D', 'L', 'M', 'P'), maxAssociations: 3 },
    scoring: {
      method: 'qti',
      responses: [
        {
          id: 'RESPONSE',
          cardinality: 'multiple',
          baseType: 'pair',
          correct: ['A P', 'C M', 'D L'],
          mapping: {
            defaultValue: 0,
            entries: [
              { key: 'A P', value: 2 },
              { key: 'C M', value: 1 },
              { key: 'D L', value: 1 },
            ],
          },
        },
      ],
      outcomes: [SCORE],
      template: 'map_response',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 4,
  },
  [
    [
      '{A P, C M, D L}',
      [
        ['A', 'P'],
        ['C', 'M'],
        ['D', 'L'],
      ],
      4,
    ],
    [
      '{P A, C M, D L}',
      [
        ['P', 'A'],
        ['C', 'M'],
        ['D', 'L'],
      ],
      4,
    ],
    [
      '{P A, D L}',
      [
        ['P', 'A'],
        ['D', 'L'],
      ],
      3,
    ],
    [
      '{P C, D M, L A}',
      [
        ['P', 'C'],
        ['D', 'M'],
        ['L', 'A'],
      ],
      0,
    ],
  ],
);

itemTable(
  'IMS gap_match (word gap pairs, default −1, lowerBound 0)',
  {
    answerType: 'gap_match',
    content: { words: labelled('W', 'Sp', 'Su', 'A'), gaps: [{ id: 'G1' }, { id: 'G2' }] },
    scoring: {
      method: 'qti',
      responses: [
        {
          id: 'RESPONSE',
          cardinality: 'multiple',
          baseType: 'directedPair',
          correct: ['W G1', 'Su G2'],
          mapping: {
            defaultValue: -1,
            lowerBound: 0,
            entries: [
              { key: 'W G1', value: 1 },
              { key: 'Su G2', value: 2 },
            ],
          },
        },
      ],
      outcomes: [SCORE],
      template: 'map_response',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 3,
  },
  [
    ['{W G1, Su G2}', { G1: 'W', G2: 'Su' }, 3],
    ['{Sp G1, Su G2}', { G1: 'Sp', G2: 'Su' }, 1],
    ['{A G1, Sp G2}', { G1: 'A', G2: 'Sp' }, 0],
    ['no gap filled', {}, 'empty'],
  ],
);

itemTable(
  'IMS match (directed pairs)',
  {
    answerType: 'matching',
    content: { left: labelled('C', 'D', 'L', 'P'), right: labelled('M', 'R', 'T') },
    scoring: {
      method: 'qti',
      responses: [
        {
          id: 'RESPONSE',
          cardinality: 'multiple',
          baseType: 'directedPair',
          correct: ['C R', 'D M', 'L M', 'P T'],
          mapping: {
            defaultValue: 0,
            entries: [
              { key: 'C R', value: 1 },
              { key: 'D M', value: 0.5 },
              { key: 'L M', value: 0.5 },
              { key: 'P T', value: 1 },
            ],
          },
        },
      ],
      outcomes: [SCORE],
      template: 'map_response',
      bind: { response: 'RESPONSE' },
    },
    maxScore: 3,
  },
  [
    ['all four', { C: 'R', D: 'M', L: 'M', P: 'T' }, 3],
    ['{C R}', { C: 'R' }, 1],
    ['{D M}', { D: 'M' }, 0.5],
    ['{R C}: directed pairs keep their order', { R: 'C' }, 0],
    ['{C R, M D}', { C: 'R', M: 'D' }, 1],
  ],
);

const order = (rp: Record<string, unknown>) => ({
  answerType: 'ordering',
  content: { items: labelled('DriverA', 'DriverB', 'DriverC') },
  scoring: {
    method: 'qti',
    responses: [
      {
        id: 'RESPONSE',
        cardinality: 'ordered',
        baseType: 'identifier',
        correct: ['DriverC', 'DriverA', 'DriverB'],
      },
    ],
    outcomes: [SCORE],
    ...rp,
    bind: { response: 'RESPONSE' },
  },
});

itemTable('IMS order (match_correct)', { ...order({ template: 'match_correct' }), maxScore: 1 }, [
  ['[C, A, B]', ['DriverC', 'DriverA', 'DriverB'], 1],
  ['[A, C, B]', ['DriverA', 'DriverC', 'DriverB'], 0],
  ['[A, B]', ['DriverA', 'DriverB'], 0],
]);

// IMS order_partial_scoring: the correct order 2, the other order the item names 1, else 0.
itemTable(
  'IMS order_partial_scoring (custom response processing)',
  {
    ...order({
      rules: [
        {
          rule: 'responseCondition',
          if: {
            cond: { op: 'match', args: [single('RESPONSE'), { op: 'correct', id: 'RESPONSE' }] },
            then: [set(float(2))],
          },
          elseIf: [
            {
              cond: {
                op: 'match',
                args: [
                  single('RESPONSE'),
                  {
                    op: 'ordered',
                    args: ['DriverC', 'DriverB', 'DriverA'].map((value) => ({
                      op: 'baseValue' as const,
                      baseType: 'identifier' as const,
                      value,
                    })),
                  },
                ],
              },
              then: [set(float(1))],
            },
          ],
          else: [set(float(0))],
        },
      ],
    }),
    maxScore: 2,
  },
  [
    ['[C, A, B]', ['DriverC', 'DriverA', 'DriverB'], 2],
    ['[C, B, A]', ['DriverC', 'DriverB', 'DriverA'], 1],
    ['[A, B, C]', ['DriverA', 'DriverB', 'DriverC'], 0],
  ],
);

itemTable(
  'a float textEntry compared with equal toleranceMode="relative" tolerance="5"',
  {
    answerType: 'number',
    content: {},
    scoring: {
      method: 'qti',
      responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'float', correct: ['4.136'] }],
      outcomes: [SCORE],
      rules: [
        {
          rule: 'responseCondition',
          if: {
            cond: {
              op: 'equal',
              toleranceMode: 'relative',
              tolerance: [5],
              args: [{ op: 'correct', id: 'RESPONSE' }, single('RESPONSE')],
            },
            then: [set(float(1))],
          },
          else: [set(float(0))],
        },
      ],
      bind: { response: 'RESPONSE' },
    },
    maxScore: 1,
  },
  [
    ['4.136', '4.136', 1],
    ['4,3 (within 5 %)', '4,3', 1],
    ['4.4 (beyond 5 %)', '4.4', 0],
    ['3,93 (within 5 % below)', '3,93', 1],
    ['not a number is NULL, so 0', 'four', 0],
  ],
);

// Three text entries naming cities of Saxony; each city counts once, in any order and any case.
const cities = ['Dresden', 'Chemnitz', 'Leipzig'];
const responses = ['RESPONSE_1', 'RESPONSE_2', 'RESPONSE_3'];
itemTable(
  'distinct answers: stringMatch caseSensitive=false across three responses',
  {
    answerType: 'cloze',
    content: { blanks: ['b1', 'b2', 'b3'].map((id) => ({ id, kind: 'text' })) },
    scoring: {
      method: 'qti',
      responses: responses.map((id) => ({ id, cardinality: 'single', baseType: 'string' })),
      outcomes: [{ ...SCORE, defaultValue: 0 }],
      rules: cities.map((city): QtiRule => ({
        rule: 'responseCondition',
        if: {
          cond: {
            op: 'or',
            args: responses.map((r) => ({
              op: 'stringMatch' as const,
              caseSensitive: false,
              args: [single(r), { op: 'baseValue' as const, baseType: 'string' as const, value: city }] as [
                QtiExpression,
                QtiExpression,
              ],
            })),
          },
          then: [set({ op: 'sum', args: [single('SCORE'), float(1)] })],
        },
      })),
      bind: { parts: { b1: 'RESPONSE_1', b2: 'RESPONSE_2', b3: 'RESPONSE_3' } },
    },
    maxScore: 3,
    reference: { blanks: { b1: cities, b2: cities, b3: cities } },
  },
  [
    ['each city once', { b1: 'Dresden', b2: 'Chemnitz', b3: 'Leipzig' }, 3],
    ['in another order and case', { b1: 'leipzig', b2: 'DRESDEN', b3: 'Chemnitz' }, 3],
    ['the same city twice counts once', { b1: 'Dresden', b2: 'dresden', b3: 'Leipzig' }, 2],
    ['one city three times', { b1: 'Leipzig', b2: 'Leipzig', b3: 'Leipzig' }, 1],
    ['one gap left empty', { b1: 'Dresden', b3: 'Leipzig' }, 2],
    ['no city', { b1: 'Berlin', b2: 'Hamburg', b3: 'Köln' }, 0],
    ['nothing', { b1: '', b2: ' ', b3: '' }, 'empty'],
  ],
  null,
);

describe('a QTI score is clamped to [0, maxScore] and full marks are correct', () => {
  const t = task({
    answerType: 'single_choice',
    content: { options: labelled('a', 'b') },
    scoring: {
      method: 'qti',
      responses: [{ id: 'RESPONSE', cardinality: 'single', baseType: 'identifier', correct: ['a'] }],
      outcomes: [SCORE],
      rules: [
        {
          rule: 'responseCondition',
          if: {
            cond: { op: 'match', args: [single('RESPONSE'), { op: 'correct', id: 'RESPONSE' }] },
            then: [set(float(5))],
          },
          else: [set(float(-3))],
        },
      ],
      bind: { response: 'RESPONSE' },
    },
    maxScore: 2,
  });
  it('above maxScore', () => {
    expect(scoreAnswer(t, 'a')).toMatchObject({
      status: 'scored',
      score: 2,
      correct: true,
      details: { kind: 'qti', score: 5, outcomes: { SCORE: 5 } },
    });
  });
  it('below 0', () => {
    expect(scoreAnswer(t, 'b')).toMatchObject({ score: 0, correct: false, details: { score: -3 } });
  });
});
