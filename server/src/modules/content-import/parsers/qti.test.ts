import { describe, expect, it } from 'vitest';
import { taskDefinitionSchema, type QtiScoring } from '@attesta/contract';
import { scoreAnswer } from '../../scoring/index.js';
import { prepareBatch } from '../prepare.js';
import { openSafePackage } from '../safety/zip.js';
import { PNG, rawZip } from '../test-support.js';
import { parseFile } from './index.js';
import { parseQtiFile, parseQtiPackage } from './qti-package.js';
import { qtiParser } from './qti.js';
import type { ParsedItem, ParsedTask } from './types.js';

/* The QTI parser on small inline items, tests and packages (the interop fixtures: qti.fixtures.test.ts). */

const NS21 = 'http://www.imsglobal.org/xsd/imsqti_v2p1';
const NS22 = 'http://www.imsglobal.org/xsd/imsqti_v2p2';
const NS30 = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';

const item21 = (inner: string, attrs = '', ns = NS21) =>
  `<?xml version="1.0" encoding="UTF-8"?><assessmentItem xmlns="${ns}" identifier="it" title="Item" adaptive="false" timeDependent="false" ${attrs}>${inner}</assessmentItem>`;
const item30 = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><qti-assessment-item xmlns="${NS30}" identifier="it" title="Item" adaptive="false" time-dependent="false">${inner}</qti-assessment-item>`;
const SCORE = '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>';

/** The one item of a loose file. */
function parseOne(xml: string, name = 'item.xml'): ParsedItem {
  const batch = parseQtiFile(name, Buffer.from(xml));
  expect(batch.items).toHaveLength(1);
  return batch.items[0]!;
}
function taskOf(xml: string): ParsedTask {
  const item = parseOne(xml);
  expect(item.outcome, item.notes.map((n) => n.text).join('; ')).not.toBe('refused');
  return item.task!;
}
const points = (task: ParsedTask, value: unknown): number | string => {
  const r = scoreAnswer(taskDefinitionSchema.parse(task), value);
  return r.status === 'scored' ? r.score : r.status;
};
const optionIds = (task: ParsedTask) =>
  ((task.content as { options: { id: string }[] }).options ?? []).map((o) => o.id);

const CHOICE_21 = item21(`
  <responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="identifier">
    <correctResponse><value>ChoiceA</value><value>ChoiceC</value></correctResponse>
    <mapping defaultValue="0" lowerBound="0"><mapEntry mapKey="ChoiceA" mappedValue="1"/><mapEntry mapKey="ChoiceB" mappedValue="-1"/><mapEntry mapKey="ChoiceC" mappedValue="1"/></mapping>
  </responseDeclaration>${SCORE}
  <itemBody><p>Pick <b>two</b>:</p><choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="2">
    <prompt>Which are even?</prompt>
    <simpleChoice identifier="ChoiceA">2</simpleChoice><simpleChoice identifier="ChoiceB">3</simpleChoice><simpleChoice identifier="ChoiceC">4</simpleChoice>
  </choiceInteraction></itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>`);

const CHOICE_30 = item30(`
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier">
    <qti-correct-response><qti-value>ChoiceA</qti-value><qti-value>ChoiceC</qti-value></qti-correct-response>
    <qti-mapping default-value="0" lower-bound="0"><qti-map-entry map-key="ChoiceA" mapped-value="1"/><qti-map-entry map-key="ChoiceB" mapped-value="-1"/><qti-map-entry map-key="ChoiceC" mapped-value="1"/></qti-mapping>
  </qti-response-declaration><qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body><p>Pick <b>two</b>:</p><qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="2">
    <qti-prompt>Which are even?</qti-prompt>
    <qti-simple-choice identifier="ChoiceA">2</qti-simple-choice><qti-simple-choice identifier="ChoiceB">3</qti-simple-choice><qti-simple-choice identifier="ChoiceC">4</qti-simple-choice>
  </qti-choice-interaction></qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml"/>`);

