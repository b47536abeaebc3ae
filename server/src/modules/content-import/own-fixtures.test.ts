import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { taskDefinitionSchema } from '@attesta/contract';
import { scoreAnswer } from '../scoring/index.js';
import { detectFile, parserFor } from './parsers/index.js';
import { taskIssueNote, TASK_FIELD_WORDS } from './task-issues.js';
import { rawZip } from './test-support.js';
import { ImportRefusal, type ParsedBatch } from './parsers/types.js';
import { prepareBatch, type PreparedItem } from './prepare.js';
import { itemXml } from './export/qti3.js';

/*
 * The importers' defects of issue 27, each shown by a small fixture of our own (./fixtures; the
 * other tools' files are read only by the interop tests, which skip without them): each file is
 * read as the import job reads it (detected, parsed, checked and sanitised by prepareBatch).
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** A fixture imported as the job does, without the database. */
async function importFixture(name: string, bytes: Buffer = fixture(name)) {
  const { key, input } = await detectFile(name, bytes);
  const batch: ParsedBatch = await parserFor(key).parse(input);
  return prepareBatch(batch, input);
}
/** A fixture folder as a zip package (its files, manifest first). */
function packageOf(folder: string): Buffer {
  const root = join(FIXTURES, folder);
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort((a, b) => Number(b === 'imsmanifest.xml') - Number(a === 'imsmanifest.xml') || a.localeCompare(b));
  return rawZip(files.map((name) => ({ name, data: readFileSync(join(root, name)) })));
}
const reasons = (item: PreparedItem) => item.notes.map((n) => n.text).join('; ');
function scored(item: PreparedItem | undefined): PreparedItem & { task: NonNullable<PreparedItem['task']> } {
  expect(item, 'the item').toBeDefined();
  expect(item!.outcome, reasons(item!)).not.toBe('refused');
  return item as PreparedItem & { task: NonNullable<PreparedItem['task']> };
}
const points = (item: PreparedItem, value: unknown): number | string => {
  const r = scoreAnswer(taskDefinitionSchema.parse(item.task), value);
  return r.status === 'scored' ? r.score : r.status;
};
/** The id of the option with this text (the importer gives choices ids of its own). */
const optionId = (item: PreparedItem, text: string) =>
  (item.task!.content as { options: { id: string; html: string }[] }).options.find((o) => o.html === text)!
    .id;
async function refusalOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRefusal);
    return (error as ImportRefusal).code;
  }
  throw new Error('not refused');
}

