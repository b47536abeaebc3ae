import { describe, expect, it } from 'vitest';
import { markFor, percent, type MarkStep } from './mark.js';

/* The demo scale for a 20-point test: 5 from 17, 4 from 13, 3 from 8, 2 from 0. */
const scale: MarkStep[] = [
  { mark: '5', minScore: 17, level: 'высокий' },
  { mark: '4', minScore: 13, level: 'повышенный' },
  { mark: '3', minScore: 8, level: 'базовый' },
  { mark: '2', minScore: 0, level: 'ниже базового' },
];

describe('markFor', () => {
  it.each<[number, string, string]>([
    [20, '5', 'высокий'],
    [17, '5', 'высокий'],
    [16.999_999_999_9, '5', 'высокий'], // floating noise at the edge
    [16.5, '4', 'повышенный'],
    [16, '4', 'повышенный'],
    [13, '4', 'повышенный'],
    [12, '3', 'базовый'],
    [8, '3', 'базовый'],
    [7.5, '2', 'ниже базового'],
    [0, '2', 'ниже базового'],
    [25, '5', 'высокий'], // above max still the top mark
  ])('%d → %s (%s)', (score, mark, level) => {
    expect(markFor(score, scale)).toEqual({ mark, level });
  });

  it('does not depend on the stored order of the scale', () => {
    expect(markFor(13, [...scale].reverse())).toEqual({ mark: '4', level: 'повышенный' });
  });

  it('level is null when the scale names none', () => {
    expect(
      markFor(5, [
        { mark: 'зачёт', minScore: 5 },
        { mark: 'незачёт', minScore: 0 },
      ]),
    ).toEqual({
      mark: 'зачёт',
      level: null,
    });
  });

  it.each<[string, number, MarkStep[]]>([
    ['empty scale', 10, []],
    ['below every step', 2, [{ mark: '3', minScore: 5 }]],
    ['NaN score', Number.NaN, scale],
    ['Infinity score', Number.POSITIVE_INFINITY, scale],
    ['negative score below 0', -1, scale],
  ])('null for %s', (_, score, s) => {
    expect(markFor(score, s)).toBeNull();
  });
});

describe('percent', () => {
  it.each<[number, number, number]>([
    [0, 20, 0],
    [20, 20, 100],
    [10, 20, 50],
    [1, 3, 33.3],
    [2, 3, 66.7],
    [1, 8, 12.5],
    [1, 16, 6.3], // 6.25 rounds half up
    [3, 16, 18.8], // 18.75
    [17, 23, 73.9],
    [1, 7, 14.3],
    [0.5, 3, 16.7],
    [5, 0, 0],
    [5, -1, 0],
    [Number.NaN, 10, 0],
  ])('%d of %d → %d%%', (score, max, expected) => {
    expect(percent(score, max)).toBe(expected);
  });
});
