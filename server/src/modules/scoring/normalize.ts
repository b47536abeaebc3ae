/*
 * Normalisation of typed answers, the way a teacher reading the answer form would accept them
 * (docs/design.md §4). Pure functions, no I/O. Every regular expression here is linear (no nested
 * unbounded quantifiers), and callers cap input lengths before calling, so hostile input cannot
 * make scoring slow.
 *
 * Text rules (short answers and typed cloze gaps), applied to the participant's answer and to
 * every accepted variant alike, in this order:
 *  1. Unicode NFC (a decomposed «е + ◌̈» equals «ё»); combining stress marks (U+0300, U+0301) and
 *     invisible characters (zero-width space/joiners, word joiner, BOM, soft hyphen) removed.
 *  2. Any run of whitespace (space, tab, newline, NBSP, thin/narrow/figure spaces, ideographic
 *     space...) becomes one space; leading and trailing spaces are dropped.
 *  3. Typographic quotes « » „ “ ” ‟ ″ become ", single quotes ‘ ’ ‚ ‛ ′ ` become ', every dash
 *     and minus (‐ ‑ ‒ – — ― − ﹣ －) becomes -; spaces around a hyphen are dropped
 *     («северо - запад» = «северо-запад»), spaces before , . ; : ! ? ) and after ( are dropped.
 *  4. A single trailing period is ignored, whatever the number of words: «инерция.» = «инерция»
 *     (a sentence-final period never changes the answer). Other trailing punctuation counts.
 *     Quotes around the whole answer are ignored: «Война и мир» = Война и мир.
 *  5. Letter case is ignored (toLocaleLowerCase('ru')) unless `caseSensitive`.
 *  6. ё = е (Ё = Е) unless `distinguishYo`.
 *  7. Cyrillic letters that look exactly like Latin ones are folded to Latin (а/a, е/e, о/o, р/p,
 *     с/c, у/y, х/x; with case kept also А В Е К М Н О Р С Т Х): a teacher cannot see the
 *     difference between «CO2» typed in either keyboard layout, so neither does scoring.
 * With `wildcards` (Moodle short answer) a `*` in an accepted variant stands for any run of
 * characters (none included) and `\*` for a star; the variant is normalised like the answer and
 * matched whole (anchored), piece by piece, without regular expressions.
 * Additionally (see `textMatches`) an accepted variant that is a plain number matches any answer
 * that is the same number: «2,5» = «2.5» = «2,50», «1 000» = «1000», «−3» = «-3». Variants with a
 * leading zero («007») are treated as codes and compared as text only.
 *
 * Number rules (`parseNumber`):
 *  - surrounding spaces ignored; leading + or a minus written as -, −, ‐, ‑, ‒, –, — accepted
 *    (a space between the sign and the digits is allowed);
 *  - comma or point as the decimal separator, at most one; «,5» = 0.5; «2.» = «2» (a trailing
 *    period is read as the end of the sentence, see below);
 *  - spaces of any kind (space, NBSP, thin space U+2009, narrow NBSP U+202F) as thousands
 *    separators in the integer part only, and only in proper groups of three: «1 250,5», «10 000»;
 *    «12 50» is not a number (it could be two answers);
 *  - the unit of the task (content.unit) may follow, with or without a space and in any case:
 *    «31,4 см», «31,4см», «15 КМ/Ч»; any other unit or word makes the answer not a number
 *    («31,4 мм» when the unit is «см» is wrong, not silently converted);
 *  - one trailing period (after the number or after the unit) is ignored;
 *  - anything else (fractions «1/4», exponents «1e3», «Infinity», two numbers) is not a number.
 *  Comparisons use `|x − value| ≤ tolerance` and `min ≤ x ≤ max`, inclusive, with a tiny
 *  epsilon relative to the magnitude so that binary floating error never turns a boundary answer
 *  (31.45 for 31.4 ± 0.05) into a wrong one.
 *
 * Digit rules (`normalizeDigits`): whitespace of any kind is ignored; anything other than the
 * digits 0–9 makes the answer malformed.
 */

export interface TextRules {
  /** Letter case matters. */
  caseSensitive?: boolean;
  /** ё and е differ. */
  distinguishYo?: boolean;
  /** In accepted variants `*` stands for any run of characters and `\*` for a star (Moodle). */
  wildcards?: boolean;
}

