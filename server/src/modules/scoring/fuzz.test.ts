import { taskDefinitionSchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { scoreAnswer, type ScoreTask } from './score.js';

/*
 * Random answers, plausible and garbage, to tasks of the imported types and to QTI-scored tasks:
 * scoring never throws, stays within [0, maxScore], and is deterministic.
 */

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rng = ReturnType<typeof rng>;
const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const some = <T>(r: Rng, list: readonly T[]) => list.filter(() => r() < 0.5);

const IDS = ['a', 'b', 'c', 'G1', 'G2', 'W', 'Su', 'x', '', '5 5', '50 50', '1e9 1', 'p1', 'p2'];
function garbage(r: Rng, depth = 0): unknown {
  switch (Math.floor(r() * 10)) {
    case 9:
      return some(r, ['a', 'b', 'c']).map((x) => [x, pick(r, ['a', 'b', 'c', 'x'])]);
    case 0:
      return null;
    case 1:
      return pick(r, IDS);
    case 2:
      return r() * 100 - 50;
    case 3:
      return r() < 0.5;
    case 4:
      return depth > 2 ? [] : Array.from({ length: Math.floor(r() * 4) }, () => garbage(r, depth + 1));
    case 5:
      return depth > 2 ? {} : Object.fromEntries(some(r, IDS).map((k) => [k || 'k', garbage(r, depth + 1)]));
    case 6:
      return some(r, IDS);
    case 7:
      return some(r, IDS).map((x) => [x, pick(r, IDS)]);
    default:
      return Object.fromEntries(
        some(r, IDS)
          .filter(Boolean)
          .map((k) => [k, pick(r, IDS)]),
      );
  }
}

const labelled = (...ids: string[]) => ids.map((id) => ({ id, html: id }));
const qti = (responses: unknown[], rest: object) => ({ method: 'qti', outcomes: [], ...rest, responses });

const TASKS: ScoreTask[] = [
  {
    answerType: 'gap_match',
    content: { words: labelled('W', 'Su', 'x'), gaps: [{ id: 'G1' }, { id: 'G2' }] },
    reference: { pairs: { G1: 'W', G2: 'Su' } },
    scoring: { method: 'share' },
    maxScore: 2,
  },
  {
    answerType: 'associate',
    content: { items: labelled('a', 'b', 'c', 'x'), maxAssociations: 3 },
    reference: { pairs: [['a', 'b']] },
    scoring: { method: 'per_pair' },
    maxScore: 1,
  },
  {
    answerType: 'hottext',
    content: { choices: labelled('a', 'b', 'c') },
    reference: { correct: ['a'] },
    scoring: { method: 'one_mistake' },
    maxScore: 2,
  },
  {
    answerType: 'hotspot',
    content: {
      image: { src: 'i.png', width: 100, height: 100 },
      areas: [
        { id: 'a', shape: 'rect', coords: [0, 0, 10, 10] },
        { id: 'b', shape: 'poly', coords: [40, 40, 60, 40, 50, 60] },
      ],
      select: 'points',
    },
    reference: { correct: ['a'] },
    scoring: {},
    maxScore: 1,
  },
  {
    answerType: 'composite',
    content: {
      parts: [
        { id: 'p1', answerType: 'hottext', content: { choices: labelled('a', 'b') } },
        { id: 'p2', answerType: 'number', content: {} },
      ],
    },
    reference: { parts: { p1: { correct: ['a'] }, p2: { value: 5 } } },
    scoring: {
      method: 'sum',
      parts: { p1: { scoring: {}, maxScore: 1 }, p2: { scoring: {}, maxScore: 0.5 } },
    },
    maxScore: 1.5,
  },
  {
    answerType: 'multiple_choice',
    content: { options: labelled('a', 'b', 'c') },
    reference: { correct: ['a', 'b'] },
    scoring: qti(
      [
        {
          id: 'RESPONSE',
          cardinality: 'multiple',
          baseType: 'identifier',
          correct: ['a', 'b'],
          mapping: {
            defaultValue: -1,
            entries: [
              { key: 'a', value: 1 },
              { key: 'b', value: 1 },
            ],
          },
        },
      ],
      { template: 'map_response', bind: { response: 'RESPONSE' } },
    ),
    maxScore: 2,
  },
  {
    answerType: 'gap_match',
    content: { words: labelled('W', 'Su'), gaps: [{ id: 'G1' }, { id: 'G2' }] },
    reference: { pairs: { G1: 'W' } },
    scoring: qti([{ id: 'RESPONSE', cardinality: 'multiple', baseType: 'directedPair', correct: ['W G1'] }], {
      template: 'match_correct',
      bind: { response: 'RESPONSE' },
    }),
    maxScore: 1,
  },
  {
    answerType: 'cloze',
    content: {
      blanks: [
        { id: 'a', kind: 'number' },
        { id: 'b', kind: 'text' },
      ],
    },
    reference: { blanks: { a: ['5'] } },
    scoring: qti(
      [
        { id: 'R1', cardinality: 'single', baseType: 'float', correct: [5] },
        { id: 'R2', cardinality: 'single', baseType: 'string' },
      ],
      {
        rules: [
          {
            rule: 'setOutcomeValue',
            id: 'SCORE',
            value: {
              op: 'sum',
              args: [
                { op: 'containerSize', args: [{ op: 'multiple', args: [{ op: 'variable', id: 'R2' }] }] },
                {
                  op: 'divide',
                  args: [
                    { op: 'variable', id: 'R1' },
                    { op: 'baseValue', baseType: 'float', value: 5 },
                  ],
                },
              ],
            },
          },
        ],
        bind: { parts: { a: 'R1', b: 'R2' } },
      },
    ),
    maxScore: 2,
  },
  {
    answerType: 'composite',
    content: {
      parts: [
        { id: 'p1', answerType: 'associate', content: { items: labelled('a', 'b') } },
        {
          id: 'p2',
          answerType: 'hotspot',
          content: {
            image: { fileId: 1, width: 9, height: 9 },
            areas: [{ id: 'a', shape: 'circle', coords: [5, 5, 3] }],
            select: 'points',
          },
        },
      ],
    },
    reference: { parts: {} },
    scoring: qti(
      [
        {
          id: 'R1',
          cardinality: 'multiple',
          baseType: 'pair',
          mapping: { entries: [{ key: 'a b', value: 1 }] },
        },
        {
          id: 'R2',
          cardinality: 'multiple',
          baseType: 'point',
          areaMapping: { entries: [{ shape: 'circle', coords: [5, 5, 3], value: 1 }] },
        },
      ],
      {
        rules: [
          {
            rule: 'setOutcomeValue',
            id: 'SCORE',
            value: {
              op: 'sum',
              args: [
                { op: 'mapResponse', id: 'R1' },
                { op: 'mapResponsePoint', id: 'R2' },
              ],
            },
          },
        ],
        bind: { parts: { p1: 'R1', p2: 'R2' } },
      },
    ),
    maxScore: 2,
  },
];

describe('random answers to imported and QTI-scored tasks', () => {
  it.each(TASKS.map((t, i) => [i, t.answerType, t] as const))('task %i (%s)', (i, _, t) => {
    expect(taskDefinitionSchema.safeParse(t).error?.issues ?? []).toEqual([]);
    const r = rng(7000 + i);
    const problems: string[] = [];
    const kinds = new Set<string>();
    for (let n = 0; n < 400; n++) {
      const value = garbage(r);
      try {
        const result = scoreAnswer(t, value);
        kinds.add(result.status);
        if (result.status === 'scored' && (result.score < 0 || result.score > t.maxScore))
          problems.push(`out of range ${JSON.stringify(value)}`);
        if (JSON.stringify(scoreAnswer(t, value)) !== JSON.stringify(result))
          problems.push('not deterministic');
      } catch (error) {
        problems.push(`threw ${String(error)} on ${JSON.stringify(value)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(kinds).toContain('scored');
  });
});
