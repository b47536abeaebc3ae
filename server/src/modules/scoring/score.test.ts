import { describe, expect, it } from 'vitest';
import { InvalidTaskError, isAutoScored, scoreAnswer, type ScoreResult, type ScoreTask } from './score.js';

/* Tasks as authored (contract defaults left out on purpose: scoreAnswer applies them). */
const task = (answerType: string, content: unknown, reference: unknown, scoring: unknown, maxScore: number) =>
  ({ answerType, content, reference, scoring, maxScore }) satisfies ScoreTask;

const options = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: 'abcdefghijklmnopqrstuvwxyz'[i]!, html: `${i + 1}` }));

/** status + score (+ correct when scored): the part every table checks. */
const brief = (r: ScoreResult) =>
  r.status === 'scored'
    ? { status: r.status, score: r.score, correct: r.correct }
    : r.status === 'manual'
      ? { status: r.status }
      : { status: r.status, score: r.score };

const S = (score: number, correct = false) => ({ status: 'scored', score, correct });
const EMPTY = { status: 'empty', score: 0 };
const INVALID = { status: 'invalid', score: 0 };

// ---------------------------------------------------------------- single choice

describe('single_choice', () => {
  const t = task('single_choice', { options: options(4) }, { correct: 'b' }, {}, 1);
  it.each<[string, unknown, object]>([
    ['correct option', 'b', S(1, true)],
    ['wrong option', 'a', S(0)],
    ['unknown id', 'zz', S(0)],
    ['case matters for ids', 'B', S(0)],
    ['"" is no choice', '', EMPTY],
    ['null', null, EMPTY],
    ['undefined', undefined, EMPTY],
    ['an array', ['b'], INVALID],
    ['a number', 2, INVALID],
    ['an object', { id: 'b' }, INVALID],
    ['a boolean', true, INVALID],
    ['too long string', 'b'.repeat(33), INVALID],
    ['a 100 000-character string', 'b'.repeat(100_000), INVALID],
  ])('%s', (_, value, expected) => {
    expect(brief(scoreAnswer(t, value))).toEqual(expected);
  });

  it('applies maxScore other than 1', () => {
    expect(scoreAnswer({ ...t, maxScore: 3 }, 'b')).toMatchObject({
      status: 'scored',
      score: 3,
      maxScore: 3,
    });
  });
});

// ---------------------------------------------------------------- multiple choice

