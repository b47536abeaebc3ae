import { z } from 'zod';

/**
 * Answer types of docs/design.md §4: the types the API serves (its OpenAPI enum), the runner has an
 * input for, paper forms print and the demo covers.
 */
export const ANSWER_TYPES = [
  'single_choice',
  'multiple_choice',
  'short_text',
  'number',
  'digit_sequence',
  'ordering',
  'matching',
  'cloze',
  'extended_text',
  'file',
] as const;
export const answerTypeSchema = z.enum(ANSWER_TYPES);
export type AnswerType = z.infer<typeof answerTypeSchema>;

/**
 * Answer types content import adds (QTI, Moodle XML, GIFT; docs/content-model.md): modelled,
 * validated and scored here; runner inputs, paper forms and demo tasks are still to come, and when
 * they do the type moves into ANSWER_TYPES (the API enum: regenerate docs/openapi.json).
 */
export const IMPORTED_ANSWER_TYPES = ['gap_match', 'associate', 'hottext', 'hotspot', 'composite'] as const;
/** Every answer type of the task model. */
export const TASK_ANSWER_TYPES = [...ANSWER_TYPES, ...IMPORTED_ANSWER_TYPES] as const;
export const taskAnswerTypeSchema = z.enum(TASK_ANSWER_TYPES);
export type TaskAnswerType = z.infer<typeof taskAnswerTypeSchema>;
/** The types a part of a composite task may have: every type but composite itself. */
export const PART_ANSWER_TYPES = TASK_ANSWER_TYPES.filter(
  (t): t is Exclude<TaskAnswerType, 'composite'> => t !== 'composite',
);
export type PartAnswerType = Exclude<TaskAnswerType, 'composite'>;
