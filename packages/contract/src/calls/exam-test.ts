/** The calls of the exam-test area (server/src/modules/exam-test), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { parallelSchema } from '../account.js';
import { idPathSchema } from '../calls-participant.js';
import { paperSittingQuerySchema, paperSittingSchema, subjectTestSummarySchema } from '../exam.js';
import { idNameSchema, parallelsQuerySchema, subjectTestHtmlSchema, subjectTestsPathSchema } from '../kim.js';
import { proctoringTokenSchema, proctoringUrlQuerySchema, proctoringUrlSchema } from '../proctoring.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const EXAM_TEST_CALLS = {
  'GET /api/exam/test/parallels': {
    roles: 'any',
    meaning: 'parallels a subject test is offered for; query TestId',
    query: parallelsQuerySchema,
    response: z.array(parallelSchema),
  },
  'GET /api/exam/test/getProctoringToken': {
    roles: ['participant'],
    meaning: 'signed token for the proctoring service',
    response: proctoringTokenSchema,
  },
  'GET /api/exam/test/getProctoringUrl': {
    roles: ['participant'],
    meaning: 'proctoring session URL; query url, returnUrl',
    query: proctoringUrlQuerySchema,
    response: proctoringUrlSchema,
  },
  'GET /api/exam/test/subjecttest/{id}': {
    roles: 'any',
    meaning: 'subject test summary',
    params: z.object({ id: idParamSchema }),
    response: subjectTestSummarySchema,
  },
  'GET /api/exam/test/subjecttests/{testGroupId}/{parallel}': {
    roles: 'any',
    meaning: 'subject tests of a test group for a parallel',
    params: subjectTestsPathSchema,
    response: z.array(subjectTestSummarySchema),
  },
  'GET /api/exam/test/variant/{id}/taskTextHtml': {
    roles: ['participant', 'coordinator', 'organizator', 'admin', 'expert'],
    meaning: 'whole variant text as sanitized HTML (printing)',
    params: z.object({ id: idParamSchema }),
    response: z.string().describe('text/html document'),
  },
  'GET /api/exam/test/testgroups': {
    roles: 'any',
    meaning: 'test groups',
    response: z.array(idNameSchema),
  },
  'GET /api/exam/test/subjecttesthtml/{id}': {
    roles: 'any',
    meaning: 'subject test instruction HTML',
    params: z.object({ id: idParamSchema }),
    response: subjectTestHtmlSchema,
  },
  'GET /api/exam/test/participantTest/{id}/paper': {
    roles: ['organizator', 'coordinator'],
    meaning: "a sitting's paper form to key in: its work (if any), the variants and a variant's tasks",
    ours: true,
    params: idPathSchema,
    query: paperSittingQuerySchema,
    response: paperSittingSchema,
  },
} as const satisfies CallTable;