describe('one normaliser for QTI 2.x (camelCase) and QTI 3.0 (qti- kebab-case)', () => {
  it('the same item written in both gives the same task; the version comes from the namespace', () => {
    const b21 = parseQtiFile('a.xml', Buffer.from(CHOICE_21));
    const b22 = parseQtiFile('a.xml', Buffer.from(CHOICE_21.replace(NS21, NS22)));
    const b30 = parseQtiFile('a.xml', Buffer.from(CHOICE_30));
    expect([b21.format, b22.format, b30.format]).toEqual(['qti21', 'qti22', 'qti30']);
    expect(b30.items[0]).toEqual(b21.items[0]);
    const task = b21.items[0]!.task!;
    expect(task.answerType).toBe('multiple_choice');
    expect(task.html).toBe('<p>Pick <b>two</b>:</p><div class="qti-prompt">Which are even?</div>');
    expect(task.content).toEqual({
      options: [
        { id: 'c1', html: '2' },
        { id: 'c2', html: '3' },
        { id: 'c3', html: '4' },
      ],
      shuffle: false,
      maxChoices: 2,
    });
    expect(b21.items[0]).toMatchObject({ sourceId: 'it', title: 'Item', outcome: 'imported', notes: [] });
    expect(points(task, ['c1', 'c3'])).toBe(2);
    expect(points(task, ['c1', 'c2'])).toBe(0);
  });
});

describe('identifiers', () => {
  const LONG = 'choice.with.dots_and_a_very_long_identifier_1';
  const xml = item21(`
    <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>${LONG}</value></correctResponse></responseDeclaration>
    ${SCORE}<outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"><defaultValue><value>c1</value></defaultValue></outcomeDeclaration>
    <itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
      <simpleChoice identifier="c2">first</simpleChoice><simpleChoice identifier="${LONG}">second</simpleChoice><simpleChoice identifier="x">third</simpleChoice>
    </choiceInteraction></itemBody>
    <responseProcessing><responseCondition>
      <responseIf><match><variable identifier="RESPONSE"/><baseValue baseType="identifier">${LONG}</baseValue></match>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="float">2</baseValue></setOutcomeValue>
        <setOutcomeValue identifier="FEEDBACK"><baseValue baseType="identifier">c1</baseValue></setOutcomeValue></responseIf>
      <responseElseIf><match><variable identifier="RESPONSE"/><baseValue baseType="identifier">c2</baseValue></match>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseElseIf>
    </responseCondition></responseProcessing>`);

  it('choices get short ids in display order; every identifier value in the rules is renamed with them', () => {
    const task = taskOf(xml);
    // "c1" is a literal of the item (a FEEDBACK value) and "c2" a choice of it: neither is reused for another choice.
    expect(optionIds(task)).toEqual(['c2', 'c3', 'c4']);
    const s = task.scoring as QtiScoring;
    expect(s.responses[0]!.correct).toEqual(['c3']);
    expect(JSON.stringify(s.rules)).not.toContain(LONG);
    expect(JSON.stringify(s.rules)).toContain('"value":"c1"'); // the FEEDBACK literal is left alone
    expect(task.reference).toEqual({ correct: 'c3' });
    expect(task.maxScore).toBe(2);
    expect(points(task, 'c3')).toBe(2);
    expect(points(task, 'c2')).toBe(1);
    expect(points(task, 'c4')).toBe(0);
  });
});

