import { taskDefinitionSchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { scoreAnswer, type ScoreResult, type ScoreTask } from './score.js';

/*
 * The native rules content import needs (docs/content-model.md): fractional points, per-option
 * points for a single choice (Moodle fractions), mapping bounds, scored answer lists (Moodle short
 * answer and numerical), wildcards, relative tolerance, the exact share of matching, numeric gaps
 * and weighted cloze.
 */

const task = (answerType: string, content: unknown, reference: unknown, scoring: unknown, maxScore: number) =>
  ({ answerType, content, reference, scoring, maxScore }) satisfies ScoreTask;

const options = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: 'abcdefghijklmnopqrstuvwxyz'[i]!, html: `${i + 1}` }));

const brief = (r: ScoreResult) =>
  r.status === 'scored'
    ? { status: r.status, score: r.score, correct: r.correct }
    : { status: r.status, score: 'score' in r ? r.score : undefined };

const S = (score: number, correct = false) => ({ status: 'scored', score, correct });
const EMPTY = { status: 'empty', score: 0 };

describe('single_choice per_choice (Moodle single answer with fractions)', () => {
  const t = task(
    'single_choice',
    { options: options(4) },
    { correct: 'a' },
    { method: 'per_choice', map: { a: 2, b: 1, c: 0, d: -1 } },
    2,
  );
  it.each<[string, unknown, object]>([
    ['the full-mark option', 'a', S(2, true)],
    ['a half-mark option', 'b', S(1)],
    ['a zero option', 'c', S(0)],
    ['a negative option is clamped to 0', 'd', S(0)],
    ['an unknown id gives 0', 'zz', S(0)],
    ['no choice', '', EMPTY],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(t, value))).toEqual(expected));

  it('fractional points stay exact (1/3 of a point)', () => {
    const third = task(
      'single_choice',
      { options: options(2) },
      { correct: 'a' },
      { method: 'per_choice', map: { a: 1, b: 1 / 3 } },
      1,
    );
    expect(scoreAnswer(third, 'b')).toMatchObject({ score: 0.333333 });
  });

  it('all_or_nothing stays the default', () => {
    const plain = task('single_choice', { options: options(2) }, { correct: 'a' }, {}, 0.5);
    expect(brief(scoreAnswer(plain, 'a'))).toEqual(S(0.5, true));
  });
});

describe('multiple_choice per_choice with QTI mapping bounds', () => {
  const content = { options: options(4) };
  const ref = { correct: ['a', 'b'] };
  const map = { a: 1, b: 1, c: -1, d: -2 };
  const bounded = task(
    'multiple_choice',
    content,
    ref,
    { method: 'per_choice', map, lowerBound: 0.5, upperBound: 1.5 },
    2,
  );
  const unbounded = task('multiple_choice', content, ref, { method: 'per_choice', map }, 2);
  it.each<[string, ScoreTask, unknown, object]>([
    ['upperBound cuts the sum', bounded, ['a', 'b'], S(1.5, true)],
    ['lowerBound raises the sum', bounded, ['c'], S(0.5)],
    ['within the bounds', bounded, ['a'], S(1)],
    ['without bounds the sum is clamped to [0, maxScore]', unbounded, ['a', 'b', 'c'], S(1)],
    ['without bounds a negative sum is 0', unbounded, ['d'], S(0)],
  ])('%s', (_, t, value, expected) => expect(brief(scoreAnswer(t, value))).toEqual(expected));
});

describe('short_text per_answer (Moodle short answer)', () => {
  const york = task(
    'short_text',
    {},
    {
      accepted: ['York'],
      answers: [
        { text: 'York', points: 1 },
        { text: 'york', points: 0.5 },
      ],
    },
    { method: 'per_answer', caseSensitive: true },
    1,
  );
  it.each<[string, unknown, object]>([
    ['the first answer', 'York', S(1, true)],
    ['the second answer', 'york', S(0.5)],
    ['surrounding spaces are ignored', '  york ', S(0.5)],
    ['case matters when asked', 'YORK', S(0)],
    ['no answer matches', 'New York', S(0)],
    ['blank', '   ', EMPTY],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(york, value))).toEqual(expected));

  it('the first matching answer wins, even when a later one gives more', () => {
    const t = task(
      'short_text',
      {},
      {
        accepted: ['кот'],
        answers: [
          { text: 'кот', points: 0.25 },
          { text: 'кот', points: 1 },
        ],
      },
      { method: 'per_answer' },
      1,
    );
    expect(brief(scoreAnswer(t, 'Кот'))).toEqual(S(0.25));
  });

  it('reports which answer matched', () => {
    expect(scoreAnswer(york, 'york')).toMatchObject({ details: { kind: 'text', acceptedIndex: 1 } });
  });
});