describe('multiple_choice', () => {
  const content = { options: options(5) };
  const ref = { correct: ['a', 'c', 'e'] };
  const allOrNothing = task('multiple_choice', content, ref, { method: 'all_or_nothing' }, 2);
  const oneMistake = task('multiple_choice', content, ref, { method: 'one_mistake' }, 2);
  const oneMistake3 = task('multiple_choice', content, ref, { method: 'one_mistake' }, 3);
  const perChoice = task(
    'multiple_choice',
    content,
    ref,
    { method: 'per_choice', map: { a: 1, b: -1, c: 1, d: -1, e: 1 } },
    3,
  );
  const perChoiceHalf = task(
    'multiple_choice',
    content,
    ref,
    { method: 'per_choice', map: { a: 0.5, b: -2, c: 0.5, d: -0.25, e: 1 } },
    2,
  );
  const defaults = task('multiple_choice', content, ref, {}, 2);
  const limited = task(
    'multiple_choice',
    { ...content, minChoices: 1, maxChoices: 3 },
    ref,
    { method: 'one_mistake' },
    2,
  );
  const limitedPerChoice = task(
    'multiple_choice',
    { ...content, maxChoices: 3 },
    ref,
    { method: 'per_choice', map: { a: 1, b: 0, c: 1, d: 0, e: 1 } },
    3,
  );

  it.each<[string, ScoreTask, unknown, object, number?]>([
    // all_or_nothing
    ['aon: exact set', allOrNothing, ['a', 'c', 'e'], S(2, true), 0],
    ['aon: any order', allOrNothing, ['e', 'a', 'c'], S(2, true), 0],
    ['aon: one missing', allOrNothing, ['a', 'c'], S(0), 1],
    ['aon: one extra', allOrNothing, ['a', 'b', 'c', 'e'], S(0), 1],
    ['aon: all options', allOrNothing, ['a', 'b', 'c', 'd', 'e'], S(0), 2],
    ['aon: duplicate ids count once', allOrNothing, ['a', 'a', 'c', 'e'], S(2, true), 0],
    ['default method is all_or_nothing', defaults, ['a', 'c'], S(0), 1],
    ['default method: exact set', defaults, ['c', 'e', 'a'], S(2, true), 0],
    // one_mistake
    ['1m: exact set', oneMistake, ['a', 'c', 'e'], S(2, true), 0],
    ['1m: one missing → one point less', oneMistake, ['a', 'c'], S(1), 1],
    ['1m: one extra → one point less', oneMistake, ['a', 'c', 'e', 'b'], S(1), 1],
    ['1m: one swapped = missing + extra', oneMistake, ['a', 'c', 'd'], S(0), 2],
    ['1m: two missing', oneMistake, ['a'], S(0), 2],
    ['1m: floors at zero', oneMistake, ['b', 'd'], S(0), 5],
    ['1m: all options (guessing) with 2 distractors', oneMistake, ['a', 'b', 'c', 'd', 'e'], S(0), 2],
    ['1m: unknown id is a wrong choice', oneMistake, ['a', 'c', 'e', 'zz'], S(1), 1],
    ['1m max 3: two mistakes → 1', oneMistake3, ['a'], S(1), 2],
    ['1m max 3: three mistakes → 0', oneMistake3, ['b'], S(0), 4],
    // per_choice
    ['pc: exact set', perChoice, ['a', 'c', 'e'], S(3, true), 0],
    ['pc: two right', perChoice, ['a', 'c'], S(2), 1],
    ['pc: three right one wrong', perChoice, ['a', 'b', 'c', 'e'], S(2), 1],
    ['pc: all options', perChoice, ['a', 'b', 'c', 'd', 'e'], S(1), 2],
    ['pc: only distractors clamp to 0, never negative', perChoice, ['b', 'd'], S(0), 5],
    ['pc: one right one wrong = 0', perChoice, ['a', 'b'], S(0), 3],
    ['pc: duplicates count once', perChoice, ['a', 'a', 'a'], S(1), 2],
    ['pc: unknown id gives nothing', perChoice, ['a', 'zz'], S(1), 3],
    ['pc: fractional map', perChoiceHalf, ['a', 'c'], S(1), 1],
    ['pc: fractional map with a distractor', perChoiceHalf, ['a', 'c', 'd'], S(0.75), 2],
    ['pc: clamped to maxScore', perChoiceHalf, ['a', 'c', 'e'], S(2, true), 0],
    ['pc: big negative clamps to 0', perChoiceHalf, ['a', 'b', 'c', 'e'], S(0), 1],
    // maxChoices guard
    ['maxChoices: 3 correct', limited, ['a', 'c', 'e'], S(2, true), 0],
    ['maxChoices: 4 chosen → 0 even with all correct inside', limited, ['a', 'b', 'c', 'e'], S(0), 1],
    ['maxChoices: every option → 0', limited, ['a', 'b', 'c', 'd', 'e'], S(0), 2],
    ['maxChoices: duplicates do not trip the guard', limited, ['a', 'a', 'c', 'e'], S(2, true), 0],
    ['maxChoices: fewer than min is scored normally', limited, ['a', 'c'], S(1), 1],
    [
      'maxChoices per_choice: all options would pay 3 without the guard',
      limitedPerChoice,
      ['a', 'b', 'c', 'd', 'e'],
      S(0),
      2,
    ],
    ['maxChoices per_choice: within limit', limitedPerChoice, ['a', 'c', 'd'], S(2), 2],
    // empty / garbage
    ['empty array', oneMistake, [], EMPTY],
    ['null', oneMistake, null, EMPTY],
    ['a string', oneMistake, 'a,c,e', INVALID],
    ['numbers in the array', oneMistake, [1, 3, 5], INVALID],
    ['ids with spaces', oneMistake, ['a c'], INVALID],
    ['nested arrays', oneMistake, [['a']], INVALID],
    ['an object', oneMistake, { a: true }, INVALID],
    ['27 ids', oneMistake, Array.from({ length: 27 }, () => 'a'), INVALID],
    ['10 000 ids', oneMistake, Array.from({ length: 10_000 }, () => 'a'), INVALID],
  ])('%s', (_, t, value, expected, mistakes) => {
    const r = scoreAnswer(t, value);
    expect(brief(r)).toEqual(expected);
    if (mistakes !== undefined) expect(r).toMatchObject({ mistakes });
  });

  it('reports every option with its decision and points', () => {
    const r = scoreAnswer(perChoice, ['a', 'b']);
    expect(r).toMatchObject({
      details: {
        kind: 'choices',
        choices: [
          { id: 'a', chosen: true, correct: true, points: 1 },
          { id: 'b', chosen: true, correct: false, points: -1 },
          { id: 'c', chosen: false, correct: false, points: 0 },
          { id: 'd', chosen: false, correct: true, points: 0 },
          { id: 'e', chosen: false, correct: false, points: 0 },
        ],
      },
    });
  });

  it('flags the maxChoices guard', () => {
    expect(scoreAnswer(limited, ['a', 'b', 'c', 'e'])).toMatchObject({ details: { tooManyChoices: true } });
  });
});

// ---------------------------------------------------------------- short text

