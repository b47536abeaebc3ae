import { IMPORTED_ANSWER_TYPES, taskDefinitionSchema } from '@attesta/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrg,
  createParticipantTest,
  createVariantWithTasks,
  createTestApp,
  signedInParticipant,
  type TaskSpec,
  type TestApp,
} from '../../../test/helpers.js';
import { caller, SECRET } from './test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const hidden = (n: number) => ({
  solutionHtml: `<p>${SECRET}-solution-${n}</p>`,
  criteria: [{ code: 'К1', text: `${SECRET}-criterion-${n}`, maxScore: 1 }],
});
/** Secret-looking keys smuggled into content: the schema allowlist must drop every one. */
const smuggled = {
  correct: `${SECRET}-c`,
  reference: `${SECRET}-r`,
  scoring: `${SECRET}-s`,
  mapping: SECRET,
};

/** A task of each imported answer type (and hotspot both ways), keys and rules holding SECRET. */
const SPECS: TaskSpec[] = [
  {
    answerType: 'gap_match',
    html: '<p>Столица России — {{g1}}, Франции — {{g2}}.</p>',
    content: {
      words: [
        { id: 'w1', html: '<b onclick="x()">Москва</b>', matchMax: 1, ...smuggled },
        { id: 'w2', html: 'Париж', matchMax: 1 },
        { id: 'w3', html: 'Лондон', matchMax: 1 },
      ],
      gaps: [{ id: 'g1', ...smuggled }, { id: 'g2' }],
      shuffle: true,
      ...smuggled,
    },
    reference: { pairs: { g1: 'w1', g2: 'w2' }, note: `${SECRET}-ref-1` },
    scoring: { method: 'per_pair', note: `${SECRET}-scoring-1` },
    maxScore: 2,
    ...hidden(1),
  },
  {
    answerType: 'associate',
    content: {
      items: [
        { id: 'i1', html: 'Пушкин', matchMax: 1 },
        { id: 'i2', html: 'Онегин', matchMax: 1, ...smuggled },
        { id: 'i3', html: 'Толстой', matchMax: 1 },
        { id: 'i4', html: 'Каренина', matchMax: 1 },
      ],
      maxAssociations: 2,
      ...smuggled,
    },
    reference: {
      pairs: [
        ['i1', 'i2'],
        ['i3', 'i4'],
      ],
      note: `${SECRET}-ref-2`,
    },
    scoring: { method: 'per_pair', note: `${SECRET}-scoring-2` },
    maxScore: 2,
    ...hidden(2),
  },
  {
    answerType: 'hottext',
    html: '<p>{{h1}} мыла {{h2}} раму {{h3}}.</p>',
    content: {
      choices: [
        { id: 'h1', html: 'Мама', ...smuggled },
        { id: 'h2', html: '<i>красную</i><script>x()</script>' },
        { id: 'h3', html: 'вчера' },
      ],
      maxChoices: 2,
      ...smuggled,
    },
    reference: { correct: ['h2'], note: `${SECRET}-ref-3` },
    scoring: { method: 'all_or_nothing', note: `${SECRET}-scoring-3` },
    ...hidden(3),
  },
  {
    answerType: 'hotspot',
    content: {
      image: { src: 'map.png', width: 400, height: 300, alt: 'Карта', ...smuggled },
      areas: [
        { id: 'a1', shape: 'rect', coords: [10, 10, 100, 80], ...smuggled },
        { id: 'a2', shape: 'circle', coords: [200, 150, 40] },
        { id: 'a3', shape: 'poly', coords: [300, 20, 380, 20, 340, 90] },
      ],
      maxChoices: 2,
      ...smuggled,
    },
    reference: { correct: ['a2'], note: `${SECRET}-ref-4` },
    scoring: { method: 'all_or_nothing', note: `${SECRET}-scoring-4` },
    ...hidden(4),
  },
  {
    answerType: 'hotspot',
    content: {
      image: { fileId: 1, width: 400, height: 300 },
      areas: [{ id: 'z1', shape: 'circle', coords: [123, 45, 6] }],
      select: 'points',
      maxChoices: 1,
    },
    reference: { correct: ['z1'], note: `${SECRET}-ref-5` },
    scoring: { method: 'all_or_nothing', note: `${SECRET}-scoring-5` },
    ...hidden(5),
  },
  {
    answerType: 'composite',
    html: '<p>Город {{p1}}.</p><div>{{p2}}</div><div>{{p3}}</div>',
    content: {
      parts: [
        { id: 'p1', answerType: 'short_text', content: { maxLength: 20, ...smuggled }, ...smuggled },
        {
          id: 'p2',
          answerType: 'single_choice',
          content: {
            options: [
              { id: 'o1', html: 'Да', ...smuggled },
              { id: 'o2', html: '<span onmouseover="x()">Нет</span>' },
            ],
            shuffle: true,
          },
        },
        {
          id: 'p3',
          answerType: 'hotspot',
          content: {
            image: { src: 'p.png', width: 100, height: 100 },
            areas: [{ id: 'q1', shape: 'rect', coords: [0, 0, 10, 10] }],
            select: 'points',
          },
        },
      ],
      ...smuggled,
    },
    reference: {
      parts: { p1: { accepted: [`${SECRET}-ref-6`] }, p2: { correct: 'o1' }, p3: { correct: ['q1'] } },
    },
    scoring: {
      method: 'sum',
      parts: {
        p1: { scoring: { method: 'all_or_nothing', note: SECRET }, maxScore: 1 },
        p2: { scoring: { method: 'all_or_nothing' }, maxScore: 1 },
        p3: { scoring: { method: 'all_or_nothing' }, maxScore: 1 },
      },
    },
    maxScore: 3,
    ...hidden(6),
  },
];

