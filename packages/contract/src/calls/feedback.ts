/** The calls of the feedback area (server/src/modules/feedback), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  feedbackDetailSchema,
  feedbackListRequestSchema,
  feedbackListSchema,
  feedbackUpdateSchema,
  myFeedbackListSchema,
} from '../feedback-inbox.js';
import { feedbackResultSchema } from '../kim.js';
import { idParamSchema } from '../user.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const FEEDBACK_CALLS = {
  // The body is `{ "text" }` as JSON or a multipart form with at most one file: the route reads it
  // (a multipart body is a stream) and the service checks it, so the row has no body schema.
  'POST /api/feedback/{id}': {
    roles: 'any',
    meaning: 'feedback message with optional file upload (id: subject of the feedback, e.g. a task)',
    consumes: ['application/json', 'multipart/form-data'],
    params: z.object({ id: idParamSchema }),
    response: feedbackResultSchema,
  },
  // feedback from any screen and the admins' inbox (issue 13)
  'GET /api/feedback/mine': {
    roles: 'any',
    meaning: "the caller's own feedback messages with their status and answer",
    ours: true,
    response: myFeedbackListSchema,
  },
  'POST /api/admin/feedback/list': {
    roles: ADMIN,
    meaning: 'page of feedback messages (status, search), newest first',
    ours: true,
    body: feedbackListRequestSchema,
    response: feedbackListSchema,
  },
  'GET /api/admin/feedback/{id}': {
    roles: ADMIN,
    meaning: 'one feedback message with its sender, file and answer',
    ours: true,
    params: z.object({ id: idParamSchema }),
    response: feedbackDetailSchema,
  },
  'PUT /api/admin/feedback/{id}': {
    roles: ADMIN,
    meaning: 'set a feedback message in progress or answer it',
    ours: true,
    params: z.object({ id: idParamSchema }),
    body: feedbackUpdateSchema,
    response: feedbackDetailSchema,
  },
} as const satisfies CallTable;
