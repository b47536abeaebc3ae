import { taskDefinitionSchema, type QtiScoring } from '@attesta/contract';
import { answerFromQti, referenceFromAnswer, scoreAnswer, type ScoreTask } from '../../scoring/index.js';

/*
 * A QTI template item scored by a native rule instead, where that gives exactly the same scores
 * (docs/content-model.md §3), so the forms can edit the task later:
 * - match_correct on single/multiple choice, hottext, hotspot (areas), ordering, matching, gap match
 *   or associate → all_or_nothing, the key being the correct response;
 * - map_response on single/multiple choice, hottext or hotspot (areas) → per_choice, `map` = each
 *   option's entry or the mapping's defaultValue, with the mapping's bounds.
 * "Exactly the same" is not assumed: both rules score a probe of answers (every subset of up to 8
 * options, every order of up to 5 items, each single pair, the key and its neighbours…), and the
 * native rule is used only when every probe agrees. Otherwise the task keeps `method: 'qti'`.
 */

type Json = Record<string, unknown>;
interface Definition {
  answerType: string;
  content: Json;
  reference: unknown;
  scoring: QtiScoring;
  maxScore: number;
}

const ids = (list: unknown) => (Array.isArray(list) ? (list as { id: string }[]).map((x) => x.id) : []);

/** Every subset of a small list (in order), else the empty set, singles, all and the key's neighbours. */
function subsets(all: string[], key: string[]): string[][] {
  if (all.length <= 8)
    return Array.from({ length: 1 << all.length }, (_, mask) => all.filter((_, i) => mask & (1 << i)));
  const out = [[], all, key, ...all.map((x) => [x])];
  for (const x of all) out.push(key.includes(x) ? key.filter((k) => k !== x) : [...key, x]);
  return out;
}

function permutations(items: string[]): string[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]),
  );
}

/** Answers to compare the two rules on, per answer type. */
function probes(def: Definition, key: unknown): unknown[] {
  const c = def.content;
  switch (def.answerType) {
    case 'single_choice':
      return ['', ...ids(c.options)];
    case 'multiple_choice':
      return subsets(ids(c.options), (key as string[] | null) ?? []);
    case 'hottext':
      return subsets(ids(c.choices), (key as string[] | null) ?? []);
    case 'hotspot':
      return subsets(ids(c.areas), (key as string[] | null) ?? []);
    case 'ordering': {
      const items = ids(c.items);
      if (items.length <= 5) return [[], ...permutations(items), items.slice(0, -1)];
      const k = (key as string[] | null) ?? items;
      const swaps = k
        .slice(1)
        .map((_, i) => k.map((x, j) => (j === i ? k[i + 1]! : j === i + 1 ? k[i]! : x)));
      return [[], items, k, [...k].reverse(), k.slice(0, -1), ...swaps];
    }
    case 'matching': {
      const k = (key as Record<string, string> | null) ?? {};
      const left = ids(c.left);
      const right = ids(c.right);
      const singles = left.flatMap((l) => right.map((r) => ({ [l]: r })));
      const changed = Object.keys(k).flatMap((l) =>
        right.filter((r) => r !== k[l]).map((r) => ({ ...k, [l]: r })),
      );
      const fewer = Object.keys(k).map((l) => Object.fromEntries(Object.entries(k).filter(([x]) => x !== l)));
      return [{}, k, ...singles, ...changed, ...fewer];
    }
    case 'gap_match': {
      const k = (key as Record<string, string> | null) ?? {};
      const gaps = ids(c.gaps);
      const words = ids(c.words);
      const singles = gaps.flatMap((g) => words.map((w) => ({ [g]: w })));
      const changed = gaps.flatMap((g) => words.filter((w) => w !== k[g]).map((w) => ({ ...k, [g]: w })));
      const fewer = Object.keys(k).map((g) => Object.fromEntries(Object.entries(k).filter(([x]) => x !== g)));
      return [{}, k, ...singles, ...changed, ...fewer];
    }
    case 'associate': {
      const k = (key as [string, string][] | null) ?? [];
      const items = ids(c.items);
      const pairs = items.flatMap((a, i) => items.slice(i + 1).map((b) => [a, b] as [string, string]));
      const flipped = k.map(([a, b]) => [b, a]);
      const fewer = k.map((_, i) => k.filter((__, j) => j !== i));
      const more = pairs.map((p) => [...k, p]);
      return [[], k, flipped, ...pairs.map((p) => [p]), ...fewer, ...more];
    }
    default:
      return [];
  }
}

const MATCH_CORRECT = new Set([
  'single_choice',
  'multiple_choice',
  'hottext',
  'hotspot',
  'ordering',
  'matching',
  'gap_match',
  'associate',
]);
const MAP_RESPONSE = new Set(['single_choice', 'multiple_choice', 'hottext', 'hotspot']);

/** The native scoring (and its complete key) for a template item, when the probes show the same scores. */
export function nativeEquivalent(def: Definition): { scoring: Json; reference: unknown } | null {
  const { scoring } = def;
  if (!scoring.template || !('response' in scoring.bind) || def.answerType === 'composite') return null;
  if (def.answerType === 'hotspot' && (def.content as { select?: string }).select === 'points') return null;
  const decl = scoring.responses.find((r) => r.id === (scoring.bind as { response: string }).response);
  if (!decl) return null;

  let native: Json;
  let reference = def.reference;
  if (scoring.template === 'match_correct' && MATCH_CORRECT.has(def.answerType)) {
    if (!decl.correct?.length) return null;
    const key = answerFromQti(def.answerType as never, decl, decl.correct);
    reference = referenceFromAnswer(def.answerType, def.content, key);
    if (reference === null) return null;
    native = { method: 'all_or_nothing' };
  } else if (scoring.template === 'map_response' && MAP_RESPONSE.has(def.answerType) && decl.mapping) {
    const mapping = decl.mapping;
    const options = ids(def.content.options ?? def.content.choices ?? def.content.areas);
    const map = Object.fromEntries(
      options.map((id) => [
        id,
        mapping.entries.find((e) => String(e.key).trim() === id)?.value ?? mapping.defaultValue,
      ]),
    );
    native = {
      method: 'per_choice',
      map,
      ...(def.answerType !== 'single_choice' && mapping.lowerBound !== undefined
        ? { lowerBound: mapping.lowerBound }
        : {}),
      ...(def.answerType !== 'single_choice' && mapping.upperBound !== undefined
        ? { upperBound: mapping.upperBound }
        : {}),
    };
  } else return null;

  const candidate = { ...def, scoring: native, reference };
  const checked = taskDefinitionSchema.safeParse(candidate);
  if (!checked.success) return null;
  const asNative = checked.data as ScoreTask;
  const asQti = taskDefinitionSchema.safeParse(def);
  if (!asQti.success) return null;
  const points = (task: ScoreTask, value: unknown) => {
    const r = scoreAnswer(task, value);
    return 'score' in r ? r.score : 0;
  };
  const key = answerFromQti(def.answerType as never, decl, decl.correct ?? []);
  for (const value of probes(def, key))
    if (Math.abs(points(asNative, value) - points(asQti.data as ScoreTask, value)) > 1e-9) return null;
  return { scoring: native, reference };
}
