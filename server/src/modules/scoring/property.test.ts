import { taskDefinitionSchema, type TaskDefinitionInput } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_SUBJECT_TESTS } from '../../demo/data/subject-tests.js';
import { scoreAnswer, type ScoreResult } from './score.js';

/*
 * Property checks over a few hundred random answers per task (a seeded RNG, so failures repeat):
 * scoring never throws, the score is always within [0, maxScore], and the partial-credit rules
 * hold exactly (one_mistake = max(0, maxScore − mistakes); correct ⇒ full marks).
 */

/** mulberry32 */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rng = ReturnType<typeof rng>;
const int = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, list: readonly T[]): T => list[int(r, list.length)]!;
const sample = <T>(r: Rng, list: readonly T[], n = int(r, list.length + 2)) =>
  Array.from({ length: n }, () => pick(r, list));

const PIECES = [
  '',
  ' ',
  '\u00A0',
  '1',
  '0',
  '9',
  ',',
  '.',
  '-',
  '−',
  '+',
  'а',
  'Ё',
  'x',
  '«',
  '—',
  'см',
  '\t',
  'e',
  '/',
];
const randomText = (r: Rng, max = 30) => Array.from({ length: int(r, max) }, () => pick(r, PIECES)).join('');

/** Garbage of any shape. */
function garbage(r: Rng, depth = 0): unknown {
  switch (int(r, 10)) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return r() * 1e6 - 5e5;
    case 3:
      return r() < 0.5;
    case 4:
      return randomText(r);
    case 5:
      return depth > 2 ? [] : Array.from({ length: int(r, 5) }, () => garbage(r, depth + 1));
    case 6:
      return depth > 2
        ? {}
        : Object.fromEntries(Array.from({ length: int(r, 4) }, (_, i) => [`k${i}`, garbage(r, depth + 1)]));
    case 7:
      return Number.NaN;
    case 8:
      return 'x'.repeat(int(r, 3) * 50_000);
    default:
      return { fileIds: [int(r, 5)] };
  }
}

const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);

/** A random answer of the right shape for the task (mostly), built from its own ids and key. */
function plausible(r: Rng, d: TaskDefinitionInput): unknown {
  switch (d.answerType) {
    case 'single_choice':
      return pick(r, [...ids(d.content.options), '', 'zz']);
    case 'multiple_choice':
      return sample(r, [...ids(d.content.options), 'zz']);
    case 'short_text':
      return r() < 0.3 ? pick(r, d.reference.accepted) + randomText(r, 3) : randomText(r);
    case 'number':
      return r() < 0.3 ? String((r() - 0.5) * 100).slice(0, 12) : randomText(r, 8);
    case 'digit_sequence':
      return Array.from({ length: int(r, 8) }, () => String(int(r, 10))).join(r() < 0.2 ? ' ' : '');
    case 'ordering':
      return r() < 0.5 ? [...d.reference.order].sort(() => r() - 0.5) : sample(r, ids(d.content.items));
    case 'matching':
      return Object.fromEntries(
        ids(d.content.left)
          .filter(() => r() < 0.8)
          .map((l) => [l, pick(r, [...ids(d.content.right), ''])]),
      );
    case 'cloze':
      return Object.fromEntries(
        d.content.blanks.map((b) => [
          b.id,
          b.kind === 'choice'
            ? pick(r, [...ids(b.options), ''])
            : pick(r, [...d.reference.blanks[b.id]!, randomText(r, 5)]),
        ]),
      );
    case 'extended_text':
      return randomText(r, 100);
    case 'file':
      return { fileIds: sample(r, [1, 2, 3]) };
  }
}

const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, html: `${i}` }));

