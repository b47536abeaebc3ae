import {
  decodeEntities,
  letterId,
  numericKeys,
  numberText,
  oneLineText,
  parseDecimal,
  type Built,
  type NumericAnswer,
} from './moodle-common.js';
import { note, type ImportNote } from '../notes.js';
import type { ParsedTask } from './types.js';

/*
 * Moodle's embedded answers (cloze, qtype multianswer): `{2:SHORTANSWER:=Paris#Yes~%50%Marseille}`
 * inside the question text. Read as Moodle's qtype_multianswer_extract_question reads them, but by a
 * linear scan instead of Moodle's backtracking regular expression, so a hostile text cannot make it
 * slow:
 *  - `{` weight `:` TYPE `:` alternatives `}`, the weight a whole number (default 1);
 *  - alternatives split by `~`, each [`=` | `%n%`] answer [`#` feedback]; `=` is 100 %, no mark 0 %;
 *  - `\}`, `\~`, `\#` are literal; a `#` right after `&` (an html entity) is no feedback mark;
 *  - a `{…}` that does not follow this syntax stays text, as in Moodle.
 * The question scores the sum over the gaps of the gap's weight × the fraction of the answer given
 * (Moodle: the sum of the subquestion grades), its maximum the sum of the weights.
 */

export type ClozeKind = 'short' | 'numerical' | 'choice' | 'multi';

export interface ClozeAlternative {
  /** −1…1 */
  fraction: number;
  /** The fraction was written as %n% (Moodle's $hasspecificfraction). */
  explicit: boolean;
  /** As written (html entities and escapes undone for texts). */
  text: string;
  feedback: string;
}

export interface ClozeGap {
  weight: number;
  kind: ClozeKind;
  caseSensitive: boolean;
  layout: 'dropdown' | 'vertical' | 'horizontal';
  shuffle: boolean;
  alternatives: ClozeAlternative[];
}

type TypeInfo = Pick<ClozeGap, 'kind' | 'caseSensitive' | 'layout' | 'shuffle'>;

const T = (
  kind: ClozeKind,
  layout: ClozeGap['layout'],
  shuffle = false,
  caseSensitive = false,
): TypeInfo => ({
  kind,
  caseSensitive,
  layout,
  shuffle,
});

/** Moodle's ANSWER_TYPE_DEF_REGEX names. */
const TYPES: Record<string, TypeInfo> = {
  NUMERICAL: T('numerical', 'dropdown'),
  NM: T('numerical', 'dropdown'),
  SHORTANSWER: T('short', 'dropdown'),
  SA: T('short', 'dropdown'),
  MW: T('short', 'dropdown'),
  SHORTANSWER_C: T('short', 'dropdown', false, true),
  SAC: T('short', 'dropdown', false, true),
  MWC: T('short', 'dropdown', false, true),
  MULTICHOICE: T('choice', 'dropdown'),
  MC: T('choice', 'dropdown'),
  MULTICHOICE_V: T('choice', 'vertical'),
  MCV: T('choice', 'vertical'),
  MULTICHOICE_H: T('choice', 'horizontal'),
  MCH: T('choice', 'horizontal'),
  MULTICHOICE_S: T('choice', 'dropdown', true),
  MCS: T('choice', 'dropdown', true),
  MULTICHOICE_VS: T('choice', 'vertical', true),
  MCVS: T('choice', 'vertical', true),
  MULTICHOICE_HS: T('choice', 'horizontal', true),
  MCHS: T('choice', 'horizontal', true),
  MULTIRESPONSE: T('multi', 'vertical'),
  MR: T('multi', 'vertical'),
  MULTIRESPONSE_H: T('multi', 'horizontal'),
  MRH: T('multi', 'horizontal'),
  MULTIRESPONSE_S: T('multi', 'vertical', true),
  MRS: T('multi', 'vertical', true),
  MULTIRESPONSE_HS: T('multi', 'horizontal', true),
  MRHS: T('multi', 'horizontal', true),
};