describe('defect 1: character references in QTI', () => {
  it('decodes &#x398; &#160; caf&#233; in text, title and key; a typed café scores', async () => {
    const { items } = await importFixture('char-refs.qti22.xml');
    const item = scored(items[0]);
    expect(item.title).toBe('Angle Θ in a café');
    expect(item.task.html).toContain('angle\u00a0Θ is measured in a café &amp; a bar');
    expect(item.task.html).not.toMatch(/&#x398;|&#233;|&#160;/);
    // The predefined entities are still decoded once: markup written as text stays text.
    expect(item.task.html).toContain('&lt;b&gt; stays text, &amp;#233; stays a reference as text');
    expect(item.task.reference).toEqual({ blanks: { b1: ['café'] } });
    expect(points(item, { b1: 'café' })).toBe(1);
    expect(points(item, { b1: 'caf&#233;' })).toBe(0);
  });

  it('still refuses a DTD entity (billion laughs) before parsing', async () => {
    expect(await refusalOf(() => importFixture('dtd-entity.qti22.xml'))).toBe('xml_malformed');
  });
});

describe('defect 2: items of a package are its resources, not its identifiers', () => {
  it('three files with one identifier are three items; the first refused does not refuse the others', async () => {
    const { items, tests } = await importFixture('same-identifier.zip', packageOf('same-identifier'));
    expect(items.map((i) => [i.key, i.sourceId, i.outcome])).toEqual([
      ['items/drawing.xml', 'geo1', 'refused'],
      ['items/capital.xml', 'geo1', 'imported'],
      ['items/river.xml', 'geo1', 'imported'],
    ]);
    expect(reasons(items[0]!)).toMatch(/drawingInteraction/);
    expect(items.flatMap((i) => i.notes.map((n) => n.code))).not.toContain('duplicate_id');
    expect(items.map((i) => i.file)).toEqual(['items/drawing.xml', 'items/capital.xml', 'items/river.xml']);
    expect(points(scored(items[1]), optionId(items[1]!, 'Paris'))).toBe(1);
    expect(points(scored(items[1]), optionId(items[1]!, 'Lyon'))).toBe(0);
    expect(points(scored(items[2]), optionId(items[2]!, 'Seine'))).toBe(1);
    // The test refers to each file: the refused one is left out when it is stored.
    expect(tests).toEqual([
      {
        sourceId: 'geo',
        title: 'Geography',
        itemKeys: ['items/drawing.xml', 'items/capital.xml', 'items/river.xml'],
      },
    ]);
  });
});

describe('defect 3: XML files in other encodings than UTF-8', () => {
  it('transcodes ISO-8859-1, windows-1251 and UTF-16 files; skips a file of an unknown encoding with a note', async () => {
    const { items } = await importFixture('encodings.zip', packageOf('encodings'));
    expect(items.map((i) => [i.file, i.outcome])).toEqual([
      ['items/latin1.xml', 'imported'],
      ['items/cp1251.xml', 'imported'],
      ['items/utf16.xml', 'imported'],
      ['items/unknown.xml', 'refused'],
    ]);
    const [latin1, cp1251, utf16, unknown] = items;
    expect(latin1!.title).toBe('Café crème');
    expect(scored(latin1).task.html).toContain('Où boit-on un café crème? Au');
    expect(points(latin1!, { b1: 'café' })).toBe(1);
    expect(cp1251!.title).toBe('Столица');
    expect(points(scored(cp1251), { b1: 'Москва' })).toBe(1);
    expect(points(scored(utf16), { b1: 'Straße' })).toBe(1);
    expect(unknown!.notes.map((n) => [n.code, n.params])).toEqual([
      ['qti_file_encoding', { encoding: 'x-attesta-unknown' }],
    ]);
  });

  it('a loose file in windows-1251 reads too; bytes not valid in the declared encoding refuse it', async () => {
    const bytes = readFileSync(join(FIXTURES, 'encodings', 'items', 'cp1251.xml'));
    const { items } = await importFixture('cp1251.xml', bytes);
    expect(points(scored(items[0]), { b1: 'Москва' })).toBe(1);
    const utf8Declared = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="UTF-8"?>'),
      bytes.subarray(bytes.indexOf('?>') + 2),
    ]);
    expect(await refusalOf(() => importFixture('bad.xml', utf8Declared))).toBe('xml_encoding');
  });
});

