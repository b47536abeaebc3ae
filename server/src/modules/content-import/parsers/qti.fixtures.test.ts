import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskDefinitionSchema, type QtiScoring } from '@attesta/contract';
import { scoreAnswer } from '../../scoring/index.js';
import { prepareBatch } from '../prepare.js';
import { openSafePackage } from '../safety/zip.js';
import { rawZip } from '../test-support.js';
import type { QtiItemResult } from './qti-item.js';
import { parseQtiFile, parseQtiPackage } from './qti-package.js';
import { answerFromResponses, readQtiResult } from './qti-result.js';
import { rulesOf } from './qti-rp.js';
import { kids, readQtiXml } from './qti-xml.js';
import { qtiParser } from './qti.js';
import type { ImportNote, ParsedTask, SafePackage } from './types.js';
import { besideTheClone, sharedFolder } from '../../../../test/beside-the-clone.js';

/*
 * The QTI parser against the curated interop fixtures (../shared/fixtures/interop, MANIFEST.txt
 * there lists each file's expected scores). Every answer is written as the value a participant of
 * the PARSED task saves (options found by their labels), then scored by scoreAnswer: so each case
 * proves the import, the renaming of identifiers and the binding of the runner's value to the QTI
 * response together.
 */

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../../..');
const interop = join(sharedFolder(repoRoot), 'fixtures', 'interop');
const present = besideTheClone(join(interop, 'MANIFEST.txt'));
const fixtures = describe.skipIf(!present);
const title = present
  ? 'QTI interop fixtures'
  : '../shared/fixtures/interop not found: fixture tests skipped';

const read = (rel: string) => readFileSync(join(interop, rel));

/** A loose item file parsed: its one item, its details and its task as stored. */
function load(rel: string): { detail: QtiItemResult; task: ParsedTask } {
  const batch = parseQtiFile(rel.split('/').pop()!, read(rel));
  expect(batch.items).toHaveLength(1);
  const detail = [...batch.details.values()][0]!;
  expect(detail.item.outcome, detail.item.notes.map((n) => n.text).join('; ')).not.toBe('refused');
  return { detail, task: detail.item.task! };
}

/** The task as the import stores it (defaults filled by the contract). */
const stored = (task: ParsedTask) => ({ ...taskDefinitionSchema.parse(task), html: task.html });

/** The points an answer gets ('empty' and 'manual' as their status). */
function points(task: ParsedTask, value: unknown): number | string {
  const r = scoreAnswer(stored(task), value);
  if (r.status === 'scored') return r.score;
  return r.status;
}

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The id of the option (item, word, span, side…) a participant sees with this label. */
function id(task: ParsedTask, label: string): string {
  const found: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.id === 'string' && (o.html === undefined ? o.text : o.html) !== undefined)
        if (plain(String(o.html ?? o.text)) === label) found.push(o.id);
      Object.values(o).forEach(walk);
    }
  };
  walk(task.content);
  if (found.length !== 1) throw new Error(`${found.length} choices labelled "${label}"`);
  return found[0]!;
}

const gapIds = (task: ParsedTask) => (task.content as { gaps: { id: string }[] }).gaps.map((g) => g.id);
const blankIds = (task: ParsedTask) => (task.content as { blanks: { id: string }[] }).blanks.map((b) => b.id);

