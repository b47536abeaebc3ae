import { z } from 'zod';

/** Answer types of DESIGN.md §4. */
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

/** Answer types scored by experts rather than automatically. */
export const MANUAL_ANSWER_TYPES: readonly AnswerType[] = ['extended_text', 'file'];

export const SUBJECT_EXAM_KINDS = ['diagnostic', 'preprof', 'preschool', 'worker'] as const;
export type SubjectExamKind = (typeof SUBJECT_EXAM_KINDS)[number];

export const PARTICIPANT_TEST_STATUSES = [
  'planned',
  'active',
  'in_progress',
  'finished',
  'scored',
  'published',
  'absent',
  'annulled',
] as const;
export type ParticipantTestStatus = (typeof PARTICIPANT_TEST_STATUSES)[number];