const VALUES = [
  { g1: 'w1', g2: 'w3' },
  [['i1', 'i2']],
  ['h1', 'h2'],
  ['a2'],
  ['120 44'],
  { p1: 'Москва', p2: 'o1', p3: ['5 5'] },
];

/** Every key anywhere inside a JSON value. */
function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      keysOf(v, into);
    }
  return into;
}

async function room() {
  const org = await createOrg(t.app);
  const pt = await createParticipantTest(t.app, org, { studentId: org.studentIds[0] });
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, SPECS);
  const { session } = await signedInParticipant(t.app, pt);
  const api = caller(t.app, session);
  const work = await api.post('examwork/new', {});
  expect(work.statusCode, work.body).toBe(200);
  return { api, variant, workId: (work.json() as { id: number }).id };
}

describe('imported answer types reach the participant without their key', () => {
  it('the fixtures are valid tasks of every imported type', () => {
    expect(new Set(SPECS.map((s) => s.answerType))).toEqual(new Set(IMPORTED_ANSWER_TYPES));
    for (const spec of SPECS) {
      const parsed = taskDefinitionSchema.safeParse({ ...spec, maxScore: spec.maxScore ?? 1 });
      expect(parsed.success, `${spec.answerType}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('variant/current serves each type with its public content only, html sanitized', async () => {
    const { api } = await room();
    const res = await api.get('variant/current');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(SECRET);
    const tasks = (res.json() as { tasks: { answerType: string; content: Record<string, unknown> }[] }).tasks;
    expect(tasks.map((x) => x.answerType)).toEqual(SPECS.map((s) => s.answerType));
    for (const task of tasks) {
      const keys = keysOf(task);
      for (const secret of ['reference', 'scoring', 'correct', 'mapping', 'solutionHtml', 'criteria'])
        expect(keys, `${task.answerType} has ${secret}`).not.toContain(secret);
    }
    const [gapMatch, associate, hottext, hotspot, points, composite] = tasks.map((x) => x.content);

    expect(Object.keys(gapMatch!).sort()).toEqual(['gaps', 'shuffle', 'words']);
    const words = gapMatch!.words as { id: string; html: string; matchMax: number }[];
    expect(words.map((w) => w.id).sort()).toEqual(['w1', 'w2', 'w3']);
    expect(words.find((w) => w.id === 'w1')).toEqual({ id: 'w1', html: '<b>Москва</b>', matchMax: 1 });
    expect(gapMatch!.gaps).toEqual([{ id: 'g1' }, { id: 'g2' }]);

    expect(Object.keys(associate!).sort()).toEqual(['items', 'maxAssociations', 'shuffle']);
    expect((associate!.items as object[])[1]).toEqual({ id: 'i2', html: 'Онегин', matchMax: 1 });

    expect(hottext!.choices).toEqual([
      { id: 'h1', html: 'Мама' },
      { id: 'h2', html: '<i>красную</i>' },
      { id: 'h3', html: 'вчера' },
    ]);

    expect(hotspot!.image).toEqual({ src: 'map.png', width: 400, height: 300, alt: 'Карта' });
    expect(hotspot!.areas).toEqual([
      { id: 'a1', shape: 'rect', coords: [10, 10, 100, 80] },
      { id: 'a2', shape: 'circle', coords: [200, 150, 40] },
      { id: 'a3', shape: 'poly', coords: [300, 20, 380, 20, 340, 90] },
    ]);
    // Where points are set, the areas are the key: none is served.
    expect(points).toMatchObject({ select: 'points', areas: [] });

    const parts = composite!.parts as { id: string; answerType: string; content: Record<string, unknown> }[];
    expect(parts.map((p) => [p.id, p.answerType])).toEqual([
      ['p1', 'short_text'],
      ['p2', 'single_choice'],
      ['p3', 'hotspot'],
    ]);
    expect(parts[0]).toEqual({ id: 'p1', answerType: 'short_text', content: { maxLength: 20 } });
    const options = parts[1]!.content.options as { id: string; html: string }[];
    expect(options.map((o) => o.id).sort()).toEqual(['o1', 'o2']);
    expect(options.find((o) => o.id === 'o2')!.html).toBe('<span>Нет</span>');
    expect(parts[2]!.content.areas).toEqual([]);
  });

  it('a saved answer of each type is accepted and comes back with the work', async () => {
    const { api, variant, workId } = await room();
    for (const [i, value] of VALUES.entries()) {
      const res = await api.put('saveanswer', {
        examWorkId: workId,
        variantTaskId: variant.variantTaskIds[i],
        value,
        seq: 1,
      });
      expect(res.statusCode, `${SPECS[i]!.answerType}: ${res.body}`).toBe(200);
    }
    const work = await api.get(`examwork/${workId}`);
    expect(work.body).not.toContain(SECRET);
    const answers = (work.json() as { answers: { variantTaskId: number; value: unknown }[] }).answers;
    expect(variant.variantTaskIds.map((id) => answers.find((a) => a.variantTaskId === id)?.value)).toEqual(
      VALUES,
    );
  });
});
