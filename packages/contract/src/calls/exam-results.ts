/** The calls of the exam-results area (server/src/modules/exam-results), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { regradeQueuedSchema, regradeRequestSchema } from '../calls-admin.js';
import { idPathSchema } from '../calls-participant.js';
import { queueItemSchema } from '../queue.js';
import {
  changePublishQuerySchema,
  enableChangePublishSchema,
  examResultSchema,
  noResultSchema,
  preprofResultSchema,
  preschoolResultSchema,
  publishStateSchema,
  resultJsonSchema,
  resultListRequestSchema,
  resultListResponseSchema,
  resultQueueQuerySchema,
  resultVariantSchema,
  resultVerificationSchema,
  resultVerifyParamsSchema,
  taskReferenceSchema,
} from '../results.js';
import { idParamSchema } from '../user.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const EXAM_RESULTS_CALLS = {
  'GET /api/examresults/{id}': {
    roles: ['participant', 'coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'result of a participant test (participants: own and only once published)',
    params: idPathSchema,
    response: examResultSchema,
  },
  'GET /api/examresults/changePublish/{diagnosticId}/{publish}': {
    roles: ['admin', 'coordinator'],
    meaning: 'publish (true) or unpublish (false) the results of a diagnostic',
    stateChanging: true,
    params: z.strictObject({ diagnosticId: idParamSchema, publish: z.enum(['true', 'false']) }),
    query: changePublishQuerySchema,
    response: publishStateSchema,
  },
  'GET /api/examresults/enableChangePublish/{diagnosticId}': {
    roles: ['admin', 'coordinator'],
    meaning: 'whether publishing may change now (all scoring done)',
    params: z.strictObject({ diagnosticId: idParamSchema }),
    response: enableChangePublishSchema,
  },
  'GET /api/examresults/variant/{id}': {
    roles: ['participant', 'coordinator', 'organizator', 'ugnik', 'admin', 'expert'],
    meaning: 'variant of a result with the answers given (participant: own, after publication)',
    params: idPathSchema,
    response: resultVariantSchema,
  },
  'POST /api/examresults/participantTest/list': {
    roles: ['coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'page of results',
    body: resultListRequestSchema,
    response: resultListResponseSchema,
  },
  'GET /api/examresults/noresult/{id}': {
    roles: ['coordinator', 'organizator', 'admin'],
    meaning: 'why a participant test has no result (absent, not finished, annulled)',
    params: idPathSchema,
    response: noResultSchema,
  },
  'GET /api/examresults/referenceByVariantTaskId/{id}': {
    roles: ['expert', 'admin', 'coordinator', 'participant'],
    meaning: 'reference answer and criteria (participant: only after publication)',
    params: idPathSchema,
    response: taskReferenceSchema,
  },
  'GET /api/examresults/doc/{id}': {
    roles: ['participant', 'coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'PDF result report',
    params: idPathSchema,
    raw: 'file',
  },
  'GET /api/examresults/doc/{id}/preprof': {
    roles: ['participant', 'coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'PDF result report in the pre-professional exam layout',
    params: idPathSchema,
    raw: 'file',
  },
  'GET /api/examresults/preprof/{id}': {
    roles: ['participant', 'coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'pre-professional exam result (theory + practice parts)',
    params: idPathSchema,
    response: preprofResultSchema,
  },
  'GET /api/examresults/preschool/{id}': {
    roles: ['participant', 'coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'preschool diagnostic result (levels, no scores)',
    params: idPathSchema,
    response: preschoolResultSchema,
  },
  'POST /api/ParticipantTest/createresultqueue': {
    roles: ['coordinator', 'admin'],
    meaning: 'queue result processing; query participantTestId',
    query: resultQueueQuerySchema,
    response: queueItemSchema,
  },
  'GET /api/ParticipantTest/getResultJson/{id}': {
    roles: ['coordinator', 'admin', 'integration'],
    meaning: 'machine-readable result',
    params: idPathSchema,
    response: resultJsonSchema,
  },
  'POST /api/results/regrade': {
    roles: ADMIN,
    meaning: 'queue a regrade of a subject test or a variant task',
    ours: true,
    body: regradeRequestSchema,
    response: regradeQueuedSchema,
  },
  'GET /api/results/verify/{code}': {
    roles: 'anon',
    meaning: 'check a result document by its verification code',
    ours: true,
    params: resultVerifyParamsSchema,
    response: resultVerificationSchema,
  },
} as const satisfies CallTable;