describe('response processing rules', () => {
  const numeric = (rules: string, extra = '') =>
    item21(`
      <responseDeclaration identifier="R" cardinality="single" baseType="float"><correctResponse><value>10</value></correctResponse></responseDeclaration>
      ${SCORE}<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="3"/>${extra}
      <itemBody><p>How much?</p><p><textEntryInteraction responseIdentifier="R"/></p></itemBody>
      <responseProcessing>${rules}</responseProcessing>`).replace(SCORE, '');

  it('isNull/exitResponse, equal with an absolute tolerance, or/not, sum and elseIf, as QTI runs them', () => {
    const task = taskOf(
      numeric(`
        <responseCondition><responseIf><isNull><variable identifier="R"/></isNull>
          <setOutcomeValue identifier="SCORE"><baseValue baseType="float">0</baseValue></setOutcomeValue><exitResponse/></responseIf></responseCondition>
        <responseCondition>
          <responseIf><equal toleranceMode="absolute" tolerance="0.5"><variable identifier="R"/><correct identifier="R"/></equal>
            <setOutcomeValue identifier="SCORE"><sum><baseValue baseType="float">2</baseValue><baseValue baseType="float">1</baseValue></sum></setOutcomeValue></responseIf>
          <responseElseIf><and><not><lt><variable identifier="R"/><baseValue baseType="float">0</baseValue></lt></not>
              <or><equal toleranceMode="exact"><variable identifier="R"/><baseValue baseType="float">100</baseValue></equal><gte><variable identifier="R"/><baseValue baseType="float">1000</baseValue></gte></or></and>
            <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseElseIf>
        </responseCondition>`),
    );
    // A text entry alone in its paragraph is a number task (float response).
    expect(task.answerType).toBe('number');
    expect(task.reference).toEqual({ value: 10 });
    expect(task.maxScore).toBe(3);
    expect(points(task, '10,4')).toBe(3);
    expect(points(task, '9.5')).toBe(3);
    expect(points(task, '11')).toBe(0);
    expect(points(task, '100')).toBe(1);
    expect(points(task, '1 500')).toBe(1);
    expect(points(task, '-1000')).toBe(0);
    expect(points(task, '')).toBe('empty');
  });

  it('a template on a response that is not RESPONSE becomes the same rules on that response', () => {
    const task = taskOf(
      item21(`
        <responseDeclaration identifier="ANSWER" cardinality="single" baseType="string"><correctResponse><value>Paris</value></correctResponse></responseDeclaration>${SCORE}
        <itemBody><p>The capital of France is <textEntryInteraction responseIdentifier="ANSWER"/>.</p></itemBody>
        <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`),
    );
    expect(task.answerType).toBe('cloze');
    expect(task.html).toBe('<p>The capital of France is {{b1}}.</p>');
    expect((task.scoring as QtiScoring).rules).toHaveLength(1);
    expect(task.maxScore).toBe(1);
    expect(points(task, { b1: 'Paris' })).toBe(1);
    expect(points(task, { b1: 'paris' })).toBe(0);
  });

  it.each([
    [
      'random',
      '<random><multiple><baseValue baseType="float">1</baseValue></multiple></random>',
      /unsupported QTI response processing: random/,
    ],
    [
      'a custom operator',
      '<customOperator class="x"><baseValue baseType="float">1</baseValue></customOperator>',
      /customOperator/,
    ],
    ['a test-level expression', '<numberCorrect/>', /numberCorrect/],
    ['a built-in variable', '<variable identifier="numAttempts"/>', /built-in variable numAttempts/],
    ['an undeclared variable', '<variable identifier="NOPE"/>', /NOPE, which is not declared/],
  ])('refuses %s, naming it', (_, expr, reason) => {
    const item = parseOne(numeric(`<setOutcomeValue identifier="SCORE">${expr}</setOutcomeValue>`));
    expect(item.outcome).toBe('refused');
    expect(item.task).toBeUndefined();
    expect(item.notes.map((n) => n.text).join()).toMatch(reason);
  });

  it('names an unsupported operator and an unsupported interaction by code and params', () => {
    const random = parseOne(
      numeric(
        '<setOutcomeValue identifier="SCORE"><random><multiple><baseValue baseType="float">1</baseValue></multiple></random></setOutcomeValue>',
      ),
    );
    expect(random.notes).toEqual([
      {
        code: 'operator_unsupported',
        params: { names: 'random' },
        text: 'unsupported QTI response processing: random',
      },
    ]);
  });

  it('refuses lookupOutcomeValue (a rule) and a tolerance given by a variable', () => {
    expect(
      parseOne(
        numeric(
          '<lookupOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></lookupOutcomeValue>',
        ),
      )
        .notes.map((n) => n.text)
        .join(),
    ).toMatch(/lookupOutcomeValue/);
    const byVariable = parseOne(
      numeric(`<responseCondition><responseIf><equal toleranceMode="absolute" tolerance="{TOL}"><variable identifier="R"/><correct identifier="R"/></equal>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="float">3</baseValue></setOutcomeValue></responseIf></responseCondition>`),
    );
    expect(byVariable.outcome).toBe('refused');
    expect(byVariable.notes.map((n) => n.text).join()).toMatch(/tolerance given by a variable/);
    expect(byVariable.notes).toContainEqual({
      code: 'qti_rp_variable_attribute',
      params: { operator: 'equal', attribute: 'tolerance' },
      text: 'response processing: equal: a tolerance given by a variable is not supported',
    });
  });
});