describe('short_text wildcards (Moodle *)', () => {
  const t = task(
    'short_text',
    {},
    {
      accepted: ['Нью-Йорк'],
      answers: [
        { text: 'Нью-Йорк', points: 2 },
        { text: '*Йорк*', points: 1 },
        { text: '*', points: 0 },
      ],
    },
    { method: 'per_answer', wildcards: true },
    2,
  );
  it.each<[string, unknown, object]>([
    ['the exact answer', 'нью-йорк', S(2, true)],
    ['* matches a run of characters on both sides', 'Йоркшир', S(1)],
    ['* matches nothing too', 'йорк', S(1)],
    ['a catch-all answer gives its 0', 'London', S(0)],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(t, value))).toEqual(expected));

  const accepted = (pattern: string, caseSensitive = false) =>
    task('short_text', {}, { accepted: [pattern] }, { wildcards: true, caseSensitive }, 1);
  it.each<[string, string, string, boolean]>([
    ['a star at the end', 'ab*', 'abc', true],
    ['the pattern is anchored at the start', 'ab*', 'xabc', false],
    ['the pattern is anchored at the end', '*ab', 'abx', false],
    ['several stars keep their order', '*a*b*c*', 'xaybzc', true],
    ['several stars: wrong order', '*a*b*c*', 'cba', false],
    ['pieces may not overlap', 'ab*ba', 'aba', false],
    ['\\* is a literal star', 'a\\*b', 'a*b', true],
    ['\\* does not match other characters', 'a\\*b', 'axb', false],
    ['other characters are literal (no regex)', 'a.c*', 'abc', false],
    ['runs of stars are one star', 'a**c', 'abbc', true],
    ['case ignored by default', 'LON*', 'london', true],
    ['case kept when asked', 'LON*', 'london', false],
  ])('%s: %s ~ %s', (name, pattern, answer, ok) => {
    const r = scoreAnswer(accepted(pattern, name === 'case kept when asked'), answer);
    expect(brief(r)).toEqual(S(ok ? 1 : 0, ok));
  });

  it('without wildcards a star is an ordinary character', () => {
    const plain = task('short_text', {}, { accepted: ['a*'] }, {}, 1);
    expect(brief(scoreAnswer(plain, 'abc'))).toEqual(S(0));
    expect(brief(scoreAnswer(plain, 'a*'))).toEqual(S(1, true));
  });

  // Backtracking over 13 stars and 1000 letters would not end in any lifetime: the test's timeout
  // is the guard, not a speed figure (speed is measured in bench/, never here).
  it('many stars against a long answer end (no backtracking)', { timeout: 20_000 }, () => {
    const t2 = accepted('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    expect(brief(scoreAnswer(t2, 'a'.repeat(1000)))).toEqual(S(0));
  });
});

