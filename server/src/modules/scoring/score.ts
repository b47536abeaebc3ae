import { isManualAnswerType, pairKey, TASK_SCHEMAS, type TaskAnswerType } from '@attesta/contract';
import { insideShape, parsePoint, type AreaShape } from './geometry.js';
import { bindResponses } from './qti/bind.js';
import { compileQti, runQti, type CompiledQti } from './qti/evaluate.js';
import { toJson } from './qti/values.js';
import {
  inRange,
  isBlank,
  normalizeDigits,
  normalizeSpaces,
  parseNumber,
  prepareAccepted,
  textMatches,
  withinRelative,
  withinTolerance,
  type AcceptedVariant,
  type TextRules,
} from './normalize.js';

/*
 * Auto scoring (docs/design.md §4): a pure function of a task and a participant's answer value. No
 * database, no I/O, no clock. It never throws on participant input: a value of the wrong shape
 * (TASK_SCHEMAS[type].value) scores 0 with status 'invalid'. A task whose own definition is
 * broken (unknown answer type, content/reference/scoring not matching the contract) is a content
 * bug, not participant input: that throws `InvalidTaskError` so it is noticed, not scored as 0.
 *
 * Order of checks: empty → shape → manual type → scoring rule.
 *  - empty: null, undefined, a blank string, [], {}, and per type an answer with nothing in it
 *    (cloze with every gap blank, {fileIds: []}) → { status: 'empty', score: 0 }. This holds for
 *    expert-graded types too: an empty extended answer goes to nobody, it is simply 0.
 *  - manual: extended_text and file answers go to experts → { status: 'manual' }.
 *
 * Mistakes (for one_mistake, reported for every partial-credit type):
 *  - multiple_choice: wrongly chosen options (including ids that are no option) + correct options
 *    not chosen; an option chosen twice counts once.
 *  - digit_sequence in order: positions where the digits differ (over the shorter length) + the
 *    difference of lengths («312» for «123»: 3; «1234» for «123»: 1).
 *  - digit_sequence with anyOrder: the digits compared as multisets: digits missing + digits extra
 *    («13» for «13»: 0; «31»: 0; «1»: 1; «123»: 1; «12»: 2 — one missing and one extra, as in the
 *    FIPI criteria; «113»: 1, a digit written twice is an extra one).
 *  - ordering: positions of the key holding a different item or none, plus items beyond the key.
 *  - matching: left items of the key matched wrongly or not at all (unknown left ids ignored).
 *  - cloze: gaps filled wrongly or left empty.
 *
 * Methods: all_or_nothing = maxScore when there is no mistake, else 0; one_mistake =
 * max(0, maxScore − mistakes); per_choice = sum of the map over the chosen options (each once,
 * unknown ids 0; a single choice: the map of the chosen option), within [lowerBound, upperBound]
 * when given; per_pair / per_blank = floor(maxScore × correct / total); share = maxScore ×
 * correct / total, exact; per_answer (short_text, number) = the points of the first listed
 * answer that fits; weighted (cloze) = Σ over gaps of the points of the gap's first fitting
 * answer. Every score is then clamped to [0, maxScore] and rounded to 1e-6 (binary noise only).
 * Multiple choice: choosing more than content.maxChoices scores 0 under every method
 * (ticking every box must not pay); fewer than minChoices is scored normally (the missing ones are
 * mistakes).
 *
 * `correct` is true when the answer has no mistake at all (for per_choice: the chosen set equals the
 * key), which for sane maps coincides with score = maxScore.
 */

export interface ScoreTask {
  answerType: TaskAnswerType | string;
  content: unknown;
  reference: unknown;
  scoring: unknown;
  maxScore: number;
}

