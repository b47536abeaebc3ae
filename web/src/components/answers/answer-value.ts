/** Answer values per type (TASK_SCHEMAS[type].value) and when a value counts as an answer. */
import type { AnswerType, AnswerValue } from '@attesta/contract';

export function emptyValue(type: AnswerType): AnswerValue {
  switch (type) {
    case 'multiple_choice':
    case 'ordering':
      return [];
    case 'matching':
    case 'cloze':
      return {};
    case 'file':
      return { fileIds: [] };
    default:
      return '';
  }
}

/** Answered = the participant gave something; an ordering counts once it was touched (saved). */
export function isAnswered(type: AnswerType, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  switch (type) {
    case 'multiple_choice':
    case 'ordering':
      return Array.isArray(value) && value.length > 0;
    case 'matching':
      return typeof value === 'object' && Object.keys(value as object).length > 0;
    case 'cloze':
      return (
        typeof value === 'object' &&
        Object.values(value as Record<string, string>).some((v) => v.trim() !== '')
      );
    case 'file':
      return (
        Array.isArray((value as { fileIds?: unknown }).fileIds) &&
        (value as { fileIds: unknown[] }).fileIds.length > 0
      );
    default:
      return typeof value === 'string' && value.trim() !== '';
  }
}
