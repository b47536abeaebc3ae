import {
  TASK_SCHEMAS,
  type PartAnswerType,
  type QtiResponseDeclaration,
  type QtiScalar,
  type QtiScoring,
  type QtiSlot,
} from '@attesta/contract';
import { insideShape, parsePoint, type AreaShape } from '../geometry.js';
import { normalizeSpaces, parseNumber } from '../normalize.js';
import { baseFrom, container, sameBase, single, type Base, type Value } from './values.js';

/*
 * The participant's saved value (TASK_SCHEMAS[type].value) as QTI response variables, and back.
 *
 * value → response, by the answer type (or cloze gap kind) and the declared base type:
 *  - single_choice, multiple_choice, hottext → identifier(s); hotspot → identifiers of the areas
 *    (select areas) or points "x y" (select points); ordering → ordered identifiers;
 *  - matching { left: right } → directedPair "left right" (QTI match: source target);
 *  - gap_match { gap: word } → directedPair "word gap" (QTI gapMatch: the gap choice first);
 *  - associate [[a, b]] → pair "a b" (unordered; a pair made twice counts once);
 *  - short_text, extended_text, digit_sequence, a typed gap → string (spaces collapsed and trimmed,
 *    nothing else: QTI compares what was typed), or a number when the response is float/integer
 *    (read like a number answer: comma or point, spaces between digit groups; not a number → NULL);
 *  - number, a numeric gap → float/integer (the task's unit may follow), or string;
 *  - a drop-down gap → identifier; file → file (the file ids).
 * The response's cardinality then applies: single takes exactly one value (several → NULL),
 * multiple/ordered take them all; nothing given is NULL.
 */

type Content = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function dedupe(baseType: QtiResponseDeclaration['baseType'], values: Base[]): Base[] {
  const out: Base[] = [];
  for (const v of values) if (!out.some((x) => sameBase(baseType ?? null, x, v))) out.push(v);
  return out;
}

/** A typed text as a value of the response's base type. */
function typed(raw: unknown, decl: QtiResponseDeclaration, unit?: string): Base[] {
  if (typeof raw !== 'string') return [];
  switch (decl.baseType) {
    case 'float': {
      const x = parseNumber(raw, unit);
      return x === null ? [] : [x];
    }
    case 'integer': {
      const x = parseNumber(raw, unit);
      return x === null || !Number.isInteger(x) ? [] : [x];
    }
    case 'identifier': {
      const s = raw.trim();
      return s && !/\s/.test(s) ? [s] : [];
    }
    default: {
      const s = normalizeSpaces(raw);
      return s ? [s] : [];
    }
  }
}

/** The base values a slot's answer stands for (before the cardinality applies). */
function basesOf(slot: QtiSlot, content: Content, decl: QtiResponseDeclaration, raw: unknown): Base[] {
  switch (slot) {
    case 'single_choice':
    case 'gap_choice':
      return typeof raw === 'string' && raw.trim() ? [raw.trim()] : [];
    case 'multiple_choice':
    case 'hottext':
      return dedupe(decl.baseType, strings(raw));
    case 'hotspot':
      if (decl.baseType === 'point')
        return dedupe(
          decl.baseType,
          strings(raw).flatMap((s) => {
            const p = parsePoint(s);
            return p ? [[p.x, p.y] as const] : [];
          }),
        );
      return dedupe(decl.baseType, strings(raw));
    case 'ordering':
      return strings(raw);
    case 'matching':
      return isRecord(raw)
        ? Object.entries(raw).flatMap(([l, r]) => (typeof r === 'string' && r ? [[l, r] as const] : []))
        : [];
    case 'gap_match':
      return isRecord(raw)
        ? Object.entries(raw).flatMap(([gap, word]) =>
            typeof word === 'string' && word ? [[word, gap] as const] : [],
          )
        : [];
    case 'associate':
      return Array.isArray(raw)
        ? dedupe(
            'pair',
            raw.flatMap((p) =>
              Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string'
                ? [[p[0], p[1]] as const]
                : [],
            ),
          )
        : [];
    case 'short_text':
    case 'digit_sequence':
    case 'gap_text':
      return typed(raw, decl);
    case 'extended_text':
      return typeof raw === 'string' && raw.trim() ? [raw.trim()] : [];
    case 'number':
    case 'gap_number':
      return typed(raw, decl, typeof content.unit === 'string' ? content.unit : undefined);
    case 'file':
      return isRecord(raw) && Array.isArray(raw.fileIds) ? raw.fileIds.map((id) => String(id)) : [];
    case 'cloze':
      return [];
  }
}

