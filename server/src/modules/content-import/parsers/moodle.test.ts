import { placeholderProblems, taskDefinitionSchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../scoring/index.js';
import { parseFile, parserFor } from './index.js';
import { categoryPath } from './moodle-common.js';
import { moodleParser } from './moodle.js';
import { ImportRefusal, type ParsedBatch, type ParsedItem, type ParsedTask } from './types.js';

/*
 * The Moodle XML parser, question type by question type, on small inline files: the task each
 * question becomes is valid for the contract and scores as Moodle scores it (fraction × grade).
 */

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const quiz = (...questions: string[]) =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions.join('\n')}\n</quiz>`);

/** A question of a type with a name, a question text and more elements. */
const question = (type: string, name: string, text: string, more = '') =>
  `<question type="${type}"><name><text>${name}</text></name>` +
  `<questiontext format="html"><text><![CDATA[${text}]]></text></questiontext>${more}</question>`;

const category = (path: string) =>
  `<question type="category"><category><text>${path}</text></category></question>`;

const answer = (fraction: number | string, text: string, extra = '') =>
  `<answer fraction="${fraction}" format="html"><text><![CDATA[${text}]]></text>${extra}</answer>`;

const parse = (...questions: string[]): ParsedBatch =>
  moodleParser.parse({ name: 'q.xml', bytes: quiz(...questions) }) as ParsedBatch;

const only = (...questions: string[]): ParsedItem => {
  const batch = parse(...questions);
  expect(batch.items).toHaveLength(1);
  return batch.items[0]!;
};

/** The item's task, checked against the contract (and its html placeholders). */
/** The English texts of an item's notes. */
const texts = (item: ParsedItem) => item.notes.map((n) => n.text);

function taskOf(item: ParsedItem): ParsedTask {
  expect(item.outcome, texts(item).join('; ')).not.toBe('refused');
  const task = item.task!;
  const checked = taskDefinitionSchema.safeParse(task);
  expect(checked.error?.issues ?? []).toEqual([]);
  expect(placeholderProblems(task.answerType, task.content, task.html)).toEqual([]);
  return task;
}

/** The score of an answer, or its status when it is not scored. */
function score(item: ParsedItem, value: unknown): number | string {
  const r = scoreAnswer(taskOf(item), value);
  return r.status === 'scored' ? r.score : r.status;
}

type Labelled = { id: string; html: string };
/** The id of the option (left or right item, word) whose html is `html`. */
function idOf(list: unknown, html: string): string {
  const found = (list as Labelled[]).find((o) => o.html === html);
  expect(found, `no option "${html}"`).toBeDefined();
  return found!.id;
}
const content = (item: ParsedItem) => item.task!.content as Record<string, unknown>;

describe('Moodle XML: multichoice', () => {
  it('single answer with fractions, negative ones clamped at 0, scores fraction × grade', () => {
    const item = only(
      question(
        'multichoice',
        'mc-1',
        'Capital of France?',
        '<defaultgrade>2</defaultgrade><single>true</single><shuffleanswers>0</shuffleanswers>' +
          answer(100, 'Paris') +
          answer(50, 'Lyon') +
          answer(-50, 'Berlin') +
          answer(0, 'Rome'),
      ),
    );
    expect(item).toMatchObject({ sourceId: 'mc-1', title: 'mc-1', outcome: 'imported', notes: [] });
    expect(item.task).toMatchObject({
      answerType: 'single_choice',
      maxScore: 2,
      content: { shuffle: false },
    });
    const options = content(item).options;
    expect(score(item, idOf(options, 'Paris'))).toBe(2);
    expect(score(item, idOf(options, 'Lyon'))).toBe(1);
    expect(score(item, idOf(options, 'Berlin'))).toBe(0);
    expect(score(item, idOf(options, 'Rome'))).toBe(0);
  });

  it('a single answer with one 100 % option and the rest 0 is scored all or nothing', () => {
    const item = only(
      question('multichoice', 'mc-2', 'Q', answer(0, 'a') + answer(100, 'b') + answer(0, '  ')),
    );
    expect(item.task).toMatchObject({ scoring: { method: 'all_or_nothing' }, content: { shuffle: false } });
    expect(content(item).options).toHaveLength(2); // a blank answer is skipped, as Moodle does
    expect(score(item, 'b')).toBe(1);
    expect(score(item, 'a')).toBe(0);
  });

  it('several answers: the sum of the chosen fractions, clamped to [0, grade]', () => {
    const item = only(
      question(
        'multichoice',
        'mc-3',
        'Pick the even numbers',
        '<single>false</single><defaultgrade>3</defaultgrade>' +
          answer(50, '2') +
          answer(50, '4') +
          answer(-100, '5') +
          answer('-33.33333', '7'),
      ),
    );
    expect(item.task).toMatchObject({
      answerType: 'multiple_choice',
      maxScore: 3,
      reference: { correct: ['a', 'b'] },
    });
    expect(score(item, ['a', 'b'])).toBe(3);
    expect(score(item, ['a'])).toBe(1.5);
    expect(score(item, ['a', 'b', 'd'])).toBe(2);
    expect(score(item, ['a', 'c'])).toBe(0);
    expect(score(item, ['c', 'd'])).toBe(0);
  });

  it('feedback, hints and the penalty are noted and make the item converted', () => {
    const item = only(
      question(
        'multichoice',
        'mc-4',
        'Q',
        '<penalty>0.3333333</penalty><correctfeedback format="html"><text>Well done</text></correctfeedback>' +
          answer(100, 'a', '<feedback format="html"><text>yes</text></feedback>') +
          answer(0, 'b') +
          '<hint format="html"><text>think</text></hint>',
      ),
    );
    expect(item.outcome).toBe('converted');
    expect(item.notes.map((n) => n.code)).toEqual(['feedback_dropped', 'hints_dropped', 'penalty_ignored']);
    expect(texts(item)).toEqual([
      expect.stringContaining('feedback'),
      expect.stringContaining('hints'),
      expect.stringContaining('penalty'),
    ]);
  });

  it('refuses a choice without a correct option or with fewer than two choices', () => {
    expect(only(question('multichoice', 'x', 'Q', answer(0, 'a') + answer(0, 'b')))).toMatchObject({
      outcome: 'refused',
      notes: [{ code: 'choices_no_marks', text: 'no choice gives any marks' }],
    });
    expect(only(question('multichoice', 'y', 'Q', answer(100, 'a'))).outcome).toBe('refused');
  });
});

describe('Moodle XML: truefalse', () => {
  it('becomes a single choice of Верно / Неверно; the answer named true decides', () => {
    const item = only(
      question('truefalse', 'tf', 'The Earth is flat.', answer(0, 'true') + answer(100, 'false')),
    );
    const options = content(item).options;
    expect(score(item, idOf(options, 'Неверно'))).toBe(1);
    expect(score(item, idOf(options, 'Верно'))).toBe(0);
  });
});

describe('Moodle XML: shortanswer', () => {
  const sa = (more: string, answers: string) =>
    only(question('shortanswer', 'sa', 'Name an amphibian', more + answers));

  it('answers in order with their fractions; the first that fits counts', () => {
    const item = sa(
      '<defaultgrade>2</defaultgrade>',
      answer(100, 'frog') + answer(80, 'toad') + answer(0, 'cat') + answer(10, '*'),
    );
    expect(item.task).toMatchObject({ maxScore: 2, scoring: { method: 'per_answer', wildcards: true } });
    expect(score(item, 'frog')).toBe(2);
    expect(score(item, 'FROG')).toBe(2);
    expect(score(item, 'toad')).toBe(1.6);
    expect(score(item, 'cat')).toBe(0);
    expect(score(item, 'newt')).toBe(0.2);
  });

  it('usecase makes letter case count', () => {
    const item = sa('<usecase>1</usecase>', answer(100, 'NaCl'));
    expect(score(item, 'NaCl')).toBe(1);
    expect(score(item, 'nacl')).toBe(0);
  });

  it('* is a wildcard, \\* a star', () => {
    const item = sa('', answer(100, 'fr*g') + answer(50, 'a\\*b'));
    expect(score(item, 'fraaag')).toBe(1);
    expect(score(item, 'a*b')).toBe(0.5);
    expect(score(item, 'axb')).toBe(0);
  });

  it('ё and е differ, as in Moodle', () => {
    const item = sa('', answer(100, 'ёж'));
    expect(score(item, 'ёж')).toBe(1);
    expect(score(item, 'еж')).toBe(0);
  });

  it('refuses a question where no answer gives marks', () => {
    expect(sa('', answer(0, 'x'))).toMatchObject({
      outcome: 'refused',
      notes: [{ code: 'answers_no_marks', text: 'no answer gives any marks' }],
    });
  });
});

describe('Moodle XML: numerical', () => {
  const num = (more: string) => only(question('numerical', 'nm', 'How much?', more));
  const ans = (fraction: number, text: string, tolerance: number) =>
    answer(fraction, text, `<tolerance>${tolerance}</tolerance>`);

  it('one answer within its tolerance', () => {
    const item = num(ans(100, '6.25', 0.05));
    expect(item.task).toMatchObject({
      reference: { value: 6.25, tolerance: 0.05 },
      scoring: { method: 'all_or_nothing' },
    });
    expect(score(item, '6,3')).toBe(1);
    expect(score(item, '6.2')).toBe(1);
    expect(score(item, '6.31')).toBe(0);
  });

  it('several answers with fractions score in order; a * answer worth 0 is dropped', () => {
    const item = num(
      '<defaultgrade>4</defaultgrade>' + ans(100, '1822', 0) + ans(50, '1822', 2) + ans(0, '*', 0),
    );
    expect(score(item, '1822')).toBe(4);
    expect(score(item, '1823')).toBe(2);
    expect(score(item, '1900')).toBe(0);
    expect((item.task!.reference as { answers: unknown[] }).answers).toHaveLength(2);
  });

  it('a * answer worth marks accepts any number', () => {
    const item = num(ans(100, '5', 0) + ans(25, '*', 0));
    expect(score(item, '5')).toBe(1);
    expect(score(item, '-1e0'.replace('e0', ''))).toBe(0.25);
  });

  it('the base unit is shown and accepted; other units are noted', () => {
    const units =
      '<units><unit><multiplier>1</multiplier><unit_name>cm</unit_name></unit>' +
      '<unit><multiplier>0.01</multiplier><unit_name>m</unit_name></unit></units>';
    const item = num(ans(100, '31.4', 0.05) + units);
    expect(item.task).toMatchObject({ content: { unit: 'cm' } });
    expect(item.outcome).toBe('converted');
    expect(item.notes).toContainEqual({
      code: 'units_dropped',
      params: { units: 'm' },
      text: 'only the base unit is accepted: other units and their multipliers dropped (m)',
    });
    expect(score(item, '31,4 см'.replace('см', 'cm'))).toBe(1);
  });

  it('refuses an answer that is not a number', () => {
    expect(num(ans(100, 'six', 0))).toMatchObject({
      outcome: 'refused',
      notes: [
        { code: 'answer_not_number', params: { answer: 'six' }, text: 'the answer "six" is not a number' },
      ],
    });
  });
});

describe('Moodle XML: matching', () => {
  const sub = (q: string, a: string) =>
    `<subquestion format="html"><text>${q}</text><answer><text>${a}</text></answer></subquestion>`;

  it('share of stems matched right × grade; a textless stem is a distractor; equal answers are one', () => {
    const item = only(
      question(
        'matching',
        'm',
        'Classify',
        '<defaultgrade>3</defaultgrade><shuffleanswers>false</shuffleanswers>' +
          sub('frog', 'amphibian') +
          sub('cat', 'mammal') +
          sub('newt', 'amphibian') +
          sub('', 'insect'),
      ),
    );
    const c = content(item);
    expect(c).toMatchObject({ shuffle: false });
    expect((c.right as Labelled[]).map((r) => r.html)).toEqual(['amphibian', 'mammal', 'insect']);
    const [frog, cat, newt] = ['frog', 'cat', 'newt'].map((s) => idOf(c.left, s));
    const [amph, mamm, ins] = ['amphibian', 'mammal', 'insect'].map((s) => idOf(c.right, s));
    expect(score(item, { [frog!]: amph, [cat!]: mamm, [newt!]: amph })).toBe(3);
    expect(score(item, { [frog!]: amph, [cat!]: mamm, [newt!]: ins })).toBe(2);
    expect(score(item, { [frog!]: mamm })).toBe(0);
  });
});

describe('Moodle XML: essay', () => {
  it('extended text graded by one criterion worth the grade (grader information as its text)', () => {
    const item = only(
      question(
        'essay',
        'e',
        'Write 500 words.',
        '<defaultgrade>5</defaultgrade><responseformat>editor</responseformat>' +
          '<graderinfo format="html"><text>&lt;p&gt;Argument and style&lt;/p&gt;</text></graderinfo>',
      ),
    );
    expect(item.task).toMatchObject({
      answerType: 'extended_text',
      maxScore: 5,
      criteria: [{ code: 'К1', text: 'Argument and style', maxScore: 5 }],
    });
    expect(item.outcome).toBe('converted');
    expect(score(item, 'My essay')).toBe('manual');
  });

  it('attachments only: a file task', () => {
    const item = only(
      question(
        'essay',
        'e2',
        'Upload a photo of your work.',
        '<responseformat>noinline</responseformat><attachments>2</attachments><filetypeslist>.pdf,image</filetypeslist>',
      ),
    );
    expect(taskOf(item)).toMatchObject({
      answerType: 'file',
      content: { accept: ['application/pdf', 'image/*'], maxFiles: 2 },
    });
  });

  it('refuses a fractional grade (criteria give whole points)', () => {
    expect(only(question('essay', 'e3', 'Q', '<defaultgrade>1.5</defaultgrade>')).outcome).toBe('refused');
  });
});

describe('Moodle XML: gapselect and ddwtos', () => {
  const opt = (tag: string, text: string, group: number, extra = '') =>
    `<${tag}><text>${text}</text><group>${group}</group>${extra}</${tag}>`;

  it('gapselect: drop-downs of the gap’s group, share of gaps right × grade', () => {
    const item = only(
      question(
        'gapselect',
        'gs',
        'The [[1]] sat on the [[2]], [[3]]',
        '<defaultgrade>3</defaultgrade>' +
          opt('selectoption', 'cat', 1) +
          opt('selectoption', 'mat', 1) +
          opt('selectoption', 'quickly', 2) +
          opt('selectoption', 'dog', 1) +
          opt('selectoption', 'slowly', 2),
      ),
    );
    const task = taskOf(item);
    expect(task.html).toBe('The {{g1}} sat on the {{g2}}, {{g3}}');
    const blanks = (task.content as { blanks: { id: string; options: { id: string; text: string }[] }[] })
      .blanks;
    expect(blanks[2]!.options.map((o) => o.text)).toEqual(['quickly', 'slowly']);
    const pick = (b: number, text: string) => blanks[b]!.options.find((o) => o.text === text)!.id;
    expect(score(item, { g1: pick(0, 'cat'), g2: pick(1, 'mat'), g3: pick(2, 'quickly') })).toBe(3);
    expect(score(item, { g1: pick(0, 'dog'), g2: pick(1, 'mat'), g3: pick(2, 'quickly') })).toBe(2);
    expect(score(item, { g1: pick(0, 'dog') })).toBe(0);
  });

  it('ddwtos: words dragged into gaps, infinite ones reusable, groups noted', () => {
    const item = only(
      question(
        'ddwtos',
        'dd',
        '[[1]] and [[1]] make [[2]]',
        '<shuffleanswers>1</shuffleanswers>' +
          opt('dragbox', 'two', 1, '<infinite/>') +
          opt('dragbox', 'four', 2) +
          opt('dragbox', 'five', 2),
      ),
    );
    const task = taskOf(item);
    expect(task).toMatchObject({ answerType: 'gap_match', content: { shuffle: true } });
    const words = content(item).words as (Labelled & { matchMax: number })[];
    expect(words.map((w) => w.matchMax)).toEqual([0, 1, 1]);
    expect(texts(item)).toContain('choice groups dropped: any choice may be dropped into any gap');
    const [two, four, five] = ['two', 'four', 'five'].map((t) => idOf(words, t));
    expect(score(item, { g1: two, g2: two, g3: four })).toBe(1);
    expect(score(item, { g1: two, g2: two, g3: five })).toBeCloseTo(2 / 3, 6);
  });

  it('refuses a gap naming no choice', () => {
    expect(only(question('gapselect', 'bad', '[[4]]', opt('selectoption', 'a', 1))).outcome).toBe('refused');
  });
});

describe('Moodle XML: cloze (multianswer)', () => {
  const cloze = (text: string) =>
    only(
      `<question type="cloze"><name><text>cz</text></name><questiontext><text><![CDATA[${text}]]></text></questiontext></question>`,
    );

  it('typed, numeric and drop-down gaps: the sum of each gap’s weight × fraction', () => {
    const item = cloze(
      'A {2:SHORTANSWER:=Paris#yes~%50%Marseille} B {1:NUMERICAL:=23.8:0.1~%50%23.8:1} C {1:MULTICHOICE:California#x~=Arizona~%-50%Texas}',
    );
    const task = taskOf(item);
    expect(task).toMatchObject({ answerType: 'cloze', maxScore: 4, scoring: { method: 'weighted' } });
    expect(task.html).toBe('A {{b1}} B {{b2}} C {{b3}}');
    expect(texts(item)).toContain('feedback of the gaps dropped (Attesta shows no answer feedback)');
    expect(score(item, { b1: 'paris', b2: '23,85', b3: 'b' })).toBe(4);
    expect(score(item, { b1: 'Marseille', b2: '24.5', b3: 'b' })).toBe(2.5);
    expect(score(item, { b1: 'Lyon', b2: '30', b3: 'c' })).toBe(0);
  });

  it('escapes and text that is no gap stay as written; the weight defaults to 1', () => {
    const item = cloze('Set {x} is {:SA:=a\\}b~=c\\~d#f\\#g} and {1:UNKNOWN:=z}');
    const task = taskOf(item);
    expect(task.html).toBe('Set {x} is {{b1}} and {1:UNKNOWN:=z}');
    expect((task.reference as { blanks: Record<string, string[]> }).blanks.b1).toEqual(['a}b', 'c~d']);
    expect(score(item, { b1: 'c~d' })).toBe(1);
  });

  it('a MULTIRESPONSE gap makes a composite task (Moodle normalises its fractions)', () => {
    const item = cloze('Even: {2:MULTIRESPONSE:=2~=4~5} and {1:SA:=x}');
    const task = taskOf(item);
    expect(task).toMatchObject({ answerType: 'composite', maxScore: 3 });
    expect(task.html).toBe('Even: {{p1}} and {{p2}}');
    expect(score(item, { p1: ['a', 'b'], p2: 'x' })).toBe(3);
    expect(score(item, { p1: ['a'], p2: 'x' })).toBe(2);
    expect(score(item, { p1: ['a', 'c'], p2: 'x' })).toBe(1); // 5 takes back one correct share
  });

  it('typed gaps differing in letter case make a composite task', () => {
    const item = cloze('{1:SAC:=NaCl} {1:SA:=salt}');
    expect(taskOf(item).answerType).toBe('composite');
    expect(score(item, { p1: 'nacl', p2: 'SALT' })).toBe(1);
  });

  it('scans a hostile text in linear time', () => {
    const started = Date.now();
    const item = cloze(`${'{1:SA:a~'.repeat(20_000)}`);
    const closed = cloze(`${'{1:SA:~'.repeat(20_000)}}`);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(item).toMatchObject({ outcome: 'refused', notes: [{ code: 'cloze_no_gaps' }] });
    expect(closed).toMatchObject({
      outcome: 'refused',
      notes: [{ code: 'cloze_no_gaps', text: 'the cloze question has no embedded answers' }],
    });
  });
});

describe('Moodle XML: ordering (plugin)', () => {
  const items = answer(1, 'one') + answer(1, 'two') + answer(1, 'three');
  it('all or nothing: the answers in their right order, shown shuffled', () => {
    const item = only(
      question('ordering', 'o', 'Order', `<gradingtype>ALL_OR_NOTHING</gradingtype>${items}`),
    );
    expect(item.task).toMatchObject({ answerType: 'ordering', content: { shuffle: true } });
    const ids = (content(item).items as Labelled[]).map((i) => i.id);
    expect(score(item, ids)).toBe(1);
    expect(score(item, [...ids].reverse())).toBe(0);
  });

  it('grading by longest subsets and random subsets are refused (positions and neighbours: own-fixtures)', () => {
    expect(
      only(question('ordering', 'p', 'Order', `<gradingtype>LONGEST_ORDERED_SUBSET</gradingtype>${items}`))
        .notes,
    ).toEqual([
      {
        code: 'ordering_partial_unsupported',
        params: { grading: 'longest_ordered_subset' },
        text: 'ordering graded by longest_ordered_subset (partial marks) is not supported',
      },
    ]);
    expect(only(question('ordering', 'r', 'Order', `<selecttype>RANDOM</selecttype>${items}`)).outcome).toBe(
      'refused',
    );
  });
});

describe('Moodle XML: other types', () => {
  it('description is refused: it carries no question', () => {
    expect(only(question('description', 'd', 'Read this first.'))).toMatchObject({
      outcome: 'refused',
      notes: [{ code: 'description_no_question', text: 'description carries no question' }],
      sourceId: 'd',
    });
  });

  it.each([
    ['random', 'draws questions at attempt time'],
    ['calculated', 'computes its answers from random values'],
    ['calculatedmulti', 'computes its answers from random values'],
    ['ddmarker', 'is not supported'],
  ])('%s is refused with its type named', (type, why) => {
    const item = only(question(type, 'r', 'Q'));
    expect(item.outcome).toBe('refused');
    expect(item.notes[0]!.text).toBe(
      `Moodle question type "${type}" ${why}${why === 'is not supported' ? '' : ': not supported'}`,
    );
    expect(item.notes[0]!.params).toEqual({ qtype: type });
  });
});

describe('Moodle XML: categories, names, grades', () => {
  it('category paths set the category of the questions after them', () => {
    const tf = (name: string) => question('truefalse', name, 'Q', answer(100, 'true') + answer(0, 'false'));
    const batch = parse(
      tf('none'),
      category('$course$/top/Алгебра/Уравнения'),
      tf('eq'),
      category('$system$/Geo//Bio'),
      tf('gb'),
    );
    expect(batch.items.map((i) => i.category)).toEqual([undefined, ['Алгебра', 'Уравнения'], ['Geo/Bio']]);
    expect(categoryPath('$course$/Default for C1')).toEqual(['Default for C1']);
  });

  it('the name is the source id; repeated names get a suffix; a nameless question a stable hash id', () => {
    const tf = (name: string, text = 'Q') =>
      question('truefalse', name, text, answer(100, 'true') + answer(0, 'false'));
    const batch = parse(tf('same'), tf('same'), tf('', 'Nameless <b>question</b>'));
    const [a, b, c] = batch.items;
    expect([a!.sourceId, b!.sourceId]).toEqual(['same', 'same (2)']);
    expect(texts(b!)).toContain('another question of the file has the same name: identified as "same (2)"');
    expect(c!.sourceId).toMatch(/^moodle-[0-9a-f]{12}$/);
    expect(c!.title).toBe('Nameless question');
    expect(parse(tf('', 'Nameless <b>question</b>')).items[0]!.sourceId).toBe(c!.sourceId);
  });

  it('defaultgrade is maxScore; a grade of 0 or over 100 is refused', () => {
    const mc = (grade: string) =>
      only(
        question(
          'multichoice',
          'g',
          'Q',
          `<defaultgrade>${grade}</defaultgrade>` + answer(100, 'a') + answer(0, 'b'),
        ),
      );
    expect(mc('2.5').task!.maxScore).toBe(2.5);
    expect(mc('0').outcome).toBe('refused');
    expect(mc('150').outcome).toBe('refused');
  });

  it('the general feedback becomes the solution', () => {
    const item = only(
      question(
        'truefalse',
        't',
        'Q',
        '<generalfeedback format="html"><text>Because.</text></generalfeedback>' +
          answer(100, 'true') +
          answer(0, 'false'),
      ),
    );
    expect(item.task!.solutionHtml).toBe('Because.');
  });
});

describe('Moodle XML: text formats and media', () => {
  const tf = (qtext: string, more = '') =>
    only(
      `<question type="truefalse"><name><text>t</text></name>${qtext}${more}${answer(100, 'true')}${answer(0, 'false')}</question>`,
    );

  it.each([
    ['html', 'a <b>b</b>\nc', 'a <b>b</b>\nc'],
    ['moodle_auto_format', 'a <b>b</b>\nc', 'a <b>b</b><br />\nc'],
    ['plain_text', 'a < b\nc', 'a &lt; b<br />\nc'],
    ['markdown', '**bold** text', '<p><strong>bold</strong> text</p>'],
  ])('%s becomes html', (format, text, html) => {
    const item = tf(`<questiontext format="${format}"><text><![CDATA[${text}]]></text></questiontext>`);
    expect(item.task!.html).toBe(html);
  });

  it('@@PLUGINFILE@@ references take the inline base64 files as media (names URL-encoded or not)', () => {
    const item = tf(
      '<questiontext format="html"><text><![CDATA[<img src="@@PLUGINFILE@@/my%20pic.png"> <img src="@@PLUGINFILE@@/sub/b.png">]]></text>' +
        `<file name="my pic.png" path="/" encoding="base64">${PNG_BASE64}</file>` +
        `<file name="b.png" path="/sub/" encoding="base64">${PNG_BASE64}</file></questiontext>`,
    );
    expect(item.outcome).toBe('imported');
    expect(item.media.map((m) => [m.ref, m.name])).toEqual([
      ['@@PLUGINFILE@@/my%20pic.png', 'my pic.png'],
      ['@@PLUGINFILE@@/sub/b.png', 'b.png'],
    ]);
    expect(item.media[0]!.bytes!.subarray(1, 4).toString()).toBe('PNG');
  });

  it('a reference to a file the XML does not hold is noted', () => {
    const item = tf(
      '<questiontext format="html"><text><![CDATA[<img src="@@PLUGINFILE@@/gone.png">]]></text></questiontext>',
    );
    expect(item).toMatchObject({ outcome: 'converted', media: [] });
    expect(item.notes).toEqual([
      {
        code: 'media_not_in_file',
        params: { name: 'gone.png' },
        text: 'gone.png is referred to but not included in the file: left out',
      },
    ]);
  });

  it('a Moodle 1.9 <image> with <image_base64> is appended to the text as media', () => {
    const item = tf(
      '<questiontext format="html"><text>See:</text></questiontext>',
      `<image>pics/moodle.png</image><image_base64>${PNG_BASE64}</image_base64>`,
    );
    expect(item.task!.html).toBe('See: <img src="@@PLUGINFILE@@/pics_moodle.png" alt="" />');
    expect(item.media).toHaveLength(1);
    expect(item.media[0]!.ref).toBe('@@PLUGINFILE@@/pics_moodle.png');
  });
});

describe('Moodle XML: whole files', () => {
  it('a file that is not well-formed, has a DOCTYPE or is no quiz is refused whole', () => {
    const refusal = (text: string) => {
      try {
        moodleParser.parse({ name: 'x.xml', bytes: Buffer.from(text) });
      } catch (e) {
        return e instanceof ImportRefusal ? e.code : 'other';
      }
      return 'none';
    };
    expect(refusal('<quiz><question type="essay"></quiz>')).toBe('xml_malformed');
    expect(refusal('<!DOCTYPE quiz [<!ENTITY x "y">]><quiz/>')).toBe('xml_malformed');
    expect(refusal('<other/>')).toBe('import_invalid');
  });

  it('the registry sends .xml files with a <quiz> root to this parser', async () => {
    expect(parserFor('moodle')).toBe(moodleParser);
    const batch = await parseFile(
      'q.xml',
      quiz(question('truefalse', 't', 'Q', answer(100, 'true') + answer(0, 'false'))),
    );
    expect(batch).toMatchObject({
      format: 'moodle',
      tests: [],
      items: [{ sourceId: 't', outcome: 'imported' }],
    });
  });
});