describe('short_text', () => {
  const triangle = task(
    'short_text',
    { maxLength: 50 },
    { accepted: ['равнобедренный', 'равнобедренный треугольник'] },
    {},
    1,
  );
  const acorn = task('short_text', {}, { accepted: ['жёлудь'] }, {}, 1);
  const acornYo = task('short_text', {}, { accepted: ['жёлудь'] }, { distinguishYo: true }, 1);
  const formula = task('short_text', {}, { accepted: ['NaCl'] }, { caseSensitive: true }, 1);
  const phrase = task('short_text', {}, { accepted: ['Война и мир'] }, {}, 2);
  const numeric = task('short_text', {}, { accepted: ['2,5'] }, {}, 1);

  it.each<[string, ScoreTask, unknown, object]>([
    ['exact', triangle, 'равнобедренный', S(1, true)],
    ['capitalised', triangle, 'Равнобедренный', S(1, true)],
    ['upper case', triangle, 'РАВНОБЕДРЕННЫЙ', S(1, true)],
    ['surrounding spaces', triangle, '   равнобедренный  ', S(1, true)],
    ['NBSP and tab around', triangle, '\u00A0равнобедренный\t', S(1, true)],
    ['second variant', triangle, 'равнобедренный треугольник', S(1, true)],
    ['second variant, repeated inner spaces', triangle, 'равнобедренный    треугольник', S(1, true)],
    ['second variant, NBSP inside', triangle, 'равнобедренный\u00A0треугольник', S(1, true)],
    ['trailing period', triangle, 'Равнобедренный.', S(1, true)],
    ['trailing period after a phrase', triangle, 'Равнобедренный треугольник.', S(1, true)],
    ['wrong word', triangle, 'равносторонний', S(0)],
    ['misspelt', triangle, 'равнобедреный', S(0)],
    ['extra word', triangle, 'это равнобедренный', S(0)],
    ['ё accepted as е', acorn, 'желудь', S(1, true)],
    ['ё itself', acorn, 'Жёлудь', S(1, true)],
    ['ё in caps', acorn, 'ЖЁЛУДЬ', S(1, true)],
    ['distinguishYo: е is wrong', acornYo, 'желудь', S(0)],
    ['distinguishYo: ё is right', acornYo, 'жёлудь', S(1, true)],
    ['caseSensitive: exact', formula, 'NaCl', S(1, true)],
    ['caseSensitive: wrong case', formula, 'NACL', S(0)],
    ['caseSensitive: spaces still ignored', formula, ' NaCl ', S(1, true)],
    ['quotes around the whole answer', phrase, '«Война и мир»', S(2, true)],
    ['quotes inside count', phrase, 'Война «и» мир', S(0)],
    ['case in a phrase', phrase, 'война и мир', S(2, true)],
    ['numeric variant: point', numeric, '2.5', S(1, true)],
    ['numeric variant: comma', numeric, '2,5', S(1, true)],
    ['numeric variant: other number', numeric, '2,6', S(0)],
    ['empty string', triangle, '', EMPTY],
    ['spaces only', triangle, '    ', EMPTY],
    ['NBSP only', triangle, '\u00A0\u00A0', EMPTY],
    ['null', triangle, null, EMPTY],
    ['a number', triangle, 5, INVALID],
    ['an array of strings', triangle, ['равнобедренный'], INVALID],
    ['an object', triangle, { text: 'равнобедренный' }, INVALID],
    ['1001 characters', triangle, 'а'.repeat(1001), INVALID],
    ['100 000 characters', triangle, 'а '.repeat(50_000), INVALID],
  ])('%s', (_, t, value, expected) => {
    expect(brief(scoreAnswer(t, value))).toEqual(expected);
  });

  it('reports which variant matched', () => {
    expect(scoreAnswer(triangle, ' Равнобедренный  треугольник ')).toMatchObject({
      details: { kind: 'text', normalized: 'Равнобедренный треугольник', acceptedIndex: 1 },
    });
  });
});

// ---------------------------------------------------------------- number

