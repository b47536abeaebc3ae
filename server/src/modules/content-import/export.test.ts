import AdmZip from 'adm-zip';
import { eq } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskDefinitionSchema, type TaskDefinitionInput } from '@attesta/contract';
import {
  files,
  subjectExams,
  subjects,
  subjectTests,
  tasks,
  variants,
  variantTasks,
} from '../../db/schema/index.js';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { itemXml, ITEM_WRITERS, wildcardPattern } from './export/qti3.js';
import { PNG } from './test-support.js';

let t: TestApp;
let admin: Session;
let subjectTestId: number;
const taskIds: number[] = [];
let imageId = 0;

const opts = (...ids: string[]) => ids.map((id) => ({ id, html: `<b>${id}</b> вариант` }));

/** One task of every answer type, with the scoring methods that need custom processing. */
const DEFINITIONS: (TaskDefinitionInput & { sourceId?: string })[] = [
  {
    answerType: 'single_choice',
    content: { options: opts('a', 'b', 'c') },
    reference: { correct: 'b' },
    scoring: { method: 'all_or_nothing' },
    maxScore: 1,
    sourceId: 'ITEM-single',
  },
  {
    answerType: 'multiple_choice',
    content: { options: opts('1', '2', '3', '4'), maxChoices: 3 },
    reference: { correct: ['1', '3'] },
    scoring: { method: 'one_mistake' },
    maxScore: 2,
  },
  {
    answerType: 'multiple_choice',
    content: { options: opts('a', 'b', 'c') },
    reference: { correct: ['a'] },
    scoring: { method: 'per_choice', map: { a: 1, b: -0.5, c: -0.5 } },
    maxScore: 1,
  },
  {
    answerType: 'short_text',
    content: { maxLength: 50 },
    reference: { accepted: ['Москва', 'г. Москва'] },
    scoring: { method: 'all_or_nothing', wildcards: false },
    maxScore: 1,
  },
  {
    answerType: 'short_text',
    content: { maxLength: 50 },
    reference: { accepted: ['фото*синтез'] },
    scoring: { method: 'all_or_nothing', wildcards: true },
    maxScore: 1,
  },
  {
    answerType: 'number',
    content: { unit: 'см' },
    reference: { value: 2.5, tolerance: 0.1 },
    scoring: { method: 'all_or_nothing' },
    maxScore: 1,
  },
  {
    answerType: 'digit_sequence',
    content: { length: 3 },
    reference: { digits: '135' },
    scoring: { method: 'one_mistake', anyOrder: true },
    maxScore: 2,
  },
  {
    answerType: 'digit_sequence',
    content: {},
    reference: { digits: '312' },
    scoring: { method: 'one_mistake' },
    maxScore: 2,
  },
  {
    answerType: 'ordering',
    content: { items: opts('x', 'y', 'z') },
    reference: { order: ['z', 'x', 'y'] },
    scoring: { method: 'one_mistake' },
    maxScore: 2,
  },
  {
    answerType: 'matching',
    content: { left: opts('l1', 'l2'), right: opts('r1', 'r2', 'r3') },
    reference: { pairs: { l1: 'r2', l2: 'r1' } },
    scoring: { method: 'per_pair' },
    maxScore: 2,
  },
  {
    answerType: 'cloze',
    content: {
      blanks: [
        { id: 'g1', kind: 'text' },
        {
          id: 'g2',
          kind: 'choice',
          options: [
            { id: 'o1', text: 'больше' },
            { id: 'o2', text: 'меньше' },
          ],
        },
      ],
    },
    reference: { blanks: { g1: ['вода'], g2: ['o2'] } },
    scoring: { method: 'per_blank' },
    maxScore: 2,
  },
  {
    answerType: 'extended_text',
    content: { maxLength: 2000 },
    reference: null,
    scoring: { method: 'expert' },
    maxScore: 3,
    criteria: [
      { code: 'К1', text: 'Тезис & аргумент <верно>', maxScore: 2 },
      { code: 'К2', text: 'Грамотность', maxScore: 1 },
    ],
  },
  {
    answerType: 'file',
    content: { accept: ['image/*', 'application/pdf'] },
    reference: null,
    scoring: { method: 'expert' },
    maxScore: 1,
    criteria: [{ code: 'К1', text: 'Решение', maxScore: 1 }],
  },
];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  const db = t.app.ctx.db;
  const [subject] = await db.insert(subjects).values({ name: 'Экспорт' }).returning();
  const [exam] = await db
    .insert(subjectExams)
    .values({ subjectId: subject!.id, kind: 'diagnostic', name: 'Д' })
    .returning();
  const [test] = await db
    .insert(subjectTests)
    .values({ subjectExamId: exam!.id, name: 'Итоговая <работа>', durationMinutes: 40, sourceId: 'T-1' })
    .returning();
  subjectTestId = test!.id;
  for (const [i, d] of DEFINITIONS.entries()) {
    const def = taskDefinitionSchema.parse(d);
    const html =
      d.answerType === 'cloze'
        ? '<p>Лёд — это {{g1}}; он {{g2}} воды&nbsp;по плотности.</p>'
        : `<p>Задание ${i + 1}: <i>x</i><sup>2</sup> &amp; <br>ещё<math><mi>x</mi></math></p>`;
    const [row] = await db
      .insert(tasks)
      .values({
        answerType: def.answerType,
        html,
        content: def.content as Record<string, unknown>,
        reference: def.reference,
        scoring: def.scoring as Record<string, unknown>,
        criteria: def.criteria ?? null,
        maxScore: def.maxScore,
        solutionHtml: i === 0 ? '<p>Потому что <b>b</b></p>' : null,
        title: `Задание ${i + 1}`,
        sourceId: d.sourceId ?? (i === 1 ? '1-starts-with-digit' : null),
      })
      .returning();
    taskIds.push(row!.id);
  }
  // The first task shows an image stored as its file.
  const [image] = await db
    .insert(files)
    .values({
      ownerType: 'task',
      ownerId: taskIds[0]!,
      name: 'рис 1.png',
      mime: 'image/png',
      size: PNG.length,
      sha256: 'x',
      data: PNG,
    })
    .returning();
  imageId = image!.id;
  await db
    .update(tasks)
    .set({ html: `<p>Смотри <img src="/api/files/${imageId}" alt="рис"></p>` })
    .where(eq(tasks.id, taskIds[0]!));
  // Two variants: the second repeats a task of the first.
  const [v1] = await db.insert(variants).values({ subjectTestId, number: 1 }).returning();
  const [v2] = await db.insert(variants).values({ subjectTestId, number: 2 }).returning();
  await db.insert(variantTasks).values(
    taskIds.map((taskId, i) => ({
      variantId: v1!.id,
      taskId,
      position: i + 1,
      maxScore: DEFINITIONS[i]!.maxScore,
    })),
  );
  await db.insert(variantTasks).values([
    { variantId: v2!.id, taskId: taskIds[0]!, position: 1, maxScore: 1 },
    { variantId: v2!.id, taskId: taskIds[3]!, position: 2, maxScore: 1 },
  ]);
});

