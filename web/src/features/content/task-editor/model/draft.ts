/**
 * The task as the editor holds it: the contract's task model (content, reference, scoring, max
 * score, criteria) plus the texts and classifiers, with room for half-filled fields (an empty
 * number is `undefined` until validation names it). `updateBodyOf` / `createBodyOf` turn it into the create / update
 * body; the forms never show the JSON.
 */
import {
  ANSWER_TYPES,
  isManualAnswerType,
  TASK_ANSWER_TYPES,
  type AnswerType,
  type AuthoringTask,
  type TaskAnswerType,
} from '@attesta/contract';
import { sanitizeHtml } from '../../../../lib/sanitize';
import type { CreateBody, UpdateBody } from '../api/tasks';

export type Labelled = { id: string; html: string };

export interface CriterionDraft {
  code: string;
  text: string;
  maxScore: number | undefined;
  /** The grain of an expert's mark: 1 or 0.5. */
  step: 1 | 0.5;
}

export interface TaskDraft {
  /** Any type of the task model; the ten with forms are `EDITABLE_TYPES`, imported ones keep their parts. */
  answerType: TaskAnswerType;
  html: string;
  solutionHtml: string;
  title: string;
  category: string;
  maxScore: number | undefined;
  content: Record<string, unknown>;
  reference: unknown;
  scoring: Record<string, unknown>;
  criteria: CriterionDraft[];
  elementIds: number[];
  /** The interactive container rendering the task, or null for the task's own answer input. */
  htmlContainerId: number | null;
}

/** Types whose content, key and scoring have forms here. */
export const EDITABLE_TYPES: readonly AnswerType[] = ANSWER_TYPES;
export const isEditableType = (type: string): type is AnswerType =>
  (EDITABLE_TYPES as readonly string[]).includes(type);
/** Any type of the task model (imported ones included). */
export const isTaskType = (type: string): type is TaskAnswerType =>
  (TASK_ANSWER_TYPES as readonly string[]).includes(type);

/** Scoring methods per type, the default first (content.ts). */
export const NATIVE_METHODS: Record<AnswerType, readonly string[]> = {
  single_choice: ['all_or_nothing', 'per_choice'],
  multiple_choice: ['all_or_nothing', 'one_mistake', 'per_choice'],
  short_text: ['all_or_nothing', 'per_answer'],
  number: ['all_or_nothing', 'per_answer'],
  digit_sequence: ['all_or_nothing', 'one_mistake'],
  ordering: ['all_or_nothing', 'one_mistake'],
  matching: ['all_or_nothing', 'one_mistake', 'per_pair', 'share'],
  cloze: ['all_or_nothing', 'one_mistake', 'per_blank', 'weighted'],
  extended_text: ['expert'],
  file: ['expert'],
};

/** A scoring rule imported as data the forms do not edit (QTI response processing, a composite sum). */
export const isImportedScoring = (scoring: Record<string, unknown>): boolean =>
  scoring.method === 'qti' || scoring.method === 'sum';

/**
 * A new id for a list: the prefix and the first free number. Ids are opaque to participants and
 * stay with their item when it moves, so they never say which option is right.
 */
export function nextId(prefix: string, taken: readonly string[]): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

