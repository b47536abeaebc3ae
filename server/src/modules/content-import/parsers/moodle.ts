import type { QtiRule } from '@attesta/contract';
import { note, uniqueNotes, type ImportNote } from '../notes.js';
import { parseXmlSafely } from '../safety/xml.js';
import { clozeTask } from './moodle-cloze.js';
import {
  categoryPath,
  choiceTask,
  escapeHtml,
  essayTask,
  formatToHtml,
  gradeProblem,
  matchingTask,
  numericalTask,
  oneLineText,
  parseDecimal,
  pluginFileMedia,
  shortAnswerTask,
  SourceIds,
  stableId,
  titleFromHtml,
  trueFalseTask,
  type Built,
  type Common,
  type InlineFile,
  type NumericAnswer,
  type TextFormat,
} from './moodle-common.js';
import {
  ImportRefusal,
  unsupportedFormat,
  type FormatParser,
  type ParsedBatch,
  type ParsedItem,
  type ParsedMedia,
  type ParsedTask,
} from './types.js';

/*
 * The Moodle XML parser (issue 11; docs/content-model.md). A file is a <quiz> of <question>s in
 * order; a `category` pseudo-question sets the category of the questions after it. Each question
 * becomes one item:
 *  - multichoice → single_choice / multiple_choice (fractions, negative ones included);
 *  - truefalse → single_choice «Верно» / «Неверно»;
 *  - shortanswer → short_text (fractions in order, usecase, * wildcards);
 *  - numerical → number (tolerance, several answers, the base unit);
 *  - matching → matching (share of stems right × grade; textless stems are distractors);
 *  - essay → extended_text (or file, for attachments only) with one rubric criterion;
 *  - gapselect → cloze of drop-downs, ddwtos → gap_match (share of gaps right × grade);
 *  - ordering (plugin) → ordering, all or nothing, or its partial grading as QTI rules;
 *  - cloze / multianswer → cloze (weighted) or composite (moodle-cloze.ts);
 *  - description, random, calculated… → refused with the reason.
 * The item's sourceId is its <name> (a hash of its text when it has none; a repeated name gets
 * " (2)"…), its category the category path without `$course$/top`. Question text of any format
 * (html, moodle_auto_format, plain_text, markdown) becomes html; the general feedback becomes the
 * solution; files inline in the XML (<file encoding="base64">, Moodle 1.9 <image_base64>) become the
 * item's media, referred to by their @@PLUGINFILE@@ references.
 */

type XmlNode = Record<string, unknown>;

const ARRAYS = new Set([
  'question',
  'answer',
  'subquestion',
  'selectoption',
  'dragbox',
  'file',
  'hint',
  'unit',
  'tag',
]);

const one = (x: unknown): unknown => (Array.isArray(x) ? x[0] : x);
const list = (x: unknown): unknown[] => (x === undefined || x === null ? [] : Array.isArray(x) ? x : [x]);
const asNode = (x: unknown): XmlNode =>
  x && typeof x === 'object' && !Array.isArray(x) ? (x as XmlNode) : {};

/** The text of an element: its string, or the text beside its attributes. */
function textOf(x: unknown): string {
  const v = one(x);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const t = asNode(v)['#text'];
  return t === undefined ? '' : String(t);
}

/** `<el><text>…</text></el>` (or an old `<el>…</el>`). */
function innerText(x: unknown): string {
  const v = one(x);
  if (v && typeof v === 'object' && 'text' in (v as XmlNode)) return textOf((v as XmlNode).text);
  return textOf(v);
}

const attr = (x: unknown, name: string): string | undefined => {
  const v = asNode(one(x))[`@_${name}`];
  return v === undefined ? undefined : String(v);
};

/** Moodle's trans_format: the format names of the XML. An unknown one is read as html, as Moodle does. */
function formatOf(name: string | undefined, fallback: TextFormat): TextFormat {
  switch (name?.trim()) {
    case undefined:
    case '':
      return fallback;
    case 'moodle_auto_format':
    case 'wiki_like':
      return 'moodle';
    case 'plain_text':
    case 'plain':
      return 'plain';
    case 'markdown':
      return 'markdown';
    default:
      return 'html';
  }
}