export interface ChoiceDetail {
  id: string;
  chosen: boolean;
  /** The decision about this option is right (chosen and correct, or left out and wrong). */
  correct: boolean;
  /** per_choice: points this option gave (0 when not chosen). */
  points?: number;
}
export interface PositionDetail {
  position: number;
  /** What the participant put at this position (item id or digit), null for nothing. */
  given: string | null;
  correct: boolean;
}
export interface PairDetail {
  left: string;
  right: string | null;
  correct: boolean;
}
export interface BlankDetail {
  id: string;
  filled: boolean;
  correct: boolean;
}
export interface AssociationDetail {
  pair: [string, string];
  correct: boolean;
}
export interface PartDetail {
  id: string;
  answerType: string;
  /** The part's own result; manual parts are not scored here. */
  status: ScoreResult['status'];
  score: number;
  maxScore: number;
  correct: boolean;
}

export type ScoreDetails =
  | { kind: 'choice'; chosen: string; correct: boolean }
  | { kind: 'choices'; choices: ChoiceDetail[]; tooManyChoices?: boolean }
  | { kind: 'text'; normalized: string; acceptedIndex: number | null }
  | { kind: 'number'; parsed: number | null }
  | { kind: 'positions'; positions: PositionDetail[] }
  | { kind: 'digit_set'; missing: number; extra: number }
  | { kind: 'pairs'; pairs: PairDetail[] }
  | { kind: 'blanks'; blanks: BlankDetail[] }
  | { kind: 'associations'; given: AssociationDetail[]; missing: [string, string][]; tooManyPairs?: boolean }
  | { kind: 'parts'; parts: PartDetail[] }
  /** QTI response processing: the score outcome before clamping, and every outcome (JSON). */
  | { kind: 'qti'; score: number; outcomes: Record<string, unknown> };

export interface ScoredResult {
  status: 'scored';
  score: number;
  maxScore: number;
  correct: boolean;
  mistakes?: number;
  details?: ScoreDetails;
}
export interface ManualResult {
  status: 'manual';
  maxScore: number;
}
export interface EmptyResult {
  status: 'empty';
  score: 0;
  maxScore: number;
}
export interface InvalidResult {
  status: 'invalid';
  score: 0;
  maxScore: number;
  correct: false;
  /** wrong_shape: not TASK_SCHEMAS[type].value; too_large: refused before validation. */
  reason: 'wrong_shape' | 'too_large';
}
export type ScoreResult = ScoredResult | ManualResult | EmptyResult | InvalidResult;

/** The task itself (not the answer) does not follow the contract. */
export class InvalidTaskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTaskError';
  }
}

// ---------------------------------------------------------------- limits

/** Arrays, objects and strings larger than this are refused before any schema work. */
const MAX_ITEMS = 200;
const MAX_STRING = 200_000;

function tooLarge(value: unknown): boolean {
  if (typeof value === 'string') return value.length > MAX_STRING;
  if (Array.isArray(value)) return value.length > MAX_ITEMS;
  if (value && typeof value === 'object') {
    let n = 0;
    for (const key in value) {
      if (++n > MAX_ITEMS) return true;
      const inner = (value as Record<string, unknown>)[key];
      if (Array.isArray(inner) && inner.length > MAX_ITEMS) return true;
      if (typeof inner === 'string' && inner.length > MAX_STRING) return true;
    }
  }
  return false;
}

const isBlankString = (v: unknown) => typeof v === 'string' && isBlank(v);

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return isBlankString(value);
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    for (const _ in value) return false;
    return Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null;
  }
  return false;
}

// ---------------------------------------------------------------- prepared tasks

/* eslint-disable @typescript-eslint/no-explicit-any -- parsed parts are narrowed per answer type below */
interface Prepared {
  type: TaskAnswerType;
  maxScore: number;
  content: any;
  reference: any;
  scoring: any;
  /** short_text: accepted variants; cloze: per text gap. */
  accepted?: AcceptedVariant[];
  blankAccepted?: Map<string, AcceptedVariant[]>;
  /** short_text per_answer: one variant per scored answer, in order. */
  answerVariants?: AcceptedVariant[];
  /** cloze weighted: per blank, its scored answers prepared. */
  blankScored?: Map<string, PreparedScored[]>;
  /** composite: each part, with the task that scores it (null: manual, or not scored natively). */
  parts?: { id: string; answerType: string; task: ScoreTask | null }[];
  /** scoring.method 'qti': the compiled response processing. */
  qti?: CompiledQti;
}

