/** The calls of the open-tests area (server/src/modules/open-tests), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { openTestAttemptResultSchema, openTestListSchema, openTestStartSchema } from '../open-tests.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const OPEN_TESTS_CALLS = {
  // open tests for guests (issue 13, item 7; docs/open-tests.md)
  'GET /api/openTests': {
    roles: ['guest'],
    meaning: 'the open tests a guest may take, with their own attempts and scores',
    ours: true,
    response: openTestListSchema,
  },
  'POST /api/openTests/{subjectTestId}/attempt': {
    roles: ['guest'],
    meaning: "start (or resume) the guest's attempt at an open test; the session then sits it in the runner",
    ours: true,
    params: z.object({ subjectTestId: idParamSchema }),
    response: openTestStartSchema,
  },
  'GET /api/openTestAttempts/{id}': {
    roles: ['guest'],
    meaning: "a guest's own finished attempt: score, per task, answers with the correct ones",
    ours: true,
    params: z.object({ id: idParamSchema }),
    response: openTestAttemptResultSchema,
  },
} as const satisfies CallTable;