describe('number', () => {
  const circle = task('number', { unit: 'см' }, { value: 31.4, tolerance: 0.05 }, {}, 1);
  const exact = task('number', {}, { value: 4 }, {}, 1);
  const negative = task('number', {}, { value: -2.5 }, {}, 1);
  const big = task('number', {}, { value: 1250.5 }, {}, 2);
  const range = task('number', { unit: 'км/ч' }, { min: 15, max: 18 }, {}, 1);
  const speed = task('number', { unit: 'м/с' }, { value: 20.8, tolerance: 0.1 }, {}, 1);

  it.each<[string, ScoreTask, unknown, object]>([
    ['comma decimal', circle, '31,4', S(1, true)],
    ['point decimal', circle, '31.4', S(1, true)],
    ['trailing zeros', circle, '31,40', S(1, true)],
    ['upper tolerance edge exactly', circle, '31,45', S(1, true)],
    ['lower tolerance edge exactly', circle, '31,35', S(1, true)],
    ['just over the upper edge', circle, '31,4501', S(0)],
    ['just under the lower edge', circle, '31,3499', S(0)],
    ['with the unit', circle, '31,4 см', S(1, true)],
    ['with the unit, no space', circle, '31,4см', S(1, true)],
    ['with the unit and a period', circle, '31,4 см.', S(1, true)],
    ['with another unit', circle, '31,4 мм', S(0)],
    ['surrounding spaces', circle, '  31,4 ', S(1, true)],
    ['wrong number', circle, '31', S(0)],
    ['words', circle, 'тридцать один', S(0)],
    ['pi written out', circle, '10π', S(0)],
    ['integer', exact, '4', S(1, true)],
    ['integer with ,0', exact, '4,0', S(1, true)],
    ['leading plus', exact, '+4', S(1, true)],
    ['integer with a period', exact, '4.', S(1, true)],
    ['off by one', exact, '5', S(0)],
    ['two numbers', exact, '4 5', S(0)],
    ['fraction', exact, '8/2', S(0)],
    ['ASCII minus', negative, '-2,5', S(1, true)],
    ['unicode minus', negative, '−2,5', S(1, true)],
    ['en dash as minus', negative, '–2.5', S(1, true)],
    ['missing sign', negative, '2,5', S(0)],
    ['group space', big, '1 250,5', S(2, true)],
    ['NBSP group', big, '1\u00A0250,5', S(2, true)],
    ['thin space group', big, '1\u2009250.5', S(2, true)],
    ['no grouping', big, '1250,5', S(2, true)],
    ['bad grouping', big, '12 50,5', S(0)],
    ['range: min edge', range, '15', S(1, true)],
    ['range: max edge', range, '18', S(1, true)],
    ['range: inside', range, '16,5 км/ч', S(1, true)],
    ['range: below', range, '14,99', S(0)],
    ['range: above', range, '18,01', S(0)],
    ['physics: rounded to tenths', speed, '20,8', S(1, true)],
    ['physics: unrounded 20,83', speed, '20,83', S(1, true)],
    ['physics: edge 20,9', speed, '20,9', S(1, true)],
    ['physics: 21', speed, '21', S(0)],
    ['empty', exact, '', EMPTY],
    ['spaces', exact, '   ', EMPTY],
    ['null', exact, null, EMPTY],
    ['a JSON number is not the contract shape', exact, 4, INVALID],
    ['51 characters', exact, '4'.padEnd(51, ' '), INVALID],
    ['100 000 characters', exact, '4'.repeat(100_000), INVALID],
    ['an array', exact, ['4'], INVALID],
  ])('%s', (_, t, value, expected) => {
    expect(brief(scoreAnswer(t, value))).toEqual(expected);
  });

  it('reports the parsed number', () => {
    expect(scoreAnswer(big, '1 250,5')).toMatchObject({ details: { kind: 'number', parsed: 1250.5 } });
    expect(scoreAnswer(big, 'много')).toMatchObject({ details: { kind: 'number', parsed: null } });
  });
});

// ---------------------------------------------------------------- digit sequence

describe('digit_sequence', () => {
  const ordered = task('digit_sequence', { length: 3 }, { digits: '312' }, { method: 'all_or_nothing' }, 1);
  const ordered1m = task('digit_sequence', { length: 3 }, { digits: '312' }, { method: 'one_mistake' }, 2);
  const set1m = task('digit_sequence', {}, { digits: '13' }, { method: 'one_mistake', anyOrder: true }, 2);
  const setAon = task('digit_sequence', {}, { digits: '135' }, { anyOrder: true }, 1);
  const binary = task('digit_sequence', {}, { digits: '100101' }, {}, 1);
  const repeats = task('digit_sequence', {}, { digits: '112' }, { method: 'one_mistake', anyOrder: true }, 2);

  it.each<[string, ScoreTask, unknown, object, number?]>([
    ['ordered: exact', ordered, '312', S(1, true), 0],
    ['ordered: spaces ignored', ordered, ' 3 1 2 ', S(1, true), 0],
    ['ordered: NBSP ignored', ordered, '3\u00A012', S(1, true), 0],
    ['ordered: wrong order', ordered, '123', S(0), 3],
    ['ordered: one digit wrong', ordered, '314', S(0), 1],
    ['ordered 1m: exact', ordered1m, '312', S(2, true), 0],
    ['ordered 1m: one digit wrong', ordered1m, '314', S(1), 1],
    ['ordered 1m: two swapped', ordered1m, '132', S(0), 2],
    ['ordered 1m: one missing at the end', ordered1m, '31', S(1), 1],
    ['ordered 1m: one extra at the end', ordered1m, '3124', S(1), 1],
    ['ordered 1m: missing first shifts all', ordered1m, '12', S(0), 3],
    ['ordered 1m: floors at zero', ordered1m, '999999', S(0), 6],
    ['set 1m: exact', set1m, '13', S(2, true), 0],
    ['set 1m: any order', set1m, '31', S(2, true), 0],
    ['set 1m: one missing', set1m, '1', S(1), 1],
    ['set 1m: one extra', set1m, '134', S(1), 1],
    ['set 1m: one wrong = missing + extra', set1m, '12', S(0), 2],
    ['set 1m: digit repeated is an extra', set1m, '113', S(1), 1],
    ['set 1m: all four statements', set1m, '1234', S(0), 2],
    ['set aon: any order', setAon, '531', S(1, true), 0],
    ['set aon: one missing', setAon, '53', S(0), 1],
    ['multiset key: exact', repeats, '121', S(2, true), 0],
    ['multiset key: a repeat missing', repeats, '12', S(1), 1],
    ['binary: exact', binary, '100101', S(1, true), 0],
    ['binary: leading zero is a different answer', binary, '0100101', S(0)],
    ['empty', ordered, '', EMPTY],
    ['spaces only', ordered, '   ', EMPTY],
    ['null', ordered, null, EMPTY],
    ['commas', set1m, '1,3', INVALID],
    ['letters', set1m, '1a', INVALID],
    ['a number', set1m, 13, INVALID],
    ['an array', set1m, ['1', '3'], INVALID],
    ['51 digits', ordered1m, '1'.repeat(51), INVALID],
    ['100 000 digits', ordered1m, '1'.repeat(100_000), INVALID],
  ])('%s', (_, t, value, expected, mistakes) => {
    const r = scoreAnswer(t, value);
    expect(brief(r)).toEqual(expected);
    if (mistakes !== undefined) expect(r).toMatchObject({ mistakes });
  });

  it('reports positions in order, counts for a set', () => {
    expect(scoreAnswer(ordered1m, '314')).toMatchObject({
      details: {
        kind: 'positions',
        positions: [
          { position: 1, given: '3', correct: true },
          { position: 2, given: '1', correct: true },
          { position: 3, given: '4', correct: false },
        ],
      },
    });
    expect(scoreAnswer(set1m, '12')).toMatchObject({ details: { kind: 'digit_set', missing: 1, extra: 1 } });
  });
});