/** A scored answer of a gap: a text variant or a numeric key, and its points. */
type PreparedScored =
  | { kind: 'text'; variant: AcceptedVariant[]; option: string; points: number }
  | { kind: 'number'; key: NumberKey; points: number };

type NumberKey =
  { value: number; tolerance: number; toleranceMode: 'absolute' | 'relative' } | { min: number; max: number };
/* eslint-enable @typescript-eslint/no-explicit-any */

const prepared = new WeakMap<object, Prepared>();

function isAnswerType(type: unknown): type is TaskAnswerType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(TASK_SCHEMAS, type);
}

/** The task parts parsed with the contract (defaults applied), cached per task object. */
function prepare(task: ScoreTask): Prepared {
  const cached = task && typeof task === 'object' ? prepared.get(task) : undefined;
  if (cached) return cached;
  if (!task || typeof task !== 'object') throw new InvalidTaskError('task must be an object');
  const type = task.answerType;
  if (!isAnswerType(type)) throw new InvalidTaskError(`unknown answer type ${String(type)}`);
  if (typeof task.maxScore !== 'number' || !Number.isFinite(task.maxScore) || task.maxScore < 0)
    throw new InvalidTaskError(`${type}: maxScore must be a finite non-negative number`);
  const schemas = TASK_SCHEMAS[type];
  const part = (name: 'content' | 'reference' | 'scoring') => {
    const parsed = schemas[name].safeParse(task[name]);
    if (!parsed.success)
      throw new InvalidTaskError(
        `${type}: ${name} does not follow the contract: ${parsed.error.issues[0]?.message}`,
      );
    return parsed.data;
  };
  const p: Prepared = {
    type,
    maxScore: task.maxScore,
    content: part('content'),
    reference: part('reference'),
    scoring: part('scoring'),
  };
  if (type === 'short_text') {
    p.accepted = prepareAccepted(p.reference.accepted, p.scoring);
    const answers = p.reference.answers as { text: string; points: number }[] | undefined;
    if (answers)
      p.answerVariants = prepareAccepted(
        answers.map((a) => a.text),
        p.scoring,
      );
  }
  if (type === 'cloze') {
    p.blankAccepted = new Map(
      Object.entries(p.reference.blanks as Record<string, string[]>).map(([id, accepted]) => [
        id,
        prepareAccepted(accepted, p.scoring),
      ]),
    );
    const scoredAnswers = p.reference.scored as
      Record<string, ({ text: string; points: number } | (NumberKey & { points: number }))[]> | undefined;
    if (scoredAnswers) {
      p.blankScored = new Map(
        Object.entries(scoredAnswers).map(([id, answers]) => [
          id,
          answers.map((a): PreparedScored =>
            'text' in a
              ? {
                  kind: 'text',
                  variant: prepareAccepted([a.text], p.scoring),
                  option: a.text.trim(),
                  points: a.points,
                }
              : { kind: 'number', key: a, points: a.points },
          ),
        ]),
      );
    }
  }
  if (type === 'composite') p.parts = prepareParts(p);
  if (p.scoring.method === 'qti') p.qti = compileQti(p.scoring);
  prepared.set(task, p);
  return p;
}

/** composite `sum`: each automatically scored part as a task of its own (checked now, not when scored). */
function prepareParts(p: Prepared): NonNullable<Prepared['parts']> {
  const rules =
    p.scoring.method === 'sum'
      ? (p.scoring.parts as Record<string, { scoring: unknown; maxScore: number }>)
      : {};
  const references = p.reference.parts as Record<string, unknown>;
  return (p.content.parts as { id: string; answerType: string; content: unknown }[]).map((part) => {
    const rule = Object.prototype.hasOwnProperty.call(rules, part.id) ? rules[part.id] : undefined;
    if (isManualAnswerType(part.answerType) || !rule)
      return { id: part.id, answerType: part.answerType, task: null };
    const task: ScoreTask = {
      answerType: part.answerType,
      content: part.content,
      reference: references[part.id],
      scoring: rule.scoring,
      maxScore: rule.maxScore,
    };
    try {
      prepare(task);
    } catch (error) {
      throw new InvalidTaskError(`composite part ${part.id}: ${(error as Error).message}`);
    }
    return { id: part.id, answerType: part.answerType, task };
  });
}

