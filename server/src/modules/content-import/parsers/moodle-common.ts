import { createHash } from 'node:crypto';
import { decodeHTML } from 'entities';
import { marked } from 'marked';
import { htmlToText } from '../../../lib/sanitize.js';
import { note, type ImportNote } from '../notes.js';
import type { ParsedMedia, ParsedTask } from './types.js';

/*
 * What the Moodle XML and GIFT parsers share (docs/content-model.md, issue 11): text formats turned
 * into html, category paths, identifiers, and the mapping of Moodle's question types onto the task
 * model. GIFT is read the way Moodle's own GIFT import reads it and then scored like the Moodle
 * question it becomes, so both parsers build their tasks here.
 *
 * Scores follow Moodle: an answer's fraction (−1…1) × the question's grade is its points; the task's
 * maxScore is the grade (Moodle defaultgrade; GIFT questions have 1). A single-answer choice is
 * scored by the fraction of the option chosen, a multiple-answer one by the sum of the fractions of
 * the options chosen, clamped to [0, grade] (Moodle clamps the fraction to [0, 1]); a short answer or
 * numerical answer by the first listed answer that fits (Moodle's order); matching by the share of
 * stems matched right × grade.
 */

/** Moodle text formats (FORMAT_HTML, FORMAT_MOODLE, FORMAT_PLAIN, FORMAT_MARKDOWN). */
export type TextFormat = 'html' | 'moodle' | 'plain' | 'markdown';

const escapeMap: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Plain text as html text (the five special characters escaped). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => escapeMap[c]!);

const newlines = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * A text of a Moodle format as html, the way Moodle shows it: html as written; the Moodle auto-format
 * (html allowed) with its line breaks kept as <br />; plain text escaped with its line breaks;
 * Markdown converted by `marked`.
 */
export function formatToHtml(text: string, format: TextFormat): string {
  const t = newlines(text).trim();
  switch (format) {
    case 'html':
      return t;
    case 'moodle':
      return t.replace(/\n/g, '<br />\n');
    case 'plain':
      return escapeHtml(t).replace(/\n/g, '<br />\n');
    case 'markdown':
      return marked.parse(t, { async: false, gfm: true }).trim();
  }
}

/** The plain text of an html fragment on one line (titles, drop-down options). */
export function oneLineText(html: string): string {
  return htmlToText(html).replace(/\s+/g, ' ').trim();
}

/** Html entities decoded (Moodle's html_entity_decode of a cloze answer). */
export const decodeEntities = (text: string): string => decodeHTML(text);

/** A title made of the question text, as Moodle names a question that has no name (80 characters). */
export function titleFromHtml(html: string, fallback: string): string {
  const text = oneLineText(html);
  if (!text) return fallback;
  return text.length > 80 ? `${text.slice(0, 77).trimEnd()}...` : text;
}

/** A stable identifier made of a question's source text: the same text always gives the same id. */
export const stableId = (prefix: string, text: string): string =>
  `${prefix}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;

/**
 * A Moodle category path as segments, outermost first: the context (`$course$`, `$system$`,
 * `$module$`, `$cat$`…) and the `top` category dropped, `//` read as a slash inside a name.
 * `$course$/top/Алгебра/Уравнения` → ['Алгебра', 'Уравнения'].
 */
