import { placeholderProblems, taskDefinitionSchema } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../scoring/index.js';
import { giftBlocks, giftParser } from './gift.js';
import { parseFile, parserFor } from './index.js';
import { ImportRefusal, type ParsedBatch, type ParsedItem, type ParsedTask } from './types.js';

/*
 * The GIFT parser on small inline texts: every kind of question Moodle's GIFT import knows, read as
 * Moodle reads it, and scored as the Moodle question it becomes (grade 1).
 */

const parse = (text: string): ParsedBatch =>
  giftParser.parse({ name: 'q.gift', bytes: Buffer.from(text) }) as ParsedBatch;

const only = (text: string): ParsedItem => {
  const batch = parse(text);
  expect(batch.items).toHaveLength(1);
  return batch.items[0]!;
};

function taskOf(item: ParsedItem): ParsedTask {
  expect(item.outcome, item.notes.map((n) => n.text).join('; ')).not.toBe('refused');
  const task = item.task!;
  expect(taskDefinitionSchema.safeParse(task).error?.issues ?? []).toEqual([]);
  expect(placeholderProblems(task.answerType, task.content, task.html)).toEqual([]);
  return task;
}

function score(item: ParsedItem, value: unknown): number | string {
  const r = scoreAnswer(taskOf(item), value);
  return r.status === 'scored' ? r.score : r.status;
}

type Labelled = { id: string; html: string };
const options = (item: ParsedItem) => (item.task!.content as { options: Labelled[] }).options;
/** The id of the option whose html is `html`. */
const opt = (item: ParsedItem, html: string) => {
  const found = options(item).find((o) => o.html === html);
  expect(found, `no option "${html}"`).toBeDefined();
  return found!.id;
};

describe('GIFT: multiple choice', () => {
  it('one = answer: a single choice, all or nothing', () => {
    const item = only("::Q1:: Who's buried in Grant's tomb?{~Grant ~Jefferson =no one}");
    expect(item).toMatchObject({ sourceId: 'Q1', title: 'Q1', outcome: 'imported' });
    expect(item.task).toMatchObject({
      answerType: 'single_choice',
      maxScore: 1,
      html: "Who's buried in Grant's tomb?",
    });
    expect(score(item, opt(item, 'no one'))).toBe(1);
    expect(score(item, opt(item, 'Grant'))).toBe(0);
  });

  it('%n% weights beside a = answer give partial marks', () => {
    const item = only('Difficult question.{~wrong #bad ~%50%half credit #ok =full credit #well done}');
    expect(item.notes).toEqual([
      {
        code: 'feedback_dropped',
        text: 'feedback to participants dropped (Attesta shows no answer feedback)',
      },
    ]);
    expect(score(item, opt(item, 'full credit'))).toBe(1);
    expect(score(item, opt(item, 'half credit'))).toBe(0.5);
    expect(score(item, opt(item, 'wrong'))).toBe(0);
  });

  it('without a = answer: several answers, negative weights subtract, the total clamped at 0', () => {
    const item = only('Colours? {~%50%yellow ~%-100%red ~%50%off-beige ~%-100%blue}');
    expect(item.task!.answerType).toBe('multiple_choice');
    const [y, r, o] = ['yellow', 'red', 'off-beige'].map((t) => opt(item, t));
    expect(score(item, [y, o])).toBe(1);
    expect(score(item, [y])).toBe(0.5);
    expect(score(item, [y, o, r])).toBe(0);
    expect(score(item, [r])).toBe(0);
  });

  it('answers inside the text make a missing-word question', () => {
    const item = only("Grant is {~buried =entombed ~living} in Grant's tomb.");
    expect(item.task!.html).toBe("Grant is _____ in Grant's tomb.");
    expect(score(item, opt(item, 'entombed'))).toBe(1);
  });

  it('refuses fewer than two answers only for that question', () => {
    const batch = parse('A {~only}\n\nB {=yes ~no}');
    expect(batch.items.map((i) => i.outcome)).toEqual(['refused', 'imported']);
    expect(batch.items[0]!.notes).toEqual([
      { code: 'gift_choice_too_few', text: 'a multiple-choice question needs at least two answers' },
    ]);
  });
});

describe('GIFT: true/false', () => {
  it.each([
    ['{T}', 'Верно'],
    ['{TRUE}', 'Верно'],
    ['{F}', 'Неверно'],
    ['{FALSE#wrong!#right!}', 'Неверно'],
  ])('%s: %s is correct', (block, correct) => {
    const item = only(`The sun is a star.${block}`);
    expect(score(item, opt(item, correct))).toBe(1);
    expect(score(item, opt(item, correct === 'Верно' ? 'Неверно' : 'Верно'))).toBe(0);
    expect(item.outcome).toBe(block.includes('#') ? 'converted' : 'imported');
  });
});