// ---------------------------------------------------------------- helpers

/** Scores are kept free of binary noise (0.1 + 0.2 → 0.3). */
const tidy = (x: number) => Math.round(x * 1e6) / 1e6;

const scored = (
  p: Prepared,
  score: number,
  correct: boolean,
  extra: { mistakes?: number; details?: ScoreDetails } = {},
): ScoredResult => ({
  status: 'scored',
  score: tidy(Math.min(p.maxScore, Math.max(0, score))),
  maxScore: p.maxScore,
  correct,
  ...extra,
});

/**
 * Points for `mistakes` under all_or_nothing / one_mistake, or a share for per_pair / per_blank
 * (whole points, rounded down) and share (exact).
 */
function byMethod(method: string, maxScore: number, mistakes: number, total: number): number {
  switch (method) {
    case 'one_mistake':
      return Math.max(0, maxScore - mistakes);
    case 'per_pair':
    case 'per_blank':
      return total > 0 ? Math.floor((maxScore * Math.max(0, total - mistakes)) / total + 1e-9) : 0;
    case 'share':
      return total > 0 ? (maxScore * Math.max(0, total - mistakes)) / total : 0;
    default:
      return mistakes === 0 ? maxScore : 0;
  }
}

// ---------------------------------------------------------------- per answer type

function singleChoice(p: Prepared, value: string): ScoreResult {
  const correct = value === p.reference.correct;
  const map: Record<string, number> | undefined = p.scoring.map;
  const score =
    p.scoring.method === 'per_choice'
      ? Object.prototype.hasOwnProperty.call(map ?? {}, value)
        ? map![value]!
        : 0
      : correct
        ? p.maxScore
        : 0;
  return scored(p, score, correct, { details: { kind: 'choice', chosen: value, correct } });
}

/** A number within a numeric key (a value ± tolerance, absolute or relative, or a range). */
function numberFits(x: number, key: NumberKey): boolean {
  if ('min' in key) return inRange(x, key.min, key.max);
  return key.toleranceMode === 'relative'
    ? withinRelative(x, key.value, key.tolerance)
    : withinTolerance(x, key.value, key.tolerance);
}

function multipleChoice(p: Prepared, value: string[]): ScoreResult {
  const optionIds: string[] = p.content.options.map((o: { id: string }) => o.id);
  return selection(p, value, optionIds, p.content.maxChoices);
}

/**
 * Choosing some of several options (multiple choice, hottext spans, hotspot areas), scored by
 * all_or_nothing, one_mistake or per_choice.
 */
function selection(
  p: Prepared,
  value: readonly string[],
  optionIds: readonly string[],
  maxChoices?: number,
): ScoreResult {
  const chosen = new Set(value);
  const key = new Set<string>(p.reference.correct);
  const map: Record<string, number> | undefined = p.scoring.map;
  const perChoice = p.scoring.method === 'per_choice';
  const choices: ChoiceDetail[] = [];
  let mistakes = 0;
  let points = 0;
  const visit = (id: string) => {
    const isChosen = chosen.has(id);
    const right = isChosen === key.has(id);
    if (!right) mistakes++;
    const detail: ChoiceDetail = { id, chosen: isChosen, correct: right };
    if (perChoice) {
      const pts = isChosen && map && Object.prototype.hasOwnProperty.call(map, id) ? map[id]! : 0;
      points += pts;
      detail.points = pts;
    }
    choices.push(detail);
  };
  const seen = new Set<string>();
  for (const id of [...optionIds, ...key, ...chosen]) {
    if (seen.has(id)) continue;
    seen.add(id);
    visit(id);
  }
  if (maxChoices !== undefined && chosen.size > maxChoices) {
    return scored(p, 0, false, { mistakes, details: { kind: 'choices', choices, tooManyChoices: true } });
  }
  const lower: number = p.scoring.lowerBound ?? -Infinity;
  const upper: number = p.scoring.upperBound ?? Infinity;
  const score = perChoice
    ? Math.min(upper, Math.max(lower, points))
    : byMethod(p.scoring.method, p.maxScore, mistakes, key.size);
  return scored(p, score, mistakes === 0, { mistakes, details: { kind: 'choices', choices } });
}

