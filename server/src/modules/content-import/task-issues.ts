import {
  IMPORT_NOTE_FIELDS,
  type ImportNoteCode,
  type ImportNoteField,
  type ImportNoteProblem,
} from '@attesta/contract';
import { note, type ImportNote } from './notes.js';

/*
 * Why a task made of an item does not fit the task model, in the author's words (issue 27, defect
 * 5): the contract's schema says `reference.order: Too small: expected array to have >=2 items`;
 * the report says what in the question is wrong — too few choices, a text too long, a key naming
 * what the question lacks, full marks out of range — with the field as a word the interfaces
 * translate (`what`). An issue without such a reading keeps its code (`task_invalid`,
 * `qti_task_invalid`, `qti_rp_invalid`) with the field's word and what is wrong with it as a word
 * too (`problem`): the schema's own message and path never reach the report (defect 7g).
 */

/** The fields of a task an author knows, by a segment of the schema path (the last one known wins). */
const WHAT: Record<string, ImportNoteField> = {
  options: 'choices',
  items: 'items',
  blanks: 'gaps',
  gaps: 'gaps',
  words: 'words',
  pairs: 'pairs',
  left: 'left_column',
  right: 'right_column',
  parts: 'parts',
  accepted: 'accepted_answers',
  answers: 'answers',
  criteria: 'criteria',
  maxScore: 'full_marks',
  html: 'text',
  text: 'text',
  scoring: 'scoring',
  rules: 'scoring',
  responses: 'scoring',
  outcomes: 'scoring',
};

/** Every word `what` may be (the contract's list: the interfaces translate each). */
export const TASK_FIELD_WORDS: readonly ImportNoteField[] = IMPORT_NOTE_FIELDS;

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  input?: unknown;
}

/** The author's word for the field a schema path points at. */
export function fieldWord(path: readonly PropertyKey[]): ImportNoteField {
  if (path[0] === 'reference') return 'key';
  for (let i = path.length - 1; i >= 0; i--) {
    const word = WHAT[String(path[i])];
    if (word) return word;
  }
  return 'task';
}

/** What is wrong, as a word of the contract's list, from the kind of schema issue. */
export function problemWord(issue: Issue | undefined): ImportNoteProblem {
  switch (issue?.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? 'missing' : 'wrong_kind';
    case 'invalid_value':
    case 'invalid_enum_value':
    case 'invalid_literal':
    case 'invalid_union':
    case 'invalid_key':
    case 'unrecognized_keys':
      return 'value_not_allowed';
    case 'too_small':
      return 'too_small';
    case 'too_big':
      return 'too_big';
    case 'invalid_format':
    case 'invalid_string':
    case 'not_multiple_of':
      return 'wrong_form';
    case 'custom':
      return /distinct|unique|repeat|twice|duplicate/i.test(issue.message) ? 'repeated' : 'inconsistent';
    default:
      return 'inconsistent';
  }
}

/** The note of a failed schema check: the first issue said in the author's words where it can be. */
export function taskIssueNote(
  issues: readonly Issue[],
  fallback: Extract<ImportNoteCode, 'task_invalid' | 'qti_task_invalid' | 'qti_rp_invalid'>,
): ImportNote {
  const first = issues[0];
  const what = first ? fieldWord(first.path) : 'task';
  const limit = (v: number | bigint | undefined) => (v === undefined ? undefined : Number(v));
  if (first && fallback !== 'qti_rp_invalid') {
    if (what === 'key') return note('task_key_wrong');
    if (what === 'full_marks') return note('task_full_marks_range');
    const min = limit(first.minimum);
    const max = limit(first.maximum);
    if (first.code === 'too_small' && first.origin === 'array' && min !== undefined)
      return note('task_too_few', { what, min });
    if (first.code === 'too_big' && first.origin === 'array' && max !== undefined)
      return note('task_too_many', { what, max });
    if (first.code === 'too_big' && first.origin === 'string' && max !== undefined)
      return note('task_too_long', { what, max });
    if (first.code === 'too_small' && first.origin === 'string') return note('task_empty', { what });
  }
  return note(fallback, { what, problem: problemWord(first) });
}