describe('GIFT: short answer', () => {
  it('= answers with %n% weights in order, letter case ignored, * a wildcard', () => {
    const item = only(
      '::Shortanswer::Which is the best animal?{=Frog#Good! =%50%Cat =%0%*#Completely wrong}',
    );
    expect(item.task).toMatchObject({
      answerType: 'short_text',
      scoring: { method: 'per_answer', caseSensitive: false },
    });
    expect(score(item, 'frog')).toBe(1);
    expect(score(item, 'Cat')).toBe(0.5);
    expect(score(item, 'Dog')).toBe(0);
  });

  it('several full-mark answers are all accepted', () => {
    const item = only("Who's buried in Grant's tomb?{=no one =nobody}");
    expect(item.task).toMatchObject({
      reference: { accepted: ['no one', 'nobody'] },
      scoring: { method: 'all_or_nothing' },
    });
    expect(score(item, 'Nobody')).toBe(1);
  });
});

describe('GIFT: numerical', () => {
  it.each<[string, [string, number][]]>([
    [
      '{#1822:5}',
      [
        ['1822', 1],
        ['1827', 1],
        ['1828', 0],
      ],
    ],
    [
      '{#1..5}',
      [
        ['1', 1],
        ['3.3', 1],
        ['5', 1],
        ['5.01', 0],
      ],
    ],
    [
      '{#-5..5}',
      [
        ['-5', 1],
        ['0', 1],
        ['-5.5', 0],
      ],
    ],
    [
      '{#=1822:0 =%50%1822:2}',
      [
        ['1822', 1],
        ['1823', 0.5],
        ['1825', 0],
      ],
    ],
    [
      '{#3:2~#Completely wrong}',
      [
        ['1', 1],
        ['5', 1],
        ['5.5', 0],
      ],
    ],
    [
      '{#=%0%5:0#no =%100%9:0#yes =%0%23:0}',
      [
        ['9', 1],
        ['5', 0],
        ['23', 0],
      ],
    ],
    [
      '{#\n=%100%3.1415:0.0005\n=%50%3.14:0.01\n}',
      [
        ['3.1416', 1],
        ['3.148', 0.5],
        ['3.2', 0],
      ],
    ],
  ])('%s', (block, cases) => {
    const item = only(`Number? ${block}`);
    expect(item.task!.answerType).toBe('number');
    for (const [value, expected] of cases) expect([value, score(item, value)]).toEqual([value, expected]);
  });

  it('refuses an answer that is not a number', () => {
    expect(only('Number? {#abc}')).toMatchObject({
      outcome: 'refused',
      notes: [
        { code: 'answer_not_number', params: { answer: 'abc' }, text: 'the answer "abc" is not a number' },
      ],
    });
  });
});

describe('GIFT: matching', () => {
  it('pairs, a distractor answer, share of right pairs', () => {
    const item = only('Match.{=Canada -> Ottawa =Italy -> Rome =Japan -> Tokyo = -> Paris}');
    const c = item.task!.content as { left: Labelled[]; right: Labelled[] };
    expect(c.right.map((r) => r.html)).toEqual(['Ottawa', 'Rome', 'Tokyo', 'Paris']);
    const id = (list: Labelled[], html: string) => list.find((x) => x.html === html)!.id;
    const [ca, it_, ja] = ['Canada', 'Italy', 'Japan'].map((t) => id(c.left, t));
    const [ot, ro, to, pa] = ['Ottawa', 'Rome', 'Tokyo', 'Paris'].map((t) => id(c.right, t));
    expect(score(item, { [ca!]: ot, [it_!]: ro, [ja!]: to })).toBe(1);
    expect(score(item, { [ca!]: ot, [it_!]: ro, [ja!]: pa })).toBeCloseTo(2 / 3, 6);
  });

  it('refuses a pair without -> or fewer than two pairs', () => {
    expect(only('M.{=a -> b =c}').notes.map((n) => n.text)).toEqual(['a matching answer has no ->']);
    expect(only('M.{=a -> b}').outcome).toBe('refused');
  });
});

describe('GIFT: essay and description', () => {
  it('{} is an essay graded by one criterion', () => {
    const item = only('::Q8:: How are you? {}');
    expect(item.task).toMatchObject({ answerType: 'extended_text', criteria: [{ maxScore: 1 }] });
    expect(item.outcome).toBe('converted');
    expect(item.notes).toEqual([
      {
        code: 'essay_one_criterion',
        params: { points: 1 },
        text: 'essay graded by experts with one rubric criterion worth the whole grade of 1 (Moodle grades an essay as a whole)',
      },
    ]);
    expect(score(item, 'Fine')).toBe('manual');
  });

  it('a text without answers is a description: refused', () => {
    expect(only('::Intro:: Read the text below.')).toMatchObject({
      sourceId: 'Intro',
      outcome: 'refused',
      notes: [{ code: 'description_no_question', text: 'description carries no question' }],
    });
  });
});

