/** Answer values per type (TASK_SCHEMAS[type].value) and when a value counts as an answer. */
import type { AnswerValue, TaskAnswerType } from '@attesta/contract';

export function emptyValue(type: TaskAnswerType): AnswerValue<TaskAnswerType> {
  switch (type) {
    case 'multiple_choice':
    case 'ordering':
    case 'associate':
    case 'hottext':
    case 'hotspot':
      return [];
    case 'matching':
    case 'cloze':
    case 'gap_match':
    case 'composite':
      return {};
    case 'file':
      return { fileIds: [] };
    default:
      return '';
  }
}

/** Something was given: a non-blank text, a non-empty list, a record holding something given. */
function given(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && value !== null) return Object.values(value).some(given);
  return false;
}

/** Answered = the participant gave something; an ordering counts once it was touched (saved). */
export function isAnswered(type: TaskAnswerType, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  switch (type) {
    case 'multiple_choice':
    case 'ordering':
    case 'associate':
    case 'hottext':
    case 'hotspot':
      return Array.isArray(value) && value.length > 0;
    case 'matching':
    case 'gap_match':
      return typeof value === 'object' && Object.keys(value as object).length > 0;
    case 'cloze':
      return (
        typeof value === 'object' &&
        Object.values(value as Record<string, string>).some((v) => v.trim() !== '')
      );
    case 'composite':
      // A part counts like its own type would: a touched ordering is a non-empty list.
      return typeof value === 'object' && given(value);
    case 'file':
      return (
        Array.isArray((value as { fileIds?: unknown }).fileIds) &&
        (value as { fileIds: unknown[] }).fileIds.length > 0
      );
    default:
      return typeof value === 'string' && value.trim() !== '';
  }
}
