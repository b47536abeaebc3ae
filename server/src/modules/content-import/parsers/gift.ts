import {
  categoryPath,
  choiceTask,
  essayTask,
  formatToHtml,
  matchingTask,
  numericalTask,
  parseDecimal,
  pluginFileMedia,
  shortAnswerTask,
  SourceIds,
  stableId,
  titleFromHtml,
  trueFalseTask,
  type Built,
  type Common,
  type NumericAnswer,
  type TextFormat,
} from './moodle-common.js';
import { note, uniqueNotes, type ImportNote } from '../notes.js';
import {
  ImportRefusal,
  unsupportedFormat,
  type FormatParser,
  type ParsedBatch,
  type ParsedItem,
} from './types.js';

/*
 * The GIFT parser (issue 11; docs/content-model.md). GIFT is read exactly as Moodle's own importer
 * (question/format/gift/format.php) reads it, and each question becomes the task of the Moodle
 * question it would be (moodle-common.ts), with a grade of 1:
 *  - questions are separated by blank lines; lines starting with // are comments;
 *  - `\\ \: \# \= \{ \} \~` are escapes, `\n` a line break;
 *  - `$CATEGORY: path` sets the category of the questions after it;
 *  - `::title::` names a question; without one, its id is `gift-` + the first 12 hex digits of the
 *    SHA-256 of the question's text (comments left out), stable however the file is reordered, and
 *    its title the start of its text, as Moodle names it;
 *  - `[html]`, `[moodle]`, `[plain]`, `[markdown]` before a text give its format (default moodle:
 *    html allowed, line breaks kept); answers inherit the question's format;
 *  - the answer block `{…}` decides the kind: none → description (refused), empty → essay, `#…` →
 *    numerical (`a:tolerance`, `min..max`, several `=%n%` answers), a `~` → multiple choice (a `=` makes
 *    it single-answer; `%n%` weights, negative ones too), `=a -> b` → matching, T/TRUE/F/FALSE →
 *    true/false, anything else → short answer (`=%n%` weights, `*` wildcards); text after the block
 *    makes it a missing-word question (`_____` in the text);
 *  - `#feedback` and `####general feedback`: the general feedback becomes the solution, the rest is
 *    dropped (noted).
 * We did not use the `gift-pegjs` package: it refuses Moodle's own test file (a numerical answer
 * with `~#feedback`) and fails the whole file on one bad question, where Moodle's reading, kept here,
 * refuses only that question.
 */

const ESCAPES: [string, string][] = [
  ['\\:', '\uE001'],
  ['\\#', '\uE002'],
  ['\\=', '\uE003'],
  ['\\{', '\uE004'],
  ['\\}', '\uE005'],
  ['\\~', '\uE006'],
  ['\\n', '\uE007'],
];
const BACKSLASH = '\uE000';
const UNESCAPE: Record<string, string> = {
  '\uE001': ':',
  '\uE002': '#',
  '\uE003': '=',
  '\uE004': '{',
  '\uE005': '}',
  '\uE006': '~',
  '\uE007': '\n',
};

/** Moodle's escapedchar_pre: escaped control characters out of the way of the parsing. */
function escapePre(text: string): string {
  let s = text.split('\\\\').join(BACKSLASH);
  for (const [from, to] of ESCAPES) s = s.split(from).join(to);
  return s.split(BACKSLASH).join('\\');
}

/** Moodle's escapedchar_post: the escaped characters back. */
const escapePost = (text: string): string => text.replace(/[\uE001-\uE007]/g, (c) => UNESCAPE[c]!);

const FORMATS: Record<string, TextFormat> = {
  html: 'html',
  moodle: 'moodle',
  plain: 'plain',
  markdown: 'markdown',
};