describe('defect 4: Moodle ordering with partial grading', () => {
  /** The item ids of an ordering task in the order of these labels. */
  const order = (item: PreparedItem, labels: string[]) => {
    const items = (item.task!.content as { items: { id: string; html: string }[] }).items;
    return labels.map((l) => items.find((i) => i.html.includes(l))!.id);
  };
  const RIGHT = ['Mercury', 'Venus', 'Earth', 'Mars'];

  it('imports positions and neighbours with their grading rule and full marks; refuses longest subsets', async () => {
    const { items } = await importFixture('ordering-partial.moodle.xml');
    const [absolute, excludeLast, includeLast, prevNext, longest] = items;
    const marks = (item: PreparedItem | undefined, labels: string[]) =>
      points(scored(item), order(item!, labels));

    // Absolute position: 1 point an item in its place (grade 4, 4 items).
    expect(scored(absolute).task.maxScore).toBe(4);
    expect(marks(absolute, RIGHT)).toBe(4);
    expect(marks(absolute, ['Mercury', 'Earth', 'Venus', 'Mars'])).toBe(2);
    expect(marks(absolute, ['Mars', 'Mercury', 'Venus', 'Earth'])).toBe(0);
    // Next item, last excluded (grading type 1): 3 pairs for grade 3.
    expect(scored(excludeLast).task.maxScore).toBe(3);
    expect(marks(excludeLast, RIGHT)).toBe(3);
    expect(marks(excludeLast, ['Mars', 'Mercury', 'Venus', 'Earth'])).toBe(2);
    expect(marks(excludeLast, ['Venus', 'Mercury', 'Mars', 'Earth'])).toBe(0);
    // Next item, last included: 3 pairs and the last, for grade 4.
    expect(marks(includeLast, RIGHT)).toBe(4);
    expect(marks(includeLast, ['Mars', 'Mercury', 'Venus', 'Earth'])).toBe(2);
    expect(marks(includeLast, ['Venus', 'Earth', 'Mercury', 'Mars'])).toBe(2);
    // Previous and next: 2 points an item (grade 8, 4 items): Venus Earth together give 2, Mars last 1.
    expect(marks(prevNext, RIGHT)).toBe(8);
    expect(marks(prevNext, ['Venus', 'Earth', 'Mercury', 'Mars'])).toBe(3);
    expect(marks(prevNext, ['Mars', 'Earth', 'Venus', 'Mercury'])).toBe(0);
    expect(longest!.outcome).toBe('refused');
    expect(longest!.notes.map((n) => n.code)).toEqual(['ordering_partial_unsupported']);
  });
});

describe('defect 5: refusal reasons in the author words', () => {
  it('a schema issue is said as what in the question is wrong, not as a schema path', async () => {
    const [choice] = (await importFixture('one-choice.qti21.xml')).items;
    expect(choice!.outcome).toBe('refused');
    expect(choice!.notes).toEqual([
      {
        code: 'task_too_few',
        params: { what: 'choices', min: 2 },
        text: 'too few choices: at least 2 are needed',
      },
    ]);
    const [order] = (await importFixture('one-item-order.qti21.xml')).items;
    expect(order!.notes.map((n) => [n.code, n.params, n.text])).toEqual([
      ['task_too_few', { what: 'items', min: 2 }, 'too few items: at least 2 are needed'],
    ]);
    for (const n of [...choice!.notes, ...order!.notes])
      expect(n.text).not.toMatch(/Too small|content\.|reference\./);
  });

  it('maps the key, full marks, lengths; keeps the code with the field word for anything else', () => {
    const issue = (path: PropertyKey[], extra: Record<string, unknown> = {}) => ({
      path,
      message: 'm',
      ...extra,
    });
    expect(
      taskIssueNote(
        [issue(['reference', 'order'], { code: 'too_small', origin: 'array', minimum: 2 })],
        'task_invalid',
      ).code,
    ).toBe('task_key_wrong');
    expect(
      taskIssueNote(
        [issue(['maxScore'], { code: 'too_big', origin: 'number', maximum: 100 })],
        'task_invalid',
      ).code,
    ).toBe('task_full_marks_range');
    expect(
      taskIssueNote(
        [issue(['content', 'options', 3, 'html'], { code: 'too_big', origin: 'string', maximum: 2000 })],
        'task_invalid',
      ),
    ).toMatchObject({ code: 'task_too_long', params: { what: 'text', max: 2000 } });
    expect(
      taskIssueNote(
        [issue(['content', 'parts'], { code: 'too_big', origin: 'array', maximum: 20 })],
        'qti_task_invalid',
      ),
    ).toMatchObject({ code: 'task_too_many', params: { what: 'parts', max: 20 } });
    expect(
      taskIssueNote([issue(['content', 'blanks', 0, 'kind'], { code: 'invalid_value' })], 'qti_task_invalid'),
    ).toMatchObject({
      code: 'qti_task_invalid',
      params: { what: 'gaps', problem: 'value_not_allowed' },
    });
    // Every word a note may carry is translated by the interfaces.
    for (const word of TASK_FIELD_WORDS) expect(word).toMatch(/^[a-z_]+$/);
  });
});