/** One slot's answer as the value of its response (see the rules at the top of this file). */
export function responseValue(
  slot: QtiSlot,
  content: unknown,
  decl: QtiResponseDeclaration,
  raw: unknown,
): Value {
  if (!decl.baseType) return null;
  const bases = basesOf(slot, isRecord(content) ? content : {}, decl, raw);
  if (!bases.length) return null;
  switch (decl.cardinality) {
    case 'single':
      return bases.length === 1 ? single(decl.baseType, bases[0]!) : null;
    case 'multiple':
    case 'ordered':
      return container(decl.cardinality, decl.baseType, bases);
    default:
      return null;
  }
}

/** The slots a task binds: the whole task, or each gap (cloze) / part (composite) by its id. */
function slotsOf(answerType: string, content: Content): Map<string, { slot: QtiSlot; content: unknown }> {
  const list = (key: string) =>
    Array.isArray(content[key]) ? (content[key] as Record<string, unknown>[]) : [];
  if (answerType === 'cloze')
    return new Map(
      list('blanks').map((b) => [String(b.id), { slot: `gap_${String(b.kind)}` as QtiSlot, content: b }]),
    );
  if (answerType === 'composite')
    return new Map(
      list('parts').map((p) => [String(p.id), { slot: p.answerType as QtiSlot, content: p.content }]),
    );
  return new Map();
}