function hottext(p: Prepared, value: string[]): ScoreResult {
  const ids: string[] = p.content.choices.map((c: { id: string }) => c.id);
  return selection(p, value, ids, p.content.maxChoices);
}

interface Area {
  id: string;
  shape: AreaShape;
  coords: number[];
}

/** A point outside every area: an id no area can have (ids never hold a space). */
const missedPoint = (raw: string) => `(${raw.trim()})`;

function hotspot(p: Prepared, value: string[]): ScoreResult {
  const areas: Area[] = p.content.areas;
  let chosen = value;
  if (p.content.select === 'points') {
    // Each point selects the first area (in content order) that holds it.
    chosen = value.map((raw) => {
      const point = parsePoint(raw);
      const area = point ? areas.find((a) => insideShape(a.shape, a.coords, point)) : undefined;
      return area?.id ?? missedPoint(raw);
    });
  }
  return selection(
    p,
    chosen,
    areas.map((a) => a.id),
    p.content.maxChoices,
  );
}

function shortText(p: Prepared, value: string): ScoreResult {
  const rules: TextRules = p.scoring;
  const normalized = normalizeSpaces(value);
  if (p.scoring.method === 'per_answer' && p.answerVariants) {
    // The first listed answer the text matches gives its points (Moodle short answer).
    const answers = p.reference.answers as { points: number }[];
    let index = -1;
    for (let i = 0; i < answers.length && index < 0; i++)
      if (textMatches(value, [p.answerVariants[i]!], rules) === 0) index = i;
    const points = index >= 0 ? answers[index]!.points : 0;
    return scored(p, points, index >= 0 && points >= p.maxScore, {
      details: { kind: 'text', normalized, acceptedIndex: index >= 0 ? index : null },
    });
  }
  const index = textMatches(value, p.accepted!, rules);
  const correct = index >= 0;
  return scored(p, correct ? p.maxScore : 0, correct, {
    details: { kind: 'text', normalized, acceptedIndex: correct ? index : null },
  });
}

function numberAnswer(p: Prepared, value: string): ScoreResult {
  const parsed = parseNumber(value, p.content.unit);
  const ref = p.reference as NumberKey & { answers?: (NumberKey & { points: number })[] };
  if (p.scoring.method === 'per_answer' && ref.answers) {
    const hit = parsed === null ? undefined : ref.answers.find((a) => numberFits(parsed, a));
    const points = hit?.points ?? 0;
    return scored(p, points, hit !== undefined && points >= p.maxScore, {
      details: { kind: 'number', parsed },
    });
  }
  const correct = parsed !== null && numberFits(parsed, ref);
  return scored(p, correct ? p.maxScore : 0, correct, { details: { kind: 'number', parsed } });
}