describe('refusals and losses', () => {
  const body = (
    interaction: string,
    rp = '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>',
  ) =>
    item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>${SCORE}
      <itemBody><p>Q</p>${interaction}</itemBody>${rp}`);
  const choice =
    '<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction>';

  it.each([
    [
      'an interaction the model has no type for',
      body('<graphicGapMatchInteraction responseIdentifier="RESPONSE"/>'),
      /unsupported interaction: graphicGapMatchInteraction/,
    ],
    [
      'a drawing interaction',
      body(
        '<drawingInteraction responseIdentifier="RESPONSE"><object data="a.png" type="image/png"/></drawingInteraction>',
      ),
      /drawingInteraction/,
    ],
    ['an item with nothing to answer', body(''), /no interaction/],
    [
      'an item without response processing',
      body(choice, ''),
      /no response processing: there is no way to score it/,
    ],
    [
      'an unknown template',
      body(choice, '<responseProcessing template="http://example.org/rp/CC2_match_basic"/>'),
      /unknown response processing template/,
    ],
    ['an adaptive item', body(choice).replace('adaptive="false"', 'adaptive="true"'), /adaptive items/],
    [
      'template processing',
      body(choice).replace(
        '<itemBody>',
        '<templateProcessing><setTemplateValue identifier="X"><randomInteger min="1" max="9"/></setTemplateValue></templateProcessing><itemBody>',
      ),
      /template processing/,
    ],
  ])('refuses %s with the reason', (_, xml, reason) => {
    const item = parseOne(xml);
    expect(item.outcome).toBe('refused');
    expect(item.notes.map((n) => n.text).join()).toMatch(reason);
  });

  it('refuses a match whose key gives one source several targets; converts one that only allows it', () => {
    const match = (correct: string) =>
      item21(`<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair"><correctResponse>${correct}</correctResponse></responseDeclaration>${SCORE}
        <itemBody><matchInteraction responseIdentifier="RESPONSE" maxAssociations="0">
          <simpleMatchSet><simpleAssociableChoice identifier="A" matchMax="0">a</simpleAssociableChoice><simpleAssociableChoice identifier="B" matchMax="1">b</simpleAssociableChoice></simpleMatchSet>
          <simpleMatchSet><simpleAssociableChoice identifier="X" matchMax="0">x</simpleAssociableChoice><simpleAssociableChoice identifier="Y" matchMax="0">y</simpleAssociableChoice></simpleMatchSet>
        </matchInteraction></itemBody><responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`);
    const grid = parseOne(match('<value>A X</value><value>A Y</value><value>B Y</value>'));
    expect(grid.outcome).toBe('refused');
    expect(grid.notes.map((n) => n.text).join()).toMatch(/one source several targets/);
    const single = parseOne(match('<value>A X</value><value>B Y</value>'));
    expect(single.outcome).toBe('converted');
    expect(single.notes.map((n) => n.text).join()).toMatch(/one target here/);
    expect(points(single.task!, { l1: 'r1', l2: 'r2' })).toBe(1);
    expect(points(single.task!, { l1: 'r2', l2: 'r1' })).toBe(0);
  });

  it('drops feedback and fixed-choice shuffling with notes (converted), keeps candidate rubrics, scorer rubrics as the solution', () => {
    const item = parseOne(
      body(
        `<rubricBlock view="candidate"><p>Read carefully.</p></rubricBlock><rubricBlock view="scorer"><p>A is right.</p></rubricBlock>
        <choiceInteraction responseIdentifier="RESPONSE" shuffle="true" maxChoices="1"><simpleChoice identifier="A">a<feedbackInline outcomeIdentifier="FB" identifier="A" showHide="show">Yes!</feedbackInline></simpleChoice><simpleChoice identifier="B" fixed="true">b</simpleChoice></choiceInteraction>`,
      ).replace(
        '</itemBody>',
        '</itemBody><modalFeedback outcomeIdentifier="FB" identifier="A" showHide="show">Well done</modalFeedback>',
      ),
    );
    expect(item.outcome).toBe('converted');
    expect(item.notes.map((n) => n.text).join('|')).toMatch(/shuffle turned off/);
    expect(item.notes.map((n) => n.text).join('|')).toMatch(/feedback .*dropped/);
    // Losses first, then what is said in passing; each with its code.
    expect(item.notes.map((n) => n.code)).toEqual([
      'qti_feedback_dropped',
      'shuffle_fixed_choices',
      'qti_rubric_as_solution',
    ]);
    expect(item.notes[2]).toEqual({
      code: 'qti_rubric_as_solution',
      params: { views: 'scorer' },
      text: 'a rubric block for scorer kept as the solution',
    });
    expect(item.task!.html).toBe('<p>Q</p><div class="qti-rubric"><p>Read carefully.</p></div>');
    expect(item.task!.solutionHtml).toBe('<p>A is right.</p>');
    expect((item.task!.content as { options: unknown[]; shuffle: boolean }).shuffle).toBe(false);
    expect(JSON.stringify(item.task!.content)).not.toContain('Yes!');
  });
});

describe('interactions', () => {
  it('a composite item: each interaction a part in its place; hottext spans listed (converted)', () => {
    const task = parseOne(
      item21(`
        <responseDeclaration identifier="R1" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>
        <responseDeclaration identifier="R2" cardinality="multiple" baseType="identifier"><correctResponse><value>H2</value></correctResponse></responseDeclaration>
        <responseDeclaration identifier="R3" cardinality="single" baseType="integer"><correctResponse><value>7</value></correctResponse></responseDeclaration>
        <responseDeclaration identifier="R4" cardinality="single" baseType="string"/>
        ${SCORE}
        <itemBody>
          <choiceInteraction responseIdentifier="R1" maxChoices="1"><prompt>Pick</prompt><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction>
          <hottextInteraction responseIdentifier="R2" maxChoices="0"><p>One <hottext identifier="H1">cat</hottext> and <hottext identifier="H2">dogs</hottext>.</p></hottextInteraction>
          <p>Seven is <textEntryInteraction responseIdentifier="R3"/>.</p>
          <extendedTextInteraction responseIdentifier="R4"><prompt>Why?</prompt></extendedTextInteraction>
        </itemBody>
        <responseProcessing>
          <setOutcomeValue identifier="SCORE"><sum>
            <baseValue baseType="float">0</baseValue>
          </sum></setOutcomeValue>
          <responseCondition><responseIf><match><variable identifier="R1"/><correct identifier="R1"/></match>
            <setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/><baseValue baseType="float">1</baseValue></sum></setOutcomeValue></responseIf></responseCondition>
          <responseCondition><responseIf><match><variable identifier="R2"/><correct identifier="R2"/></match>
            <setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/><baseValue baseType="float">1</baseValue></sum></setOutcomeValue></responseIf></responseCondition>
          <responseCondition><responseIf><equal toleranceMode="exact"><variable identifier="R3"/><correct identifier="R3"/></equal>
            <setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/><baseValue baseType="float">1</baseValue></sum></setOutcomeValue></responseIf></responseCondition>
        </responseProcessing>`),
    );
    expect(task.outcome).toBe('converted');
    expect(task.notes.map((n) => n.text).join()).toMatch(/spans of a hottext among other interactions/);
    const t = task.task!;
    expect(t.answerType).toBe('composite');
    expect((t.content as { parts: { answerType: string }[] }).parts.map((p) => p.answerType)).toEqual([
      'single_choice',
      'hottext',
      'number',
      'extended_text',
    ]);
    expect(t.html).toContain('<div class="qti-prompt">Pick</div>{{p1}}');
    expect(t.html).toContain(
      '<p>One <span class="qti-hottext">cat</span> and <span class="qti-hottext">dogs</span>.</p>{{p2}}',
    );
    expect(t.html).toContain('<p>Seven is {{p3}}.</p>');
    expect(t.maxScore).toBe(3);
    expect(t.reference).toEqual({
      parts: { p1: { correct: 'c1' }, p2: { correct: ['h2'] }, p3: { value: 7 } },
    });
    expect(points(t, { p1: 'c1', p2: ['h2'], p3: '7', p4: 'Because' })).toBe(3);
    expect(points(t, { p1: 'c1', p2: ['h1', 'h2'], p3: '7,0' })).toBe(2);
  });

  it('hotspot: the image from the package, its size read from the file; selectPoint: points within mapped areas', async () => {
    const hotspot = item21(`
      <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>B</value></correctResponse></responseDeclaration>${SCORE}
      <itemBody><p>Where?</p><hotspotInteraction responseIdentifier="RESPONSE" maxChoices="1"><object data="../img/map.png" type="image/png">A map</object>
        <hotspotChoice identifier="A" shape="circle" coords="0,0,1"/><hotspotChoice identifier="B" shape="rect" coords="0,0,1,1"/>
      </hotspotInteraction></itemBody><responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`);
    const point = item21(`
      <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="point">
        <areaMapping defaultValue="0"><areaMapEntry shape="circle" coords="10,10,5" mappedValue="2"/><areaMapEntry shape="rect" coords="50,50,60,60" mappedValue="1"/></areaMapping>
      </responseDeclaration>${SCORE}
      <itemBody><p>Click</p><selectPointInteraction responseIdentifier="RESPONSE" maxChoices="1"><object data="../img/map.png" type="image/png" width="100" height="80"/></selectPointInteraction></itemBody>
      <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response_point"/>`);
    const pkg = await openSafePackage(
      rawZip([
        {
          name: 'items/hotspot.xml',
          data: Buffer.from(hotspot.replace('identifier="it"', 'identifier="hs"')),
        },
        { name: 'items/point.xml', data: Buffer.from(point.replace('identifier="it"', 'identifier="pt"')) },
        { name: 'img/map.png', data: PNG },
      ]),
    );
    const batch = parseQtiPackage(pkg);
    const [hs, pt] = batch.items;
    expect(hs!.task!.content).toMatchObject({
      image: { src: 'img/map.png', width: 1, height: 1, alt: 'A map' },
      areas: [
        { id: 's1', shape: 'circle' },
        { id: 's2', shape: 'rect' },
      ],
      select: 'areas',
    });
    expect(hs!.media).toEqual([{ ref: 'img/map.png', path: 'img/map.png' }]);
    expect(points(hs!.task!, ['s2'])).toBe(1);
    expect(points(hs!.task!, ['s1'])).toBe(0);
    expect(pt!.task!.content).toMatchObject({ image: { width: 100, height: 80 }, select: 'points' });
    expect(pt!.task!.maxScore).toBe(2);
    expect(pt!.task!.reference).toEqual({ correct: ['z1'] });
    expect(points(pt!.task!, ['11 9'])).toBe(2);
    expect(points(pt!.task!, ['55 55'])).toBe(1);
    expect(points(pt!.task!, ['90 5'])).toBe(0);
    const prepared = prepareBatch(batch, { package: pkg });
    expect(prepared.items.map((i) => [i.outcome, i.media.length])).toEqual([
      ['imported', 1],
      ['imported', 1],
    ]);
  });

  it('graphicOrder becomes ordering (converted), slider a number (converted), upload keeps its MIME type', () => {
    const go = parseOne(
      item21(`<responseDeclaration identifier="RESPONSE" cardinality="ordered" baseType="identifier"><correctResponse><value>B</value><value>A</value></correctResponse></responseDeclaration>${SCORE}
        <itemBody><graphicOrderInteraction responseIdentifier="RESPONSE"><prompt>Order</prompt><object data="m.png" type="image/png" width="10" height="10"/>
          <hotspotChoice identifier="A" shape="circle" coords="1,1,1" hotspotLabel="North"/><hotspotChoice identifier="B" shape="circle" coords="5,5,1" hotspotLabel="South"/></graphicOrderInteraction></itemBody>
        <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`),
    );
    expect(go.outcome).toBe('converted');
    expect(go.task!.answerType).toBe('ordering');
    expect(go.task!.html).toContain('<img src="m.png"');
    expect(points(go.task!, ['i2', 'i1'])).toBe(1);
    const slider = parseOne(
      item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="integer"><correctResponse><value>5</value></correctResponse></responseDeclaration>${SCORE}
        <itemBody><p>How many?</p><sliderInteraction responseIdentifier="RESPONSE" lowerBound="0" upperBound="10"/></itemBody>
        <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`),
    );
    expect(slider.outcome).toBe('converted');
    expect(slider.task!.answerType).toBe('number');
    expect(points(slider.task!, '5')).toBe(1);
    const upload = parseOne(
      item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="file"/>${SCORE.replace('/>', ' normalMaximum="4"/>')}
        <itemBody><uploadInteraction responseIdentifier="RESPONSE" type="application/pdf"><prompt>Your essay</prompt></uploadInteraction></itemBody>`),
    );
    expect(upload.task).toMatchObject({
      answerType: 'file',
      content: { accept: ['application/pdf'], maxFiles: 1 },
      maxScore: 4,
      criteria: [{ maxScore: 4 }],
      html: '<div class="qti-prompt">Your essay</div>',
    });
  });

  it('a match_correct item keeps method qti when the native rule would not give the same scores', () => {
    const task = taskOf(
      item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>
        <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="5"/>
        <itemBody><p>Q</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction></itemBody>
        <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`),
    );
    expect(task.maxScore).toBe(5);
    expect((task.scoring as QtiScoring).method).toBe('qti');
    expect(points(task, 'c1')).toBe(1);
  });
});

describe('media', () => {
  it('images and objects are package files listed as media; a reference leaving the package is dropped', async () => {
    const xml =
      item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>${SCORE}
      <itemBody><p><img src="media/a%20b.png" alt="A"/> <img src="../../outside.png" alt="out"/> <img src="https://example.org/x.png" alt="web"/></p>
        <object data="media/clip.mp4" type="video/mp4">The clip</object>
        <choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A"><img src="media/c.png" alt="c"/></simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction></itemBody>
      <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`);
    const pkg = await openSafePackage(
      rawZip([
        { name: 'q/item.xml', data: Buffer.from(xml) },
        { name: 'q/media/a b.png', data: PNG },
        { name: 'q/media/c.png', data: PNG },
      ]),
    );
    const [item] = parseQtiPackage(pkg).items;
    expect(item!.media.map((m) => m.ref).sort()).toEqual([
      'q/media/a b.png',
      'q/media/c.png',
      'q/media/clip.mp4',
    ]);
    expect(item!.task!.html).toContain('<img src="q/media/a b.png" alt="A" />');
    expect(item!.task!.html).toContain('<img src="https://example.org/x.png" alt="web" />');
    expect(item!.task!.html).toContain('<a href="q/media/clip.mp4">The clip</a>');
    expect(item!.task!.html).not.toContain('outside');
    expect(item!.notes.map((n) => n.text).join()).toMatch(
      /leaving the package was dropped.*shown as links|shown as links.*leaving the package/,
    );
    const prepared = prepareBatch(parseQtiPackage(pkg), { package: pkg }).items[0]!;
    expect(prepared.media.map((m) => m.ref).sort()).toEqual(['q/media/a b.png', 'q/media/c.png']);
    expect(prepared.notes.map((n) => n.text).join()).toMatch(/media left out: q\/media\/clip\.mp4/);
  });
});