afterAll(async () => {
  await t?.close();
});

const exportUrl = (id: number, format = 'qti3') =>
  `/api/admin/content/subjectTests/${id}/export?format=${format}`;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['resource', 'file', 'qti-assessment-item-ref', 'qti-assessment-section'].includes(name),
});

describe('QTI 3.0 export', () => {
  it('a zip whose manifest lists every item, each a well-formed QTI 3.0 item', async () => {
    const res = await t.app.inject({ method: 'GET', url: exportUrl(subjectTestId), headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(String(res.headers['content-disposition'])).toContain('.zip');
    const zip = new AdmZip(res.rawPayload);
    const names = zip.getEntries().map((e) => e.entryName);
    expect(names[0]).toBe('imsmanifest.xml');

    const text = (name: string) => zip.getEntry(name)!.getData().toString('utf8');
    for (const name of names.filter((n) => n.endsWith('.xml')))
      expect([name, XMLValidator.validate(text(name))]).toEqual([name, true]);

    const manifest = parser.parse(text('imsmanifest.xml')) as {
      manifest: {
        resources: {
          resource: {
            '@identifier': string;
            '@type': string;
            '@href': string;
            file: { '@href': string }[];
          }[];
        };
      };
    };
    const resources = manifest.manifest.resources.resource;
    const items = resources.filter((r) => r['@type'] === 'imsqti_item_xmlv3p0');
    expect(items).toHaveLength(DEFINITIONS.length);
    expect(resources.filter((r) => r['@type'] === 'imsqti_test_xmlv3p0').map((r) => r['@href'])).toEqual([
      'assessment-test.xml',
    ]);
    for (const r of resources) for (const f of r.file) expect(names).toContain(f['@href']);
    // Source ids kept as identifiers when they are QTI identifiers.
    expect(items.map((r) => r['@identifier'])).toContain('ITEM-single');
    expect(items.map((r) => r['@identifier'])).toContain(`task-${taskIds[1]}`);

    // Every item parses back, with the interaction of its answer type.
    const interactions: Record<string, string> = {
      single_choice: 'qti-choice-interaction',
      multiple_choice: 'qti-choice-interaction',
      short_text: 'qti-text-entry-interaction',
      number: 'qti-text-entry-interaction',
      digit_sequence: 'qti-text-entry-interaction',
      ordering: 'qti-order-interaction',
      matching: 'qti-match-interaction',
      cloze: 'qti-inline-choice-interaction',
      extended_text: 'qti-extended-text-interaction',
      file: 'qti-upload-interaction',
    };
    for (const [i, r] of items.entries()) {
      const xml = text(r['@href']);
      const doc = parser.parse(xml) as { 'qti-assessment-item': Record<string, unknown> };
      const root = doc['qti-assessment-item'];
      expect(root['@identifier']).toBe(r['@identifier']);
      expect(root['@xmlns']).toBe('http://www.imsglobal.org/xsd/imsqtiasi_v3p0');
      const type = DEFINITIONS[i]!.answerType;
      expect([type, xml.includes(`<${interactions[type]}`)]).toEqual([type, true]);
      if (i > 0 && type !== 'cloze')
        expect(xml).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML">');
    }

    // The first item: template processing, its image in the package, its solution for scorers.
    const first = text('items/ITEM-single.xml');
    expect(first).toContain(
      'template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"',
    );
    expect(first).toContain(`src="media/${imageId}-_1.png"`);
    expect(zip.getEntry(`items/media/${imageId}-_1.png`)!.getData().equals(PNG)).toBe(true);
    expect(first).toContain('view="scorer"');
    // Custom processing where no template fits; criteria escaped; cloze gaps in place.
    const byType = (type: string, n = 0) =>
      text(
        items[DEFINITIONS.map((d, j) => [d, j] as const).filter(([d]) => d.answerType === type)[n]![1]]![
          '@href'
        ],
      );
    expect(byType('multiple_choice')).toContain('<qti-map-response identifier="RESPONSE"/>');
    expect(byType('multiple_choice', 1)).toContain('map_response.xml');
    expect(byType('ordering')).toContain('<qti-index n="1">');
    expect(byType('matching')).toContain('<qti-truncate>');
    expect(byType('short_text', 1)).toContain('pattern="[фФ][оО][тТ][оО].*[сС][иИ][нН][тТ][еЕ][зЗ]"');
    expect(byType('number')).toContain('tolerance-mode="absolute" tolerance="0.1 0.1"');
    expect(byType('extended_text')).toContain('Тезис &amp; аргумент &lt;верно&gt;');
    expect(byType('extended_text')).toContain('external-scored="human"');
    const cloze = byType('cloze');
    expect(cloze).toContain('<qti-text-entry-interaction response-identifier="RESPONSE_g1"');
    expect(cloze).not.toContain('{{');

    // The test: a section per variant under one that selects a variant; every item referenced.
    const test = parser.parse(text('assessment-test.xml')) as {
      'qti-assessment-test': {
        '@identifier': string;
        'qti-test-part': {
          'qti-assessment-section': {
            'qti-selection': { '@select': string };
            'qti-assessment-section': { 'qti-assessment-item-ref': { '@href': string }[] }[];
          }[];
        };
      };
    };
    expect(test['qti-assessment-test']['@identifier']).toBe('T-1');
    const outer = test['qti-assessment-test']['qti-test-part']['qti-assessment-section'][0]!;
    expect(outer['qti-selection']['@select']).toBe('1');
    const [s1, s2] = outer['qti-assessment-section'];
    expect(s1!['qti-assessment-item-ref'].map((r) => r['@href'])).toEqual(items.map((r) => r['@href']));
    expect(s2!['qti-assessment-item-ref']).toHaveLength(2);
  });

  it('404 for an unknown subject test; 400 for another format', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: exportUrl(999999), headers: admin.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: exportUrl(subjectTestId, 'qti2'), headers: admin.headers }))
        .statusCode,
    ).toBe(400);
  });

  it('each answer type of the task model has its writer; another type exports its text only', () => {
    const types = [...new Set(DEFINITIONS.map((d) => d.answerType))].sort();
    expect(types).toHaveLength(10);
    for (const type of types) expect([type, typeof ITEM_WRITERS[type]]).toEqual([type, 'function']);
    const xml = itemXml(
      {
        id: 1,
        answerType: 'no_such_type',
        html: '<p>Где?</p>',
        content: {},
        reference: null,
        scoring: {},
        solutionHtml: null,
        criteria: null,
        maxScore: 1,
        title: null,
        sourceId: null,
      },
      'task-1',
      { media: new Map() },
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<!-- Attesta: answer type no_such_type has no QTI 3.0 mapping yet');
  });

  it('wildcards become XSD patterns', () => {
    expect(wildcardPattern('a*b', true)).toBe('a.*b');
    expect(wildcardPattern('1.5\\*', true)).toBe('1\\.5\\*');
    expect(wildcardPattern('Ab', false)).toBe('[aA][bB]');
    // A space (a line break) matches any run of whitespace, as Attesta compares texts.
    expect(wildcardPattern('the \n end*', true)).toBe('the\\s+end.*');
  });
});