describe('GIFT: file structure', () => {
  it('$CATEGORY sets the category of the questions after it', () => {
    const batch = parse(
      'A {T}\n\n$CATEGORY: $course$/top/Science/Physics\n\nB {T}\n\n$CATEGORY: Other\nC {F}',
    );
    expect(batch.items.map((i) => [i.title, i.category])).toEqual([
      ['A', undefined],
      ['B', ['Science', 'Physics']],
      ['C', ['Other']],
    ]);
  });

  it('comments are ignored; questions split on blank lines (CRLF too)', () => {
    expect(giftBlocks('// c1\r\n::a:: A {T}\r\n\r\n  \r\n// only a comment\r\n\r\n::b:: B\r\n{F}')).toEqual([
      '::a:: A {T}',
      '::b:: B\n{F}',
    ]);
    expect(parse('// nothing\n').items).toEqual([]);
  });

  it('a question without a title gets a stable id of its text, kept when comments or order change', () => {
    const first = parse('2+2? {=4}\n\n3+3? {=6}').items;
    const again = parse('// added\n3+3? {=6}\n\n// moved\n2+2? {=4}').items;
    expect(first[0]!.sourceId).toMatch(/^gift-[0-9a-f]{12}$/);
    expect(first[0]!.title).toBe('2+2?');
    expect(again.map((i) => i.sourceId)).toEqual([first[1]!.sourceId, first[0]!.sourceId]);
  });

  it('a repeated title gets a suffix', () => {
    const items = parse('::T:: A {T}\n\n::T:: B {T}').items;
    expect(items.map((i) => i.sourceId)).toEqual(['T', 'T (2)']);
    expect(items[1]!.notes).toEqual([
      {
        code: 'duplicate_name',
        params: { name: 'T (2)' },
        text: 'another question of the file has the same name: identified as "T (2)"',
      },
    ]);
  });

  it('unmatched braces refuse only that question', () => {
    const batch = parse('Broken {=a\n\nFine {=b}');
    expect(batch.items[0]).toMatchObject({
      outcome: 'refused',
      notes: [{ code: 'gift_braces', text: 'the braces { } of the answers do not match' }],
    });
    expect(batch.items[1]!.outcome).toBe('imported');
  });
});

describe('GIFT: formats, escapes, feedback', () => {
  it('[html], [markdown], [plain] and the default Moodle format', () => {
    expect(only('[html]<p>A <b>b</b></p>{T}').task!.html).toBe('<p>A <b>b</b></p>');
    expect(only('[markdown]**A**{T}').task!.html).toBe('<p><strong>A</strong></p>');
    expect(only('[plain]a < b{T}').task!.html).toBe('a &lt; b');
    expect(only('Line one\nline <i>two</i>{T}').task!.html).toBe('Line one<br />\nline <i>two</i>');
  });

  it('answers inherit the question’s format and may name their own', () => {
    const item = only('[html]Q{=[plain]<b> ~<i>x</i>}');
    expect(options(item).map((o) => o.html)).toEqual(['&lt;b&gt;', '<i>x</i>']);
  });

  it('\\~ \\= \\# \\{ \\} \\: \\\\ and \\n are escapes', () => {
    const item = only('::a\\:b:: 1\\{x\\} \\= 2\\#\\nC:\\\\ {=a\\~b\\=c ~d\\#e}');
    expect(item.sourceId).toBe('a:b');
    expect(item.task!.html).toBe('1{x} = 2#<br />\nC:\\');
    expect(options(item).map((o) => o.html)).toEqual(['a~b=c', 'd#e']);
  });

  it('#### general feedback becomes the solution', () => {
    const item = only('Q {=a ~b ####Because <b>a</b>.}');
    expect(item.task!.solutionHtml).toBe('Because <b>a</b>.');
    expect(item.outcome).toBe('imported');
  });
});

describe('GIFT: whole files', () => {
  it('a text that is not UTF-8 is refused whole; a package is not GIFT', () => {
    const codeOf = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        return e instanceof ImportRefusal ? e.code : 'other';
      }
      return 'none';
    };
    expect(
      codeOf(() => giftParser.parse({ name: 'a.gift', bytes: Buffer.from([0x51, 0xff, 0x7b, 0x7d]) })),
    ).toBe('xml_encoding');
    expect(codeOf(() => giftParser.parse({ package: {} as never }))).toBe('unsupported_format');
  });

  it('the registry sends .gift and .txt files to this parser', async () => {
    expect(parserFor('gift')).toBe(giftParser);
    for (const name of ['a.gift', 'a.txt']) {
      const batch = await parseFile(name, Buffer.from('\uFEFF::q:: x {=y}'));
      expect(batch).toMatchObject({
        format: 'gift',
        tests: [],
        items: [{ sourceId: 'q', outcome: 'imported' }],
      });
    }
  });
});