describe('defect 6: full marks derived from custom response processing', () => {
  // None of these says its full marks (no normalMaximum, no mapping upper bound, no correct response
  // to score): they were refused as qti_max_score_unknown. The rules' reachable maximum says it.
  it('SCORE = SCORE + 1 per right gap, capped at 2: full marks 2, and three right gaps score 2', async () => {
    const item = scored((await importFixture('max-capped-sum.qti22.xml')).items[0]);
    expect(item.task.maxScore).toBe(2);
    expect(points(item, { b1: 'Paris', b2: 'Rome', b3: 'Madrid' })).toBe(2);
    expect(points(item, { b1: 'Paris', b2: 'Rome', b3: 'Lisbon' })).toBe(2);
    expect(points(item, { b1: 'paris', b2: 'Oslo', b3: 'Lisbon' })).toBe(1);
  });

  it('SCORE = round(mapResponsePoint) over areas worth 2.4 and 0.6: full marks 2', async () => {
    const item = scored((await importFixture('max-round-point.qti22.xml')).items[0]);
    expect(item.task.maxScore).toBe(2);
    expect(points(item, ['100 100'])).toBe(2);
    expect(points(item, ['100 145'])).toBe(1);
    expect(points(item, ['5 5'])).toBe(0);
  });

  it('SCORE = SCORE1 + SCORE2 (a right choice 1, a mapping up to 2.5): full marks 3.5', async () => {
    const item = scored((await importFixture('max-sum-of-outcomes.qti22.xml')).items[0]);
    expect(item.task.maxScore).toBe(3.5);
    const [c1, c2, c3, c4, c5] = ['c1', 'c2', 'c3', 'c4', 'c5'];
    expect(points(item, { p1: c2, p2: [c3, c4] })).toBe(3.5);
    expect(points(item, { p1: c1, p2: [c3, c4, c5] })).toBe(1.5);
  });

  it('a score copied from a typed number has no maximum to derive: held for the admin to give it', async () => {
    const xml = fixture('max-capped-sum.qti22.xml')
      .toString()
      .replace(
        /<responseCondition>\s*<responseIf><gt>[\s\S]*?<\/responseCondition>/,
        '<setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/><variable identifier="R9"/></sum></setOutcomeValue>',
      )
      .replace(
        '<outcomeDeclaration',
        '<responseDeclaration identifier="R9" cardinality="single" baseType="float"/>\n  <outcomeDeclaration',
      )
      .replace(
        '<p>Spain:',
        '<p>Extra: <textEntryInteraction responseIdentifier="R9" expectedLength="4"/></p>\n    <p>Spain:',
      );
    const { items } = await importFixture('unbounded.qti22.xml', Buffer.from(xml));
    // Not refused (Deliver 5): made and held for the admin to give its full marks on the report.
    expect(items[0]!.outcome).toBe('converted');
    expect(items[0]!.fullMarksNeeded).toBe(true);
    expect(items[0]!.notes.map((n) => n.code)).toContain('qti_max_score_needed');
  });
});

/** An imported item exported alone as a QTI 3.0 item file (as the subject test export writes it). */
function exported(item: PreparedItem & { task: NonNullable<PreparedItem['task']> }): string {
  return itemXml(
    {
      id: 1,
      answerType: item.task.answerType,
      html: item.task.html,
      content: item.task.content as Record<string, unknown>,
      reference: item.task.reference,
      scoring: item.task.scoring as Record<string, unknown>,
      solutionHtml: item.task.solutionHtml ?? null,
      criteria: null,
      maxScore: item.task.maxScore,
      title: item.title,
      sourceId: item.sourceId,
      ...(item.choiceIds ? { choiceIds: item.choiceIds } : {}),
    },
    'item-1',
    { media: new Map() },
  );
}