/** Moodle's parse_text_with_format: `[format]text`, the escapes undone, trimmed. */
function withFormat(raw: string, fallback: TextFormat): { text: string; format: TextFormat } {
  let text = raw;
  let format = fallback;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    const named = end > 0 ? FORMATS[text.slice(1, end)] : undefined;
    if (named) {
      format = named;
      text = text.slice(end + 1);
    }
  }
  return { text: escapePost(text).trim(), format };
}

const html = (t: { text: string; format: TextFormat }) => formatToHtml(t.text, t.format);

/** Moodle's commentparser: `answer#feedback`. */
function commented(raw: string, format: TextFormat) {
  const at = raw.indexOf('#');
  const answer = withFormat((at < 0 ? raw : raw.slice(0, at)).trim(), format);
  const feedback = at < 0 ? '' : withFormat(raw.slice(at + 1).trim(), format).text;
  return { answer, feedback };
}

/** Moodle's `%n%` weight at the start of an answer (its regex and answerweightparser). */
const WEIGHT = /^%-*([0-9]{1,2})\.?([0-9]*)%/;
function weighted(raw: string): { fraction: number; rest: string } | null {
  if (!WEIGHT.test(raw)) return null;
  const end = raw.indexOf('%', 1);
  const n = Number(raw.slice(1, end));
  return { fraction: Number.isFinite(n) ? n / 100 : 0, rest: raw.slice(end + 1) };
}

