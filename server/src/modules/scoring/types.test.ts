import {
  ANSWER_TYPES,
  placeholderProblems,
  TASK_ANSWER_TYPES,
  TASK_SCHEMAS,
  taskDefinitionSchema,
} from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { insideShape, parsePoint } from './geometry.js';
import { InvalidTaskError, scoreAnswer, type ScoreResult, type ScoreTask } from './score.js';

/*
 * The answer types content import adds (docs/content-model.md): gap_match, associate, hottext,
 * hotspot, composite — their native methods, empty answers and definition checks.
 */

const task = (answerType: string, content: unknown, reference: unknown, scoring: unknown, maxScore: number) =>
  ({ answerType, content, reference, scoring, maxScore }) satisfies ScoreTask;

const brief = (r: ScoreResult) =>
  r.status === 'scored'
    ? { status: r.status, score: r.score, correct: r.correct }
    : { status: r.status, score: 'score' in r ? r.score : undefined };

const S = (score: number, correct = false) => ({ status: 'scored', score, correct });
const EMPTY = { status: 'empty', score: 0 };
const INVALID = { status: 'invalid', score: 0 };
const labelled = (...ids: string[]) => ids.map((id) => ({ id, html: id }));

const issues = (d: unknown) =>
  taskDefinitionSchema.safeParse(d).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('the list of answer types', () => {
  it('keeps the API enum as it was and adds the imported types to the task model', () => {
    expect(ANSWER_TYPES).toHaveLength(10);
    expect(TASK_ANSWER_TYPES).toEqual([
      ...ANSWER_TYPES,
      'gap_match',
      'associate',
      'hottext',
      'hotspot',
      'composite',
    ]);
    expect(Object.keys(TASK_SCHEMAS).sort()).toEqual([...TASK_ANSWER_TYPES].sort());
  });
});

// ---------------------------------------------------------------- gap_match