function digitSequence(p: Prepared, digits: string): ScoreResult {
  const key: string = p.reference.digits;
  let mistakes = 0;
  let details: ScoreDetails;
  if (p.scoring.anyOrder) {
    const counts = new Array<number>(10).fill(0);
    for (const d of key) counts[+d]!++;
    for (const d of digits) counts[+d]!--;
    let missing = 0;
    let extra = 0;
    for (const c of counts) {
      if (c > 0) missing += c;
      else extra -= c;
    }
    mistakes = missing + extra;
    details = { kind: 'digit_set', missing, extra };
  } else {
    const positions: PositionDetail[] = [];
    const n = Math.max(key.length, digits.length);
    for (let i = 0; i < n; i++) {
      const given = digits[i] ?? null;
      const right = given !== null && given === key[i];
      if (!right) mistakes++;
      positions.push({ position: i + 1, given, correct: right });
    }
    details = { kind: 'positions', positions };
  }
  return scored(p, byMethod(p.scoring.method, p.maxScore, mistakes, key.length), mistakes === 0, {
    mistakes,
    details,
  });
}

function ordering(p: Prepared, value: string[]): ScoreResult {
  const key: string[] = p.reference.order;
  const positions: PositionDetail[] = [];
  let mistakes = 0;
  const n = Math.max(key.length, value.length);
  for (let i = 0; i < n; i++) {
    const given = value[i] ?? null;
    const right = given !== null && given === key[i];
    if (!right) mistakes++;
    positions.push({ position: i + 1, given, correct: right });
  }
  return scored(p, byMethod(p.scoring.method, p.maxScore, mistakes, key.length), mistakes === 0, {
    mistakes,
    details: { kind: 'positions', positions },
  });
}

function matching(p: Prepared, value: Record<string, string>): ScoreResult {
  const key: Record<string, string> = p.reference.pairs;
  const pairs: PairDetail[] = [];
  let mistakes = 0;
  for (const [left, right] of Object.entries(key)) {
    const given = Object.prototype.hasOwnProperty.call(value, left) ? value[left]! : null;
    const ok = given === right;
    if (!ok) mistakes++;
    pairs.push({ left, right: given, correct: ok });
  }
  return scored(p, byMethod(p.scoring.method, p.maxScore, mistakes, pairs.length), mistakes === 0, {
    mistakes,
    details: { kind: 'pairs', pairs },
  });
}

function cloze(p: Prepared, value: Record<string, string>): ScoreResult {
  const kinds = new Map<string, string>(
    p.content.blanks.map((b: { id: string; kind: string }) => [b.id, b.kind] as const),
  );
  const reference: Record<string, string[]> = p.reference.blanks;
  const rules: TextRules = p.scoring;
  const weighted = p.scoring.method === 'weighted';
  const blanks: BlankDetail[] = [];
  let mistakes = 0;
  let points = 0;
  for (const [id, accepted] of Object.entries(reference)) {
    const raw = Object.prototype.hasOwnProperty.call(value, id) ? value[id]! : '';
    const filled = !isBlankString(raw);
    const kind = kinds.get(id);
    let ok = false;
    if (weighted) {
      // The first listed answer of the gap that fits gives its points (Moodle cloze).
      const answers = p.blankScored?.get(id) ?? [];
      const hit = filled ? answers.find((a) => scoredFits(a, raw, kind, rules)) : undefined;
      const best = Math.max(0, ...answers.map((a) => a.points));
      points += hit?.points ?? 0;
      ok = hit !== undefined && hit.points >= best && best > 0;
    } else if (filled) {
      ok =
        kind === 'choice'
          ? accepted.includes(raw.trim())
          : textMatches(raw, p.blankAccepted!.get(id)!, rules) >= 0;
    }
    if (!ok) mistakes++;
    blanks.push({ id, filled, correct: ok });
  }
  const score = weighted ? points : byMethod(p.scoring.method, p.maxScore, mistakes, blanks.length);
  return scored(p, score, mistakes === 0, { mistakes, details: { kind: 'blanks', blanks } });
}

/** A filled gap fits one scored answer: the option id, the text, or the number. */
function scoredFits(
  answer: PreparedScored,
  raw: string,
  kind: string | undefined,
  rules: TextRules,
): boolean {
  if (answer.kind === 'number') {
    const x = parseNumber(raw);
    return x !== null && numberFits(x, answer.key);
  }
  if (kind === 'choice') return raw.trim() === answer.option;
  return textMatches(raw, answer.variant, rules) >= 0;
}