// ---------------------------------------------------------------- ordering

describe('ordering', () => {
  const items = [
    { id: 'i1', html: '0,3' },
    { id: 'i2', html: '−1,2' },
    { id: 'i3', html: '1/4' },
    { id: 'i4', html: '−0,5' },
  ];
  const ref = { order: ['i2', 'i4', 'i3', 'i1'] };
  const aon = task('ordering', { items }, ref, {}, 1);
  const oneMistake = task('ordering', { items }, ref, { method: 'one_mistake' }, 2);

  it.each<[string, ScoreTask, unknown, object, number?]>([
    ['aon: correct', aon, ['i2', 'i4', 'i3', 'i1'], S(1, true), 0],
    ['aon: display order', aon, ['i1', 'i2', 'i3', 'i4'], S(0), 3],
    ['aon: last two swapped', aon, ['i2', 'i4', 'i1', 'i3'], S(0), 2],
    ['1m: correct', oneMistake, ['i2', 'i4', 'i3', 'i1'], S(2, true), 0],
    ['1m: one item missing at the end', oneMistake, ['i2', 'i4', 'i3'], S(1), 1],
    ['1m: adjacent swap = two out of place', oneMistake, ['i4', 'i2', 'i3', 'i1'], S(0), 2],
    ['1m: reversed', oneMistake, ['i1', 'i3', 'i4', 'i2'], S(0), 4],
    ['1m: only the first', oneMistake, ['i2'], S(0), 3],
    ['1m: an extra unknown item', oneMistake, ['i2', 'i4', 'i3', 'i1', 'i9'], S(1), 1],
    ['1m: duplicated item', oneMistake, ['i2', 'i2', 'i3', 'i1'], S(1), 1],
    ['empty', oneMistake, [], EMPTY],
    ['null', oneMistake, null, EMPTY],
    ['a string', oneMistake, 'i2,i4,i3,i1', INVALID],
    ['an object', oneMistake, { 0: 'i2' }, INVALID],
    ['numbers', oneMistake, [2, 4, 3, 1], INVALID],
    ['21 items', oneMistake, Array.from({ length: 21 }, () => 'i1'), INVALID],
    ['10 000 items', oneMistake, Array.from({ length: 10_000 }, (_, i) => `i${i}`), INVALID],
  ])('%s', (_, t, value, expected, mistakes) => {
    const r = scoreAnswer(t, value);
    expect(brief(r)).toEqual(expected);
    if (mistakes !== undefined) expect(r).toMatchObject({ mistakes });
  });
});

// ---------------------------------------------------------------- matching