/** The pieces after splitting on `sep`, the first dropped when blank (Moodle's explode + array_shift). */
function answersOf(text: string, sep: string): string[] {
  const parts = text.split(sep);
  if (parts[0]!.trim() === '') parts.shift();
  return parts;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** One question of the file as Moodle reads it, as a task. */
interface Question {
  name: string | null;
  html: string;
  build: Built;
}

function readQuestion(
  text: string,
): Question | { category: string } | { broken: ImportNote; name: string | null } {
  let rest = escapePre(text);
  if (/^\$CATEGORY:/.test(rest)) return { category: escapePost(rest.slice(10).split('\n')[0]!).trim() };

  let name: string | null = null;
  if (rest.startsWith('::')) {
    const end = rest.indexOf('::', 2);
    if (end >= 0) {
      name = escapePost(rest.slice(2, end)).replace(/\s+/g, ' ').trim() || null;
      rest = rest.slice(end + 2).trim();
    } else rest = rest.slice(2);
  }

  const start = rest.indexOf('{');
  const finish = rest.indexOf('}');
  const description = start < 0 && finish < 0;
  if (!description && (start < 0 || finish < 0 || finish < start))
    return { broken: note('gift_braces'), name };
  let questionText = rest;
  let answerText = '';
  if (!description) {
    answerText = rest.slice(start + 1, finish).trim();
    // Text after the answers makes a missing-word question: the answers' place is shown as _____.
    questionText = rest.endsWith('}')
      ? rest.slice(0, start) + rest.slice(finish + 1)
      : `${rest.slice(0, start)}_____${rest.slice(finish + 1)}`;
  }
  let generalFeedback = '';
  const gf = answerText.lastIndexOf('####');
  if (gf >= 0) {
    generalFeedback = answerText.slice(gf + 4);
    answerText = answerText.slice(0, gf).trim();
  }
  const qt = withFormat(questionText, 'moodle');
  const feedbackText = withFormat(generalFeedback, qt.format);
  const common: Common = {
    html: html(qt),
    solutionHtml: feedbackText.text ? html(feedbackText) : null,
    grade: 1,
  };
  const question = (build: Built): Question => ({ name, html: common.html, build });

  if (description) return question({ refused: note('description_no_question') });
  if (answerText === '') return question(essayTask(common));
  if (answerText.startsWith('#')) return question(numerical(common, answerText.slice(1), qt.format));
  if (answerText.includes('~')) return question(multichoice(common, answerText, qt.format));
  if (answerText.includes('=') && answerText.includes('->'))
    return question(matching(common, answerText, qt.format));
  const hash = answerText.indexOf('#');
  const tf = hash > 0 ? answerText.slice(0, hash).trim() : answerText;
  if (['T', 'TRUE', 'F', 'FALSE'].includes(tf)) return question(truefalse(common, answerText, qt.format));
  return question(shortanswer(common, answerText, qt.format));
}

const withNotes = (built: Built, notes: ImportNote[]): Built =>
  'task' in built ? { task: built.task, notes: [...built.notes, ...notes] } : built;

function multichoice(c: Common, answerText: string, format: TextFormat): Built {
  const single = answerText.includes('=');
  const answers = answersOf(answerText.replace(/=/g, '~='), '~');
  if (answers.length < 2) return { refused: note('gift_choice_too_few') };
  let feedback = false;
  const options = answers.map((raw) => {
    let a = raw.trim();
    let fraction = 0;
    if (a.startsWith('=')) {
      fraction = 1;
      a = a.slice(1);
    } else {
      const w = weighted(a);
      if (w) ({ fraction, rest: a } = w);
    }
    const parsed = commented(a, format);
    if (parsed.feedback) feedback = true;
    return { html: html(parsed.answer), fraction };
  });
  return withNotes(choiceTask(c, options, single, true), feedback ? [note('feedback_dropped')] : []);
}

function matching(c: Common, answerText: string, format: TextFormat): Built {
  const answers = answersOf(answerText, '=');
  if (answers.length < 2) return { refused: note('gift_matching_too_few') };
  const stems = [];
  for (const raw of answers) {
    const a = raw.trim();
    const arrow = a.indexOf('->');
    if (arrow < 0) return { refused: note('gift_matching_arrow') };
    stems.push({
      html: html(withFormat(a.slice(0, arrow), format)),
      answer: escapePost(a.slice(arrow + 2)).trim(),
    });
  }
  return matchingTask(c, stems, true);
}

function truefalse(c: Common, answerText: string, format: TextFormat): Built {
  const [answer = '', ...feedback] = answerText.split('#', 3);
  const value = withFormat(answer.trim(), format).text;
  const notes = feedback.some((f) => withFormat(f.trim(), format).text) ? [note('feedback_dropped')] : [];
  return withNotes(trueFalseTask(c, value === 'T' || value === 'TRUE'), notes);
}

function shortanswer(c: Common, answerText: string, format: TextFormat): Built {
  const answers = answersOf(answerText, '=');
  if (!answers.length) return { refused: note('gift_short_none') };
  let feedback = false;
  const parsed = answers.map((raw) => {
    let a = raw.trim();
    let fraction = 1;
    const w = weighted(a);
    if (w) ({ fraction, rest: a } = w);
    const { answer, feedback: f } = commented(a, format);
    if (f) feedback = true;
    return { text: answer.text, fraction };
  });
  return withNotes(shortAnswerTask(c, parsed, false), feedback ? [note('feedback_dropped')] : []);
}

function numerical(c: Common, answerText: string, format: TextFormat): Built {
  let text = answerText;
  let feedback = false;
  const tilde = text.indexOf('~');
  if (tilde >= 0) {
    // Moodle keeps it as a `*` answer worth 0 with its feedback: the same as no answer fitting.
    if (commented(text.slice(tilde + 1), format).feedback) feedback = true;
    text = text.slice(0, tilde);
  }
  const answers = answersOf(text, '=');
  if (!answers.length) return { refused: note('gift_numerical_none') };
  const parsed: NumericAnswer[] = [];
  for (const raw of answers) {
    let a = raw.trim();
    let fraction = 1;
    const w = weighted(a);
    if (w) ({ fraction, rest: a } = w);
    const { answer, feedback: f } = commented(a, format);
    if (f) feedback = true;
    const value = answer.text;
    const range = value.indexOf('..');
    const colon = value.indexOf(':');
    let key: NumericAnswer | null = null;
    if (range > 0) {
      const min = NUMBER.test(value.slice(0, range).trim()) ? parseDecimal(value.slice(0, range)) : null;
      const max = NUMBER.test(value.slice(range + 2).trim()) ? parseDecimal(value.slice(range + 2)) : null;
      if (min !== null && max !== null) key = { min: Math.min(min, max), max: Math.max(min, max), fraction };
    } else if (colon > 0) {
      const v = value.slice(0, colon).trim();
      const tol = value.slice(colon + 1).trim();
      if (NUMBER.test(v) && NUMBER.test(tol))
        key = { value: Number(v), tolerance: Math.abs(Number(tol)), fraction };
    } else if (value.trim() === '*') key = { any: true, fraction };
    else if (NUMBER.test(value.trim())) key = { value: Number(value.trim()), tolerance: 0, fraction };
    if (!key) return { refused: note('answer_not_number', { answer: value.slice(0, 40) }) };
    parsed.push(key);
  }
  return withNotes(numericalTask(c, parsed), feedback ? [note('feedback_dropped')] : []);
}

/** The questions of a GIFT text, split and cleaned as Moodle's readquestions/readquestion do. */
export function giftBlocks(source: string): string[] {
  const blocks: string[] = [];
  let lines: string[] = [];
  const flush = () => {
    const text = lines
      .map((l) => (l.startsWith('//') ? ' ' : l))
      .join('\n')
      .trim();
    if (text) blocks.push(text);
    lines = [];
  };
  for (const raw of source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '') flush();
    else lines.push(line);
  }
  flush();
  return blocks;
}