describe('defect 7a: ruby annotations', () => {
  it('keeps ruby, rb, rt and rp in the question and in a choice, and writes them back in the export', async () => {
    const item = scored((await importFixture('ruby.qti30.xml')).items[0]);
    expect(item.task.html).toContain('<ruby><rb>漢字</rb><rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>');
    const options = (item.task.content as { options: { id: string; html: string }[] }).options;
    expect(options[0]!.html).toBe('<ruby>漢<rt>kan</rt></ruby><ruby>字<rt>ji</rt></ruby>');
    const xml = exported(item);
    expect(xml).toContain('<ruby><rb>漢字</rb><rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>');
    expect(xml).toContain('<ruby>漢<rt>kan</rt></ruby><ruby>字<rt>ji</rt></ruby></qti-simple-choice>');
    // …and the export reads back with them.
    const again = scored((await importFixture('again.qti30.xml', Buffer.from(xml))).items[0]);
    expect(again.task.html).toContain('<rt>かんじ</rt>');
  });
});

describe('defect 7g: no schema message reaches the import report', () => {
  it('two choices with one identifier: said in words, without the schema text', async () => {
    const [item] = (await importFixture('repeated-choice.qti22.xml')).items;
    expect(item!.outcome).toBe('refused');
    expect(item!.notes.map((n) => [n.code, n.params, n.text])).toEqual([
      [
        'qti_task_invalid',
        { what: 'choices', problem: 'repeated' },
        'the task does not fit the model (choices: one identifier used twice)',
      ],
    ]);
  });

  it('every kind of schema issue becomes a problem word; the message and path never reach the note', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'invalid_type', input: undefined }, 'missing'],
      [{ code: 'invalid_type', input: 3 }, 'wrong_kind'],
      [{ code: 'invalid_value' }, 'value_not_allowed'],
      [{ code: 'invalid_union' }, 'value_not_allowed'],
      [{ code: 'too_small', origin: 'number', minimum: 0 }, 'too_small'],
      [{ code: 'too_big', origin: 'number', maximum: 9 }, 'too_big'],
      [{ code: 'invalid_format' }, 'wrong_form'],
      [{ code: 'custom', message: 'ids must be distinct' }, 'repeated'],
      [{ code: 'custom', message: 'unknown response R9' }, 'inconsistent'],
    ];
    for (const [extra, problem] of cases)
      for (const fallback of ['task_invalid', 'qti_task_invalid', 'qti_rp_invalid'] as const) {
        const n = taskIssueNote(
          [{ path: ['scoring', 'rules', 0, 'op'], message: 'Zod says: Too small', ...extra }],
          fallback,
        );
        expect([n.code, n.params]).toEqual([fallback, { what: 'scoring', problem }]);
        expect(n.text).not.toMatch(/Zod|Too small|scoring\.rules|unknown response|distinct/);
      }
  });
});