describe('tests and packages', () => {
  const simple = (id: string) =>
    item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>${SCORE}
      <itemBody><p>${id}</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction></itemBody>
      <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>`).replace(
      'identifier="it"',
      `identifier="${id}"`,
    );
  const TEST = `<?xml version="1.0" encoding="UTF-8"?><qti-assessment-test xmlns="${NS30}" identifier="T1" title="Final test">
    <qti-test-part identifier="P" navigation-mode="linear" submission-mode="individual">
      <qti-assessment-section identifier="S1" title="Part A" visible="true">
        <qti-assessment-item-ref identifier="r1" href="../items/one.xml"/>
        <qti-assessment-section identifier="S1a" title="Part A.1" visible="true"><qti-assessment-item-ref identifier="r2" href="../items/two.xml"/></qti-assessment-section>
        <qti-assessment-item-ref identifier="r3" href="../items/three.xml"/>
        <qti-assessment-item-ref identifier="r9" href="../items/missing.xml"/>
      </qti-assessment-section>
      <qti-assessment-section-ref identifier="S2" href="section-b.xml"/>
    </qti-test-part></qti-assessment-test>`;
  const SECTION_B = `<?xml version="1.0"?><qti-assessment-section xmlns="${NS30}" identifier="S2" title="Part B" visible="true"><qti-assessment-item-ref identifier="r4" href="../items/four.xml"/></qti-assessment-section>`;
  const MANIFEST = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources>
    <resource identifier="t" type="imsqti_test_xmlv3p0" href="tests/test.xml"/>
    <resource identifier="i1" type="imsqti_item_xmlv2p1" href="items/one.xml"/>
    <resource identifier="rp" type="imsqti_rptemplate_xmlv3p0" href="rp/match_correct.xml"/>
  </resources></manifest>`;

  const pkgOf = (entries: { name: string; data: string | Buffer }[]) =>
    openSafePackage(rawZip(entries.map((e) => ({ name: e.name, data: Buffer.from(e.data) }))));

  it('sections in order, nested ones flattened in order, section refs followed, items found by href', async () => {
    const pkg = await pkgOf([
      { name: 'imsmanifest.xml', data: MANIFEST },
      { name: 'tests/test.xml', data: TEST },
      { name: 'tests/section-b.xml', data: SECTION_B },
      ...['one', 'two', 'three', 'four'].map((n) => ({ name: `items/${n}.xml`, data: simple(n) })),
    ]);
    const batch = await qtiParser.parse({ package: pkg });
    expect(batch.format).toBe('qti21');
    expect(batch.items.map((i) => [i.sourceId, i.outcome])).toEqual([
      ['one', 'imported'],
      ['two', 'imported'],
      ['three', 'imported'],
      ['four', 'imported'],
    ]);
    expect(batch.tests).toEqual([
      {
        sourceId: 'T1',
        title: 'Final test',
        sections: [
          { title: 'Part A', itemKeys: ['items/one.xml'] },
          { title: 'Part A.1', itemKeys: ['items/two.xml'] },
          { title: 'Part A', itemKeys: ['items/three.xml'] },
          { title: 'Part B', itemKeys: ['items/four.xml'] },
        ],
      },
    ]);
    expect(prepareBatch(batch, { package: pkg }).tests[0]!.itemKeys).toEqual(
      ['one', 'two', 'three', 'four'].map((n) => `items/${n}.xml`),
    );
  });

  it('without QTI resources in the manifest, the items and tests are found by their root element', async () => {
    const pkg = await pkgOf([
      { name: 'imsmanifest.xml', data: '<manifest identifier="m"><resources/></manifest>' },
      { name: 'a/one.xml', data: simple('one') },
      { name: 'a/notes.xml', data: '<notes/>' },
    ]);
    expect((await qtiParser.parse({ package: pkg })).items.map((i) => i.sourceId)).toEqual(['one']);
  });

  it('an item file that is not well-formed is refused alone; a DOCTYPE anywhere refuses the package', async () => {
    const bad = await pkgOf([
      { name: 'one.xml', data: simple('one') },
      { name: 'two.xml', data: simple('two').replace('</assessmentItem>', '') },
    ]);
    const [one, two] = (await qtiParser.parse({ package: bad })).items;
    expect(one!.outcome).toBe('imported');
    expect(two).toMatchObject({ sourceId: 'two.xml', outcome: 'refused' });
    expect(two!.notes[0]!.text).toMatch(/not well-formed/);
    const doctype = await pkgOf([
      { name: 'one.xml', data: simple('one') },
      {
        name: 'two.xml',
        data: simple('two').replace('<assessmentItem', '<!DOCTYPE x [<!ENTITY a "b">]><assessmentItem'),
      },
    ]);
    expect(() => qtiParser.parse({ package: doctype })).toThrow(
      expect.objectContaining({ code: 'xml_malformed' }),
    );
  });

  it('a QTI 1.2 package is unsupported; a package with no items is invalid; a loose test needs its package', async () => {
    const qti12 = await pkgOf([
      {
        name: 'imsmanifest.xml',
        data: '<manifest><resources><resource type="imsqti_xmlv1p2" href="q.xml"/></resources></manifest>',
      },
      { name: 'q.xml', data: '<questestinterop/>' },
    ]);
    expect(() => qtiParser.parse({ package: qti12 })).toThrow(
      expect.objectContaining({ code: 'unsupported_format' }),
    );
    const empty = await pkgOf([{ name: 'imsmanifest.xml', data: '<manifest><resources/></manifest>' }]);
    expect(() => qtiParser.parse({ package: empty })).toThrow(
      expect.objectContaining({ code: 'import_invalid' }),
    );
    expect(() => qtiParser.parse({ name: 'test.xml', bytes: Buffer.from(TEST) })).toThrow(
      expect.objectContaining({ code: 'import_invalid' }),
    );
  });

  it('the registry hands a QTI package and a loose QTI item to this parser', async () => {
    const zip = rawZip([
      { name: 'imsmanifest.xml', data: Buffer.from(MANIFEST) },
      { name: 'items/one.xml', data: Buffer.from(simple('one')) },
    ]);
    expect((await parseFile('pkg.zip', zip)).items.map((i) => i.sourceId)).toEqual(['one']);
    expect((await parseFile('q.xml', Buffer.from(CHOICE_30))).format).toBe('qti30');
  });
});