export function categoryPath(raw: string): string[] {
  const SLASH = '\u0000';
  const segments = raw
    .trim()
    .replace(/\/\//g, SLASH)
    .split('/')
    .map((s) => s.replace(new RegExp(SLASH, 'g'), '/').trim())
    .filter(Boolean);
  if (segments.length && /^\$[a-z]+\$$/i.test(segments[0]!)) segments.shift();
  if (segments.length && segments[0] === 'top') segments.shift();
  return segments;
}

/** Identifiers of the items of one file, made unique: a repeated one gets " (2)", " (3)"… */
export class SourceIds {
  private readonly used = new Set<string>();
  take(id: string): { id: string; note?: ImportNote } {
    if (!this.used.has(id)) {
      this.used.add(id);
      return { id };
    }
    for (let n = 2; ; n++) {
      const next = `${id} (${n})`;
      if (!this.used.has(next)) {
        this.used.add(next);
        return { id: next, note: note('duplicate_name', { name: next }) };
      }
    }
  }
}

/** Letters a, b, c… for the options of a task (display order; they never hint at the key). */
export const letterId = (i: number): string => String.fromCharCode(97 + i);

/** A number written in a Moodle or GIFT file (a decimal comma accepted), or null. */
export function parseDecimal(raw: string): number | null {
  const s = raw.trim().replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

// ---------------------------------------------------------------- building tasks

/** A task built from a question, with what was changed on the way; or why it cannot be one. */
export type Built = { task: ParsedTask; notes: ImportNote[] } | { refused: ImportNote };

const refuse = (why: ImportNote): Built => ({ refused: why });

/** A fraction as a percent, as Moodle rounds it (two decimals of the fraction). */
const percent = (fraction: number) => Math.round(fraction * 10000) / 100;
/**
 * Moodle's edit forms refuse a question whose full marks no answer reaches: a single choice, short
 * answer or numerical question without an answer worth 100 %, a multiple choice whose right choices
 * do not add up to 100 % (qtype_multichoice errfractionsnomax / errfractionsaddwrong,
 * qtype_shortanswer and qtype_numerical fractionsnomax). Moodle's XML and GIFT import do not check,
 * so such files exist; imported, full marks would be out of reach with nothing said.
 */
const belowFull = (fraction: number) => Math.round(fraction * 100) < 100;

/** The grade as the task's maxScore: the model needs 0 < maxScore ≤ 100. */
export function gradeProblem(grade: number): ImportNote | null {
  if (!Number.isFinite(grade) || grade <= 0) return note('grade_not_positive', { grade: String(grade) });
  if (grade > 100) return note('grade_too_high', { grade });
  return null;
}

/** Points of a fraction of the grade. */
const points = (fraction: number, grade: number) => fraction * grade;

export interface Common {
  html: string;
  solutionHtml: string | null;
  grade: number;
}

export interface ChoiceOption {
  html: string;
  /** −1…1 */
  fraction: number;
}

/**
 * Moodle multichoice (and GIFT `{~ =}`): one answer → single_choice, scored all-or-nothing when one
 * option gives the whole grade and the rest nothing, else by each option's points; several answers →
 * multiple_choice with each option's points summed and clamped to [0, grade].
 */
export function choiceTask(
  c: Common,
  options: readonly ChoiceOption[],
  single: boolean,
  shuffle: boolean,
): Built {
  const kept = options.filter((o) => o.html.trim() !== '');
  if (kept.length < 2) return refuse(note('choices_too_few'));
  if (kept.length > 26) return refuse(note('choices_too_many', { count: kept.length }));
  const content = { options: kept.map((o, i) => ({ id: letterId(i), html: o.html })), shuffle };
  const map = Object.fromEntries(kept.map((o, i) => [letterId(i), points(o.fraction, c.grade)]));
  const base = { html: c.html, solutionHtml: c.solutionHtml, maxScore: c.grade };
  if (single) {
    let best = 0;
    kept.forEach((o, i) => {
      if (o.fraction > kept[best]!.fraction) best = i;
    });
    if (kept[best]!.fraction <= 0) return refuse(note('choices_no_marks'));
    if (belowFull(kept[best]!.fraction))
      return refuse(note('full_marks_unreachable', { best: percent(kept[best]!.fraction) }));
    const exact = kept[best]!.fraction === 1 && kept.every((o, i) => i === best || o.fraction === 0);
    return {
      task: {
        ...base,
        answerType: 'single_choice',
        content,
        reference: { correct: letterId(best) },
        scoring: exact ? { method: 'all_or_nothing' } : { method: 'per_choice', map },
      },
      notes: [],
    };
  }
  const correct = kept.flatMap((o, i) => (o.fraction > 0 ? [letterId(i)] : []));
  if (!correct.length) return refuse(note('choices_no_marks'));
  const sum = kept.reduce((s, o) => s + Math.max(0, o.fraction), 0);
  if (belowFull(sum)) return refuse(note('choices_sum_short', { sum: percent(sum) }));
  return {
    task: {
      ...base,
      answerType: 'multiple_choice',
      content,
      reference: { correct },
      scoring: { method: 'per_choice', map },
    },
    notes: [],
  };
}

/** Labels of the two options of a true/false question. */
export const TRUE_FALSE = ['Верно', 'Неверно'] as const;

/** Moodle truefalse (GIFT `{T}`/`{F}`): a single choice of «Верно» / «Неверно», all or nothing. */
export function trueFalseTask(c: Common, correctIsTrue: boolean): Built {
  return {
    task: {
      html: c.html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'single_choice',
      content: {
        options: [
          { id: 'a', html: TRUE_FALSE[0] },
          { id: 'b', html: TRUE_FALSE[1] },
        ],
        shuffle: false,
      },
      reference: { correct: correctIsTrue ? 'a' : 'b' },
      scoring: { method: 'all_or_nothing' },
    },
    notes: [],
  };
}

export interface TextAnswer {
  text: string;
  fraction: number;
}

/** The answers of a short answer checked against the model's limits; the error, if any. */
function textAnswersProblem(answers: readonly TextAnswer[]): ImportNote | null {
  if (!answers.length) return note('answers_none');
  if (answers.length > 50) return note('answers_too_many', { count: answers.length });
  const long = answers.find((a) => a.text.length > 200);
  if (long) return note('answer_too_long', { max: 200 });
  if (!answers.some((a) => a.fraction > 0)) return note('answers_no_marks');
  return null;
}

/** The answers giving the most marks (shown as the correct answer). */
function bestTexts(answers: readonly TextAnswer[]): string[] {
  const best = Math.max(...answers.map((a) => a.fraction));
  return answers.filter((a) => a.fraction === best).map((a) => a.text);
}

/**
 * Moodle shortanswer (GIFT `{=a =%50%b}`): the first listed answer the text matches gives its
 * points; `*` is a wildcard as in Moodle; letter case by `usecase`; ё and е differ as they do in
 * Moodle.
 */
export function shortAnswerTask(c: Common, raw: readonly TextAnswer[], caseSensitive: boolean): Built {
  const answers = raw.map((a) => ({ text: a.text.trim(), fraction: a.fraction })).filter((a) => a.text);
  const problem = textAnswersProblem(answers);
  if (problem) return refuse(problem);
  const top = Math.max(...answers.map((a) => a.fraction));
  if (belowFull(top)) return refuse(note('full_marks_unreachable', { best: percent(top) }));
  const everyFull = answers.every((a) => a.fraction === 1);
  return {
    task: {
      html: c.html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'short_text',
      content: {},
      reference: {
        accepted: bestTexts(answers),
        ...(everyFull
          ? {}
          : { answers: answers.map((a) => ({ text: a.text, points: points(a.fraction, c.grade) })) }),
      },
      scoring: {
        method: everyFull ? 'all_or_nothing' : 'per_answer',
        caseSensitive,
        distinguishYo: true,
        wildcards: true,
      },
    },
    notes: [],
  };
}

/** A numeric answer: a value within an absolute tolerance, a range, or any number (`*`). */
export type NumericAnswer = { fraction: number } & (
  { value: number; tolerance: number } | { min: number; max: number } | { any: true }
);

/** Moodle's `*` answer (any number) as a range. */
const ANY_NUMBER = { min: -1e300, max: 1e300 };

type NumberKey = { value: number; tolerance: number } | { min: number; max: number };

function numberKey(a: NumericAnswer): NumberKey {
  if ('any' in a) return ANY_NUMBER;
  if ('min' in a) return { min: a.min, max: a.max };
  return { value: a.value, tolerance: Math.abs(a.tolerance) };
}

/** A numeric key written as text (a drop-down or typed gap's correct answer shown to people). */
export const numberText = (a: NumericAnswer): string =>
  'any' in a ? '*' : 'min' in a ? `${a.min}..${a.max}` : String(a.value);

/**
 * The numeric answers as the model's keys: `*` answers worth nothing dropped (a number no answer
 * fits scores 0 anyway); the best answer as the key, every answer in order when their marks differ.
 * The error names the gap of a cloze question when `gap` is given.
 */
export function numericKeys(
  raw: readonly NumericAnswer[],
  grade: number,
  gap?: number,
):
  | { error: ImportNote }
  | { key: NumberKey; answers: (NumberKey & { points: number })[]; exact: boolean; best: NumericAnswer[] } {
  const answers = raw.filter((a) => !('any' in a && a.fraction === 0));
  if (!answers.length)
    return { error: gap ? note('cloze_gap_numeric_none', { gap }) : note('numeric_answers_none') };
  if (answers.length > 50)
    return {
      error: gap
        ? note('cloze_gap_answers_too_many', { gap, count: answers.length })
        : note('answers_too_many', { count: answers.length }),
    };
  const best = Math.max(...answers.map((a) => a.fraction));
  if (best <= 0) return { error: gap ? note('cloze_gap_no_marks', { gap }) : note('answers_no_marks') };
  const top = answers.filter((a) => a.fraction === best);
  const exact = answers.length === 1 && best === 1;
  return {
    key: numberKey(top[0]!),
    answers: answers.map((a) => ({ ...numberKey(a), points: points(a.fraction, grade) })),
    exact,
    best: top,
  };
}

/** Moodle numerical (GIFT `{#…}`): a value ± tolerance or a range; several answers score in order. */
export function numericalTask(c: Common, raw: readonly NumericAnswer[], unit?: string): Built {
  const keys = numericKeys(raw, c.grade);
  if ('error' in keys) return refuse(keys.error);
  const top = Math.max(...keys.best.map((a) => a.fraction));
  if (belowFull(top)) return refuse(note('full_marks_unreachable', { best: percent(top) }));
  return {
    task: {
      html: c.html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'number',
      content: unit ? { unit } : {},
      reference: keys.exact ? keys.key : { ...keys.key, answers: keys.answers },
      scoring: { method: keys.exact ? 'all_or_nothing' : 'per_answer' },
    },
    notes: [],
  };
}

export interface MatchStem {
  /** Html of the stem; empty for a distractor answer (Moodle: a subquestion without text). */
  html: string;
  /** The answer, plain text. */
  answer: string;
}

/**
 * Moodle matching (GIFT `{=a -> b}`): stems on the left, the distinct answers on the right (answers
 * of textless stems are distractors), scored as the share of stems matched right × grade.
 */
export function matchingTask(c: Common, stems: readonly MatchStem[], shuffle: boolean): Built {
  const answers: string[] = [];
  for (const s of stems) {
    const a = s.answer.trim();
    if (a && !answers.includes(a)) answers.push(a);
  }
  const left = stems.filter((s) => s.html.trim() !== '' && s.answer.trim() !== '');
  if (!left.length) return refuse(note('matching_no_pairs'));
  if (left.length > 20) return refuse(note('matching_too_many_stems', { count: left.length }));
  if (answers.length > 26) return refuse(note('matching_too_many_answers', { count: answers.length }));
  const rightId = (a: string) => `r${answers.indexOf(a.trim()) + 1}`;
  return {
    task: {
      html: c.html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'matching',
      content: {
        left: left.map((s, i) => ({ id: `l${i + 1}`, html: s.html })),
        right: answers.map((a, i) => ({ id: `r${i + 1}`, html: escapeHtml(a) })),
        shuffle,
      },
      reference: { pairs: Object.fromEntries(left.map((s, i) => [`l${i + 1}`, rightId(s.answer)])) },
      scoring: { method: 'share' },
    },
    notes: [],
  };
}

/** The rubric criterion text of an imported essay without grader information. */
export const ESSAY_CRITERION = 'Ответ в целом';

/**
 * Moodle essay (GIFT `{}`): an expert-graded extended text with one rubric criterion worth the
 * grade (its text: the grader information, if any). Criteria give whole points, so the grade must
 * be a whole number.
 */
export function essayTask(c: Common, graderInfoHtml = ''): Built {
  if (!Number.isInteger(c.grade)) return refuse(note('essay_grade_fractional', { grade: c.grade }));
  const info = oneLineText(graderInfoHtml).slice(0, 4000);
  return {
    task: {
      html: c.html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'extended_text',
      content: {},
      reference: null,
      scoring: { method: 'expert' },
      criteria: [{ code: 'К1', text: info || ESSAY_CRITERION, maxScore: c.grade }],
    },
    notes: [note('essay_one_criterion', { points: c.grade })],
  };
}

// ---------------------------------------------------------------- media

/** A file a Moodle question holds (base64 in the XML). */
export interface InlineFile {
  /** Folder and name, "/" + path + name, as the @@PLUGINFILE@@ reference resolves it. */
  key: string;
  name: string;
  bytes: Buffer;
}

const PLUGINFILE = /@@PLUGINFILE@@\/[^"'\s<>)]*/g;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Applies `f` to every html string of a task (text, solution, options, sides, words, parts). */
function mapTaskHtml(task: ParsedTask, f: (html: string) => string): void {
  task.html = f(task.html);
  if (task.solutionHtml) task.solutionHtml = f(task.solutionHtml);
  const walk = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object')
      for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
        if (k === 'html' && typeof v === 'string') (x as Record<string, unknown>)[k] = f(v);
        else walk(v);
      }
  };
  walk(task.content);
}

/**
 * The media a task's html refers to by @@PLUGINFILE@@ — in the question text, the general feedback
 * (the solution) and the choices alike — from the question's files (Moodle XML holds them; a GIFT
 * file holds none). A reference to a file that is not there is noted, and its image becomes its
 * alt text (a link its text): no `@@PLUGINFILE@@/…` is left to show as a broken image.
 */
export function pluginFileMedia(
  task: ParsedTask,
  files: readonly InlineFile[],
  notes: ImportNote[],
): ParsedMedia[] {
  const media: ParsedMedia[] = [];
  const found = new Map<string, boolean>();
  const resolve = (ref: string): boolean => {
    const known = found.get(ref);
    if (known !== undefined) return known;
    const key = safeDecode(ref.slice('@@PLUGINFILE@@'.length).split(/[?#]/)[0]!);
    const file = files.find((f) => f.key === key) ?? files.find((f) => `/${f.name}` === key);
    if (file) media.push({ ref, name: file.name, bytes: file.bytes });
    else notes.push(note('media_not_in_file', { name: key.slice(1) }));
    found.set(ref, !!file);
    return !!file;
  };
  mapTaskHtml(task, (html) => {
    for (const [ref] of html.matchAll(PLUGINFILE)) resolve(ref);
    if ([...found.values()].every(Boolean)) return html;
    const missing = (src: string) => src.startsWith('@@PLUGINFILE@@') && found.get(src) === false;
    return html
      .replace(/<img\b[^>]*>/gi, (img) => {
        const src = /\ssrc\s*=\s*(["'])(.*?)\1/i.exec(img)?.[2] ?? '';
        if (!missing(src)) return img;
        return escapeHtml(decodeEntities(/\salt\s*=\s*(["'])(.*?)\1/i.exec(img)?.[2] ?? ''));
      })
      .replace(
        /<a\b[^>]*\shref\s*=\s*(["'])(@@PLUGINFILE@@[^"']*)\1[^>]*>([\s\S]*?)<\/a>/gi,
        (a, _q, href: string, text: string) => (missing(href) ? text : a),
      );
  });
  return media;
}
