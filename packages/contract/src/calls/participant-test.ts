/** The calls of the participant-test area (server/src/modules/participant-test), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { idPathSchema } from '../calls-participant.js';
import {
  clearSessionQuerySchema,
  clearSessionResultSchema,
  impersonalCreateBodySchema,
  impersonalCreateResultSchema,
  participantTestImportResultSchema,
  participantTestImportXmlBodySchema,
  participantTestInfoSchema,
  participantTestInfoUpdateBodySchema,
  participantTestListRequestSchema,
  participantTestListResponseSchema,
  restoreExamWorkBodySchema,
  restoreExamWorkResultSchema,
} from '../participant-test.js';
import {
  planningQueueQuerySchema,
  queueItemSchema,
  queueListRequestSchema,
  queueListResponseSchema,
  queueOfDiagnosticParamsSchema,
} from '../queue.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const PARTICIPANT_TEST_CALLS = {
  'GET /api/ParticipantTest/clearSession/{id}': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'drop the device binding of a participant test so it can continue elsewhere',
    stateChanging: true,
    params: idPathSchema,
    query: clearSessionQuerySchema,
    response: clearSessionResultSchema,
  },
  'POST /api/ParticipantTest/participantTestCreateImpersonal': {
    roles: ['coordinator', 'admin'],
    meaning: 'create N anonymous participant tests (codes without names)',
    body: impersonalCreateBodySchema,
    response: impersonalCreateResultSchema,
  },
  'POST /api/ParticipantTest/createplanningqueue': {
    roles: ['coordinator', 'admin'],
    meaning: 'queue planning of a diagnostic; query date and code',
    query: planningQueueQuerySchema,
    response: queueItemSchema,
  },
  'GET /api/ParticipantTest/info/{id}': {
    roles: ['coordinator', 'organizator', 'admin'],
    meaning: 'participant test card',
    params: z.object({ id: idParamSchema }),
    response: participantTestInfoSchema,
  },
  'POST /api/ParticipantTest/list': {
    roles: ['coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'page of participant tests',
    body: participantTestListRequestSchema,
    response: participantTestListResponseSchema,
  },
  'POST /api/ParticipantTest/queuelist': {
    roles: ['coordinator', 'admin'],
    meaning: 'queue items (planning and result queues)',
    body: queueListRequestSchema,
    response: queueListResponseSchema,
  },
  'GET /api/ParticipantTest/getqueuelistbytype/{type}/{diagnosticId}': {
    roles: ['coordinator', 'admin'],
    meaning: 'queue items of one type for a diagnostic',
    params: queueOfDiagnosticParamsSchema,
    response: z.array(queueItemSchema),
  },
  // The body is the XML file itself (`Content-Type: application/xml` or `text/xml`), read as text:
  // the web sends it with call()'s `raw` option, not as JSON.
  'POST /api/ParticipantTest/participantTestImportFromXml': {
    roles: ['coordinator', 'admin'],
    meaning: 'import participant tests from an XML file',
    consumes: ['application/xml', 'text/xml'],
    body: participantTestImportXmlBodySchema,
    response: participantTestImportResultSchema,
  },
  'POST /api/ParticipantTest/RestoreExamWork': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'restore a deleted exam work',
    body: restoreExamWorkBodySchema,
    response: restoreExamWorkResultSchema,
  },
  'PUT /api/ParticipantTest/info': {
    roles: ['coordinator', 'organizator', 'admin'],
    meaning: 'update a participant test card',
    body: participantTestInfoUpdateBodySchema,
    response: participantTestInfoSchema,
  },
} as const satisfies CallTable;