function gapMatch(p: Prepared, value: Record<string, string>): ScoreResult {
  const key: Record<string, string> = p.reference.pairs;
  const pairs: PairDetail[] = [];
  let mistakes = 0;
  for (const { id } of p.content.gaps as { id: string }[]) {
    const given = Object.prototype.hasOwnProperty.call(value, id) ? value[id]! : null;
    const expected = Object.prototype.hasOwnProperty.call(key, id) ? key[id]! : null;
    const ok = given === expected;
    if (!ok) mistakes++;
    pairs.push({ left: id, right: given, correct: ok });
  }
  return scored(p, byMethod(p.scoring.method, p.maxScore, mistakes, pairs.length), mistakes === 0, {
    mistakes,
    details: { kind: 'pairs', pairs },
  });
}

function associate(p: Prepared, value: [string, string][]): ScoreResult {
  const key = new Map<string, [string, string]>(
    (p.reference.pairs as [string, string][]).map((pair) => [pairKey(pair[0], pair[1]), pair]),
  );
  const seen = new Set<string>();
  const given: AssociationDetail[] = [];
  let right = 0;
  let wrong = 0;
  for (const [a, b] of value) {
    const k = pairKey(a, b);
    if (seen.has(k)) continue; // a pair made twice counts once
    seen.add(k);
    const ok = a !== b && key.has(k);
    if (ok) right++;
    else wrong++;
    given.push({ pair: [a, b], correct: ok });
  }
  const missing = [...key].filter(([k]) => !seen.has(k)).map(([, pair]) => pair);
  const mistakes = wrong + missing.length;
  const maxAssociations: number = p.content.maxAssociations;
  if (maxAssociations > 0 && seen.size > maxAssociations)
    return scored(p, 0, false, {
      mistakes,
      details: { kind: 'associations', given, missing, tooManyPairs: true },
    });
  const score =
    p.scoring.method === 'per_pair'
      ? (p.maxScore * Math.max(0, right - wrong)) / Math.max(1, key.size)
      : mistakes === 0
        ? p.maxScore
        : 0;
  return scored(p, score, mistakes === 0, { mistakes, details: { kind: 'associations', given, missing } });
}

function compositeSum(p: Prepared, value: Record<string, unknown>): ScoreResult {
  const parts: PartDetail[] = [];
  let total = 0;
  let allCorrect = true;
  for (const part of p.parts!) {
    if (!part.task) continue;
    const own = Object.prototype.hasOwnProperty.call(value, part.id) ? value[part.id] : undefined;
    const r = scoreAnswer(part.task, own);
    const score = r.status === 'manual' ? 0 : r.score;
    const correct = r.status === 'scored' && r.correct;
    if (!correct) allCorrect = false;
    total += score;
    parts.push({
      id: part.id,
      answerType: part.answerType,
      status: r.status,
      score,
      maxScore: r.maxScore,
      correct,
    });
  }
  return scored(p, total, allCorrect, { details: { kind: 'parts', parts } });
}

/**
 * QTI response processing: the value becomes response variables (qti/bind.ts), the rules run
 * (qti/evaluate.ts) and the score outcome, clamped to [0, maxScore], is the score; full marks are
 * "correct".
 */
function qtiScore(p: Prepared, value: unknown): ScoreResult {
  const { outcomes, score } = runQti(p.qti!, bindResponses(p.type, p.content, p.scoring, value));
  const raw = tidy(score);
  return scored(p, score, raw >= p.maxScore, {
    details: {
      kind: 'qti',
      score: raw,
      outcomes: Object.fromEntries([...outcomes].map(([id, v]) => [id, toJson(v)])),
    },
  });
}

// ---------------------------------------------------------------- entry point

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** Per type: the value as the scorer reads it before the shape check (lenient, never throws). */
function preclean(type: TaskAnswerType, value: unknown): unknown {
  if (type === 'digit_sequence' && typeof value === 'string') return normalizeDigits(value) ?? value;
  if ((type === 'matching' || type === 'gap_match') && isPlainObject(value)) {
    // An unmatched left item (an empty gap) saved as "" is the same as an absent one.
    return Object.fromEntries(Object.entries(value).filter(([, r]) => r !== ''));
  }
  return value;
}

