import { describe, expect, it } from 'vitest';
import {
  inRange,
  normalizeDigits,
  normalizeText,
  parseNumber,
  prepareAccepted,
  textMatches,
  withinTolerance,
  type TextRules,
} from './normalize.js';

const NBSP = '\u00A0';
const THIN = '\u2009';
const NARROW_NBSP = '\u202F';

describe('normalizeText: two spellings a teacher accepts as the same', () => {
  it.each<[string, string, TextRules?]>([
    ['инерция', 'Инерция'],
    ['инерция', 'ИНЕРЦИЯ'],
    ['инерция', '  инерция  '],
    ['инерция', `\tинерция\n`],
    ['инерция', `${NBSP}инерция${NBSP}`],
    ['явление инерции', 'явление   инерции'],
    ['явление инерции', `явление${NBSP}инерции`],
    ['явление инерции', `явление\tинерции`],
    ['явление инерции', `явление${THIN}${NARROW_NBSP}инерции`],
    ['жёлудь', 'желудь'],
    ['жёлудь', 'ЖЁЛУДЬ'],
    ['чёрный', 'черный'],
    ['Ёлка', 'елка'],
    ['жёлудь', 'же\u0308лудь'], // decomposed ё (NFC)
    ['инерция', 'инерция.'],
    ['равнобедренный треугольник', 'Равнобедренный треугольник.'],
    ['инерция', 'инерция .'],
    ['инерция', '«инерция».'],
    ['инерция', '"инерция."'],
    ['«Война и мир»', '"Война и мир"'],
    ['“Война и мир”', '«война и мир»'],
    ['„Война и мир“', '"Война и мир"'],
    ['северо-запад', 'северо–запад'],
    ['северо-запад', 'северо—запад'],
    ['северо-запад', 'северо - запад'],
    ['кое-как', 'кое‑как'], // non-breaking hyphen
    ['да, конечно', 'да , конечно'],
    ['д’Артаньян', "д'Артаньян"],
    ['молоко', 'молоко́'], // stress mark
    ['слово', 'сло\u200Bво'], // zero-width space
    ['слово', '\uFEFFслово'],
    ['CO2', 'СО2'], // Cyrillic С and О typed for Latin
    ['CO2', 'со2'],
    ['H2O', 'Н2О', { caseSensitive: true }], // Cyrillic Н, О look the same
    ['Париж', 'париж'],
    ['London', 'LONDON'],
    ['café', 'cafe\u0301'.normalize('NFC')],
  ])('%j = %j', (a, b, rules) => {
    expect(normalizeText(b, rules)).toBe(normalizeText(a, rules));
  });

  it.each<[string, string, TextRules?]>([
    ['жёлудь', 'желудь', { distinguishYo: true }],
    ['все', 'всё', { distinguishYo: true }],
    ['NaCl', 'nacl', { caseSensitive: true }],
    ['Co', 'CO', { caseSensitive: true }],
    ['инерция', 'инерцыя'],
    ['инерция', 'инерция!'],
    ['инерция', 'инерция..'],
    ['инерция', 'и нерция'],
    ['явление инерции', 'явлениеинерции'],
    ['3', '4'],
    ['равнобедренный', 'равносторонний'],
  ])('%j ≠ %j', (a, b, rules) => {
    expect(normalizeText(b, rules)).not.toBe(normalizeText(a, rules));
  });

  it('keeps Ё distinct in upper case when distinguishYo and caseSensitive', () => {
    expect(normalizeText('Ёж', { caseSensitive: true, distinguishYo: true })).not.toBe(
      normalizeText('Еж', { caseSensitive: true, distinguishYo: true }),
    );
  });

  it('an empty or punctuation-only text normalises to nothing', () => {
    expect(normalizeText('   ')).toBe('');
    expect(normalizeText(' . ')).toBe('');
  });

  // A backtracking pattern would not end on these: the test's timeout is the guard, not a speed
  // figure (speed is measured in bench/, never here).
  it('ends on a huge input', { timeout: 20_000 }, () => {
    expect(normalizeText(' a -'.repeat(100_000) + '.')).toBe('a-'.repeat(100_000));
    expect(normalizeText('\u00A0'.repeat(100_000))).toBe('');
  });
});

describe('textMatches: accepted variants, numbers written differently', () => {
  it.each<[string[], string, number]>([
    [['равнобедренный', 'равнобедренный треугольник'], 'равнобедренный', 0],
    [['равнобедренный', 'равнобедренный треугольник'], ' Равнобедренный  ТРЕУГОЛЬНИК. ', 1],
    [['равнобедренный'], 'равносторонний', -1],
    [['2,5'], '2.5', 0],
    [['2,5'], '2,50', 0],
    [['1000'], '1 000', 0],
    [['1000'], `1${NBSP}000`, 0],
    [['-3'], '−3', 0],
    [['16'], ' 16 ', 0],
    [['16'], '16.', 0],
    [['16'], '15', -1],
    [['007'], '7', -1], // a code, not a number
    [['007'], '007', 0],
    [['10'], '010', -1],
    [['3'], 'три', -1],
    [['а'], 'А', 0],
    [['а'], '', -1],
    [['а'], '   ', -1],
  ])('%j ← %j → %i', (accepted, answer, index) => {
    expect(textMatches(answer, prepareAccepted(accepted))).toBe(index);
  });
});

