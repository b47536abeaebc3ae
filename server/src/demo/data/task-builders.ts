import type { TaskDefinitionInput } from '@attesta/contract';
import type { DemoContainer } from './containers.js';

/** A demo task: the html a participant reads plus its definition (contract `taskDefinitionSchema`). */
export interface DemoTask {
  html: string;
  solutionHtml?: string;
  definition: TaskDefinitionInput;
  /** An interactive task: the participant answers inside this html container. */
  container?: DemoContainer;
}

type Criteria = readonly (readonly [code: string, text: string, maxScore: number])[];

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** FNV-1a: a stable seed from the task text, so the demo looks the same after every reset. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: a tiny seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The display order of items authored in their correct order: a seeded shuffle that never leaves
 * the key as it is (an ordering task shown already ordered would be a give-away).
 */
function displayOrder<T>(items: readonly T[], seedText: string): T[] {
  const random = seededRandom(hash(seedText));
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  if (result.every((x, i) => x === items[i])) result.push(result.shift()!);
  return result;
}

const criteriaOf = (criteria: Criteria) =>
  criteria.map(([code, text, maxScore]) => ({ code, text, maxScore }));
const sumOf = (criteria: Criteria) => criteria.reduce((sum, [, , points]) => sum + points, 0);

/** Options in display order; `correct` is the index of the right one. */
export function singleChoice(html: string, options: readonly string[], correct: number): DemoTask {
  return {
    html,
    definition: {
      answerType: 'single_choice',
      content: { options: options.map((text, i) => ({ id: LETTERS[i]!, html: text })) },
      reference: { correct: LETTERS[correct]! },
      scoring: {},
      maxScore: 1,
    },
  };
}

/** Options in display order; `correct` are indexes. One mistake — one point less by default. */
export function multipleChoice(
  html: string,
  options: readonly string[],
  correct: readonly number[],
  scoring:
    { method: 'all_or_nothing' | 'one_mistake' } | { method: 'per_choice'; points: readonly number[] } = {
    method: 'one_mistake',
  },
  maxScore = 2,
): DemoTask {
  const ids = options.map((_, i) => LETTERS[i]!);
  return {
    html,
    definition: {
      answerType: 'multiple_choice',
      content: { options: options.map((text, i) => ({ id: ids[i]!, html: text })) },
      reference: { correct: correct.map((i) => ids[i]!) },
      scoring:
        scoring.method === 'per_choice'
          ? { method: 'per_choice', map: Object.fromEntries(ids.map((id, i) => [id, scoring.points[i]!])) }
          : { method: scoring.method },
      maxScore,
    },
  };
}

export function shortText(html: string, accepted: readonly string[], maxLength = 50): DemoTask {
  return {
    html,
    definition: {
      answerType: 'short_text',
      content: { maxLength },
      reference: { accepted: [...accepted] },
      scoring: {},
      maxScore: 1,
    },
  };
}

export function numberAnswer(
  html: string,
  key: { value: number; tolerance?: number } | { min: number; max: number },
  unit?: string,
): DemoTask {
  return {
    html,
    definition: {
      answerType: 'number',
      content: unit ? { unit } : {},
      reference: key,
      scoring: {},
      maxScore: 1,
    },
  };
}

export function digitSequence(
  html: string,
  digits: string,
  options: {
    anyOrder?: boolean;
    method?: 'all_or_nothing' | 'one_mistake';
    maxScore?: number;
    cells?: boolean;
  } = {},
): DemoTask {
  return {
    html,
    definition: {
      answerType: 'digit_sequence',
      content: options.cells ? { length: digits.length } : {},
      reference: { digits },
      scoring: { method: options.method ?? 'all_or_nothing', anyOrder: options.anyOrder ?? false },
      maxScore: options.maxScore ?? 1,
    },
  };
}

/** Items authored in their correct order; they are shown shuffled, ids follow the display order. */
export function ordering(html: string, correctOrder: readonly string[], maxScore = 1): DemoTask {
  const shown = displayOrder(correctOrder, html);
  const idOf = (text: string) => `i${shown.indexOf(text) + 1}`;
  return {
    html,
    definition: {
      answerType: 'ordering',
      content: { items: shown.map((text) => ({ id: idOf(text), html: text })) },
      reference: { order: correctOrder.map(idOf) },
      scoring: { method: maxScore > 1 ? 'one_mistake' : 'all_or_nothing' },
      maxScore,
    },
  };
}

/** Pairs authored as [left, right]; the right column (with distractors) is shown shuffled. */
export function matching(
  html: string,
  pairs: readonly (readonly [string, string])[],
  distractors: readonly string[] = [],
  maxScore = 2,
): DemoTask {
  const right = displayOrder([...pairs.map(([, r]) => r), ...distractors], html);
  const rightId = (text: string) => `r${right.indexOf(text) + 1}`;
  return {
    html,
    definition: {
      answerType: 'matching',
      content: {
        left: pairs.map(([text], i) => ({ id: `l${i + 1}`, html: text })),
        right: right.map((text) => ({ id: rightId(text), html: text })),
      },
      reference: { pairs: Object.fromEntries(pairs.map(([, r], i) => [`l${i + 1}`, rightId(r)])) },
      scoring: { method: maxScore > 1 ? 'one_mistake' : 'all_or_nothing' },
      maxScore,
    },
  };
}

export type DemoBlank = { accept: readonly string[] } | { choose: readonly string[]; correct: number };

/** Blanks are referred to in the html as {{b1}}, {{b2}}... in the order given. */
export function cloze(
  html: string,
  blanks: readonly DemoBlank[],
  method: 'all_or_nothing' | 'one_mistake' | 'per_blank' = 'per_blank',
  maxScore = blanks.length,
): DemoTask {
  const id = (i: number) => `b${i + 1}`;
  return {
    html,
    definition: {
      answerType: 'cloze',
      content: {
        blanks: blanks.map((b, i) =>
          'accept' in b
            ? { id: id(i), kind: 'text' as const, width: 8 }
            : {
                id: id(i),
                kind: 'choice' as const,
                options: b.choose.map((text, j) => ({ id: `o${j + 1}`, text })),
              },
        ),
      },
      reference: {
        blanks: Object.fromEntries(
          blanks.map((b, i) => [id(i), 'accept' in b ? [...b.accept] : [`o${b.correct + 1}`]]),
        ),
      },
      scoring: { method },
      maxScore,
    },
  };
}

export function extendedText(
  html: string,
  criteria: Criteria,
  solutionHtml: string,
  maxLength = 5000,
): DemoTask {
  return {
    html,
    solutionHtml,
    definition: {
      answerType: 'extended_text',
      content: { maxLength },
      reference: null,
      scoring: { method: 'expert', thirdCheckThreshold: 1 },
      maxScore: sumOf(criteria),
      criteria: criteriaOf(criteria),
    },
  };
}

const PHOTO_OR_PDF = ['image/jpeg', 'image/png', 'image/heic', 'application/pdf'];

export function fileAnswer(
  html: string,
  criteria: Criteria,
  solutionHtml: string,
  files: { accept?: readonly string[]; maxFiles?: number; maxSizeMb?: number } = {},
): DemoTask {
  return {
    html,
    solutionHtml,
    definition: {
      answerType: 'file',
      content: {
        accept: [...(files.accept ?? PHOTO_OR_PDF)],
        maxFiles: files.maxFiles ?? 3,
        maxSizeMb: files.maxSizeMb ?? 10,
      },
      reference: null,
      scoring: { method: 'expert', thirdCheckThreshold: 1 },
      maxScore: sumOf(criteria),
      criteria: criteriaOf(criteria),
    },
  };
}
