import { describe, expect, it } from 'vitest';
import { registerBundle, type LooseT } from '../../../components/data-table/use-bundle-t';
import { createI18n } from '../../../lib/i18n';
import { resultsBundle } from '../locales';
import { answerLines, numberText, referenceLines } from './answer-text';

function translator(lang: 'ru' | 'en'): LooseT {
  const i18n = createI18n(lang);
  registerBundle(i18n, resultsBundle);
  return i18n.t.bind(i18n) as unknown as LooseT;
}
const t = translator('ru');

const gapMatch = {
  words: [
    { id: 'w1', html: 'Москва', matchMax: 1 },
    { id: 'w2', html: '<img src="/api/files/3" alt="Париж">', matchMax: 1 },
  ],
  gaps: [{ id: 'g1' }, { id: 'g2' }],
};
const associate = {
  items: [
    { id: 'i1', html: 'Пушкин', matchMax: 1 },
    { id: 'i2', html: '<b>Онегин</b>', matchMax: 1 },
  ],
  maxAssociations: 0,
};
const hottext = {
  choices: [
    { id: 'h1', html: 'Мама' },
    { id: 'h2', html: '<i>мыла</i>' },
  ],
};
const hotspot = {
  image: { fileId: 1, width: 100, height: 100 },
  areas: [
    { id: 'a1', shape: 'rect', coords: [0, 0, 10, 10] },
    { id: 'a2', shape: 'circle', coords: [50, 50, 5] },
  ],
  select: 'areas',
};
const composite = {
  parts: [
    { id: 'p1', answerType: 'short_text', content: {} },
    {
      id: 'p2',
      answerType: 'single_choice',
      content: {
        options: [
          { id: 'o1', html: 'больше' },
          { id: 'o2', html: 'меньше' },
        ],
      },
    },
    { id: 'p3', answerType: 'hotspot', content: { ...hotspot, areas: [], select: 'points' } },
    { id: 'p4', answerType: 'extended_text', content: {} },
  ],
};

describe('answers of the imported types in words', () => {
  it('gap match: each gap with the word put there, pictures by their alt text', () => {
    expect(answerLines('gap_match', gapMatch, { g2: 'w2', g1: 'w1' }, t)).toEqual([
      'Пропуск 1: Москва',
      'Пропуск 2: Париж',
    ]);
    expect(answerLines('gap_match', gapMatch, {}, t)).toEqual([]);
    expect(referenceLines('gap_match', gapMatch, { pairs: { g1: 'w1' } }, t)).toEqual(['Пропуск 1: Москва']);
  });

  it('associate: the pairs', () => {
    expect(answerLines('associate', associate, [['i2', 'i1']], t)).toEqual(['Онегин — Пушкин']);
    expect(referenceLines('associate', associate, { pairs: [['i1', 'i2']] }, t)).toEqual(['Пушкин — Онегин']);
  });

  it('hottext: the selected spans', () => {
    expect(answerLines('hottext', hottext, ['h1', 'h2'], t)).toEqual(['Мама', 'мыла']);
    expect(referenceLines('hottext', hottext, { correct: ['h2'] }, t)).toEqual(['мыла']);
  });

  it('hotspot: areas by their number, points by their coordinates', () => {
    expect(answerLines('hotspot', hotspot, ['a2'], t)).toEqual(['Область 2']);
    expect(answerLines('hotspot', { ...hotspot, select: 'points' }, ['12 34'], t)).toEqual([
      'точка (12; 34)',
    ]);
    expect(referenceLines('hotspot', hotspot, { correct: ['a1', 'a2'] }, t)).toEqual([
      'Область 1',
      'Область 2',
    ]);
    expect(answerLines('hotspot', hotspot, ['a1'], translator('en'))).toEqual(['Area 1']);
  });

  it('composite: each answered part in words, by its own type', () => {
    const value = { p3: ['5 6', '7 8'], p1: 'Тверь', p2: 'o2', p4: 'Текст' };
    expect(answerLines('composite', composite, value, t)).toEqual([
      'Часть 1: Тверь',
      'Часть 2: меньше',
      'Часть 3: точка (5; 6); точка (7; 8)',
      'Часть 4: Текст',
    ]);
    expect(answerLines('composite', composite, { p1: '' }, t)).toEqual([]);
    // The key of the automatically scored parts; the expert-graded part has none.
    expect(
      referenceLines(
        'composite',
        composite,
        { parts: { p1: { accepted: ['Москва', 'москва'] }, p2: { correct: 'o1' } } },
        t,
      ),
    ).toEqual(['Часть 1: Москва / москва', 'Часть 2: больше']);
  });

  it('never throws on odd values', () => {
    expect(answerLines('associate', associate, [['i1'], 'x'], t)).toEqual([]);
    expect(answerLines('composite', { parts: 'x' }, { p1: 'a' }, t)).toEqual([]);
    expect(answerLines('gap_match', {}, { g9: 'w9' })).toEqual(['g9: w9']);
    expect(referenceLines('composite', composite, { parts: null }, t)).toEqual([]);
  });
});

describe('numbers in the reader’s format', () => {
  it('keeps every digit given and writes the decimal comma in Russian, the point in English', () => {
    expect(numberText('2.5')).toBe('2,5');
    expect(numberText('2.50', 'ru')).toBe('2,50');
    expect(numberText('1 250,5', 'ru')).toBe('1\u00a0250,5');
    expect(numberText(-0.125, 'ru')).toBe('-0,125');
    expect(numberText('2,5', 'en')).toBe('2.5');
    expect(numberText('12 см', 'ru')).toBe('12 см');
    expect(answerLines('number', {}, '3.14', t, 'ru')).toEqual(['3,14']);
    expect(referenceLines('number', {}, { value: 2.5, tolerance: 0.1 }, t, 'ru')).toEqual([
      '2,5 (допустимо ±0,1)',
    ]);
  });
});