/** Files of the MANIFEST under qti21/ and qti30/. */
function manifestFiles(): string[] {
  return read('MANIFEST.txt')
    .toString('utf8')
    .split(/\r?\n/)
    .filter((l) => /^qti(21|30)\//.test(l))
    .map((l) => l.trim());
}

/** How each file of the MANIFEST is covered here. */
const COVERED = new Map<string, string>();
const covers = (rel: string, how: string) => COVERED.set(rel, how);

fixtures(title, () => {
  describe('choice', () => {
    for (const rel of ['qti21/sdk_choice.xml', 'qti30/ims30_choice.xml']) {
      covers(rel, 'item');
      it(`${rel}: A → 1, B and C → 0 (match_correct, as the native all_or_nothing)`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('single_choice');
        expect(task.maxScore).toBe(1);
        expect(task.scoring).toEqual({ method: 'all_or_nothing' });
        expect(task.reference).toEqual({
          correct: id(task, 'You must stay with your luggage at all times.'),
        });
        expect(points(task, id(task, 'You must stay with your luggage at all times.'))).toBe(1);
        expect(points(task, id(task, 'Do not let someone else look after your luggage.'))).toBe(0);
        expect(points(task, id(task, 'Remember your luggage when you leave.'))).toBe(0);
      });
    }

    for (const rel of [
      'qti21/sdk_choice_multiple.xml',
      'qti30/ims30_choice_multiple.xml',
      'qti30/cito_composition_of_water_qti3.xml',
    ]) {
      covers(rel, 'item');
      it(`${rel}: {H,O} → 2, {O} → 1, {Cl,H,O} → 1, {He,Cl,H,O} → 0 (map_response, as per_choice)`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('multiple_choice');
        expect(task.maxScore).toBe(2);
        const [h, o, cl, he] = ['Hydrogen', 'Oxygen', 'Chlorine', 'Helium'].map((l) => id(task, l)) as [
          string,
          string,
          string,
          string,
        ];
        expect(task.scoring).toMatchObject({ method: 'per_choice', lowerBound: 0, upperBound: 2 });
        expect((task.scoring as { map: Record<string, number> }).map).toMatchObject({
          [h]: 1,
          [o]: 1,
          [cl]: -1,
          [he]: -2,
        });
        expect(points(task, [h, o])).toBe(2);
        expect(points(task, [o])).toBe(1);
        expect(points(task, [cl, h, o])).toBe(1);
        expect(points(task, [he, cl, h, o])).toBe(0);
      });
    }

    covers('qti21/sdk_modalFeedback.xml', 'item');
    it('qti21/sdk_modalFeedback.xml: true → MAXSCORE 10 (custom rules), false → 0; the feedback is dropped', () => {
      const { task, detail } = load('qti21/sdk_modalFeedback.xml');
      expect(task.maxScore).toBe(10);
      expect(detail.item.outcome).toBe('converted');
      expect(detail.item.notes.map((n) => n.text).join()).toMatch(/feedback/);
      expect(points(task, id(task, 'True'))).toBe(10);
      expect(points(task, id(task, 'False'))).toBe(0);
    });
  });

  describe('text entry', () => {
    for (const rel of [
      'qti21/sdk_text_entry.xml',
      'qti30/ims30_text_entry.xml',
      'qti30/cito_text-entry-qti3.xml',
    ]) {
      covers(rel, 'item');
      it(`${rel}: York → 1, york → 0.5, newyork → 0 (a cloze gap in the quote)`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('cloze');
        const [gap] = blankIds(task);
        expect(task.html).toContain(`{{${gap}}}`);
        expect(task.maxScore).toBe(1);
        expect(points(task, { [gap!]: 'York' })).toBe(1);
        expect(points(task, { [gap!]: 'york' })).toBe(0.5);
        expect(points(task, { [gap!]: 'newyork' })).toBe(0);
      });
    }

    covers('qti30/cito_text-entry-qti3.result_external_machine.xml', 'result');
    it('the assessmentResult is a response source: its candidate response "york" scores 0.5', () => {
      const responses = readQtiResult(
        read('qti30/cito_text-entry-qti3.result_external_machine.xml'),
        'result',
      );
      const { detail, task } = load('qti30/cito_text-entry-qti3.xml');
      const item = responses.get(detail.item.sourceId);
      expect(item?.get('RESPONSE')).toEqual(['york']);
      const value = answerFromResponses(detail, item!);
      expect(value).toEqual({ [blankIds(task)[0]!]: 'york' });
      expect(points(task, value)).toBe(0.5);
    });

    covers('qti21/sdk_inline_choice.xml', 'item');
    covers('qti30/ims30_inline_choice.xml', 'item');
    for (const rel of ['qti21/sdk_inline_choice.xml', 'qti30/ims30_inline_choice.xml'])
      it(`${rel}: York → 1, Lancaster → 0, nothing → 0 (a drop-down gap)`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('cloze');
        const [gap] = blankIds(task);
        expect(points(task, { [gap!]: id(task, 'York') })).toBe(1);
        expect(points(task, { [gap!]: id(task, 'Lancaster') })).toBe(0);
        expect(points(task, {})).toBe('empty');
      });
  });

  describe('order', () => {
    for (const rel of ['qti21/sdk_order.xml', 'qti30/ims30_order.xml']) {
      covers(rel, 'item');
      it(`${rel}: [C,A,B] → 1, [A,C,B] → 0, [A,B] → 0`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('ordering');
        const [a, b, c] = ['Rubens Barrichello', 'Jenson Button', 'Michael Schumacher'].map((l) =>
          id(task, l),
        );
        expect(points(task, [c, a, b])).toBe(1);
        expect(points(task, [a, c, b])).toBe(0);
        expect(points(task, [a, b])).toBe(0);
      });
    }

    covers('qti21/cito_order_partial_scoring.xml', 'item');
    it('qti21/cito_order_partial_scoring.xml: [C,A,B] → 2, [C,B,A] → 1, [A,B,C] → 0 (custom partial rules)', () => {
      const { task } = load('qti21/cito_order_partial_scoring.xml');
      expect(task.maxScore).toBe(2);
      const [a, b, c] = ['Rubens Barrichello', 'Jenson Button', 'Michael Schumacher'].map((l) => id(task, l));
      expect(points(task, [c, a, b])).toBe(2);
      expect(points(task, [c, b, a])).toBe(1);
      expect(points(task, [a, b, c])).toBe(0);
    });
  });

  describe('associate, match, gap match, hottext', () => {
    for (const rel of ['qti21/sdk_associate.xml', 'qti30/ims30_associate.xml']) {
      covers(rel, 'item');
      it(`${rel}: {A P, C M, D L} → 4 in any pair order, {P A, D L} → 3, {P C, D M, L A} → 0`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('associate');
        expect(task.maxScore).toBe(4);
        const [A, C, D, L, M, P] = [
          'Antonio',
          'Capulet',
          'Demetrius',
          'Lysander',
          'Montague',
          'Prospero',
        ].map((l) => id(task, l));
        expect(
          points(task, [
            [A, P],
            [C, M],
            [D, L],
          ]),
        ).toBe(4);
        expect(
          points(task, [
            [P, A],
            [M, C],
            [L, D],
          ]),
        ).toBe(4);
        expect(
          points(task, [
            [P, A],
            [D, L],
          ]),
        ).toBe(3);
        expect(
          points(task, [
            [P, C],
            [D, M],
            [L, A],
          ]),
        ).toBe(0);
      });
    }

    for (const rel of ['qti21/sdk_match.xml', 'qti30/ims30_match.xml']) {
      covers(rel, 'item');
      it(`${rel}: all four → 3, {C R} → 1, {D M, L M, P T} → 2, {D M} → 0.5, {R C} → 0, {C R, M D} → 1`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('matching');
        expect(task.maxScore).toBe(3);
        const [C, D, L, P] = ['Capulet', 'Demetrius', 'Lysander', 'Prospero'].map((l) => id(task, l));
        const [M, R, T] = ["A Midsummer-Night's Dream", 'Romeo and Juliet', 'The Tempest'].map((l) =>
          id(task, l),
        );
        expect(points(task, { [C!]: R, [D!]: M, [L!]: M, [P!]: T })).toBe(3);
        expect(points(task, { [C!]: R })).toBe(1);
        expect(points(task, { [D!]: M, [L!]: M, [P!]: T })).toBe(2);
        expect(points(task, { [D!]: M })).toBe(0.5);
        expect(points(task, { [R!]: C })).toBe(0);
        expect(points(task, { [C!]: R, [M!]: D })).toBe(1);
      });
    }

    for (const rel of ['qti21/sdk_gap_match.xml', 'qti30/ims30_gap_match.xml']) {
      covers(rel, 'item');
      it(`${rel}: {W G1, Su G2} → 3, {Sp G1, Su G2} → 1, {A G1, Sp G2} → 0, nothing → 0`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('gap_match');
        expect(task.maxScore).toBe(3);
        const [g1, g2] = gapIds(task);
        for (const g of [g1, g2]) expect(task.html).toContain(`{{${g}}}`);
        const [w, sp, su, a] = ['winter', 'spring', 'summer', 'autumn'].map((l) => id(task, l));
        expect(points(task, { [g1!]: w, [g2!]: su })).toBe(3);
        expect(points(task, { [g1!]: sp, [g2!]: su })).toBe(1);
        expect(points(task, { [g1!]: a, [g2!]: sp })).toBe(0);
        expect(points(task, {})).toBe('empty');
      });
    }

    for (const rel of ['qti21/sdk_hottext.xml', 'qti30/ims30_hottext.xml']) {
      covers(rel, 'item');
      it(`${rel}: B → 1, C → 0, nothing → 0 (spans marked in the text)`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe('hottext');
        const b = id(task, 'includes');
        expect(task.html).toContain(`{{${b}}}`);
        expect(points(task, [b])).toBe(1);
        expect(points(task, [id(task, 'at least')])).toBe(0);
        expect(points(task, [])).toBe('empty');
      });
    }
  });

  describe('human-scored', () => {
    for (const [rel, type] of [
      ['qti21/sdk_extended_text.xml', 'extended_text'],
      ['qti30/ims30_extended_text.xml', 'extended_text'],
      ['qti21/ims22_upload.xml', 'file'],
      ['qti30/ims30_upload.xml', 'file'],
    ] as const) {
      covers(rel, 'item');
      it(`${rel}: ${type}, graded by experts by one criterion`, () => {
        const { task } = load(rel);
        expect(task.answerType).toBe(type);
        expect(task.scoring).toEqual({ method: 'expert' });
        expect(task.criteria).toHaveLength(1);
        expect(task.html).not.toMatch(/Interaction/);
        const value = type === 'file' ? { fileIds: [1] } : 'Dear Sam…';
        expect(points(task, value)).toBe('manual');
      });
    }
  });

  describe('several interactions in one item', () => {
    covers('qti21/sdk_multi-input.xml', 'item');
    it('qti21/sdk_multi-input.xml: choice + inline choice + text entry + gap match → composite; each sub-score 1', () => {
      const { task } = load('qti21/sdk_multi-input.xml');
      expect(task.answerType).toBe('composite');
      const parts = (task.content as { parts: { id: string; answerType: string }[] }).parts;
      expect(parts.map((p) => p.answerType)).toEqual([
        'single_choice',
        'single_choice',
        'short_text',
        'gap_match',
      ]);
      for (const p of parts) expect(task.html).toContain(`{{${p.id}}}`);
      expect(task.html).toMatch(/The woman, whose name was \{\{p2\}\}, became angry with the \{\{p3\}\}\./);
      expect(task.maxScore).toBe(4);
      const gaps = (task.content as { parts: { content: { gaps?: { id: string }[] } }[] }).parts[3]!.content
        .gaps!;
      const right = {
        p1: id(task, 'Some people are afraid of a woman who walks around at night as a ghost.'),
        p2: id(task, 'Marion'),
        p3: 'wicked king',
        p4: {
          [gaps[0]!.id]: id(task, 'family'),
          [gaps[1]!.id]: id(task, 'castle'),
          [gaps[2]!.id]: id(task, 'horse'),
        },
      };
      expect(points(task, right)).toBe(4);
      expect(points(task, { ...right, p3: 'evil king' })).toBe(3.5);
      expect(points(task, { ...right, p3: 'the King of Spain' })).toBeCloseTo(3.2, 6);
      expect(points(task, { ...right, p3: 'queen', p2: id(task, 'Maureen') })).toBe(2);
      expect(points(task, { p1: id(task, 'Some people are afraid of the dark.') })).toBe(0);
    });
  });

  describe('the sachsen test: an assessmentTest whose 13 items are resolved by href', () => {
    const dir = 'qti21/sachsen_test';
    let pkg: SafePackage;
    let parsed: ReturnType<typeof parseQtiPackage>;
    const MANIFEST_XML =
      '<?xml version="1.0" encoding="UTF-8"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><resources>' +
      '<resource identifier="t" type="imsqti_test_xmlv2p1" href="sachsen/interaction_mix_sachsen.xml"/></resources></manifest>';

    /** The correct responses of each item as the MANIFEST gives them (QTI identifiers), and MAXSCORE. */
    const CORRECT: [string, Record<string, string[]>, number][] = [
      ['Choicetruefalse_176040516', { RESPONSE_27628688: ['choice_1164834606'] }, 1],
      ['Choicesingle_853928446', { RESPONSE_30705996: ['choice_685440446'] }, 1],
      ['Choicemultiple_2014410822', { RESPONSE_13390220: ['choice_693643701', 'choice_853818748'] }, 1],
      [
        'Choicemultiple_871212949',
        { RESPONSE_27966883: ['choice_934383202', 'choice_2022864592', 'choice_1534527094'] },
        3,
      ],
      ['Hotspot_278940407', { RESPONSE: ['Choice6'] }, 1],
      ['Order_913967682', { RESPONSE: ['Choice0', 'Choice1', 'Choice2', 'Choice3', 'Choice4'] }, 1],
      [
        'Matchsingle_143114773',
        {
          RESPONSE: [
            'Match29886762 Match30518135',
            'Match5256823 Match2607634',
            'Match4430647 Match8604807',
            'Match1403839 Match5570831',
          ],
        },
        1,
      ],
      [
        'Matchmultiple_1038910213',
        {
          RESPONSE: [
            'Match15952430 Match12582080',
            'Match21853614 Match7003951',
            'Match6887188 Match7003951',
            'Match16519624 Match17531354',
            'Match23738841 Match6457581',
          ],
        },
        1,
      ],
      ['TextEntry_883368511', { RESPONSE_1: ['Fichtelberg'] }, 1],
      ['TextEntrynumeric_2040297025', { RESPONSE_1: ['4.0'], RESPONSE_2: ['2.0'] }, 2],
      ['TextEntrynumeric_770468849', { RESPONSE_1: ['4.136'] }, 1],
      [
        'TextEntrysubset_806481421',
        { RESPONSE_1: ['Dresden'], RESPONSE_2: ['Chemnitz'], RESPONSE_3: ['Leipzig'] },
        3,
      ],
      ['Hottext_801974120', { RESPONSE: ['Choice1', 'Choice3', 'Choice8'] }, 1],
    ];

    beforeAll(async () => {
      const entries = readdirSync(join(interop, dir)).map((f) => ({
        name: `sachsen/${f}`,
        data: read(`${dir}/${f}`),
      }));
      pkg = await openSafePackage(
        rawZip([{ name: 'imsmanifest.xml', data: Buffer.from(MANIFEST_XML) }, ...entries]),
      );
      parsed = parseQtiPackage(pkg);
    });

    covers(`${dir}/interaction_mix_sachsen.xml`, 'test');
    it('the test has its 13 items in the order of its one section', () => {
      expect(parsed.format).toBe('qti21');
      expect(parsed.tests).toHaveLength(1);
      const [test] = parsed.tests;
      expect(test!.sourceId).toBe('InteractionMixSachsen_1901710679');
      expect(test!.title).toBe('Interaction Mix (Sachsen)');
      const idOf = new Map(parsed.items.map((i) => [i.key, i.sourceId]));
      expect(test!.sections.map((s) => ({ ...s, itemKeys: s.itemKeys.map((k) => idOf.get(k)) }))).toEqual([
        { title: 'Sektion', itemKeys: CORRECT.map(([id]) => id) },
      ]);
      expect(parsed.items.map((i) => [i.sourceId, i.outcome === 'refused' ? i.notes : 'ok'])).toEqual(
        CORRECT.map(([id]) => [id, 'ok']),
      );
    });

    for (const [itemId, responses, max] of CORRECT) {
      covers(`${dir}/${itemId}.xml`, 'test item');
      it(`${itemId}: the correct response scores MAXSCORE ${max}`, () => {
        const detail = parsed.details.get(itemId)!;
        const task = detail.item.task!;
        expect(task.maxScore).toBe(max);
        const value = answerFromResponses(detail, new Map(Object.entries(responses)));
        expect(points(task, value)).toBe(max);
      });
    }

    it('TextEntrynumeric_770468849: relative tolerance 5 % of the response (QTI: of the first operand)', () => {
      const task = parsed.details.get('TextEntrynumeric_770468849')!.item.task!;
      const [gap] = blankIds(task);
      expect((task.content as { blanks: { kind: string }[] }).blanks[0]!.kind).toBe('number');
      expect(points(task, { [gap!]: '4,3' })).toBe(1);
      expect(points(task, { [gap!]: '3.95' })).toBe(1);
      expect(points(task, { [gap!]: '3.93' })).toBe(0); // 4.136 is not within 5 % of 3.93
      expect(points(task, { [gap!]: '4.4' })).toBe(0);
      expect(points(task, { [gap!]: '3.9' })).toBe(0);
    });

    it('TextEntrysubset_806481421: distinct cities → 3; a city repeated in another letter case counts once', () => {
      const task = parsed.details.get('TextEntrysubset_806481421')!.item.task!;
      const [a, b, c] = blankIds(task);
      expect(points(task, { [a!]: 'Dresden', [b!]: 'Leipzig', [c!]: 'Chemnitz' })).toBe(3);
      expect(points(task, { [a!]: 'Dresden', [b!]: 'dresden', [c!]: 'Leipzig' })).toBe(2);
      expect(points(task, { [a!]: 'Zwickau', [b!]: 'Leipzig', [c!]: 'Dresden' })).toBe(2);
      // The item compares each gap with the later ones: an empty later gap makes the comparison
      // NULL, so (as in any QTI engine) the earlier gaps do not count.
      expect(points(task, { [a!]: 'Dresden', [b!]: 'Leipzig' })).toBe(0);
    });

    it('Choicemultiple_871212949: mapResponse per answer, wrong choices take points off', () => {
      const task = parsed.details.get('Choicemultiple_871212949')!.item.task!;
      const [erz, lau, harz] = ['Erzgebirge', 'Lausitz', 'Harz'].map((l) => id(task, l));
      expect(points(task, [erz, lau])).toBe(2);
      expect(points(task, [erz, lau, harz])).toBe(1);
      expect(points(task, [harz])).toBe(0);
    });

    it('the hotspot image is not in the package: a note, not a refusal', async () => {
      const hotspot = parsed.details.get('Hotspot_278940407')!.item;
      expect(hotspot.task!.answerType).toBe('hotspot');
      const prepared = prepareBatch(await qtiParser.parse({ package: pkg }), { package: pkg });
      const item = prepared.items.find((i) => i.sourceId === 'Hotspot_278940407')!;
      expect(item.outcome).toBe('converted');
      expect(item.notes.map((n) => n.text).join()).toMatch(/media left out/);
      expect(prepared.items.filter((i) => i.outcome === 'refused')).toEqual([]);
      expect(prepared.tests[0]!.itemKeys).toHaveLength(13);
    });
  });

  describe('response processing templates (rptemplates/*.xml are templates, not items)', () => {
    const templateRules = (rel: string) => {
      const { root } = readQtiXml(read(rel), rel);
      expect(root.name).toBe('responseProcessing');
      const problems: ImportNote[] = [];
      const rules = rulesOf(kids(root), problems);
      expect(problems).toEqual([]);
      return rules;
    };
    const withRules = (task: ParsedTask, rules: unknown): ParsedTask => {
      const { template: _template, ...scoring } = task.scoring as QtiScoring;
      return { ...task, scoring: { ...scoring, rules } as never };
    };

    covers('qti30/rptemplates/match_correct.xml', 'template');
    it('match_correct.xml, run as rules, scores as the match_correct template does', () => {
      const { task } = load('qti30/ims30_choice.xml');
      const rules = withRules(task, templateRules('qti30/rptemplates/match_correct.xml'));
      for (const label of [
        'You must stay with your luggage at all times.',
        'Do not let someone else look after your luggage.',
      ])
        expect(points(rules, id(task, label))).toBe(points(task, id(task, label)));
      expect(points(rules, id(task, 'You must stay with your luggage at all times.'))).toBe(1);
    });

    covers('qti30/rptemplates/map_response.xml', 'template');
    it('map_response.xml, run as rules, scores as the map_response template does', () => {
      const { task } = load('qti30/ims30_choice_multiple.xml');
      const rules = withRules(task, templateRules('qti30/rptemplates/map_response.xml'));
      const [h, o, cl] = ['Hydrogen', 'Oxygen', 'Chlorine'].map((l) => id(task, l));
      for (const value of [[h, o], [o], [cl, h, o], [cl]])
        expect(points(rules, value)).toBe(points(task, value));
      expect(points(rules, [h, o])).toBe(2);
    });

    it('a loose template or result file is not an item (unsupported_format)', () => {
      for (const rel of [
        'qti30/rptemplates/match_correct.xml',
        'qti30/cito_text-entry-qti3.result_external_machine.xml',
      ])
        expect(() => qtiParser.parse({ name: rel, bytes: read(rel) })).toThrow(
          expect.objectContaining({ code: 'unsupported_format' }),
        );
    });

    it('an item whose templateLocation names a template file of the package runs that file’s rules', async () => {
      const item = read('qti30/ims30_choice.xml')
        .toString('utf8')
        .replace(
          /<qti-response-processing[^>]*\/>/,
          '<qti-response-processing template-location="../rp/own_rules.xml"/>',
        );
      const pkg = await openSafePackage(
        rawZip([
          { name: 'items/choice.xml', data: Buffer.from(item) },
          { name: 'rp/own_rules.xml', data: read('qti30/rptemplates/match_correct.xml') },
        ]),
      );
      const [detail] = parseQtiPackage(pkg).details.values();
      const task = detail!.item.task!;
      expect((task.scoring as QtiScoring).rules).toHaveLength(1);
      expect(detail!.item.notes.map((n) => n.text).join()).toMatch(
        /read from the template \.\.\/rp\/own_rules\.xml/,
      );
      expect(points(task, id(task, 'You must stay with your luggage at all times.'))).toBe(1);
      expect(points(task, id(task, 'Remember your luggage when you leave.'))).toBe(0);
    });
  });

  it('every qti21/qti30 file of the MANIFEST (and every file there on disk) is covered above', () => {
    const listed = manifestFiles();
    const onDisk = ['qti21', 'qti30'].flatMap((d) =>
      readdirSync(join(interop, d), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(interop.length + 1)),
    );
    expect([...onDisk].sort()).toEqual([...listed].sort());
    expect([...listed].filter((f) => !COVERED.has(f))).toEqual([]);
  });
});