/** A composite part's value, checked with its own type's schema (a wrong shape is NULL). */
function partValue(slot: QtiSlot, raw: unknown): unknown {
  if (!(slot in TASK_SCHEMAS)) return raw;
  const parsed = TASK_SCHEMAS[slot as PartAnswerType].value.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** The response variables of a saved value (responses nobody binds stay NULL). */
export function bindResponses(
  answerType: string,
  content: unknown,
  scoring: QtiScoring,
  value: unknown,
): Map<string, Value> {
  const declared = new Map(scoring.responses.map((r) => [r.id, r]));
  const out = new Map<string, Value>();
  const c = isRecord(content) ? content : {};
  if ('response' in scoring.bind) {
    const decl = declared.get(scoring.bind.response);
    if (decl) out.set(decl.id, responseValue(answerType as QtiSlot, c, decl, value));
    return out;
  }
  const slots = slotsOf(answerType, c);
  const values = isRecord(value) ? value : {};
  for (const [id, responseId] of Object.entries(scoring.bind.parts)) {
    const decl = declared.get(responseId);
    const slot = slots.get(id);
    if (!decl || !slot) continue;
    const raw = Object.prototype.hasOwnProperty.call(values, id) ? values[id] : undefined;
    const own = answerType === 'composite' ? partValue(slot.slot, raw) : raw;
    out.set(decl.id, responseValue(slot.slot, slot.content, decl, own));
  }
  return out;
}

// ---------------------------------------------------------------- back: QTI values → our value

const text = (b: Base | undefined): string | null =>
  b === undefined ? null : Array.isArray(b) ? b.join(' ') : String(b);

/**
 * The saved value (of this slot) that QTI values written for a response stand for, e.g. a correct
 * response ["C R", "D M"] of a match → { C: "R", D: "M" }; null when they do not fit the slot.
 */
export function answerFromQti(
  slot: QtiSlot,
  decl: QtiResponseDeclaration,
  values: readonly QtiScalar[],
): unknown {
  if (!decl.baseType) return null;
  const bases = values.map((v) => baseFrom(decl.baseType!, v)).filter((b): b is Base => b !== null);
  const pairs = bases.filter(
    (b): b is readonly [string, string] => Array.isArray(b) && typeof b[0] === 'string',
  );
  switch (slot) {
    case 'single_choice':
    case 'gap_choice':
      return typeof bases[0] === 'string' ? bases[0] : null;
    case 'multiple_choice':
    case 'hottext':
    case 'ordering':
      return bases.filter((b): b is string => typeof b === 'string');
    case 'hotspot':
      return bases.map(text);
    case 'matching':
      return Object.fromEntries(pairs.map(([l, r]) => [l, r]));
    case 'gap_match':
      return Object.fromEntries(pairs.map(([word, gap]) => [gap, word]));
    case 'associate':
      return pairs.map(([a, b]) => [a, b]);
    case 'short_text':
    case 'digit_sequence':
    case 'extended_text':
    case 'number':
    case 'gap_text':
    case 'gap_number':
      return text(bases[0]);
    default:
      return null;
  }
}

/**
 * The value a fully correct participant saves, from the correct responses the rule declares:
 * for a cloze or composite task an object of the gaps/parts whose response has a correct value;
 * null when the bound response declares none.
 */
export function qtiCorrectAnswer(answerType: string, content: unknown, scoring: QtiScoring): unknown {
  const declared = new Map(scoring.responses.map((r) => [r.id, r]));
  if ('response' in scoring.bind) {
    const decl = declared.get(scoring.bind.response);
    return decl?.correct ? answerFromQti(answerType as QtiSlot, decl, decl.correct) : null;
  }
  const slots = slotsOf(answerType, isRecord(content) ? content : {});
  const out: Record<string, unknown> = {};
  for (const [id, responseId] of Object.entries(scoring.bind.parts)) {
    const decl = declared.get(responseId);
    const slot = slots.get(id);
    if (!decl?.correct || !slot) continue;
    const answer = answerFromQti(slot.slot, decl, decl.correct);
    if (answer !== null) out[id] = answer;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * The reference (the key shown after publication) of a task whose correct answer is `answer`
 * (e.g. from `qtiCorrectAnswer`); null for manual types or when the answer does not fit.
 */
export function referenceFromAnswer(answerType: string, content: unknown, answer: unknown): unknown {
  const c = isRecord(content) ? content : {};
  switch (answerType) {
    case 'single_choice':
      return typeof answer === 'string' ? { correct: answer } : null;
    case 'multiple_choice':
    case 'hottext':
      return { correct: strings(answer) };
    case 'hotspot': {
      if (c.select !== 'points') return { correct: strings(answer) };
      const areas = (Array.isArray(c.areas) ? c.areas : []) as {
        id: string;
        shape: AreaShape;
        coords: number[];
      }[];
      const ids = strings(answer).flatMap((s) => {
        const p = parsePoint(s);
        const area = p ? areas.find((a) => insideShape(a.shape, a.coords, p)) : undefined;
        return area ? [area.id] : [];
      });
      return { correct: [...new Set(ids)] };
    }
    case 'ordering':
      return { order: strings(answer) };
    case 'matching':
    case 'gap_match':
    case 'associate':
      return answer ? { pairs: answer } : null;
    case 'short_text':
      return typeof answer === 'string' ? { accepted: [answer] } : null;
    case 'number': {
      const x = typeof answer === 'string' ? parseNumber(answer) : null;
      return x === null ? null : { value: x };
    }
    case 'digit_sequence':
      return typeof answer === 'string' ? { digits: answer } : null;
    case 'cloze':
      return isRecord(answer)
        ? { blanks: Object.fromEntries(Object.entries(answer).map(([id, v]) => [id, [String(v)]])) }
        : null;
    case 'composite': {
      if (!isRecord(answer)) return null;
      const parts = (Array.isArray(c.parts) ? c.parts : []) as {
        id: string;
        answerType: string;
        content: unknown;
      }[];
      const refs: Record<string, unknown> = {};
      for (const part of parts) {
        if (!Object.prototype.hasOwnProperty.call(answer, part.id)) continue;
        const ref = referenceFromAnswer(part.answerType, part.content, answer[part.id]);
        if (ref !== null) refs[part.id] = ref;
      }
      return { parts: refs };
    }
    default:
      return null;
  }
}