describe('matching', () => {
  const content = {
    left: [
      { id: 'l1', html: '2³' },
      { id: 'l2', html: '3²' },
      { id: 'l3', html: '10⁰' },
      { id: 'l4', html: '(−2)²' },
    ],
    right: ['8', '9', '1', '4', '6'].map((html, i) => ({ id: `r${i + 1}`, html })),
  };
  const ref = { pairs: { l1: 'r1', l2: 'r2', l3: 'r3', l4: 'r4' } };
  const aon = task('matching', content, ref, {}, 1);
  const oneMistake = task('matching', content, ref, { method: 'one_mistake' }, 2);
  const perPair = task('matching', content, ref, { method: 'per_pair' }, 2);
  const perPair3 = task('matching', content, ref, { method: 'per_pair' }, 3);
  const all = { l1: 'r1', l2: 'r2', l3: 'r3', l4: 'r4' };

  it.each<[string, ScoreTask, unknown, object, number?]>([
    ['aon: all right', aon, all, S(1, true), 0],
    ['aon: key order does not matter', aon, { l4: 'r4', l3: 'r3', l2: 'r2', l1: 'r1' }, S(1, true), 0],
    ['aon: one wrong', aon, { ...all, l4: 'r5' }, S(0), 1],
    ['1m: all right', oneMistake, all, S(2, true), 0],
    ['1m: one wrong', oneMistake, { ...all, l4: 'r5' }, S(1), 1],
    ['1m: one unmatched', oneMistake, { l1: 'r1', l2: 'r2', l3: 'r3' }, S(1), 1],
    ['1m: one unmatched saved as ""', oneMistake, { ...all, l3: '' }, S(1), 1],
    ['1m: two swapped', oneMistake, { ...all, l1: 'r2', l2: 'r1' }, S(0), 2],
    ['1m: floors at zero', oneMistake, { l1: 'r5' }, S(0), 4],
    ['1m: same right for everything', oneMistake, { l1: 'r1', l2: 'r1', l3: 'r1', l4: 'r1' }, S(0), 3],
    ['1m: unknown left ignored', oneMistake, { ...all, l9: 'r1' }, S(2, true), 0],
    ['pp: all right', perPair, all, S(2, true), 0],
    ['pp: 3 of 4 → floor(1.5) = 1', perPair, { ...all, l4: 'r5' }, S(1), 1],
    ['pp: 2 of 4 → 1', perPair, { l1: 'r1', l2: 'r2' }, S(1), 2],
    ['pp: 1 of 4 → floor(0.5) = 0', perPair, { l1: 'r1' }, S(0), 3],
    ['pp max 3: 3 of 4 → floor(2.25) = 2', perPair3, { ...all, l4: 'r5' }, S(2), 1],
    ['pp max 3: 2 of 4 → floor(1.5) = 1', perPair3, { l1: 'r1', l2: 'r2' }, S(1), 2],
    ['empty object', oneMistake, {}, EMPTY],
    ['all unmatched as ""', oneMistake, { l1: '', l2: '' }, EMPTY],
    ['null', oneMistake, null, EMPTY],
    ['an array of pairs', oneMistake, [['l1', 'r1']], INVALID],
    ['right id a number', oneMistake, { l1: 1 }, INVALID],
    ['right id an array', oneMistake, { l1: ['r1'] }, INVALID],
    ['a bad left key', oneMistake, { 'l 1': 'r1' }, INVALID],
    [
      '10 000 keys',
      oneMistake,
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`l${i}`, 'r1'])),
      INVALID,
    ],
    ['a string', oneMistake, 'l1-r1', INVALID],
  ])('%s', (_, t, value, expected, mistakes) => {
    const r = scoreAnswer(t, value);
    expect(brief(r)).toEqual(expected);
    if (mistakes !== undefined) expect(r).toMatchObject({ mistakes });
  });

  it('reports every pair of the key', () => {
    expect(scoreAnswer(oneMistake, { l1: 'r1', l2: 'r3' })).toMatchObject({
      details: {
        kind: 'pairs',
        pairs: [
          { left: 'l1', right: 'r1', correct: true },
          { left: 'l2', right: 'r3', correct: false },
          { left: 'l3', right: null, correct: false },
          { left: 'l4', right: null, correct: false },
        ],
      },
    });
  });
});

// ---------------------------------------------------------------- cloze