describe('defect 7c: pictures of the feedback', () => {
  /** Every html of an item's task: question, solution (general feedback) and choices. */
  const allHtml = (item: PreparedItem) =>
    JSON.stringify([item.task!.html, item.task!.solutionHtml, item.task!.content]);

  it('GIFT: a @@PLUGINFILE@@ picture in the feedback (as in the question and a choice) is noted and said by its alt text', async () => {
    const item = (await importFixture('feedback-images.gift')).items[0]!;
    expect(item.outcome).toBe('converted');
    expect(allHtml(item)).not.toContain('@@PLUGINFILE@@');
    expect(item.task!.solutionHtml).toBe('<p>Frogs have smooth skin: smooth skin</p>');
    expect(item.task!.html).toBe('<p>Which animal is this? a green frog</p>');
    expect(item.notes.filter((n) => n.code === 'media_not_in_file').map((n) => n.params)).toEqual([
      { name: 'frog.png' },
      { name: 'skin.png' },
      { name: 'frog-small.png' },
    ]);
    expect(points(item, optionId(item, 'frog (small frog)'))).toBe(1);
  });

  it("Moodle XML: the general feedback picture held in the file is media like the question text's; one it lacks is noted; a picture-only answer feedback is said dropped", async () => {
    const item = (await importFixture('feedback-images.moodle.xml')).items[0]!;
    expect(item.media.map((m) => m.ref)).toEqual([
      '@@PLUGINFILE@@/frog.png',
      '@@PLUGINFILE@@/skin%20close.png',
    ]);
    expect(item.task!.solutionHtml).toBe(
      '<p>Its skin: <img src="@@PLUGINFILE@@/skin%20close.png" alt="skin" /> and its eggs: frog spawn</p>',
    );
    expect(item.notes.map((n) => [n.code, n.params])).toEqual([
      ['feedback_dropped', undefined],
      ['media_not_in_file', { name: 'eggs.png' }],
    ]);
  });
});

describe('defect 7e: a GIFT short answer written over lines keeps its score after an export round trip', () => {
  it('each answer scores the same imported and imported again from its QTI 3.0 export', async () => {
    const { items } = await importFixture('multiline-answer.gift');
    const typed = [
      'the end',
      'the  end',
      'The End',
      'end',
      'the ending',
      'Alexander Pushkin',
      'Pushkin',
      'Gogol',
    ];
    for (const item of items.map(scored)) {
      const xml = exported(item);
      expect(xml, item.title).not.toMatch(/map-key="[^"]*\n|pattern="[^"]*\n|<qti-value>[^<]*\n/);
      const again = scored((await importFixture('again.qti30.xml', Buffer.from(xml))).items[0]);
      expect(
        typed.map((t) => [t, points(again, t)]),
        item.title,
      ).toEqual(typed.map((t) => [t, points(item, t)]));
    }
    const [poem, gap] = items;
    expect(points(poem!, 'the end')).toBe(1);
    expect(points(poem!, 'the ending')).toBe(0.5);
    expect(points(gap!, 'Alexander Pushkin')).toBe(1);
  });
});

describe('defect 7f: Moodle questions whose full marks no answer reaches', () => {
  it('are refused saying why and what to change, as Moodle refuses to save them; thirds that add up are kept', async () => {
    const { items } = await importFixture('full-marks-unreachable.moodle.xml');
    expect(items.map((i) => [i.title, i.outcome, i.notes.map((n) => [n.code, n.params])])).toEqual([
      ['Single, best 50 %', 'refused', [['full_marks_unreachable', { best: 50 }]]],
      ['Multiple, two thirds', 'refused', [['choices_sum_short', { sum: 66.67 }]]],
      ['Short answer, best 80 %', 'refused', [['full_marks_unreachable', { best: 80 }]]],
      ['Numerical, best 90 %', 'refused', [['full_marks_unreachable', { best: 90 }]]],
      ['Multiple, thirds', 'imported', []],
    ]);
    expect(items[0]!.notes[0]!.text).toBe(
      'no answer gives full marks: the best gives 50 % of them (Moodle refuses to save such a question; make one answer worth 100 % and import it again)',
    );
    const thirds = scored(items[4]);
    expect(thirds.task.maxScore).toBe(3);
    const ids = ['Venus', 'Mars', 'Earth'].map((t) => optionId(thirds, t));
    expect(points(thirds, ids)).toBeCloseTo(3, 4);
  });

  it('the same rule holds for GIFT (read as Moodle reads it)', async () => {
    const gift = Buffer.from(
      '::One::Largest? {~%50%Jupiter ~Mars}\n\n::Two::Gas giant? {=%80%Jupiter =%50%Saturn}\n',
    );
    const { items } = await importFixture('unreachable.gift', gift);
    expect(items.map((i) => i.notes.map((n) => [n.code, n.params]))).toEqual([
      // No `=` answer: GIFT makes it a multiple choice, whose right choices add up to 50 %.
      [['choices_sum_short', { sum: 50 }]],
      [['full_marks_unreachable', { best: 80 }]],
    ]);
  });
});