function parseGift(name: string, bytes: Buffer): ParsedBatch {
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportRefusal('xml_encoding', `${name}: a GIFT file must be UTF-8`);
  }
  const ids = new SourceIds();
  const items: ParsedItem[] = [];
  let category: string[] = [];
  for (const block of giftBlocks(source)) {
    const read = readQuestion(block);
    if ('category' in read) {
      category = categoryPath(read.category);
      // Moodle reads the whole block as the category; a question written right under it is read too.
      const rest = block.split('\n').slice(1).join('\n').trim();
      if (!rest) continue;
      const next = readQuestion(rest);
      if ('category' in next) continue;
      items.push(toItem(next, rest, category, ids));
      continue;
    }
    items.push(toItem(read, block, category, ids));
  }
  return { format: 'gift', items, tests: [] };
}

function toItem(
  read: Question | { broken: ImportNote; name: string | null },
  block: string,
  category: string[],
  ids: SourceIds,
): ParsedItem {
  // Comment lines (read as blank lines) do not count: adding a comment keeps the id.
  const key = block
    .split('\n')
    .filter((l) => l.trim() !== '')
    .join('\n');
  const { id, note } = ids.take(read.name ?? stableId('gift', key));
  const title = read.name ?? ('html' in read ? titleFromHtml(read.html, id) : id);
  const base = { sourceId: id, title, ...(category.length ? { category: [...category] } : {}), media: [] };
  const extra = note ? [note] : [];
  if ('broken' in read) return { ...base, outcome: 'refused', notes: [read.broken, ...extra] };
  const built = read.build;
  if ('refused' in built) return { ...base, outcome: 'refused', notes: [built.refused, ...extra] };
  // A GIFT file holds no files: a @@PLUGINFILE@@ picture (question, feedback or choice, as Moodle
  // exports them) is noted and becomes its alt text, like a Moodle XML reference to a missing file.
  const missing: ImportNote[] = [];
  pluginFileMedia(built.task, [], missing);
  const notes = uniqueNotes([...built.notes, ...missing]);
  return {
    ...base,
    outcome: notes.length ? 'converted' : 'imported',
    notes: [...notes, ...extra],
    task: built.task,
  };
}

/** The GIFT parser: GIFT text (.gift, .txt). */
export const giftParser: FormatParser = {
  name: 'gift',
  parse(input) {
    if (!('bytes' in input)) throw unsupportedFormat('A GIFT import is one text file, not a package');
    return parseGift(input.name, input.bytes);
  },
};