/** Longest digit string looked at (the answer schema allows 50 digits); longer is malformed. */
const MAX_DIGITS_INPUT = 2000;

const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]|\u0300|\u0301/g;
const WHITESPACE_RUN = /\s+/g;
const DOUBLE_QUOTES = /[«»„“”‟″〝〞＂]/g;
const SINGLE_QUOTES = /[‘’‚‛′`]/g;
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const SPACED_HYPHEN = / ?- ?/g;
const SPACE_BEFORE_PUNCT = / ([,.;:!?)])/g;
const SPACE_AFTER_PAREN = /\( /g;

/** Cyrillic letters visually identical to Latin ones (lower case, and upper case for caseSensitive). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
};
const HOMOGLYPH_RE = /[аеорсухАВЕКМНОРСТХ]/g;

/** Unicode NFC, invisible characters removed, every whitespace run one space, trimmed. */
export function normalizeSpaces(raw: string): string {
  return raw.normalize('NFC').replace(INVISIBLE, '').replace(WHITESPACE_RUN, ' ').trim();
}

/** Lower case (Russian rules) unless case-sensitive; ё → е unless they are distinguished. */
function foldLetters(text: string, rules: TextRules): string {
  let s = rules.caseSensitive ? text : text.toLocaleLowerCase('ru');
  if (!rules.distinguishYo) s = s.replace(/ё/g, 'е').replace(/Ё/g, 'Е');
  return s;
}

const withoutFinalPeriod = (s: string) => (s.endsWith('.') ? s.slice(0, -1).trimEnd() : s);

/** Nothing but whitespace and invisible characters. */
export const isBlank = (raw: string): boolean => !/[^\s\u200B-\u200D\u2060\uFEFF\u00AD]/.test(raw);

/** The comparison key of a text answer (see the rules at the top of this file). */
export function normalizeText(raw: string, rules: TextRules = {}): string {
  let s = normalizeSpaces(raw)
    .replace(DOUBLE_QUOTES, '"')
    .replace(SINGLE_QUOTES, "'")
    .replace(DASHES, '-')
    .replace(SPACED_HYPHEN, '-')
    .replace(SPACE_BEFORE_PUNCT, '$1')
    .replace(SPACE_AFTER_PAREN, '(');
  s = withoutFinalPeriod(s);
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = withoutFinalPeriod(s.slice(1, -1).trim());
  s = foldLetters(s, rules);
  return s.replace(HOMOGLYPH_RE, (ch) => HOMOGLYPHS[ch] ?? ch);
}

// ---------------------------------------------------------------- numbers

/** Longest string parsed as a number; the answer schema allows 50 characters. */
const MAX_NUMBER_LENGTH = 100;
const NUMBER_RE = /^([+-])? ?(\d{1,3}(?: \d{3})+|\d+)?(?:[.,](\d+))?$/;

/** `unit` compared without spaces, case and ё: «км / ч» = «КМ/Ч». */
const compactUnit = (unit: string) =>
  foldLetters(normalizeSpaces(unit), {}).replace(/ /g, '').replace(/\.$/, '');

/** `s` without a trailing `unit` (spaces inside or before the unit are skipped), or null. */
function stripUnit(s: string, unit: string): string | null {
  let i = s.length - 1;
  let j = unit.length - 1;
  while (j >= 0 && i >= 0) {
    if (s[i] === ' ') i--;
    else if (s[i] === unit[j]) {
      i--;
      j--;
    } else return null;
  }
  return j < 0 ? s.slice(0, i + 1).trimEnd() : null;
}

/**
 * The number typed by a participant, or null when it is not a number (see the rules at the top of
 * this file). `unit` is the task's unit (content.unit), which the participant may repeat.
 */
export function parseNumber(raw: string, unit?: string): number | null {
  if (raw.length > MAX_NUMBER_LENGTH) return null;
  let s = foldLetters(normalizeSpaces(raw), {}).replace(DASHES, '-');
  if (s.endsWith('.')) s = s.slice(0, -1).trimEnd();
  const u = unit ? compactUnit(unit) : '';
  if (u) {
    const stripped = stripUnit(s, u);
    if (stripped !== null && /\d/.test(stripped))
      s = stripped.endsWith('.') ? stripped.slice(0, -1) : stripped;
  }
  const m = NUMBER_RE.exec(s);
  if (!m) return null;
  const [, sign, whole, fraction] = m;
  if (whole === undefined && fraction === undefined) return null;
  const x = Number(`${sign === '-' ? '-' : ''}${(whole ?? '0').replace(/ /g, '')}.${fraction ?? '0'}`);
  return Number.isFinite(x) ? (Object.is(x, -0) ? 0 : x) : null;
}

/**
 * Allowance for binary floating error: a few ulps of the largest magnitude compared (decimal
 * answers parse to the nearest double, so their differences are off by at most that much).
 */
const epsilonFor = (...xs: number[]) => 8 * Number.EPSILON * Math.max(1, ...xs.map(Math.abs));

/** |x − value| ≤ tolerance, inclusive, robust to floating error. */
export function withinTolerance(x: number, value: number, tolerance = 0): boolean {
  return Math.abs(x - value) <= Math.abs(tolerance) + epsilonFor(x, value, tolerance);
}

/** |x − value| ≤ fraction × |value| (relative tolerance, 0.05 = 5 %), inclusive. */
export function withinRelative(x: number, value: number, fraction: number): boolean {
  return withinTolerance(x, value, Math.abs(fraction * value));
}

/** min ≤ x ≤ max, inclusive, robust to floating error. */
export function inRange(x: number, min: number, max: number): boolean {
  const eps = epsilonFor(x, min, max);
  return x >= min - eps && x <= max + eps;
}

// ---------------------------------------------------------------- texts with numbers

/** A text that reads as a plain number (and not as a code with a leading zero), else null. */
function numericText(raw: string): number | null {
  const s = normalizeSpaces(raw);
  if (/^[+\-\u2010-\u2015\u2212]? ?0\d/.test(s)) return null;
  return /\d/.test(s) ? parseNumber(s) : null;
}

/**
 * A prepared accepted variant: its text key and, when it is a plain number, its value; with
 * wildcards, the literal pieces between the stars.
 */
export interface AcceptedVariant {
  key: string;
  number: number | null;
  pieces?: string[];
}

const UNESCAPED_STARS = /(?<!\\)\*+/;
const unescapeStars = (s: string) => s.replace(/\\\*/g, '*');

function prepareVariant(accepted: string, rules: TextRules): AcceptedVariant {
  const key = normalizeText(accepted, rules);
  if (!rules.wildcards) return { key, number: numericText(accepted) };
  const pieces = key.split(UNESCAPED_STARS);
  if (pieces.length === 1) return { key: unescapeStars(key), number: numericText(accepted) };
  return { key, number: null, pieces: pieces.map(unescapeStars) };
}

export function prepareAccepted(accepted: readonly string[], rules: TextRules = {}): AcceptedVariant[] {
  return accepted.map((a) => prepareVariant(a, rules));
}

/**
 * `text` is the pieces joined by runs of any characters: starts with the first, ends with the last,
 * holds the others in order. Leftmost matching of the middle pieces is optimal, so this is one
 * pass (no backtracking, whatever the number of stars).
 */
export function wildcardMatches(text: string, pieces: readonly string[]): boolean {
  const first = pieces[0] ?? '';
  const last = pieces.length > 1 ? pieces[pieces.length - 1]! : '';
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last))
    return false;
  const end = text.length - last.length;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * Index of the first accepted variant the answer matches after normalisation, or -1. A numeric
 * variant also matches the same number written differently.
 */
export function textMatches(
  answer: string,
  accepted: readonly AcceptedVariant[],
  rules: TextRules = {},
): number {
  const key = normalizeText(answer, rules);
  if (key === '') return -1;
  let answerNumber: number | null | undefined;
  for (let i = 0; i < accepted.length; i++) {
    const variant = accepted[i]!;
    if (variant.pieces) {
      if (wildcardMatches(key, variant.pieces)) return i;
      continue;
    }
    if (variant.key === key) return i;
    if (variant.number !== null) {
      answerNumber ??= numericText(answer);
      if (answerNumber !== null && withinTolerance(answerNumber, variant.number)) return i;
    }
  }
  return -1;
}

// ---------------------------------------------------------------- digits

/** The digits typed, whitespace of any kind removed; null when anything but digits remains. */
export function normalizeDigits(raw: string): string | null {
  if (raw.length > MAX_DIGITS_INPUT) return null;
  const s = raw.replace(WHITESPACE_RUN, '').replace(INVISIBLE, '');
  return /^[0-9]*$/.test(s) ? s : null;
}
