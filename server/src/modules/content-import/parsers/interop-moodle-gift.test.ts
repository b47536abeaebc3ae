import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { placeholderProblems, taskDefinitionSchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../scoring/index.js';
import { parseFile } from './index.js';
import { oneLineText } from './moodle-common.js';
import type { ParsedBatch, ParsedItem } from './types.js';
import { besideTheClone, sharedFolder } from '../../../../test/beside-the-clone.js';

/*
 * Real Moodle XML and GIFT files (../shared/fixtures/interop: Moodle's own test fixtures and the
 * GIFT-grammar-PEG.js test files) read through the registry, and the answers their MANIFEST.txt
 * states scored by the scoring engine on the parsed tasks. Every moodlexml/ and gift/ file of the
 * manifest must have its expectations here, so a new fixture cannot slip through unchecked. The
 * peg_*.gift files are compared with the AST their project expects (peg_*.expected.json): the
 * answers found and their weights.
 */

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
const FIXTURES = join(sharedFolder(repoRoot), 'fixtures', 'interop');
const present = besideTheClone(join(FIXTURES, 'MANIFEST.txt'));

/** The manifest's entries: file → its text (the indented lines under it). */
function readManifest(): Map<string, string> {
  const entries = new Map<string, string>();
  let current: string | null = null;
  for (const line of readFileSync(join(FIXTURES, 'MANIFEST.txt'), 'utf8').split(/\r?\n/)) {
    const head = /^((?:moodlexml|gift)\/\S+)\s*$/.exec(line);
    if (head) entries.set((current = head[1]!), '');
    else if (/^\S/.test(line)) current = null;
    else if (current) entries.set(current, `${entries.get(current)}${line.trim()}\n`);
  }
  return entries;
}

// ---------------------------------------------------------------- helpers

function find(batch: ParsedBatch, sourceId: string): ParsedItem {
  const item = batch.items.find((i) => i.sourceId === sourceId);
  expect(item, `no item ${sourceId}`).toBeDefined();
  return item!;
}

/** The score of an answer on the item's task (checked against the contract first). */
function score(item: ParsedItem, value: unknown): number | string {
  expect(item.outcome, item.notes.map((n) => n.text).join('; ')).not.toBe('refused');
  const task = item.task!;
  expect(taskDefinitionSchema.safeParse(task).error?.issues ?? []).toEqual([]);
  expect(placeholderProblems(task.answerType, task.content, task.html)).toEqual([]);
  const r = scoreAnswer(task, value);
  return r.status === 'scored' ? r.score : r.status;
}

type Labelled = { id: string; html: string };
const list = (item: ParsedItem, key: string) => (item.task!.content as Record<string, Labelled[]>)[key]!;
/** The id of the option / left / right item / word whose html is `html`. */
function id(item: ParsedItem, key: string, html: string): string {
  const found = list(item, key).find((o) => o.html === html);
  expect(found, `${item.sourceId}: no ${key} "${html}"`).toBeDefined();
  return found!.id;
}
/** A matching answer from text pairs. */
const pairs = (item: ParsedItem, given: [string, string][]) =>
  Object.fromEntries(given.map(([l, r]) => [id(item, 'left', l), id(item, 'right', r)]));
/** A cloze answer: for each gap, a drop-down option by its text or a typed text. */
function gaps(item: ParsedItem, given: Record<string, string>): Record<string, string> {
  const blanks = (
    item.task!.content as { blanks: { id: string; kind: string; options?: { id: string; text: string }[] }[] }
  ).blanks;
  return Object.fromEntries(
    Object.entries(given).map(([gap, text]) => {
      const blank = blanks.find((b) => b.id === gap)!;
      return [gap, blank.kind === 'choice' ? blank.options!.find((o) => o.text === text)!.id : text];
    }),
  );
}
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

// ---------------------------------------------------------------- the GIFT-grammar-PEG.js ASTs

type PegText = { format: string; text: string };
type PegNumber = {
  type: 'simple' | 'range' | 'high-low';
  number?: number;
  range?: number;
  numberHigh?: number;
  numberLow?: number;
};
type PegChoice = { isCorrect: boolean; weight: number | null; text: PegText | PegNumber };
interface PegQuestion {
  type: string;
  title: string | null;
  stem: PegText;
  isTrue?: boolean;
  choices?: PegChoice[] | PegNumber;
  matchPairs?: { subquestion: PegText; subanswer: string }[];
}

/** A choice's fraction as Moodle gives it: a right answer 100 % unless weighted, a wrong one 0 %. */
const fractionOf = (c: PegChoice) => (c.weight ?? (c.isCorrect ? 100 : 0)) / 100;
const bounds = (n: PegNumber): [number, number] =>
  n.type === 'high-low'
    ? [n.numberLow!, n.numberHigh!]
    : [n.number! - (n.range ?? 0), n.number! + (n.range ?? 0)];
const squash = (s: string) => s.replace(/\s+/g, '');

/** The parsed items against the expected AST: same questions, answers and weights, scored so. */
function compareWithPeg(batch: ParsedBatch, expected: PegQuestion[]) {
  expect(batch.items).toHaveLength(expected.length);
  expected.forEach((q, i) => {
    const item = batch.items[i]!;
    if (q.title) expect(item.sourceId).toBe(q.title);
    const stem = q.stem.format === 'html' ? item.task!.html : oneLineText(item.task!.html);
    expect(squash(stem)).toBe(squash(q.stem.text));
    const choices = q.choices;
    switch (q.type) {
      case 'MC': {
        const single = item.task!.answerType === 'single_choice';
        for (const c of choices as PegChoice[]) {
          const option = id(item, 'options', (c.text as PegText).text);
          expect(score(item, single ? option : [option])).toBeCloseTo(Math.max(0, fractionOf(c)), 6);
        }
        break;
      }
      case 'Short':
        expect(item.task!.answerType).toBe('short_text');
        for (const c of choices as PegChoice[])
          expect(score(item, (c.text as PegText).text)).toBeCloseTo(fractionOf(c), 6);
        break;
      case 'TF':
        expect(score(item, id(item, 'options', 'Верно'))).toBe(q.isTrue ? 1 : 0);
        expect(score(item, id(item, 'options', 'Неверно'))).toBe(q.isTrue ? 0 : 1);
        break;
      case 'Numerical': {
        expect(item.task!.answerType).toBe('number');
        if (!Array.isArray(choices)) {
          const [lo, hi] = bounds(choices as PegNumber);
          for (const x of [lo, (lo + hi) / 2, hi]) expect(score(item, String(x))).toBe(1);
          expect(score(item, String(hi + Math.max(1, hi - lo)))).toBe(0);
          break;
        }
        // Every answer's centre scores the weight of the first answer (in order) holding it.
        for (const c of choices) {
          const [lo, hi] = bounds(c.text as PegNumber);
          const x = (lo + hi) / 2;
          const first = choices.find((d) => {
            const [a, b] = bounds(d.text as PegNumber);
            return a <= x && x <= b;
          })!;
          expect(score(item, String(x))).toBeCloseTo(fractionOf(first), 6);
        }
        break;
      }
      case 'Matching':
        expect(
          score(
            item,
            pairs(
              item,
              q.matchPairs!.map((p) => [p.subquestion.text, p.subanswer]),
            ),
          ),
        ).toBe(1);
        break;
      default:
        throw new Error(`no check for ${q.type}`);
    }
  });
}

// ---------------------------------------------------------------- expectations per file

interface Expectation {
  /** What the manifest says about the file (its words), so the checks follow the manifest. */
  manifestSays: string[];
  check: (batch: ParsedBatch) => void;
}

const pegFile = (json: string) => (batch: ParsedBatch) =>
  compareWithPeg(batch, JSON.parse(readFileSync(join(FIXTURES, 'gift', json), 'utf8')) as PegQuestion[]);

const EXPECTED: Record<string, Expectation> = {
  'moodlexml/moodle_essay_testquestion.xml': {
    manifestSays: ['essay', 'manually graded'],
    check: (b) => {
      const item = find(b, 'essay-001');
      expect(item.task).toMatchObject({
        answerType: 'extended_text',
        maxScore: 1,
        criteria: [{ maxScore: 1 }],
      });
      expect(score(item, 'Five hundred words.')).toBe('manual');
    },
  },
  'moodlexml/moodle_gapselect_testquestion.xml': {
    manifestSays: ['[[1]]=cat', '[[2]]=sat', '[[3]]=mat', 'dog/table distractors'],
    check: (b) => {
      const item = find(b, 'Imported Select missing words 001');
      expect(score(item, gaps(item, { g1: 'cat', g2: 'sat', g3: 'mat' }))).toBe(1);
      expect(score(item, gaps(item, { g1: 'dog', g2: 'sat', g3: 'mat' }))).toBeCloseTo(2 / 3, 6);
      expect(score(item, gaps(item, { g1: 'table', g2: 'dog', g3: 'cat' }))).toBe(0);
    },
  },
  'moodlexml/moodle_matching_testquestion.xml': {
    manifestSays: ['frog->amphibian', 'cat->mammal', 'newt->amphibian', 'insect'],
    check: (b) => {
      const item = find(b, 'matching-001');
      const right = (a: string): [string, string][] => [
        ['frog', 'amphibian'],
        ['cat', 'mammal'],
        ['newt', a],
      ];
      expect(score(item, pairs(item, right('amphibian')))).toBe(1);
      expect(score(item, pairs(item, right('insect')))).toBeCloseTo(2 / 3, 6);
    },
  },
  'moodlexml/moodle_multichoice_multi_testquestion.xml': {
    manifestSays: ['London 50% + Paris 50% = 100%', 'Tokyo/Spain/Barcelona 0%'],
    check: (b) => {
      const item = find(b, 'Multi-choice-001');
      const o = (t: string) => id(item, 'options', t);
      expect(score(item, [o('London'), o('Paris')])).toBe(1);
      expect(score(item, [o('London')])).toBe(0.5);
      expect(score(item, [o('Tokyo'), o('Spain'), o('Barcelona')])).toBe(0);
    },
  },
  'moodlexml/moodle_nested_categories_with_questions.xml': {
    manifestSays: ['nested categories', 'all TF: true = 100%'],
    check: (b) => {
      expect(b.items.map((i) => [i.sourceId, i.category])).toEqual([
        ['Iota Question', ['Iota']],
        ['Kappa Essay Question', ['Iota', 'Kappa']],
        ['Kappa Question', ['Iota', 'Kappa']],
        ['Lambda Question', ['Iota', 'Kappa', 'Lambda']],
        ['Mu Question', ['Iota', 'Mu']],
      ]);
      for (const item of b.items.filter((i) => i.task?.answerType === 'single_choice')) {
        expect(score(item, id(item, 'options', 'Верно'))).toBe(1);
        expect(score(item, id(item, 'options', 'Неверно'))).toBe(0);
      }
      expect(find(b, 'Kappa Essay Question').task!.answerType).toBe('extended_text');
    },
  },
  'moodlexml/moodle_numerical_testquestion.xml': {
    manifestSays: ['6.25 +/- 0.05 -> 100%'],
    check: (b) => {
      const item = find(b, 'Numerical-001');
      for (const x of ['6.25', '6.2', '6.3', '6,27']) expect([x, score(item, x)]).toEqual([x, 1]);
      for (const x of ['6.19', '6.31']) expect([x, score(item, x)]).toEqual([x, 0]);
    },
  },
  'moodlexml/moodle_sample_questions_with_old_image_tag.xml': {
    manifestSays: [
      'San Francisco=California',
      'Tucson=Arizona',
      'Phoenix=Arizona',
      'capital=Paris (Marseille 50%)',
    ],
    check: (b) => {
      const cloze = find(b, 'cloze question with image');
      const answer = (capital: string, tucson = 'Arizona') =>
        gaps(cloze, { b1: 'California', b2: tucson, b3: 'California', b4: 'Arizona', b5: capital });
      expect(cloze.task!.maxScore).toBe(5); // the sum of the five gap weights
      expect(score(cloze, answer('Paris'))).toBe(5);
      expect(score(cloze, answer('Marseille'))).toBe(4.5);
      expect(score(cloze, answer('Lyon', 'California'))).toBe(3);
      const mcq = find(b, 'mcq with image');
      expect(score(mcq, id(mcq, 'options', 'right answer'))).toBe(1);
      expect(score(mcq, id(mcq, 'options', 'wrong answer'))).toBe(0);
      for (const item of [cloze, mcq]) {
        expect(item.media).toHaveLength(1);
        expect(item.media[0]!.ref).toBe('@@PLUGINFILE@@/moodle.png');
        expect(item.media[0]!.bytes!.subarray(0, 4)).toEqual(PNG);
        expect(item.task!.html).toContain('<img src="@@PLUGINFILE@@/moodle.png"');
      }
    },
  },
  'moodlexml/moodle_shortanswer_testquestion.xml': {
    manifestSays: ['frog=100%', 'toad=80%', '*=0%'],
    check: (b) => {
      const item = find(b, 'shortanswer-001');
      expect(score(item, 'frog')).toBe(1);
      expect(score(item, 'Frog')).toBe(1);
      expect(score(item, 'toad')).toBe(0.8);
      expect(score(item, 'newt')).toBe(0);
    },
  },
  'moodlexml/moodle_truefalse_testquestion.xml': {
    manifestSays: ['true = 100%', 'false = 0%'],
    check: (b) => {
      const item = find(b, 'true-false-001');
      expect(score(item, id(item, 'options', 'Верно'))).toBe(1);
      expect(score(item, id(item, 'options', 'Неверно'))).toBe(0);
    },
  },
  'gift/moodle_questions.gift.txt': {
    manifestSays: ['distractor "-> Chat"', '%50/%-100', '{#3:2}', 'Frog 100%, Cat 50%'],
    check: (b) => {
      expect(b.items.map((i) => i.sourceId)).toEqual([
        'Q8',
        'Moodle activities',
        'Q2',
        'colours',
        'Q5',
        'Shortanswer',
        'Q1',
        '2-08 TSL',
        '2-08 TSL (2)',
      ]);
      expect(find(b, 'Q8').task!.answerType).toBe('extended_text');
      const match = find(b, 'Moodle activities');
      expect(list(match, 'right').map((r) => r.html)).toContain('Chat');
      expect(list(match, 'left')).toHaveLength(4);
      const full = pairs(match, [
        ['An activity supporting asynchronous discussions.', 'Forum'],
        ['A teacher asks a question and specifies a choice of multiple responses.', 'Choice'],
        ['A bank of record entries which participants can add to.', 'Database'],
        ['<p>A collection of web pages that anyone can add to or edit.</p>', 'Wiki'],
      ]);
      expect(score(match, full)).toBe(1);
      const q2 = find(b, 'Q2');
      expect(score(q2, id(q2, 'options', 'yellow'))).toBe(1);
      expect(score(q2, id(q2, 'options', 'red'))).toBe(0);
      const colours = find(b, 'colours');
      const c = (t: string) => id(colours, 'options', t);
      expect(score(colours, [c('yellow'), c('off-beige')])).toBe(1);
      expect(score(colours, [c('yellow')])).toBe(0.5);
      expect(score(colours, [c('yellow'), c('off-beige'), c('red')])).toBe(0);
      const q5 = find(b, 'Q5');
      for (const x of ['1', '3', '5']) expect(score(q5, x)).toBe(1);
      expect(score(q5, '5.5')).toBe(0);
      const sa = find(b, 'Shortanswer');
      expect([score(sa, 'Frog'), score(sa, 'Cat'), score(sa, 'Dog')]).toEqual([1, 0.5, 0]);
      const q1 = find(b, 'Q1');
      expect(score(q1, id(q1, 'options', 'Неверно'))).toBe(1);
      expect(q1.task!.solutionHtml).toBe("This is, of course, a Hitchiker's Guide to the Galaxy reference.");
      for (const tsl of ['2-08 TSL', '2-08 TSL (2)']) expect(score(find(b, tsl), 'a')).toBe(1);
    },
  },
  'gift/moodle_questions_in_category.gift.txt': {
    manifestSays: ['$CATEGORY', 'Greeting: French', 'Moodle user: Moodler', 'Moodle acronym: TRUE'],
    check: (b) => {
      expect(b.items.map((i) => i.category)).toEqual(b.items.map(() => ['Default for New Features']));
      const greeting = find(b, 'Greeting');
      expect(score(greeting, id(greeting, 'options', 'French'))).toBe(1);
      expect(score(greeting, id(greeting, 'options', 'English'))).toBe(0);
      expect(score(find(b, 'Moodle user'), 'Moodler')).toBe(1);
      const acronym = find(b, 'Moodle acronym');
      expect(score(acronym, id(acronym, 'options', 'Верно'))).toBe(1);
      expect(list(find(b, 'Moodle activities'), 'right')).toHaveLength(5);
    },
  },
  'gift/peg_giftFormatPhpExamples.gift': {
    manifestSays: ['peg_giftFormatPhpExamples.expected.json'],
    check: pegFile('peg_giftFormatPhpExamples.expected.json'),
  },
  'gift/peg_numerical1.gift': {
    manifestSays: ['{#1822} -> 1822', '{=1822:0 =%50%1822:2} -> 100%/50%'],
    check: pegFile('peg_numerical1.expected.json'),
  },
  'gift/peg_matching1.gift': {
    manifestSays: ['Canada->Ottawa', 'India->New Delhi', 'subquestionN->subanswerN'],
    check: (b) => {
      expect(b.items).toHaveLength(2);
      const [first, second] = b.items;
      const n = [1, 2, 3].map((i): [string, string] => [`subquestion${i}`, `subanswer${i}`]);
      expect(score(first!, pairs(first!, n))).toBe(1);
      const capitals: [string, string][] = [
        ['Canada', 'Ottawa'],
        ['Italy', 'Rome'],
        ['Japan', 'Tokyo'],
        ['India', 'New Delhi'],
      ];
      expect(score(second!, pairs(second!, capitals))).toBe(1);
      expect(score(second!, pairs(second!, [...capitals.slice(0, 3), ['India', 'Tokyo']]))).toBe(0.75);
    },
  },
};

/** The expected-AST files: used by the peg checks above, not parsed as GIFT themselves. */
const AST_FILES = ['gift/peg_giftFormatPhpExamples.expected.json', 'gift/peg_numerical1.expected.json'];

const suite = describe.skipIf(!present);
suite(
  present
    ? 'interop fixtures: Moodle XML and GIFT'
    : '../shared/fixtures/interop not found: fixture tests skipped',
  () => {
    it('the manifest lists every Moodle XML and GIFT file of the folder, and each has expectations here', () => {
      const manifest = readManifest();
      const onDisk = ['moodlexml', 'gift'].flatMap((dir) =>
        readdirSync(join(FIXTURES, dir)).map((f) => `${dir}/${f}`),
      );
      expect([...manifest.keys()].sort()).toEqual(onDisk.sort());
      expect([...manifest.keys()].filter((f) => !AST_FILES.includes(f)).sort()).toEqual(
        Object.keys(EXPECTED).sort(),
      );
    });

    it.each(Object.keys(EXPECTED))('%s parses and scores as the manifest states', async (file) => {
      const entry = readManifest().get(file);
      expect(entry, `${file} is not in the manifest`).toBeDefined();
      for (const words of EXPECTED[file]!.manifestSays) expect(entry).toContain(words);
      const batch = await parseFile(file.split('/').pop()!, readFileSync(join(FIXTURES, file)));
      expect(batch.format).toBe(file.startsWith('gift/') ? 'gift' : 'moodle');
      expect(batch.items.length).toBeGreaterThan(0);
      for (const item of batch.items)
        expect([item.sourceId, item.outcome]).not.toEqual([item.sourceId, 'refused']);
      EXPECTED[file]!.check(batch);
    });
  },
);