describe('number per_answer and relative tolerance (Moodle numerical, GIFT)', () => {
  // GIFT {#=1822:0 =%50%1822:2}
  const gift = task(
    'number',
    {},
    {
      value: 1822,
      answers: [
        { value: 1822, tolerance: 0, points: 1 },
        { value: 1822, tolerance: 2, points: 0.5 },
        { min: 1700, max: 1900, points: 0.25 },
      ],
    },
    { method: 'per_answer' },
    1,
  );
  it.each<[string, unknown, object]>([
    ['exact', '1822', S(1, true)],
    ['within the second tolerance', '1823,5', S(0.5)],
    ['on the tolerance boundary', '1824', S(0.5)],
    ['in the range', '1850', S(0.25)],
    ['no answer fits', '2000', S(0)],
    ['not a number', 'в 1822', S(0)],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(gift, value))).toEqual(expected));

  const relative = task('number', {}, { value: 4.136, tolerance: 0.05, toleranceMode: 'relative' }, {}, 1);
  it.each<[string, unknown, object]>([
    ['within 5 %', '4,3', S(1, true)],
    ['on the boundary (4.136 × 1.05 = 4.3428)', '4.3428', S(1, true)],
    ['beyond 5 %', '4,4', S(0)],
    ['below', '3.9', S(0)],
  ])('relative: %s', (_, value, expected) => expect(brief(scoreAnswer(relative, value))).toEqual(expected));

  it('relative tolerance of a negative value', () => {
    const neg = task('number', {}, { value: -10, tolerance: 0.1, toleranceMode: 'relative' }, {}, 1);
    expect(brief(scoreAnswer(neg, '-11'))).toEqual(S(1, true));
    expect(brief(scoreAnswer(neg, '-11.5'))).toEqual(S(0));
  });

  it('all_or_nothing ignores the scored answers', () => {
    const t = { ...gift, scoring: {} };
    expect(brief(scoreAnswer(t, '1823'))).toEqual(S(0));
    expect(brief(scoreAnswer(t, '1822'))).toEqual(S(1, true));
  });
});

describe('matching share (Moodle matching)', () => {
  const content = { left: options(3), right: options(4) };
  const pairs = { a: 'b', b: 'c', c: 'a' };
  const share = task('matching', content, { pairs }, { method: 'share' }, 2);
  it.each<[string, unknown, object]>([
    ['all right', { a: 'b', b: 'c', c: 'a' }, S(2, true)],
    ['two of three: exact, not rounded down', { a: 'b', b: 'c', c: 'd' }, S(1.333333)],
    ['one of three', { a: 'b' }, S(0.666667)],
    ['none right', { a: 'a' }, S(0)],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(share, value))).toEqual(expected));

  it('per_pair still rounds down to whole points', () => {
    expect(brief(scoreAnswer({ ...share, scoring: { method: 'per_pair' } }, { a: 'b', b: 'c' }))).toEqual(
      S(1),
    );
  });
});

describe('cloze: numeric gaps and weighted scoring (Moodle cloze)', () => {
  const content = {
    blanks: [
      { id: 't', kind: 'text' },
      {
        id: 'c',
        kind: 'choice',
        options: [
          { id: 'a', text: 'Лондон' },
          { id: 'b', text: 'Париж' },
        ],
      },
      { id: 'n', kind: 'number' },
    ],
  };
  const reference = {
    blanks: { t: ['Сена'], c: ['b'], n: ['23,8'] },
    scored: {
      t: [
        { text: 'Сена', points: 1 },
        { text: 'Сен*', points: 0.5 },
      ],
      c: [
        { text: 'b', points: 1 },
        { text: 'a', points: 0.25 },
      ],
      n: [
        { value: 23.8, tolerance: 0.1, points: 2 },
        { value: 23.8, tolerance: 1, points: 1 },
      ],
    },
  };
  const weighted = task('cloze', content, reference, { method: 'weighted', wildcards: true }, 4);
  it.each<[string, unknown, object]>([
    ['all full', { t: 'сена', c: 'b', n: '23,85' }, S(4, true)],
    ['partial answers add up', { t: 'Сенатор', c: 'a', n: '24.5' }, S(1.75)],
    ['one gap only', { n: '23.8' }, S(2)],
    ['wrong everywhere', { t: 'Темза', c: 'x', n: '30' }, S(0)],
    ['every gap blank', { t: ' ', c: '', n: '' }, EMPTY],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(weighted, value))).toEqual(expected));

  it('the sum is clamped to maxScore', () => {
    expect(brief(scoreAnswer({ ...weighted, maxScore: 3 }, { t: 'Сена', c: 'b', n: '23.8' }))).toEqual(
      S(3, true),
    );
  });

  it('a numeric gap under the classic methods compares numbers', () => {
    const plain = task('cloze', content, reference, { method: 'per_blank' }, 3);
    expect(brief(scoreAnswer(plain, { t: 'Сена', c: 'b', n: '23.80' }))).toEqual(S(3, true));
    expect(brief(scoreAnswer(plain, { t: 'Сена', c: 'b', n: '23.9' }))).toEqual(S(2));
  });

  it('reports the gaps given full marks', () => {
    expect(scoreAnswer(weighted, { t: 'Сена', c: 'a', n: '23.8' })).toMatchObject({
      mistakes: 1,
      details: {
        kind: 'blanks',
        blanks: [
          { id: 't', correct: true },
          { id: 'c', correct: false },
          { id: 'n', correct: true },
        ],
      },
    });
  });
});