/** Nothing to score in a well-shaped value. */
function emptyOfType(p: Prepared | null, type: TaskAnswerType, value: unknown): boolean {
  switch (type) {
    case 'cloze':
      return Object.values(value as Record<string, string>).every(isBlankString);
    case 'file':
      return (value as { fileIds: number[] }).fileIds.length === 0;
    case 'composite': {
      const values = value as Record<string, unknown>;
      return (p?.content.parts as { id: string; answerType: TaskAnswerType }[]).every((part) =>
        partIsEmpty(
          part.answerType,
          Object.prototype.hasOwnProperty.call(values, part.id) ? values[part.id] : undefined,
        ),
      );
    }
    default:
      return isEmptyValue(value);
  }
}

/** A part's value holds nothing (by its own type's rules). */
function partIsEmpty(type: TaskAnswerType, value: unknown): boolean {
  const cleaned = preclean(type, value);
  if (isEmptyValue(cleaned)) return true;
  const parsed = TASK_SCHEMAS[type].value.safeParse(cleaned);
  return parsed.success && emptyOfType(null, type, parsed.data);
}

/**
 * Scores one answer. `task` holds the stored task parts (content, reference, scoring as stored or
 * as authored — contract defaults are applied here); treat it as immutable, its parsed form is
 * cached per object. Never throws on `value`.
 */
export function scoreAnswer(task: ScoreTask, value: unknown): ScoreResult {
  const p = prepare(task);
  const empty: EmptyResult = { status: 'empty', score: 0, maxScore: p.maxScore };
  const invalid = (reason: InvalidResult['reason']): InvalidResult => ({
    status: 'invalid',
    score: 0,
    maxScore: p.maxScore,
    correct: false,
    reason,
  });
  try {
    if (isEmptyValue(value)) return empty;
    if (tooLarge(value)) return invalid('too_large');
    const cleaned = preclean(p.type, value);
    if (isEmptyValue(cleaned)) return empty;
    const parsed = TASK_SCHEMAS[p.type].value.safeParse(cleaned);
    if (!parsed.success) return invalid('wrong_shape');
    const v: unknown = parsed.data;
    if (p.type === 'composite' && Object.values(v as Record<string, unknown>).some(tooLarge))
      return invalid('too_large');
    if (emptyOfType(p, p.type, v)) return empty;
    if (isManualAnswerType(p.type)) return { status: 'manual', maxScore: p.maxScore };
    if (p.qti) return qtiScore(p, v);
    switch (p.type) {
      case 'single_choice':
        return singleChoice(p, v as string);
      case 'multiple_choice':
        return multipleChoice(p, v as string[]);
      case 'short_text':
        return shortText(p, v as string);
      case 'number':
        return numberAnswer(p, v as string);
      case 'digit_sequence':
        return digitSequence(p, v as string);
      case 'ordering':
        return ordering(p, v as string[]);
      case 'matching':
        return matching(p, v as Record<string, string>);
      case 'cloze':
        return cloze(p, v as Record<string, string>);
      case 'gap_match':
        return gapMatch(p, v as Record<string, string>);
      case 'associate':
        return associate(p, v as [string, string][]);
      case 'hottext':
        return hottext(p, v as string[]);
      case 'hotspot':
        return hotspot(p, v as string[]);
      case 'composite':
        return compositeSum(p, v as Record<string, unknown>);
      default:
        return { status: 'manual', maxScore: p.maxScore };
    }
  } catch {
    // Defensive: participant input must never break scoring (e.g. a hostile getter or proxy).
    return invalid('wrong_shape');
  }
}

/** Whether a task of this type is scored automatically. */
export const isAutoScored = (answerType: string): boolean =>
  isAnswerType(answerType) && !isManualAnswerType(answerType);