/** A formatted text field (<questiontext format="…"><text>…</text>) as html. */
function fieldHtml(x: unknown, fallback: TextFormat = 'html'): string {
  return formatToHtml(innerText(x), formatOf(attr(x, 'format'), fallback));
}

const flag = (x: unknown, fallback: boolean): boolean => {
  const v = textOf(x).trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return fallback;
};

const numberOf = (x: unknown, fallback: number): number => parseDecimal(textOf(x)) ?? fallback;

/** Moodle writes fractions as percents: "100", "-33.33333". */
const fractionOf = (answer: unknown): number => numberOf(attr(answer, 'fraction') ?? '0', 0) / 100;

// ---------------------------------------------------------------- media

const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

function decodeBase64(data: string): Buffer | null {
  if (!data.trim() || !BASE64.test(data)) return null;
  const bytes = Buffer.from(data.replace(/\s+/g, ''), 'base64');
  return bytes.length ? bytes : null;
}

const fileKey = (path: string, name: string) => {
  const folder = `/${path.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
  return `${folder}${name}`;
};

/** Every <file> of a question, wherever it is (question text, feedback, answers). */
function inlineFiles(question: unknown): InlineFile[] {
  const files: InlineFile[] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!x || typeof x !== 'object') return;
    for (const [k, v] of Object.entries(x as XmlNode)) {
      if (k !== 'file') {
        walk(v);
        continue;
      }
      for (const f of list(v)) {
        const name = attr(f, 'name') ?? '';
        const bytes = (attr(f, 'encoding') ?? 'base64') === 'base64' ? decodeBase64(textOf(f)) : null;
        if (name && bytes) files.push({ key: fileKey(attr(f, 'path') ?? '/', name), name, bytes });
      }
    }
  };
  walk(question);
  return files;
}

// ---------------------------------------------------------------- question types

/** Notes for what Moodle shows or does that Attesta does not (feedback, hints, penalty). */
function lossNotes(q: XmlNode): ImportNote[] {
  const notes: ImportNote[] = [];
  const feedbacks = [q.correctfeedback, q.partiallycorrectfeedback, q.incorrectfeedback];
  for (const a of [...list(q.answer), ...list(q.subquestion)]) feedbacks.push(asNode(a).feedback);
  // A feedback of only a picture (its file inline) is feedback too: dropped, so said.
  if (feedbacks.some((f) => oneLineText(innerText(f)) !== '' || /<img\b/i.test(innerText(f))))
    notes.push(note('feedback_dropped'));
  if (list(q.hint).some((h) => oneLineText(innerText(h)) !== '')) notes.push(note('hints_dropped'));
  if (numberOf(q.penalty, 0) > 0) notes.push(note('penalty_ignored'));
  return notes;
}

function multichoice(q: XmlNode, c: Common, format: TextFormat): Built {
  const options = list(q.answer).map((a) => ({ html: fieldHtml(a, format), fraction: fractionOf(a) }));
  // Moodle's XML import: single answer and no shuffling unless the file says otherwise.
  return choiceTask(c, options, flag(q.single, true), flag(q.shuffleanswers, false));
}

function truefalse(q: XmlNode, c: Common): Built {
  const answers = list(q.answer).map((a) => ({
    text: innerText(a).trim().toLowerCase(),
    fraction: fractionOf(a),
  }));
  if (answers.length !== 2) return { refused: note('truefalse_answer_count') };
  // Moodle: the answer named "true" (or, in old files, the first one) is True.
  const trueAnswer = answers.find((a) => a.text === 'true') ?? answers[0]!;
  const falseAnswer = answers.find((a) => a !== trueAnswer)!;
  if (trueAnswer.fraction === falseAnswer.fraction) return { refused: note('truefalse_no_correct') };
  return trueFalseTask(c, trueAnswer.fraction > falseAnswer.fraction);
}

function shortanswer(q: XmlNode, c: Common): Built {
  const answers = list(q.answer).map((a) => ({ text: innerText(a), fraction: fractionOf(a) }));
  return shortAnswerTask(c, answers, flag(q.usecase, false));
}

function numerical(q: XmlNode, c: Common): Built {
  const answers: NumericAnswer[] = [];
  for (const a of list(q.answer)) {
    const text = innerText(a).trim();
    if (!text) continue;
    const fraction = fractionOf(a);
    if (text === '*') {
      answers.push({ any: true, fraction });
      continue;
    }
    const value = parseDecimal(text);
    if (value === null) return { refused: note('answer_not_number', { answer: text.slice(0, 40) }) };
    answers.push({ value, tolerance: Math.abs(numberOf(asNode(a).tolerance, 0)), fraction });
  }
  const notes: ImportNote[] = [];
  const units = list(asNode(one(q.units)).unit).map((u) => ({
    name: textOf(asNode(u).unit_name).trim(),
    multiplier: numberOf(asNode(u).multiplier, 1),
  }));
  const base = units.find((u) => u.multiplier === 1 && u.name);
  const dropped = units.filter((u) => u !== base);
  if (dropped.length)
    notes.push(
      note('units_dropped', {
        units: dropped
          .map((u) => u.name || '?')
          .join(', ')
          .slice(0, 200),
      }),
    );
  if (base && numberOf(q.unitgradingtype, 0) !== 0) notes.push(note('unit_penalty_ignored'));
  if (base && base.name.length > 32) return { refused: note('unit_too_long', { max: 32 }) };
  const built = numericalTask(c, answers, base?.name);
  return 'task' in built ? { task: built.task, notes: [...built.notes, ...notes] } : built;
}

function matching(q: XmlNode, c: Common, format: TextFormat): Built {
  const stems = list(q.subquestion).map((s) => ({
    html: fieldHtml(s, format),
    answer: innerText(asNode(s).answer),
  }));
  return matchingTask(c, stems, flag(q.shuffleanswers, true));
}

/** MIME patterns of Moodle's file type list (.pdf, image, document…); unknown ones are left out. */
const FILE_TYPES: Record<string, string[]> = {
  '.pdf': ['application/pdf'],
  '.jpg': ['image/jpeg'],
  '.jpeg': ['image/jpeg'],
  '.png': ['image/png'],
  '.gif': ['image/gif'],
  '.webp': ['image/webp'],
  '.txt': ['text/plain'],
  '.doc': ['application/msword'],
  '.docx': ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  '.odt': ['application/vnd.oasis.opendocument.text'],
  image: ['image/*'],
  web_image: ['image/*'],
  document: [
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.oasis.opendocument.text',
    'text/plain',
  ],
};

function essay(q: XmlNode, c: Common): Built {
  const notes: ImportNote[] = [];
  const attachments = numberOf(q.attachments, 0);
  const inline = (textOf(q.responseformat).trim() || 'editor') !== 'noinline';
  if (numberOf(q.minwordlimit, 0) > 0 || numberOf(q.maxwordlimit, 0) > 0)
    notes.push(note('essay_word_limits_dropped'));
  if (oneLineText(innerText(q.responsetemplate))) notes.push(note('essay_template_dropped'));
  const built = essayTask(c, fieldHtml(q.graderinfo));
  if (!('task' in built)) return built;
  if (inline) {
    if (attachments !== 0) notes.push(note('essay_attachments_dropped'));
    return { task: built.task, notes: [...built.notes, ...notes] };
  }
  // Answers as attachments only: a file task graded by the same criterion.
  const accept = new Set<string>();
  const unknown: string[] = [];
  for (const t of textOf(q.filetypeslist)
    .split(/[\s,;]+/)
    .filter(Boolean)) {
    const types = FILE_TYPES[t.toLowerCase()];
    if (types) types.forEach((m) => accept.add(m));
    else unknown.push(t);
  }
  if (unknown.length)
    notes.push(note('essay_file_types_dropped', { types: unknown.join(', ').slice(0, 200) }));
  if (!accept.size) {
    accept.add('image/*').add('application/pdf');
    if (!unknown.length) notes.push(note('essay_any_file'));
  }
  const maxBytes = numberOf(q.maxbytes, 0);
  const content = {
    accept: [...accept],
    maxFiles: attachments < 1 ? 20 : Math.min(20, attachments),
    ...(maxBytes > 0
      ? { maxSizeMb: Math.min(100, Math.max(0.1, Math.round((maxBytes / 1048576) * 10) / 10)) }
      : {}),
  };
  return {
    task: {
      ...built.task,
      answerType: 'file',
      content,
      reference: null,
      scoring: { method: 'expert' },
    } as ParsedTask,
    notes: [...built.notes, ...notes],
  };
}

interface GapChoice {
  text: string;
  group: number;
  infinite: boolean;
}

const PLACE = /\[\[(\d+)\]\]/g;

/** The choices and the places ([[n]]) of a gapselect or ddwtos question. */
function gapChoices(q: XmlNode, key: 'selectoption' | 'dragbox'): GapChoice[] {
  return list(q[key]).map((x) => ({
    text: innerText(x).trim(),
    group: numberOf(asNode(x).group, 1),
    infinite: asNode(x).infinite !== undefined,
  }));
}

function gapselect(q: XmlNode, c: Common): Built {
  const choices = gapChoices(q, 'selectoption');
  const notes: ImportNote[] = [];
  const blanks: { id: string; kind: 'choice'; options: { id: string; text: string }[] }[] = [];
  const accepted: Record<string, string[]> = {};
  const scored: Record<string, { text: string; points: number }[]> = {};
  let problem: ImportNote | null = null;
  const places = [...c.html.matchAll(PLACE)].length;
  if (!places) return { refused: note('gaps_none') };
  if (places > 50) return { refused: note('gaps_too_many', { count: places }) };
  const html = c.html.replace(PLACE, (whole, n: string) => {
    const right = choices[Number(n) - 1];
    if (!right || !right.text) {
      problem ??= note('gap_no_choice', { gap: whole });
      return whole;
    }
    const group = choices.filter((ch) => ch.group === right.group && ch.text);
    const id = `g${blanks.length + 1}`;
    const options = group.map((ch, i) => ({ id: `o${i + 1}`, text: oneLineText(ch.text).slice(0, 200) }));
    if (options.length < 2 || options.length > 26) problem ??= note('gap_choice_count', { gap: whole });
    if (options.some((o) => !o.text)) problem ??= note('gap_choice_empty', { gap: whole });
    const rightId = `o${group.indexOf(right) + 1}`;
    blanks.push({ id, kind: 'choice', options });
    accepted[id] = [rightId];
    scored[id] = [{ text: rightId, points: c.grade / places }];
    return `{{${id}}}`;
  });
  if (problem) return { refused: problem };
  if (flag(q.shuffleanswers, false)) notes.push(note('gaps_not_shuffled'));
  return {
    task: {
      html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'cloze',
      content: { blanks },
      reference: { blanks: accepted, scored },
      scoring: { method: 'weighted', caseSensitive: true, distinguishYo: true },
    },
    notes,
  };
}

function ddwtos(q: XmlNode, c: Common): Built {
  const choices = gapChoices(q, 'dragbox');
  if (!choices.length || choices.length > 50) return { refused: note('dragdrop_choice_count') };
  if (choices.some((ch) => !ch.text)) return { refused: note('choice_empty') };
  const gaps: { id: string }[] = [];
  const pairs: Record<string, string> = {};
  const uses = new Map<number, number>();
  let problem: ImportNote | null = null;
  const html = c.html.replace(PLACE, (whole, n: string) => {
    const i = Number(n) - 1;
    if (!choices[i]) {
      problem ??= note('gap_no_choice', { gap: whole });
      return whole;
    }
    const id = `g${gaps.length + 1}`;
    gaps.push({ id });
    pairs[id] = `w${i + 1}`;
    uses.set(i, (uses.get(i) ?? 0) + 1);
    return `{{${id}}}`;
  });
  if (problem) return { refused: problem };
  if (!gaps.length) return { refused: note('gaps_none') };
  if (gaps.length > 50) return { refused: note('gaps_too_many', { count: gaps.length }) };
  const notes: ImportNote[] = [];
  if (new Set(choices.map((ch) => ch.group)).size > 1) notes.push(note('choice_groups_dropped'));
  const words = choices.map((ch, i) => ({
    id: `w${i + 1}`,
    html: /<[a-z/]/i.test(ch.text) ? ch.text : escapeHtml(ch.text),
    matchMax: ch.infinite ? 0 : Math.max(1, uses.get(i) ?? 0),
  }));
  return {
    task: {
      html,
      solutionHtml: c.solutionHtml,
      maxScore: c.grade,
      answerType: 'gap_match',
      content: { words, gaps, shuffle: flag(q.shuffleanswers, false) },
      reference: { pairs },
      scoring: { method: 'share' },
    },
    notes,
  };
}

/** qtype_ordering's grading types, by name or by number (as the plugin stores them). */
const ORDERING_GRADING: Record<string, string> = {
  '-1': 'ALL_OR_NOTHING',
  '0': 'ABSOLUTE_POSITION',
  '1': 'RELATIVE_NEXT_EXCLUDE_LAST',
  '2': 'RELATIVE_NEXT_INCLUDE_LAST',
  '3': 'RELATIVE_ONE_PREVIOUS_AND_NEXT',
  '4': 'RELATIVE_ALL_PREVIOUS_AND_NEXT',
  '5': 'LONGEST_ORDERED_SUBSET',
  '6': 'LONGEST_CONTIGUOUS_SUBSET',
  '7': 'RELATIVE_TO_CORRECT',
};

type Json = Record<string, unknown>;
const RESPONSE: Json = { op: 'variable', id: 'RESPONSE' };
const ident = (id: string): Json => ({ op: 'baseValue', baseType: 'identifier', value: id });
/** `SCORE = SCORE + points` when the condition holds. */
const addIf = (cond: Json, points: number): Json => ({
  rule: 'responseCondition',
  if: {
    cond,
    then: [
      {
        rule: 'setOutcomeValue',
        id: 'SCORE',
        value: {
          op: 'sum',
          args: [
            { op: 'variable', id: 'SCORE' },
            { op: 'baseValue', baseType: 'float', value: points },
          ],
        },
      },
    ],
  },
});
/** The item `id` stands at (1-based) position `n` of the answer. */
const at = (n: number, id: string): Json => ({
  op: 'match',
  args: [{ op: 'index', n, args: [RESPONSE] }, ident(id)],
});
/** `a` is followed at once by `b` in the answer (a run of an ordered container). */
const nextTo = (a: string, b: string): Json => ({
  op: 'contains',
  args: [RESPONSE, { op: 'ordered', args: [ident(a), ident(b)] }],
});

/**
 * The partial grading types of qtype_ordering (its help, «Grading type»), as QTI rules on the
 * answer's order: a unit of `grade / units` for each point Moodle counts.
 * - ABSOLUTE_POSITION: an item in its right position (n units);
 * - RELATIVE_NEXT_EXCLUDE_LAST: an item followed by its right next item (n − 1 units);
 * - RELATIVE_NEXT_INCLUDE_LAST: the same, and the last item last (n units);
 * - RELATIVE_ONE_PREVIOUS_AND_NEXT: per item, its previous and its next one right, the first having
 *   none before it and the last none after it (2n units): each right neighbouring pair counts
 *   twice, the right first and the right last once.
 * Null for the types that compare longest subsets or all items before and after (not written).
 */
function orderingRules(grading: string, ids: string[], grade: number): Json[] | null {
  const n = ids.length;
  const pairs = ids.slice(1).map((b, k) => [ids[k]!, b] as const);
  const rules = (units: number, scored: [Json, number][]) =>
    scored.map(([cond, count]) => addIf(cond, (grade * count) / units));
  switch (grading) {
    case 'ABSOLUTE_POSITION':
      return rules(
        n,
        ids.map((id, k) => [at(k + 1, id), 1]),
      );
    case 'RELATIVE_NEXT_EXCLUDE_LAST':
      return rules(
        n - 1,
        pairs.map(([a, b]) => [nextTo(a, b), 1]),
      );
    case 'RELATIVE_NEXT_INCLUDE_LAST':
      return rules(n, [...pairs.map(([a, b]): [Json, number] => [nextTo(a, b), 1]), [at(n, ids[n - 1]!), 1]]);
    case 'RELATIVE_ONE_PREVIOUS_AND_NEXT':
      return rules(2 * n, [
        [at(1, ids[0]!), 1],
        ...pairs.map(([a, b]): [Json, number] => [nextTo(a, b), 2]),
        [at(n, ids[n - 1]!), 1],
      ]);
    default:
      return null;
  }
}

/**
 * The ordering plugin: the answers in their right order, shown shuffled (as Moodle always shows
 * them), every item used (selecttype ALL). All-or-nothing grading is the native rule; the partial
 * types that count positions or neighbours are QTI rules (`orderingRules`); the others are refused.
 */
function ordering(q: XmlNode, c: Common, format: TextFormat): Built {
  const raw = textOf(q.gradingtype).trim().toUpperCase() || 'ALL_OR_NOTHING';
  const grading = ORDERING_GRADING[raw] ?? raw;
  const select = textOf(q.selecttype).trim().toUpperCase() || 'ALL';
  if (select !== 'ALL' && select !== '0') return { refused: note('ordering_subset_unsupported') };
  const items = list(q.answer)
    .map((a) => fieldHtml(a, format))
    .filter((h) => h.trim() !== '')
    .map((html, i) => ({ id: `i${i + 1}`, html }));
  if (items.length < 2 || items.length > 20) return { refused: note('ordering_item_count') };
  const ids = items.map((i) => i.id);
  const task = {
    html: c.html,
    solutionHtml: c.solutionHtml,
    maxScore: c.grade,
    answerType: 'ordering' as const,
    content: { items, shuffle: true },
    reference: { order: ids },
  };
  if (grading === 'ALL_OR_NOTHING')
    return { task: { ...task, scoring: { method: 'all_or_nothing' } }, notes: [] };
  const rules = orderingRules(grading, ids, c.grade);
  if (!rules) return { refused: note('ordering_partial_unsupported', { grading: grading.toLowerCase() }) };
  return {
    task: {
      ...task,
      scoring: {
        method: 'qti',
        responses: [{ id: 'RESPONSE', cardinality: 'ordered', baseType: 'identifier', correct: ids }],
        outcomes: [{ id: 'SCORE', cardinality: 'single', baseType: 'float' }],
        rules: rules as unknown as QtiRule[],
        bind: { response: 'RESPONSE' },
        scoreOutcome: 'SCORE',
      },
    },
    notes: [],
  };
}

/** Why a question type is not imported. */
function unsupported(type: string): ImportNote {
  const qtype = type.slice(0, 100);
  if (type === 'random' || type === 'randomsamatch') return note('qtype_random', { qtype });
  if (type.startsWith('calculated')) return note('qtype_calculated', { qtype });
  return note('qtype_unsupported', { qtype });
}

// ---------------------------------------------------------------- the file

function readQuestion(q: XmlNode, type: string, category: string[], ids: SourceIds): ParsedItem {
  const qtext = q.questiontext;
  const format = formatOf(attr(qtext, 'format'), 'html');
  let html = fieldHtml(qtext);
  const name = oneLineText(innerText(q.name));
  const base = ids.take(name || stableId('moodle', `${type}\n${innerText(qtext)}`));
  const title = name || titleFromHtml(html, base.id);
  const item = (
    outcome: ParsedItem['outcome'],
    notes: ImportNote[],
    task?: ParsedTask,
    media: ParsedMedia[] = [],
  ) => ({
    sourceId: base.id,
    title,
    ...(category.length ? { category: [...category] } : {}),
    outcome,
    notes: base.note ? [...notes, base.note] : notes,
    ...(task ? { task } : {}),
    media,
  });

  if (type === 'description') return item('refused', [note('description_no_question')]);
  const handlers: Record<string, ((c: Common) => Built) | undefined> = {
    multichoice: (c) => multichoice(q, c, format),
    truefalse: (c) => truefalse(q, c),
    shortanswer: (c) => shortanswer(q, c),
    numerical: (c) => numerical(q, c),
    matching: (c) => matching(q, c, format),
    match: (c) => matching(q, c, format),
    essay: (c) => essay(q, c),
    gapselect: (c) => gapselect(q, c),
    ddwtos: (c) => ddwtos(q, c),
    ordering: (c) => ordering(q, c, format),
    cloze: (c) => clozeTask(c.html, c.solutionHtml),
    multianswer: (c) => clozeTask(c.html, c.solutionHtml),
  };
  const handler = handlers[type];
  if (!handler) return item('refused', [unsupported(type)]);

  const notes: ImportNote[] = [];
  const files = inlineFiles(q);
  // Moodle 1.9 kept one picture per question outside its text.
  const image = textOf(q.image).trim();
  if (image) {
    const bytes = decodeBase64(textOf(q.image_base64));
    // Moodle stores it as one file of the text's folder, a path's slashes made underscores.
    const fileName = image.replace(/[\\/]/g, '_');
    if (bytes) {
      files.push({ key: `/${fileName}`, name: fileName, bytes });
      html += ` <img src="@@PLUGINFILE@@/${encodeURIComponent(fileName)}" alt="" />`;
    } else notes.push(note('picture_not_in_file', { name: fileName.slice(0, 100) }));
  }
  const cloze = type === 'cloze' || type === 'multianswer';
  const grade = cloze ? 1 : numberOf(q.defaultgrade, 1);
  const gradeIssue = gradeProblem(grade);
  if (gradeIssue) return item('refused', [gradeIssue]);
  const feedback = innerText(q.generalfeedback);
  const common: Common = {
    html,
    solutionHtml:
      oneLineText(feedback) || /<img/i.test(feedback) ? fieldHtml(q.generalfeedback, format) : null,
    grade,
  };
  const built = handler(common);
  if ('refused' in built) return item('refused', [built.refused]);
  notes.push(...lossNotes(q), ...built.notes);
  const media = pluginFileMedia(built.task, files, notes);
  return item(notes.length ? 'converted' : 'imported', uniqueNotes(notes), built.task, media);
}

function parseMoodle(name: string, bytes: Buffer): ParsedBatch {
  const doc = asNode(
    parseXmlSafely(bytes, name, {
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      isArray: (tag) => ARRAYS.has(tag),
    }),
  );
  if (!('quiz' in doc))
    throw new ImportRefusal('import_invalid', `${name}: a Moodle XML file has a <quiz> root`);
  const ids = new SourceIds();
  const items: ParsedItem[] = [];
  let category: string[] = [];
  for (const raw of list(asNode(doc.quiz).question)) {
    const q = asNode(raw);
    const type = (attr(q, 'type') ?? '').trim().toLowerCase();
    if (type === 'category') {
      category = categoryPath(innerText(q.category));
      continue;
    }
    items.push(readQuestion(q, type || 'unknown', category, ids));
  }
  return { format: 'moodle', items, tests: [] };
}

/** The Moodle parser: Moodle XML (root <quiz>). */
export const moodleParser: FormatParser = {
  name: 'moodle',
  parse(input) {
    if (!('bytes' in input)) throw unsupportedFormat('A Moodle XML import is one .xml file, not a package');
    return parseMoodle(input.name, input.bytes);
  },
};