/** Rules the demo does not use, so that every method is exercised. */
const extra: TaskDefinitionInput[] = [
  {
    answerType: 'multiple_choice',
    content: { options: opts(6), maxChoices: 3 },
    reference: { correct: ['o0', 'o3'] },
    scoring: { method: 'per_choice', map: { o0: 1.5, o1: -2, o2: -0.5, o3: 1.5, o4: 0, o5: -1 } },
    maxScore: 3,
  },
  {
    answerType: 'multiple_choice',
    content: { options: opts(4) },
    reference: { correct: ['o1', 'o2'] },
    scoring: { method: 'one_mistake' },
    maxScore: 2,
  },
  {
    answerType: 'matching',
    content: { left: opts(3), right: opts(5) },
    reference: { pairs: { o0: 'o4', o1: 'o0', o2: 'o2' } },
    scoring: { method: 'per_pair' },
    maxScore: 2,
  },
  {
    answerType: 'number',
    content: { unit: 'кг' },
    reference: { min: -1.5, max: 2.25 },
    scoring: {},
    maxScore: 1,
  },
  {
    answerType: 'short_text',
    content: {},
    reference: { accepted: ['NaCl', 'ёж'] },
    scoring: { caseSensitive: true, distinguishYo: true },
    maxScore: 1,
  },
];

const tasks = [...DEMO_SUBJECT_TESTS.flatMap((t) => t.variants.flat()).map((t) => t.definition), ...extra];
const seen = new Map<string, number>();

/** What is wrong with a result, or null (plain checks: expect() per iteration is slow). */
function problem(d: TaskDefinitionInput, result: ScoreResult): string | null {
  if (!['scored', 'manual', 'empty', 'invalid'].includes(result.status)) return 'unknown status';
  if (result.maxScore !== d.maxScore) return 'maxScore differs';
  if (result.status === 'manual')
    return d.answerType === 'extended_text' || d.answerType === 'file' ? null : 'manual for an auto type';
  if (!Number.isFinite(result.score) || result.score < 0 || result.score > d.maxScore)
    return 'score out of range';
  if (result.status !== 'scored') return result.score === 0 ? null : 'empty/invalid with points';
  if (result.correct && result.score !== d.maxScore) return 'correct without full marks';
  const method = (d.scoring as { method?: string }).method;
  const guarded = result.details?.kind === 'choices' && result.details.tooManyChoices;
  if (method === 'one_mistake' && result.mistakes !== undefined && !guarded)
    if (result.score !== Math.max(0, d.maxScore - result.mistakes)) return 'one_mistake rule broken';
  if ((method === 'all_or_nothing' || method === undefined) && result.mistakes !== undefined)
    if (result.score !== (result.mistakes === 0 ? d.maxScore : 0)) return 'all_or_nothing rule broken';
  return null;
}

describe('random answers to every demo task', () => {
  it.each(tasks.map((d, i) => [i, d.answerType, d] as const))('task %i (%s)', (i, _, d) => {
    const r = rng(1000 + i);
    const problems: string[] = [];
    for (let n = 0; n < 300; n++) {
      const value = r() < 0.7 ? plausible(r, d) : garbage(r);
      try {
        const result = scoreAnswer(d, value);
        const kind =
          result.status === 'scored'
            ? result.correct
              ? 'full'
              : result.score > 0
                ? 'partial'
                : 'zero'
            : result.status;
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
        const p = problem(d, result);
        if (p) problems.push(`${p}: ${JSON.stringify(value)?.slice(0, 80)} → ${JSON.stringify(result)}`);
        if (JSON.stringify(scoreAnswer(d, value)) !== JSON.stringify(result))
          problems.push('not deterministic');
      } catch (error) {
        problems.push(`threw ${String(error)} on ${JSON.stringify(value)?.slice(0, 80)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the random answers cover every outcome', () => {
  it.each(extra.map((d) => [d.answerType, d] as const))('the extra %s task follows the contract', (_, d) => {
    expect(taskDefinitionSchema.safeParse(d).success).toBe(true);
  });

  it('full, partial, zero, empty, invalid and manual all occurred', () => {
    for (const kind of ['full', 'partial', 'zero', 'empty', 'invalid', 'manual'])
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(20);
  });
});
