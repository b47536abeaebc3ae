/**
 * Open tests for guests (issue 13, item 7; docs/open-tests.md): a subject test an admin marked open
 * can be taken by a registered guest at any time, as often as they like, and the result of an
 * attempt is shown as soon as it is finished. An attempt is a participant test of the subject test's
 * `open` diagnostic, bound to the guest; the exam runner's calls take it unchanged.
 */
import { z } from 'zod';
import { examResultSchema, resultVariantSchema } from './results.js';

const instant = z.string().describe('ISO instant (UTC, Z)');

export const OPEN_TEST_ATTEMPT_STATES = ['in_progress', 'finished'] as const;
export const openTestAttemptStateSchema = z
  .enum(OPEN_TEST_ATTEMPT_STATES)
  .describe('in_progress: started, not finished (it can be resumed); finished: its result is shown');
export type OpenTestAttemptState = z.infer<typeof openTestAttemptStateSchema>;

/** One attempt of the caller at an open test. */
export const openTestAttemptSchema = z
  .object({
    id: z.number().int().describe('the attempt (its participant test id)'),
    state: openTestAttemptStateSchema,
    startedAt: instant.nullable(),
    finishedAt: instant.nullable(),
    primaryScore: z.number().nullable().describe('null until the result is computed'),
    maxScore: z.number().nullable(),
    percent: z.number().nullable(),
    mark: z.string().nullable(),
  })
  .meta({ id: 'OpenTestAttempt' });
export type OpenTestAttempt = z.infer<typeof openTestAttemptSchema>;

/** An open test as a guest sees it, with the guest's own attempts. */
export const openTestSchema = z
  .object({
    id: z.number().int().describe('the subject test id'),
    name: z.string(),
    subjectName: z.string(),
    parallels: z.array(z.number().int()),
    durationMinutes: z.number().int(),
    taskCount: z.number().int().nullable().describe('tasks of a variant (null: no variant yet)'),
    description: z.string().nullable(),
    isOpen: z
      .boolean()
      .describe('false: no longer open; listed only for the attempts the caller made while it was'),
    attempts: z.array(openTestAttemptSchema).describe('the caller’s attempts, newest first'),
  })
  .meta({ id: 'OpenTest' });
export type OpenTest = z.infer<typeof openTestSchema>;

export const openTestListSchema = z.object({ items: z.array(openTestSchema) }).meta({ id: 'OpenTestList' });
export type OpenTestList = z.infer<typeof openTestListSchema>;

/** POST /api/openTests/{subjectTestId}/attempt: the running attempt the session now sits. */
export const openTestStartSchema = z
  .object({
    attemptId: z.number().int().describe('the attempt (participant test id)'),
    examWorkId: z.number().int(),
    resumed: z.boolean().describe('true: an attempt already running was resumed'),
  })
  .meta({ id: 'OpenTestStart' });
export type OpenTestStart = z.infer<typeof openTestStartSchema>;

/** GET /api/openTestAttempts/{id}: a finished attempt's result with answers and correct answers. */
export const openTestAttemptResultSchema = z
  .object({
    attempt: openTestAttemptSchema,
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    result: examResultSchema,
    variant: resultVariantSchema,
  })
  .meta({ id: 'OpenTestAttemptResult' });
export type OpenTestAttemptResult = z.infer<typeof openTestAttemptResultSchema>;