describe('parseNumber', () => {
  it.each<[string, number | null, string?]>([
    ['31,4', 31.4],
    ['31.4', 31.4],
    ['  31,4  ', 31.4],
    ['-3', -3],
    ['−3', -3], // U+2212 minus
    ['–3', -3], // en dash
    ['- 3', -3],
    ['+2,5', 2.5],
    ['0', 0],
    ['-0', 0],
    ['0,5', 0.5],
    [',5', 0.5],
    ['.5', 0.5],
    ['2.', 2], // sentence-final period
    ['2,', null],
    ['1 250,5', 1250.5],
    [`1${NBSP}250,5`, 1250.5],
    [`1${THIN}250`, 1250],
    [`1${NARROW_NBSP}250`, 1250],
    ['10 000', 10000],
    ['1 000 000', 1000000],
    ['1  000', 1000], // repeated spaces collapse
    ['1000000', 1000000],
    ['12 50', null], // not groups of three
    ['1 2', null],
    ['1 250 5', null],
    ['1,250,5', null],
    ['1.250,5', null],
    ['2,5,', null],
    ['1/4', null],
    ['1e3', null],
    ['Infinity', null],
    ['NaN', null],
    ['0x10', null],
    ['', null],
    ['   ', null],
    ['-', null],
    ['+', null],
    [',', null],
    ['два', null],
    ['5 или 6', null],
    ['5 6', null],
    ['31,4 см', 31.4, 'см'],
    ['31,4см', 31.4, 'см'],
    ['31,4 СМ', 31.4, 'см'],
    ['31,4 см.', 31.4, 'см'],
    ['31,4 мм', null, 'см'],
    ['31,4 см', null], // no unit in the task: words are not numbers
    ['15 км/ч', 15, 'км/ч'],
    ['15 км / ч', 15, 'км/ч'],
    ['15км/ч', 15, 'км/ч'],
    ['20,8 м/с', 20.8, 'м/с'],
    ['20,8 м/ч', null, 'м/с'],
    ['−12 °C', -12, '°C'],
    ['5 м2', 5, 'м2'],
    ['5', 5, 'м2'],
    ['см', null, 'см'],
    ['x'.repeat(10_000), null],
    ['1'.repeat(400), null],
  ])('%j → %s (unit %s)', (raw, expected, unit) => {
    expect(parseNumber(raw, unit)).toBe(expected);
  });
});

describe('withinTolerance and inRange: inclusive edges, floating error', () => {
  it.each<[number, number, number, boolean]>([
    [31.4, 31.4, 0, true],
    [31.45, 31.4, 0.05, true], // 31.45 − 31.4 = 0.05000000000000071 in binary
    [31.35, 31.4, 0.05, true],
    [31.4501, 31.4, 0.05, false],
    [31.3499, 31.4, 0.05, false],
    [20.9, 20.8, 0.1, true],
    [20.7, 20.8, 0.1, true],
    [20.91, 20.8, 0.1, false],
    [0.3, 0.1 + 0.2, 0, true],
    [0.1 + 0.2, 0.3, 0, true],
    [1e12 + 1, 1e12, 0, false],
    [1e12 + 0.0001, 1e12, 0, true],
    [0, 0, 0, true],
    [-5, 5, 10, true],
    [-5.1, 5, 10, false],
    [4, 5, 0, false],
  ])('%d within %d ± %d → %s', (x, value, tol, expected) => {
    expect(withinTolerance(x, value, tol)).toBe(expected);
  });

  it.each<[number, number, number, boolean]>([
    [1, 1, 2, true],
    [2, 1, 2, true],
    [1.5, 1, 2, true],
    [0.9999, 1, 2, false],
    [2.0001, 1, 2, false],
    [0.3, 0.1 + 0.2, 0.5, true],
    [-3, -3, -3, true],
  ])('%d in [%d, %d] → %s', (x, min, max, expected) => {
    expect(inRange(x, min, max)).toBe(expected);
  });
});

describe('normalizeDigits', () => {
  it.each<[string, string | null]>([
    ['312', '312'],
    [' 3 1 2 ', '312'],
    [`3${NBSP}1\t2`, '312'],
    ['', ''],
    ['1,3', null],
    ['13a', null],
    ['１３', null], // full-width digits are not accepted
    ['-13', null],
    [' '.repeat(3000) + '1', null],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeDigits(raw)).toBe(expected);
  });
});