describe('the task definition checks the new rules', () => {
  const ok = (d: unknown) => taskDefinitionSchema.safeParse(d).success;
  const messages = (d: unknown) =>
    taskDefinitionSchema.safeParse(d).error?.issues.map((i) => i.message) ?? [];
  it('accepts the tasks of this file', () => {
    expect(
      ok({
        answerType: 'short_text',
        content: {},
        reference: { accepted: ['York'], answers: [{ text: 'York', points: 1 }] },
        scoring: { method: 'per_answer', wildcards: true },
        maxScore: 1,
      }),
    ).toBe(true);
    expect(
      ok({
        answerType: 'number',
        content: {},
        reference: { value: 1, answers: [{ min: 0, max: 2, points: 0.5 }] },
        scoring: { method: 'per_answer' },
        maxScore: 1,
      }),
    ).toBe(true);
  });
  it.each<[string, unknown, string]>([
    [
      'single per_choice map must cover every option',
      {
        answerType: 'single_choice',
        content: { options: options(3) },
        reference: { correct: 'a' },
        scoring: { method: 'per_choice', map: { a: 1 } },
        maxScore: 1,
      },
      'must give points for every option',
    ],
    [
      'bounds in order',
      {
        answerType: 'multiple_choice',
        content: { options: options(2) },
        reference: { correct: ['a'] },
        scoring: { method: 'per_choice', map: { a: 1, b: 0 }, lowerBound: 1, upperBound: 0 },
        maxScore: 1,
      },
      'lowerBound must not exceed upperBound',
    ],
    [
      'per_answer needs answers (text)',
      {
        answerType: 'short_text',
        content: {},
        reference: { accepted: ['x'] },
        scoring: { method: 'per_answer' },
        maxScore: 1,
      },
      'per_answer needs scored answers',
    ],
    [
      'per_answer needs answers (number)',
      {
        answerType: 'number',
        content: {},
        reference: { value: 1 },
        scoring: { method: 'per_answer' },
        maxScore: 1,
      },
      'per_answer needs scored answers',
    ],
    [
      'weighted needs every gap',
      {
        answerType: 'cloze',
        content: {
          blanks: [
            { id: 'a', kind: 'text' },
            { id: 'b', kind: 'text' },
          ],
        },
        reference: { blanks: { a: ['x'], b: ['y'] }, scored: { a: [{ text: 'x', points: 1 }] } },
        scoring: { method: 'weighted' },
        maxScore: 1,
      },
      'weighted needs scored answers for every blank',
    ],
    [
      'numeric answers only for number gaps',
      {
        answerType: 'cloze',
        content: { blanks: [{ id: 'a', kind: 'text' }] },
        reference: { blanks: { a: ['1'] }, scored: { a: [{ value: 1, points: 1 }] } },
        scoring: { method: 'weighted' },
        maxScore: 1,
      },
      'numeric answers only suit a number gap',
    ],
    [
      'a scored drop-down answer is an option id',
      {
        answerType: 'cloze',
        content: {
          blanks: [
            {
              id: 'a',
              kind: 'choice',
              options: [
                { id: 'x', text: 'X' },
                { id: 'y', text: 'Y' },
              ],
            },
          ],
        },
        reference: { blanks: { a: ['x'] }, scored: { a: [{ text: 'z', points: 1 }] } },
        scoring: { method: 'weighted' },
        maxScore: 1,
      },
      'not an option id of the drop-down',
    ],
  ])('%s', (_, d, message) => expect(messages(d)).toContain(message));
});