describe('cloze', () => {
  const content = {
    blanks: [
      { id: 'b1', kind: 'text' },
      { id: 'b2', kind: 'text' },
      {
        id: 'b3',
        kind: 'choice',
        options: [
          { id: 'o1', text: 'см' },
          { id: 'o2', text: 'см²' },
          { id: 'o3', text: 'см³' },
        ],
      },
    ],
  };
  const ref = { blanks: { b1: ['16'], b2: ['15'], b3: ['o2'] } };
  const perBlank = task('cloze', content, ref, { method: 'per_blank' }, 3);
  const defaults = task('cloze', content, ref, {}, 3);
  const aon = task('cloze', content, ref, { method: 'all_or_nothing' }, 1);
  const oneMistake = task('cloze', content, ref, { method: 'one_mistake' }, 2);
  const perBlank2 = task('cloze', content, ref, { method: 'per_blank' }, 2);

  const russian = task(
    'cloze',
    {
      blanks: [
        {
          id: 'b1',
          kind: 'choice',
          options: [
            { id: 'o1', text: 'не' },
            { id: 'o2', text: 'ни' },
          ],
        },
        { id: 'b2', kind: 'text' },
        { id: 'b3', kind: 'text' },
      ],
    },
    { blanks: { b1: ['o2'], b2: ['а'], b3: ['ещё', 'еще раз'] } },
    { method: 'per_blank' },
    3,
  );
  const russianYo = task(
    'cloze',
    russian.content,
    russian.reference,
    { method: 'per_blank', distinguishYo: true },
    3,
  );

  it.each<[string, ScoreTask, unknown, object, number?]>([
    ['pb: all right', perBlank, { b1: '16', b2: '15', b3: 'o2' }, S(3, true), 0],
    ['pb: spaces and a period', perBlank, { b1: ' 16 ', b2: '15.', b3: 'o2' }, S(3, true), 0],
    ['pb: one wrong', perBlank, { b1: '16', b2: '16', b3: 'o2' }, S(2), 1],
    ['pb: wrong option', perBlank, { b1: '16', b2: '15', b3: 'o1' }, S(2), 1],
    ['pb: one empty', perBlank, { b1: '16', b2: '', b3: 'o2' }, S(2), 1],
    ['pb: one absent', perBlank, { b1: '16', b3: 'o2' }, S(2), 1],
    ['pb: only one', perBlank, { b3: 'o2' }, S(1), 2],
    ['pb: all wrong', perBlank, { b1: '1', b2: '2', b3: 'o3' }, S(0), 3],
    ['pb: option text instead of id is wrong', perBlank, { b1: '16', b2: '15', b3: 'см²' }, S(2), 1],
    ['pb: unknown blank ignored', perBlank, { b1: '16', b2: '15', b3: 'o2', b9: 'x' }, S(3, true), 0],
    ['pb max 2: 2 of 3 → floor(1.33) = 1', perBlank2, { b1: '16', b2: '15' }, S(1), 1],
    ['pb max 2: 1 of 3 → 0', perBlank2, { b1: '16' }, S(0), 2],
    ['default method is all_or_nothing', defaults, { b1: '16', b2: '15' }, S(0), 1],
    ['default method: all right', defaults, { b1: '16', b2: '15', b3: 'o2' }, S(3, true), 0],
    ['aon: all right', aon, { b1: '16', b2: '15', b3: 'o2' }, S(1, true), 0],
    ['aon: one wrong', aon, { b1: '16', b2: '15', b3: 'o1' }, S(0), 1],
    ['1m: all right', oneMistake, { b1: '16', b2: '15', b3: 'o2' }, S(2, true), 0],
    ['1m: one empty', oneMistake, { b1: '16', b2: '15', b3: '' }, S(1), 1],
    ['1m: floors at zero', oneMistake, { b1: '0' }, S(0), 3],
    ['ru: all right', russian, { b1: 'o2', b2: 'а', b3: 'ещё' }, S(3, true), 0],
    ['ru: case and ё', russian, { b1: 'o2', b2: 'А', b3: 'ЕЩЕ' }, S(3, true), 0],
    ['ru: second variant with spaces', russian, { b1: 'o2', b2: 'а', b3: 'еще   раз' }, S(3, true), 0],
    ['ru: Latin a looks the same as Cyrillic а', russian, { b1: 'o2', b2: 'a', b3: 'ещё' }, S(3, true), 0],
    ['ru: wrong letter', russian, { b1: 'o2', b2: 'о', b3: 'ещё' }, S(2), 1],
    ['ru distinguishYo: е is wrong', russianYo, { b1: 'o2', b2: 'а', b3: 'еще' }, S(2), 1],
    ['empty object', perBlank, {}, EMPTY],
    ['all blanks blank', perBlank, { b1: '', b2: '  ', b3: '' }, EMPTY],
    ['null', perBlank, null, EMPTY],
    ['an array', perBlank, ['16', '15', 'o2'], INVALID],
    ['a number in a blank', perBlank, { b1: 16 }, INVALID],
    ['201 characters in a blank', perBlank, { b1: '1'.repeat(201) }, INVALID],
    ['100 000 characters in a blank', perBlank, { b1: '1'.repeat(100_000) }, INVALID],
    [
      '10 000 blanks',
      perBlank,
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`b${i}`, '1'])),
      INVALID,
    ],
  ])('%s', (_, t, value, expected, mistakes) => {
    const r = scoreAnswer(t, value);
    expect(brief(r)).toEqual(expected);
    if (mistakes !== undefined) expect(r).toMatchObject({ mistakes });
  });

  it('reports every blank', () => {
    expect(scoreAnswer(perBlank, { b1: '16', b2: '' })).toMatchObject({
      details: {
        kind: 'blanks',
        blanks: [
          { id: 'b1', filled: true, correct: true },
          { id: 'b2', filled: false, correct: false },
          { id: 'b3', filled: false, correct: false },
        ],
      },
    });
  });
});

// ---------------------------------------------------------------- manual types