describe('gap_match (QTI gapMatchInteraction, Moodle ddwtos)', () => {
  const content = { words: labelled('W', 'Sp', 'Su', 'A'), gaps: [{ id: 'G1' }, { id: 'G2' }] };
  const reference = { pairs: { G1: 'W', G2: 'Su' } };
  const t = (method: string, maxScore: number) => task('gap_match', content, reference, { method }, maxScore);
  it.each<[string, ScoreTask, unknown, object]>([
    ['all right', t('all_or_nothing', 2), { G1: 'W', G2: 'Su' }, S(2, true)],
    ['one wrong, all_or_nothing', t('all_or_nothing', 2), { G1: 'W', G2: 'Sp' }, S(0)],
    ['one gap empty, one_mistake', t('one_mistake', 2), { G1: 'W' }, S(1)],
    ['an empty gap saved as ""', t('one_mistake', 2), { G1: 'W', G2: '' }, S(1)],
    ['per_pair rounds down', t('per_pair', 3), { G2: 'Su' }, S(1)],
    ['share is exact', t('share', 3), { G2: 'Su' }, S(1.5)],
    ['unknown gap ids are ignored', t('all_or_nothing', 1), { G1: 'W', G2: 'Su', G9: 'A' }, S(1, true)],
    ['nothing placed', t('share', 1), {}, EMPTY],
    ['every gap ""', t('share', 1), { G1: '', G2: '' }, EMPTY],
    ['a list is not a gap match', t('share', 1), ['W'], INVALID],
  ])('%s', (_, tk, value, expected) => expect(brief(scoreAnswer(tk, value))).toEqual(expected));

  it('a gap the key leaves empty must stay empty', () => {
    const three = task(
      'gap_match',
      { ...content, gaps: [{ id: 'G1' }, { id: 'G2' }, { id: 'G3' }] },
      reference,
      { method: 'one_mistake' },
      3,
    );
    expect(brief(scoreAnswer(three, { G1: 'W', G2: 'Su' }))).toEqual(S(3, true));
    expect(brief(scoreAnswer(three, { G1: 'W', G2: 'Su', G3: 'A' }))).toEqual(S(2));
  });

  it.each<[string, object, string]>([
    ['a pair names no gap', { reference: { pairs: { G9: 'W' } } }, 'reference.pairs: not a gap id'],
    ['a pair names no word', { reference: { pairs: { G1: 'X' } } }, 'reference.pairs: not a word id'],
    [
      'matchMax 1 used twice',
      { reference: { pairs: { G1: 'W', G2: 'W' } } },
      'reference.pairs: uses W more often than its matchMax',
    ],
    [
      'words and gaps share an id',
      { content: { words: labelled('G1', 'W'), gaps: [{ id: 'G1' }] }, reference: { pairs: { G1: 'W' } } },
      'content: words and gaps need distinct ids',
    ],
  ])('definition: %s', (_, patch, message) => {
    expect(
      issues({ answerType: 'gap_match', content, reference, scoring: {}, maxScore: 1, ...patch }),
    ).toContain(message);
  });

  it('a word with matchMax 0 may fill any number of gaps', () => {
    const words = [{ id: 'W', html: 'W', matchMax: 0 }];
    expect(
      issues({
        answerType: 'gap_match',
        content: { words, gaps: content.gaps },
        reference: { pairs: { G1: 'W', G2: 'W' } },
        scoring: {},
        maxScore: 1,
      }),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------- associate

describe('associate (QTI associateInteraction)', () => {
  const content = { items: labelled('A', 'C', 'D', 'L', 'M', 'P') };
  const reference = {
    pairs: [
      ['A', 'P'],
      ['C', 'M'],
      ['D', 'L'],
    ],
  };
  const all = task('associate', content, reference, {}, 3);
  const perPair = task('associate', content, reference, { method: 'per_pair' }, 3);
  it.each<[string, ScoreTask, unknown, object]>([
    [
      'all pairs',
      all,
      [
        ['A', 'P'],
        ['C', 'M'],
        ['D', 'L'],
      ],
      S(3, true),
    ],
    [
      'pairs are unordered',
      all,
      [
        ['P', 'A'],
        ['M', 'C'],
        ['D', 'L'],
      ],
      S(3, true),
    ],
    [
      'a pair missing',
      all,
      [
        ['A', 'P'],
        ['C', 'M'],
      ],
      S(0),
    ],
    [
      'an extra wrong pair',
      all,
      [
        ['A', 'P'],
        ['C', 'M'],
        ['D', 'L'],
        ['A', 'C'],
      ],
      S(0),
    ],
    [
      'per_pair: two of three',
      perPair,
      [
        ['A', 'P'],
        ['M', 'C'],
      ],
      S(2),
    ],
    [
      'per_pair: a wrong pair cancels a right one',
      perPair,
      [
        ['A', 'P'],
        ['C', 'M'],
        ['A', 'C'],
      ],
      S(1),
    ],
    [
      'per_pair: a pair made twice counts once',
      perPair,
      [
        ['A', 'P'],
        ['P', 'A'],
      ],
      S(1),
    ],
    ['per_pair: an item with itself is wrong', perPair, [['A', 'A']], S(0)],
    [
      'per_pair: never below 0',
      perPair,
      [
        ['A', 'C'],
        ['C', 'D'],
      ],
      S(0),
    ],
    ['no pairs', perPair, [], EMPTY],
    ['a pair of three ids is not a pair', perPair, [['A', 'P', 'C']], INVALID],
  ])('%s', (_, tk, value, expected) => expect(brief(scoreAnswer(tk, value))).toEqual(expected));

  it('per_pair is exact with fractional maxScore', () => {
    expect(
      brief(
        scoreAnswer({ ...perPair, maxScore: 1 }, [
          ['A', 'P'],
          ['C', 'M'],
        ]),
      ),
    ).toEqual(S(0.666667));
  });

  it('more pairs than maxAssociations score 0', () => {
    const limited = task(
      'associate',
      { ...content, maxAssociations: 3 },
      reference,
      { method: 'per_pair' },
      3,
    );
    expect(
      scoreAnswer(limited, [
        ['A', 'P'],
        ['C', 'M'],
        ['D', 'L'],
        ['A', 'C'],
      ]),
    ).toMatchObject({
      score: 0,
      details: { kind: 'associations', tooManyPairs: true },
    });
    expect(
      brief(
        scoreAnswer(limited, [
          ['A', 'P'],
          ['C', 'M'],
          ['D', 'L'],
        ]),
      ),
    ).toEqual(S(3, true));
  });

  it('reports the pairs given and missing', () => {
    expect(
      scoreAnswer(perPair, [
        ['P', 'A'],
        ['A', 'C'],
      ]),
    ).toMatchObject({
      mistakes: 3,
      details: {
        kind: 'associations',
        given: [
          { pair: ['P', 'A'], correct: true },
          { pair: ['A', 'C'], correct: false },
        ],
        missing: [
          ['C', 'M'],
          ['D', 'L'],
        ],
      },
    });
  });

  it.each<[string, unknown, string]>([
    ['an unknown item', [['A', 'X']], 'reference.pairs: not an item id'],
    ['an item with itself', [['A', 'A']], 'reference.pairs: an item cannot pair with itself'],
    [
      'a pair twice',
      [
        ['A', 'P'],
        ['P', 'A'],
      ],
      'reference.pairs: a pair is listed twice',
    ],
    [
      'matchMax 1 used twice',
      [
        ['A', 'P'],
        ['A', 'C'],
      ],
      'reference.pairs: uses A more often than its matchMax',
    ],
  ])('definition: %s', (_, pairs, message) => {
    expect(
      issues({ answerType: 'associate', content, reference: { pairs }, scoring: {}, maxScore: 1 }),
    ).toContain(message);
  });

  it('definition: maxAssociations below the key', () => {
    expect(
      issues({
        answerType: 'associate',
        content: { ...content, maxAssociations: 2 },
        reference,
        scoring: {},
        maxScore: 1,
      }),
    ).toContain('content.maxAssociations: is less than the pairs of the key');
  });
});

// ---------------------------------------------------------------- hottext

describe('hottext (QTI hottextInteraction)', () => {
  const content = { choices: labelled('h1', 'h2', 'h3', 'h4'), maxChoices: 3 };
  const reference = { correct: ['h2', 'h4'] };
  it.each<[string, unknown, unknown, object]>([
    ['all_or_nothing: right', {}, ['h4', 'h2'], S(2, true)],
    ['all_or_nothing: one missing', {}, ['h2'], S(0)],
    ['one_mistake: one missing', { method: 'one_mistake' }, ['h2'], S(1)],
    ['one_mistake: one extra', { method: 'one_mistake' }, ['h2', 'h4', 'h1'], S(1)],
    ['more than maxChoices', { method: 'one_mistake' }, ['h1', 'h2', 'h3', 'h4'], S(0)],
    [
      'per_choice with bounds',
      { method: 'per_choice', map: { h1: -1, h2: 1, h3: -1, h4: 1 }, lowerBound: 0, upperBound: 1.5 },
      ['h2', 'h4'],
      S(1.5, true),
    ],
    ['nothing selected', {}, [], EMPTY],
  ])('%s', (_, scoring, value, expected) => {
    expect(brief(scoreAnswer(task('hottext', content, reference, scoring, 2), value))).toEqual(expected);
  });

  it.each<[string, object, string]>([
    [
      'an unknown span in the key',
      { reference: { correct: ['h9'] } },
      'reference.correct: not an id of the task',
    ],
    [
      'maxChoices below the key',
      { content: { choices: content.choices, maxChoices: 1 } },
      'content.maxChoices: is less than the number of correct choices',
    ],
    [
      'a per_choice map must cover every span',
      { scoring: { method: 'per_choice', map: { h2: 1 } } },
      'scoring.map: must give points for every option',
    ],
  ])('definition: %s', (_, patch, message) => {
    expect(
      issues({ answerType: 'hottext', content, reference, scoring: {}, maxScore: 2, ...patch }),
    ).toContain(message);
  });
});

// ---------------------------------------------------------------- hotspot

describe('geometry of areas', () => {
  it.each<[string, 'rect' | 'circle' | 'ellipse' | 'poly' | 'default', number[], string, boolean]>([
    ['rect inside', 'rect', [0, 0, 10, 10], '5 5', true],
    ['rect corner (boundary)', 'rect', [0, 0, 10, 10], '10 10', true],
    ['rect outside', 'rect', [0, 0, 10, 10], '11 5', false],
    ['rect given right-to-left', 'rect', [10, 10, 0, 0], '5 5', true],
    ['circle inside', 'circle', [50, 50, 10], '55 55', true],
    ['circle boundary', 'circle', [50, 50, 10], '60 50', true],
    ['circle outside', 'circle', [50, 50, 10], '58 58', false],
    ['ellipse inside', 'ellipse', [200, 200, 20, 10], '215 200', true],
    ['ellipse outside (beyond the vertical radius)', 'ellipse', [200, 200, 20, 10], '200 211', false],
    ['poly inside', 'poly', [100, 0, 120, 0, 110, 20], '110 10', true],
    ['poly on an edge', 'poly', [100, 0, 120, 0, 110, 20], '110 0', true],
    ['poly outside', 'poly', [100, 0, 120, 0, 110, 20], '101 15', false],
    ['poly with the first point repeated', 'poly', [0, 0, 10, 0, 10, 10, 0, 10, 0, 0], '5 5', true],
    ['concave poly, in the notch', 'poly', [0, 0, 10, 0, 10, 10, 5, 5, 0, 10], '5 8', false],
    ['default is everywhere', 'default', [], '-5 999', true],
  ])('%s', (_, shape, coords, point, inside) => {
    expect(insideShape(shape, coords, parsePoint(point)!)).toBe(inside);
  });

  it('reads QTI points', () => {
    expect(parsePoint('12 -3')).toEqual({ x: 12, y: -3 });
    expect(parsePoint('1.5 2')).toBeNull();
    expect(parsePoint('12')).toBeNull();
  });
});

describe('hotspot (QTI hotspot and selectPoint, Moodle ddmarker)', () => {
  const image = { src: 'map.png', width: 300, height: 300 };
  const areas = [
    { id: 'A', shape: 'rect', coords: [0, 0, 10, 10] },
    { id: 'B', shape: 'circle', coords: [50, 50, 10] },
    { id: 'C', shape: 'poly', coords: [100, 0, 120, 0, 110, 20] },
    { id: 'D', shape: 'ellipse', coords: [200, 200, 20, 10] },
  ];
  const reference = { correct: ['A', 'B'] };
  const byAreas = task('hotspot', { image, areas }, reference, { method: 'one_mistake' }, 2);
  const byPoints = task(
    'hotspot',
    { image, areas, select: 'points' },
    reference,
    { method: 'one_mistake' },
    2,
  );
  it.each<[string, ScoreTask, unknown, object]>([
    ['areas: right', byAreas, ['A', 'B'], S(2, true)],
    ['areas: one wrong', byAreas, ['A', 'C'], S(0)],
    ['areas: one missing', byAreas, ['B'], S(1)],
    ['points: one in each area', byPoints, ['5 5', '50 59'], S(2, true)],
    ['points: on the boundaries', byPoints, ['10 10', '60 50'], S(2, true)],
    ['points: a point outside every area is a wrong choice', byPoints, ['5 5', '300 300'], S(0)],
    ['points: two points in one area select it once', byPoints, ['1 1', '2 2', '50 50'], S(2, true)],
    ['points: the wrong area', byPoints, ['5 5', '110 5'], S(0)],
    ['points: none', byPoints, [], EMPTY],
    ['a point is no area id', byAreas, ['5 5'], S(0)],
  ])('%s', (_, tk, value, expected) => expect(brief(scoreAnswer(tk, value))).toEqual(expected));

  it.each<[string, object, string]>([
    [
      'a rect needs 4 coords',
      {
        content: { image, areas: [{ id: 'A', shape: 'rect', coords: [0, 0, 10] }] },
        reference: { correct: ['A'] },
      },
      'content.areas.0.coords: a rect has 4 coords: left, top, right, bottom',
    ],
    [
      'a poly needs 3 points',
      {
        content: { image, areas: [{ id: 'A', shape: 'poly', coords: [0, 0, 1, 1] }] },
        reference: { correct: ['A'] },
      },
      'content.areas.0.coords: a poly has 3 or more x, y pairs',
    ],
    [
      'the image needs a file or a path',
      { content: { image: { width: 1, height: 1 }, areas } },
      'content.image: needs fileId or src',
    ],
    ['the key names areas', { reference: { correct: ['Z'] } }, 'reference.correct: not an id of the task'],
  ])('definition: %s', (_, patch, message) => {
    expect(
      issues({
        answerType: 'hotspot',
        content: { image, areas },
        reference,
        scoring: {},
        maxScore: 1,
        ...patch,
      }),
    ).toContain(message);
  });
});

// ---------------------------------------------------------------- composite

describe('composite, scored as the sum of its parts', () => {
  const content = {
    parts: [
      { id: 'p1', answerType: 'single_choice', content: { options: labelled('a', 'b') } },
      { id: 'p2', answerType: 'short_text', content: {} },
      { id: 'p3', answerType: 'extended_text', content: {} },
    ],
  };
  const reference = { parts: { p1: { correct: 'a' }, p2: { accepted: ['Москва'] } } };
  const scoring = {
    method: 'sum',
    parts: { p1: { scoring: {}, maxScore: 1 }, p2: { scoring: {}, maxScore: 2 } },
  };
  const t = task('composite', content, reference, scoring, 3);
  it.each<[string, unknown, object]>([
    ['every part right', { p1: 'a', p2: 'москва', p3: 'Потому что…' }, S(3, true)],
    ['one part right', { p1: 'b', p2: 'Москва' }, S(2)],
    ['only the manual part answered', { p3: 'Потому что…' }, S(0)],
    ['nothing', {}, EMPTY],
    ['every part blank', { p1: '', p2: '  ', p3: '' }, EMPTY],
    ['a part of the wrong shape scores 0 for itself', { p1: ['a'], p2: 'Москва' }, S(2)],
    ['a value no part could hold', { p1: 5 }, INVALID],
    ['not an object', 'a', INVALID],
  ])('%s', (_, value, expected) => expect(brief(scoreAnswer(t, value))).toEqual(expected));

  it('the sum is clamped to maxScore and reports each part', () => {
    expect(scoreAnswer({ ...t, maxScore: 2 }, { p1: 'a', p2: 'Москва' })).toMatchObject({
      score: 2,
      correct: true,
      details: {
        kind: 'parts',
        parts: [
          { id: 'p1', status: 'scored', score: 1, maxScore: 1, correct: true },
          { id: 'p2', status: 'scored', score: 2, maxScore: 2, correct: true },
        ],
      },
    });
  });

  it('a part uses its own rule (here matching share)', () => {
    const matching = task(
      'composite',
      {
        parts: [
          {
            id: 'm',
            answerType: 'matching',
            content: { left: labelled('x', 'y', 'z'), right: labelled('1', '2', '3') },
          },
        ],
      },
      { parts: { m: { pairs: { x: '1', y: '2', z: '3' } } } },
      { method: 'sum', parts: { m: { scoring: { method: 'share' }, maxScore: 1.5 } } },
      1.5,
    );
    expect(brief(scoreAnswer(matching, { m: { x: '1', y: '2' } }))).toEqual(S(1));
  });

  it('a broken part is a broken task', () => {
    const broken = task('composite', content, { parts: { p1: { correct: 'a' }, p2: {} } }, scoring, 3);
    expect(() => scoreAnswer(broken, { p1: 'a' })).toThrow(InvalidTaskError);
    expect(() => scoreAnswer(broken, { p1: 'a' })).toThrow(/composite part p2/);
  });

  it('a part value too large is refused', () => {
    expect(brief(scoreAnswer(t, { p1: 'a', p2: 'x'.repeat(300_000) }))).toEqual(INVALID);
  });

  it('accepts the definition', () => {
    expect(issues({ answerType: 'composite', content, reference, scoring, maxScore: 3 })).toEqual([]);
  });

  it.each<[string, object, string]>([
    [
      'a part of an unknown type',
      { content: { parts: [{ id: 'p1', answerType: 'composite', content: {} }] } },
      'content.parts.0.answerType',
    ],
    [
      "a part's content is checked with its type",
      {
        content: { parts: [{ id: 'p1', answerType: 'single_choice', content: { options: labelled('a') } }] },
      },
      'content.parts.0.content.options',
    ],
    ['a missing key', { reference: { parts: { p1: { correct: 'a' } } } }, 'reference.parts.p2: missing'],
    [
      "a part's key in its own shape",
      { reference: { parts: { p1: { correct: 'a' }, p2: { accepted: [] } } } },
      'reference.parts.p2.accepted',
    ],
    [
      "a part's key names its own ids",
      { reference: { parts: { p1: { correct: 'z' }, p2: { accepted: ['x'] } } } },
      'reference.parts.p1.correct: not an option id',
    ],
    [
      'a key for no part',
      { reference: { parts: { ...reference.parts, p9: {} } } },
      'reference.parts.p9: not a part id',
    ],
    [
      'sum needs every automatic part',
      { scoring: { method: 'sum', parts: { p1: scoring.parts.p1 } } },
      'scoring.parts.p2: missing',
    ],
    [
      'sum cannot score a manual part',
      { scoring: { method: 'sum', parts: { ...scoring.parts, p3: { scoring: {}, maxScore: 1 } } } },
      'scoring.parts.p3: not an automatically scored part',
    ],
    [
      "a part's rule is checked with its type",
      {
        scoring: {
          method: 'sum',
          parts: { p1: { scoring: { method: 'one_mistake' }, maxScore: 1 }, p2: scoring.parts.p2 },
        },
      },
      'scoring.parts.p1.scoring.method',
    ],
  ])('definition: %s', (_, patch, where) => {
    const found = issues({ answerType: 'composite', content, reference, scoring, maxScore: 3, ...patch });
    expect(
      found.some((i) => i.startsWith(where)),
      found.join('\n'),
    ).toBe(true);
  });

  it("definition: a part's whole-point rule needs a whole part maxScore", () => {
    const found = issues({
      answerType: 'composite',
      content: { parts: [{ id: 'm', answerType: 'ordering', content: { items: labelled('x', 'y') } }] },
      reference: { parts: { m: { order: ['x', 'y'] } } },
      scoring: { method: 'sum', parts: { m: { scoring: { method: 'one_mistake' }, maxScore: 1.5 } } },
      maxScore: 1.5,
    });
    expect(found).toContain('scoring.parts.m.maxScore: must be a whole number for this scoring method');
  });
});

describe('placeholders of the html', () => {
  it.each<[string, string, unknown, string, string[]]>([
    ['cloze: all there', 'cloze', { blanks: [{ id: 'a' }, { id: 'b' }] }, '<p>{{a}} и {{b}}</p>', []],
    [
      'cloze: one missing',
      'cloze',
      { blanks: [{ id: 'a' }, { id: 'b' }] },
      '<p>{{a}}</p>',
      ['{{b}} is missing from the html'],
    ],
    [
      'gap_match: a gap twice',
      'gap_match',
      { gaps: [{ id: 'G1' }] },
      '{{G1}} {{G1}}',
      ['{{G1}} appears 2 times'],
    ],
    [
      'hottext: an unknown one',
      'hottext',
      { choices: [{ id: 'h1' }] },
      '{{h1}} {{h2}}',
      ['{{h2}} names nothing of the task'],
    ],
    ['composite', 'composite', { parts: [{ id: 'p1' }, { id: 'p2' }] }, '{{p2}} {{p1}}', []],
    ['other types have none', 'single_choice', { options: [] }, '{{x}}', []],
  ])('%s', (_, type, content, html, problems) => {
    expect(placeholderProblems(type, content, html)).toEqual(problems);
  });
});