const HEAD = /^\{([0-9]*):([A-Z_]+):/;

/** Splits on `sep` where it is not escaped by a backslash (nor, for `#`, right after `&` or `&amp;`). */
function splitUnescaped(text: string, sep: string, limit = Infinity): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length && parts.length < limit - 1; i++) {
    if (text[i] !== sep || text[i - 1] === '\\') continue;
    if (sep === '#' && (text[i - 1] === '&' || text.slice(Math.max(0, i - 5), i) === '&amp;')) continue;
    parts.push(text.slice(start, i));
    start = i + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

const unescape = (s: string) => s.replace(/\\([}~#])/g, '$1');

/** The fraction mark of an alternative: `=` 1, `%n%` n/100 (comma or point), none 0. */
function readAlternative(raw: string): ClozeAlternative | null {
  let rest = raw;
  let fraction = 0;
  let explicit = false;
  if (rest.startsWith('=')) {
    fraction = 1;
    rest = rest.slice(1);
  } else {
    const m = /^%(-?[0-9]+(?:[.,][0-9]*)?)%/.exec(rest);
    if (m) {
      fraction = Number(m[1]!.replace(',', '.')) / 100;
      explicit = true;
      rest = rest.slice(m[0].length);
    }
  }
  const [answer = '', feedback = ''] = splitUnescaped(rest, '#', 2);
  if (answer === '') return null;
  return { fraction, explicit, text: answer, feedback };
}

/**
 * The end of the embedded answer starting at `open` (the index of its closing `}`), or -1: the first
 * `}` not escaped by a backslash.
 */
function closingBrace(html: string, from: number): number {
  for (let i = from; i < html.length; i++) if (html[i] === '}' && html[i - 1] !== '\\') return i;
  return -1;
}

/**
 * The gaps of a cloze text and the text with each gap replaced by `{{id}}` (ids from `idOf`).
 * Moodle's multiresponse fractions are normalised as Moodle does: the positive ones scaled to add up
 * to 1, and, when no answer has an explicit %, each wrong one taking back one correct one's share.
 */
export function extractCloze(
  html: string,
  idOf: (index: number) => string,
): { html: string; gaps: ClozeGap[] } {
  const gaps: ClozeGap[] = [];
  let out = '';
  let at = 0;
  for (let open = html.indexOf('{'); open >= 0; open = html.indexOf('{', open + 1)) {
    const head = HEAD.exec(html.slice(open, open + 40));
    const type = head ? TYPES[head[2]!] : undefined;
    if (!head || !type) continue;
    const close = closingBrace(html, open + head[0].length);
    if (close < 0) break;
    const body = html.slice(open + head[0].length, close);
    const alternatives = splitUnescaped(body, '~').map(readAlternative);
    if (!alternatives.length || alternatives.some((a) => a === null)) {
      // Not a gap: its text stays. Go on after its brace, so that every character is read once.
      open = close;
      continue;
    }
    const alts = (alternatives as ClozeAlternative[]).map((a) => ({
      ...a,
      text: type.kind === 'numerical' ? a.text.trim() : unescape(decodeEntities(a.text)),
      feedback: unescape(decodeEntities(a.feedback)).trim(),
    }));
    if (type.kind === 'multi') {
      const explicit = alts.some((a) => a.explicit);
      const total = alts.reduce((sum, a) => sum + Math.max(0, a.fraction), 0);
      if (total)
        for (const a of alts) {
          if (a.fraction > 0) a.fraction /= total;
          else if (!explicit) a.fraction = -1 / total;
        }
    }
    gaps.push({ ...type, weight: head[1] ? Number(head[1]) : 1, alternatives: alts });
    out += html.slice(at, open) + `{{${idOf(gaps.length - 1)}}}`;
    at = close + 1;
    open = close;
  }
  return { html: out + html.slice(at), gaps };
}

// ---------------------------------------------------------------- cloze → task

/** A numeric alternative (`value[:tolerance]` or `*`); null when it is not a number. */
function numericAlternative(a: ClozeAlternative): NumericAnswer | null {
  if (a.text === '*') return { any: true, fraction: a.fraction };
  const [v = '', tol] = a.text.split(':');
  const value = parseDecimal(v);
  const tolerance = tol === undefined ? 0 : parseDecimal(tol);
  if (value === null || tolerance === null) return null;
  return { value, tolerance, fraction: a.fraction };
}

const MAX_TEXT = 200;

/**
 * A Moodle cloze question as a task. Typed gaps, numeric gaps and drop-downs make a `cloze` task
 * scored `weighted` (each gap's answers with their points); a gap of several answers (MULTIRESPONSE),
 * or typed gaps differing in letter case, make a `composite` task whose parts are scored by their own
 * rules and summed. The grade is the sum of the gap weights.
 */
export function clozeTask(questionHtml: string, solutionHtml: string | null): Built {
  const probe = extractCloze(questionHtml, (i) => `b${i + 1}`);
  const gaps = probe.gaps;
  if (!gaps.length) return { refused: note('cloze_no_gaps') };
  if (gaps.length > 20 && gaps.some((g) => g.kind === 'multi'))
    return { refused: note('cloze_composite_too_many_gaps', { count: gaps.length }) };
  if (gaps.length > 50) return { refused: note('gaps_too_many', { count: gaps.length }) };
  const grade = gaps.reduce((sum, g) => sum + g.weight, 0);
  if (grade <= 0) return { refused: note('cloze_no_marks') };
  if (grade > 100) return { refused: note('cloze_grade_too_high', { grade }) };

  const cases = new Set(gaps.filter((g) => g.kind === 'short').map((g) => g.caseSensitive));
  const composite = gaps.some((g) => g.kind === 'multi') || cases.size > 1;
  const notes = new Map<string, ImportNote>();
  const add = (n: ImportNote) => notes.set(n.text, n);
  gaps.forEach((g, i) => {
    const gap = i + 1;
    if (g.alternatives.some((a) => a.feedback)) add(note('cloze_feedback_dropped'));
    if (g.kind !== 'choice') return;
    if (composite && g.layout === 'dropdown') add(note('cloze_dropdown_as_list', { gap }));
    if (!composite && g.layout !== 'dropdown')
      add(note('cloze_buttons_as_dropdown', { gap, layout: g.layout }));
    if (!composite && g.shuffle) add(note('cloze_gap_not_shuffled', { gap }));
  });
  const built = composite
    ? compositeOf(extractCloze(questionHtml, (i) => `p${i + 1}`).html, gaps, grade, solutionHtml, notes)
    : weightedOf(probe.html, gaps, grade, solutionHtml, cases.has(true));
  if ('refused' in built) return built;
  return { task: built.task, notes: [...notes.values(), ...built.notes] };
}

type Gap =
  | { id: string; kind: 'text' | 'number' }
  | { id: string; kind: 'choice'; options: { id: string; text: string }[] };
type Scored =
  | { text: string; points: number }
  | ({ points: number } & ({ value: number; tolerance: number } | { min: number; max: number }));

function weightedOf(
  html: string,
  gaps: readonly ClozeGap[],
  grade: number,
  solutionHtml: string | null,
  caseSensitive: boolean,
): Built {
  const blanks: Gap[] = [];
  const accepted: Record<string, string[]> = {};
  const scored: Record<string, Scored[]> = {};
  for (const [i, g] of gaps.entries()) {
    const id = `b${i + 1}`;
    const alts = g.alternatives;
    const best = Math.max(...alts.map((a) => a.fraction));
    if (best <= 0) return { refused: note('cloze_gap_no_marks', { gap: i + 1 }) };
    if (alts.length > 50) return { refused: note('cloze_gap_too_many_answers', { gap: i + 1 }) };
    if (g.kind === 'short') {
      if (alts.some((a) => !a.text.trim() || a.text.trim().length > MAX_TEXT))
        return { refused: note('cloze_gap_answer_length', { gap: i + 1, max: MAX_TEXT }) };
      blanks.push({ id, kind: 'text' });
      accepted[id] = alts.filter((a) => a.fraction === best).map((a) => a.text.trim());
      scored[id] = alts.map((a) => ({ text: a.text.trim(), points: a.fraction * g.weight }));
    } else if (g.kind === 'numerical') {
      const answers = alts.map(numericAlternative);
      if (answers.some((a) => a === null)) return { refused: note('cloze_gap_not_number', { gap: i + 1 }) };
      const keys = numericKeys(answers as NumericAnswer[], g.weight, i + 1);
      if ('error' in keys) return { refused: keys.error };
      blanks.push({ id, kind: 'number' });
      accepted[id] = keys.best.map(numberText);
      scored[id] = keys.answers;
    } else {
      if (alts.length < 2) return { refused: note('cloze_gap_dropdown_too_few', { gap: i + 1 }) };
      if (alts.length > 26) return { refused: note('cloze_gap_dropdown_too_many', { gap: i + 1 }) };
      const options = alts.map((a, k) => ({ id: letterId(k), text: oneLineText(a.text).slice(0, MAX_TEXT) }));
      if (options.some((o) => !o.text)) return { refused: note('cloze_gap_choice_empty', { gap: i + 1 }) };
      blanks.push({ id, kind: 'choice', options });
      accepted[id] = alts.flatMap((a, k) => (a.fraction === best ? [letterId(k)] : []));
      scored[id] = alts.map((a, k) => ({ text: letterId(k), points: a.fraction * g.weight }));
    }
  }
  const task: ParsedTask = {
    html,
    solutionHtml,
    maxScore: grade,
    answerType: 'cloze',
    content: { blanks },
    reference: { blanks: accepted, scored },
    scoring: { method: 'weighted', caseSensitive, distinguishYo: true, wildcards: true },
  };
  return { task, notes: [] };
}

function compositeOf(
  html: string,
  gaps: readonly ClozeGap[],
  grade: number,
  solutionHtml: string | null,
  notes: Map<string, ImportNote>,
): Built {
  const parts: { id: string; answerType: string; content: unknown }[] = [];
  const references: Record<string, unknown> = {};
  const rules: Record<string, { scoring: unknown; maxScore: number }> = {};
  for (const [i, g] of gaps.entries()) {
    const id = `p${i + 1}`;
    const alts = g.alternatives;
    if (g.weight <= 0) return { refused: note('cloze_gap_zero_weight', { gap: i + 1 }) };
    const pts = (f: number) => f * g.weight;
    const best = Math.max(...alts.map((a) => a.fraction));
    if (best <= 0) return { refused: note('cloze_gap_no_marks', { gap: i + 1 }) };
    if (g.kind === 'short') {
      const answers = alts.map((a) => ({ text: a.text.trim(), points: pts(a.fraction) }));
      if (answers.some((a) => !a.text || a.text.length > MAX_TEXT))
        return { refused: note('cloze_gap_answer_length', { gap: i + 1, max: MAX_TEXT }) };
      parts.push({ id, answerType: 'short_text', content: {} });
      references[id] = {
        accepted: answers.filter((_, k) => alts[k]!.fraction === best).map((a) => a.text),
        answers,
      };
      rules[id] = {
        scoring: {
          method: 'per_answer',
          caseSensitive: g.caseSensitive,
          distinguishYo: true,
          wildcards: true,
        },
        maxScore: g.weight,
      };
    } else if (g.kind === 'numerical') {
      const answers = alts.map(numericAlternative);
      if (answers.some((a) => a === null)) return { refused: note('cloze_gap_not_number', { gap: i + 1 }) };
      const keys = numericKeys(answers as NumericAnswer[], g.weight, i + 1);
      if ('error' in keys) return { refused: keys.error };
      parts.push({ id, answerType: 'number', content: {} });
      references[id] = { ...keys.key, answers: keys.answers };
      rules[id] = { scoring: { method: 'per_answer' }, maxScore: g.weight };
    } else {
      if (alts.length < 2 || alts.length > 26)
        return { refused: note('cloze_gap_choice_count', { gap: i + 1 }) };
      const options = alts.map((a, k) => ({ id: letterId(k), html: a.text.trim() }));
      if (options.some((o) => !o.html)) return { refused: note('cloze_gap_choice_empty', { gap: i + 1 }) };
      const map = Object.fromEntries(alts.map((a, k) => [letterId(k), pts(a.fraction)]));
      if (g.kind === 'choice') {
        if (alts.some((a) => a.fraction < 0)) {
          const n = note('cloze_gap_negative_choice', { gap: i + 1 });
          notes.set(n.text, n);
        }
        parts.push({ id, answerType: 'single_choice', content: { options, shuffle: g.shuffle } });
        references[id] = { correct: letterId(alts.findIndex((a) => a.fraction === best)) };
      } else {
        parts.push({ id, answerType: 'multiple_choice', content: { options, shuffle: g.shuffle } });
        references[id] = { correct: alts.flatMap((a, k) => (a.fraction > 0 ? [letterId(k)] : [])) };
      }
      rules[id] = { scoring: { method: 'per_choice', map }, maxScore: g.weight };
    }
  }
  const task: ParsedTask = {
    html,
    solutionHtml,
    maxScore: grade,
    answerType: 'composite',
    content: { parts: parts as never },
    reference: { parts: references },
    scoring: { method: 'sum', parts: rules },
  };
  return { task, notes: [] };
}