describe('extended_text and file go to experts', () => {
  const essay = task('extended_text', { maxLength: 5000 }, null, { method: 'expert' }, 3);
  const photo = task('file', { accept: ['image/*'], maxFiles: 3 }, null, {}, 2);

  it.each<[string, ScoreTask, unknown, object]>([
    ['an essay', essay, 'Настоящая дружба — это…', { status: 'manual' }],
    ['a 100 000-character essay', essay, 'а'.repeat(100_000), { status: 'manual' }],
    ['an empty essay', essay, '', EMPTY],
    ['an essay after 5000 spaces', essay, ' '.repeat(5000) + 'текст', { status: 'manual' }],
    ['zero-width spaces only', essay, '\u200B\uFEFF', EMPTY],
    ['a blank essay', essay, ' \n\t ', EMPTY],
    ['null essay', essay, null, EMPTY],
    ['an essay over 100 000 characters', essay, 'а'.repeat(100_001), INVALID],
    ['an essay as an array', essay, ['text'], INVALID],
    ['files', photo, { fileIds: [1, 2] }, { status: 'manual' }],
    ['no files', photo, { fileIds: [] }, EMPTY],
    ['null files', photo, null, EMPTY],
    ['file ids as strings', photo, { fileIds: ['1'] }, INVALID],
    ['negative file id', photo, { fileIds: [-1] }, INVALID],
    ['bare array', photo, [1], INVALID],
  ])('%s', (_, t, value, expected) => {
    expect(brief(scoreAnswer(t, value))).toEqual(expected);
  });

  it('manual results carry maxScore', () => {
    expect(scoreAnswer(essay, 'текст')).toEqual({ status: 'manual', maxScore: 3 });
  });
});

// ---------------------------------------------------------------- task problems and misc

describe('the task itself', () => {
  it.each<[string, ScoreTask]>([
    ['unknown answer type', task('essay', {}, null, {}, 1)],
    ['prototype key as answer type', task('constructor', {}, null, {}, 1)],
    ['reference of the wrong shape', task('single_choice', { options: options(2) }, { correct: 1 }, {}, 1)],
    [
      'unknown scoring method',
      task('ordering', { items: options(2) }, { order: ['a', 'b'] }, { method: 'per_pair' }, 1),
    ],
    [
      'per_choice without a map',
      task('multiple_choice', { options: options(2) }, { correct: ['a'] }, { method: 'per_choice' }, 1),
    ],
    ['negative maxScore', task('single_choice', { options: options(2) }, { correct: 'a' }, {}, -1)],
    ['NaN maxScore', task('single_choice', { options: options(2) }, { correct: 'a' }, {}, Number.NaN)],
  ])('a broken task throws InvalidTaskError: %s', (_, t) => {
    expect(() => scoreAnswer(t, 'a')).toThrow(InvalidTaskError);
  });

  it('caches the parsed task per object and gives the same result', () => {
    const t = task('short_text', {}, { accepted: ['да'] }, {}, 1);
    expect(brief(scoreAnswer(t, 'Да'))).toEqual(brief(scoreAnswer(t, 'ДА')));
    expect(brief(scoreAnswer(t, 'нет'))).toEqual(S(0));
  });

  it('a hostile value (throwing getter) is invalid, not an exception', () => {
    const t = task('matching', { left: options(1), right: options(1) }, { pairs: { a: 'a' } }, {}, 1);
    const evil = {
      get a(): string {
        throw new Error('boom');
      },
    };
    expect(scoreAnswer(t, evil)).toMatchObject({ status: 'invalid', score: 0 });
  });

  it('isAutoScored', () => {
    expect(isAutoScored('cloze')).toBe(true);
    expect(isAutoScored('extended_text')).toBe(false);
    expect(isAutoScored('file')).toBe(false);
    expect(isAutoScored('nope')).toBe(false);
  });
});

describe('huge inputs are refused quickly', () => {
  const tasks: [string, ScoreTask, unknown][] = [
    ['short text 100 000 chars', task('short_text', {}, { accepted: ['а'] }, {}, 1), 'а'.repeat(100_000)],
    ['number 100 000 chars', task('number', {}, { value: 1 }, {}, 1), '1 '.repeat(50_000)],
    ['digits 100 000 chars', task('digit_sequence', {}, { digits: '1' }, {}, 1), '1 '.repeat(50_000)],
    [
      'multiple 10 000 ids',
      task('multiple_choice', { options: options(3) }, { correct: ['a'] }, {}, 1),
      Array(10_000).fill('a'),
    ],
    [
      'ordering 10 000 ids',
      task('ordering', { items: options(3) }, { order: ['a', 'b', 'c'] }, {}, 1),
      Array(10_000).fill('a'),
    ],
    ['essay 1 000 000 chars', task('extended_text', {}, null, {}, 1), 'а'.repeat(1_000_000)],
  ];
  // The test's timeout is the guard against work that grows out of bounds; speed is measured in
  // bench/, never here.
  it.each(tasks)('%s', { timeout: 20_000 }, (_, t, value) => {
    for (let i = 0; i < 20; i++) expect(scoreAnswer(t, value).status).not.toBe('scored');
  });

  it('a 1000-character short answer with many spaces is scored (and ends)', { timeout: 20_000 }, () => {
    const t = task('short_text', {}, { accepted: ['а'] }, {}, 1);
    for (let i = 0; i < 200; i++) expect(scoreAnswer(t, ' -'.repeat(500)).status).toBe('scored');
  });
});