describe('defect 7b: formulas in the options of inline choices', () => {
  it("keeps an option's MathML as its html beside its text; the export writes it back and reads again", async () => {
    const item = scored((await importFixture('math-inline-choice.qti22.xml')).items[0]);
    const [blank] = (
      item.task.content as { blanks: { options: { id: string; text: string; html?: string }[] }[] }
    ).blanks;
    expect(blank!.options.map((o) => [o.text, o.html])).toEqual([
      ['2x', '<math><mn>2</mn><mi>x</mi></math>'],
      ['x2', '<math><msup><mi>x</mi><mn>2</mn></msup></math>'],
      ['2', undefined],
    ]);
    expect(points(item, { b1: blank!.options[0]!.id })).toBe(1);
    const xml = exported(item);
    expect(xml).toMatch(
      /<qti-inline-choice identifier="[^"]+"><math xmlns="[^"]+"><msup><mi>x<\/mi><mn>2<\/mn><\/msup><\/math><\/qti-inline-choice>/,
    );
    const again = scored((await importFixture('again.qti30.xml', Buffer.from(xml))).items[0]);
    const [back] = (again.task.content as { blanks: { options: { html?: string }[] }[] }).blanks;
    expect(back!.options[1]!.html).toContain('<msup><mi>x</mi><mn>2</mn></msup>');
    expect(points(again, { b1: blank!.options[0]!.id })).toBe(1);
  });
});

describe('defect 7d: the export keeps the source identifiers of choices', () => {
  it('an imported item is exported with its choices, match sets and keys under the ids it had', async () => {
    const item = scored((await importFixture('source-choice-ids.qti22.xml')).items[0]);
    // The task knows its choices by ids of its own (a source id must not reach participants)…
    expect(JSON.stringify(item.task.content)).not.toMatch(/"id":"(Paris|Lyon|France)"/);
    expect(Object.values(item.choiceIds ?? {}).sort()).toEqual([
      'France',
      'Italy',
      'Lyon',
      'Nice',
      'Paris',
      'Rome',
    ]);
    // …and the export writes the source's back: in the interactions, the keys and the mapping.
    const xml = exported(item);
    for (const id of ['Lyon', 'Paris', 'Nice', 'France', 'Italy', 'Rome'])
      expect(xml).toContain(`identifier="${id}"`);
    expect(xml).toMatch(/<qti-value>Paris<\/qti-value>/);
    expect(xml).toContain('<qti-value>France Paris</qti-value>');
    expect(xml).toContain('map-key="Italy Rome"');
    expect(xml).not.toMatch(/identifier="(c|l|r)\d+"/);
    // Read back, it scores as before: results keyed by the source's ids line up with it.
    const again = scored((await importFixture('again.qti30.xml', Buffer.from(xml))).items[0]);
    expect(again.choiceIds).toEqual(item.choiceIds);
    const answer = (it: PreparedItem) => {
      const by = Object.fromEntries(Object.entries(it.choiceIds!).map(([ours, source]) => [source, ours]));
      return { p1: by.Paris, p2: { [by.France!]: by.Paris, [by.Italy!]: by.Rome } };
    };
    expect(points(item, answer(item))).toBe(3);
    expect(points(again, answer(again))).toBe(3);
  });

  it('a source identifier equal to another id of the task leaves the ids as they are', async () => {
    const item = scored((await importFixture('source-choice-ids.qti22.xml')).items[0]);
    const clash = { ...item, choiceIds: { ...item.choiceIds, c1: 'p1' } };
    expect(exported(clash)).toMatch(/identifier="c1"/);
  });
});