const labelled = (prefix: string, count: number): Labelled[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i + 1}`, html: '' }));

/** The default scoring rule of a type. */
export function defaultScoring(type: AnswerType): Record<string, unknown> {
  switch (type) {
    case 'short_text':
    case 'cloze':
      return { method: 'all_or_nothing', caseSensitive: false, distinguishYo: false, wildcards: false };
    case 'digit_sequence':
      return { method: 'all_or_nothing', anyOrder: false };
    case 'extended_text':
    case 'file':
      return { method: 'expert', thirdCheckThreshold: 1 };
    default:
      return { method: 'all_or_nothing' };
  }
}

/** The parts of a new task of a type: empty options to fill in, an empty key, the default rule. */
export function defaultParts(
  type: AnswerType,
): Pick<TaskDraft, 'content' | 'reference' | 'scoring' | 'criteria'> {
  const scoring = defaultScoring(type);
  switch (type) {
    case 'single_choice':
      return {
        content: { options: labelled('o', 4), shuffle: false },
        reference: { correct: '' },
        scoring,
        criteria: [],
      };
    case 'multiple_choice':
      return {
        content: { options: labelled('o', 4), shuffle: false },
        reference: { correct: [] },
        scoring,
        criteria: [],
      };
    case 'short_text':
      return { content: { maxLength: 100 }, reference: { accepted: [''] }, scoring, criteria: [] };
    case 'number':
      return {
        content: {},
        reference: { value: undefined, tolerance: 0, toleranceMode: 'absolute' },
        scoring,
        criteria: [],
      };
    case 'digit_sequence':
      return { content: {}, reference: { digits: '' }, scoring, criteria: [] };
    case 'ordering': {
      const items = labelled('i', 3);
      return {
        content: { items, shuffle: true },
        reference: { order: items.map((i) => i.id) },
        scoring,
        criteria: [],
      };
    }
    case 'matching':
      return {
        content: { left: labelled('l', 2), right: labelled('r', 2), shuffle: false },
        reference: { pairs: {} },
        scoring,
        criteria: [],
      };
    case 'cloze':
      return { content: { blanks: [] }, reference: { blanks: {} }, scoring, criteria: [] };
    case 'extended_text':
      return {
        content: { maxLength: 10_000 },
        reference: null,
        scoring,
        criteria: [{ code: 'К1', text: '', maxScore: 1, step: 1 }],
      };
    case 'file':
      return {
        content: { accept: ['image/*', 'application/pdf'], maxFiles: 1, maxSizeMb: 10 },
        reference: null,
        scoring,
        criteria: [{ code: 'К1', text: '', maxScore: 1, step: 1 }],
      };
  }
}

export function newDraft(type: AnswerType = 'single_choice'): TaskDraft {
  return {
    answerType: type,
    html: '',
    solutionHtml: '',
    title: '',
    category: '',
    maxScore: 1,
    ...defaultParts(type),
    elementIds: [],
    htmlContainerId: null,
  };
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The editor's copy of a stored task. */
export function draftOf(task: AuthoringTask): TaskDraft {
  const type: TaskAnswerType = isTaskType(task.answerType) ? task.answerType : 'single_choice';
  return {
    answerType: type,
    html: task.html,
    solutionHtml: task.solutionHtml ?? '',
    title: task.title ?? '',
    category: task.category ?? '',
    maxScore: task.maxScore,
    content: asRecord(task.content),
    reference: task.reference ?? null,
    scoring: asRecord(task.scoring),
    criteria: (task.criteria ?? []).map((c) => ({
      code: c.code,
      text: c.text,
      maxScore: c.maxScore,
      step: c.step === 0.5 ? 0.5 : 1,
    })),
    elementIds: [...task.elementIds],
    htmlContainerId: task.htmlContainerId,
  };
}

/** Html of an option, an item or a side as the author typed it, sanitised like the task text. */
const cleanLabelled = (list: unknown): unknown =>
  Array.isArray(list)
    ? list.map((x) => {
        const item = asRecord(x);
        return typeof item.html === 'string' ? { ...item, html: sanitizeHtml(item.html) } : item;
      })
    : list;

const LABELLED_LISTS = ['options', 'items', 'left', 'right'] as const;

/** Content with its html pieces sanitised (the server sanitises again). */
export function cleanContent(content: Record<string, unknown>): Record<string, unknown> {
  const out = { ...content };
  for (const key of LABELLED_LISTS) if (key in out) out[key] = cleanLabelled(out[key]);
  return out;
}

const text = (s: string) => (s.trim() ? s.trim() : null);

/** What the create and update calls send: the task model and its texts, html sanitised. */
export function updateBodyOf(draft: TaskDraft): UpdateBody {
  const manual = isManualAnswerType(draft.answerType);
  const solution = sanitizeHtml(draft.solutionHtml);
  return {
    html: sanitizeHtml(draft.html),
    solutionHtml: solution.trim() ? solution : null,
    title: text(draft.title),
    category: text(draft.category),
    answerType: draft.answerType,
    content: cleanContent(draft.content),
    reference: manual ? null : draft.reference,
    scoring: draft.scoring,
    maxScore: draft.maxScore as number,
    criteria: manual
      ? draft.criteria.map((c) => ({
          code: c.code.trim(),
          text: c.text.trim(),
          maxScore: c.maxScore as number,
          step: c.step,
        }))
      : null,
    // Absent is no container: the body names one only when the task has one.
    ...(draft.htmlContainerId !== null ? { htmlContainerId: draft.htmlContainerId } : {}),
  };
}

export function createBodyOf(draft: TaskDraft, subjectId: number): CreateBody {
  return { subjectId, elementIds: draft.elementIds, ...updateBodyOf(draft) };
}
