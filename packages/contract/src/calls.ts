/**
 * The schemas of each call, beside its row in ENDPOINTS (method, path, roles): path params, query,
 * JSON body and the 200 answer. The server declares a route from them (`contractRoute` in
 * server/src/auth/access.ts) and the web calls through them (`call` in web/src/lib/call.ts), so a
 * path is paired with its schemas in this one place (a route that does not take the schemas of its
 * call's row from here does not start). docs/how-to-add-a-call.md says how to add a call.
 */
import { z } from 'zod';
import {
  clearSessionQuerySchema,
  clearSessionResultSchema,
  restoreExamWorkBodySchema,
  restoreExamWorkResultSchema,
} from './participant-test.js';
import { pausePolicySchema } from './authoring.js';
import type { CallKey } from './endpoints.js';
import type { CallSchemas } from './call-schema.js';
import { ADMIN_CALL_SCHEMAS } from './calls-admin.js';
import { SCHOOL_CALL_SCHEMAS } from './calls-school.js';
import { MORE_CALL_SCHEMAS } from './calls-more.js';
import { NOTIFICATION_CALL_SCHEMAS } from './notifications.js';
import { INTEGRATION_CALL_SCHEMAS } from './integration.js';
import { FEEDBACK_INBOX_CALL_SCHEMAS } from './feedback-inbox.js';
import { SIGNED_INTEGRATION_CALL_SCHEMAS } from './signed-integration.js';
import { OPEN_TEST_CALL_SCHEMAS } from './open-tests.js';
import { ACCOMMODATION_CALL_SCHEMAS } from './accommodations.js';
import { SCAN_CALL_SCHEMAS } from './scans.js';
import {
  expertAgreementQuerySchema,
  expertAgreementResponseSchema,
  expertAssignmentParamsSchema,
  expertAssignmentSchema,
  expertDatesResponseSchema,
  expertMarksBodySchema,
  expertNextQuerySchema,
  expertNextResponseSchema,
  expertQueueResponseSchema,
  adminExpertProfileBodySchema,
  expertCoverageListSchema,
  expertCoverageQuerySchema,
  subjectTestExpertsAddBodySchema,
  subjectTestExpertsSchema,
} from './expert.js';
import { paperSittingQuerySchema, paperSittingSchema, subjectTestSummarySchema } from './exam.js';
import { subjectTestHtmlSchema } from './kim.js';
import {
  roomQuerySchema,
  roomSnapshotSchema,
  sittingEventsSchema,
  staffMessageBodySchema,
  staffMessageSchema,
} from './monitoring.js';
import {
  areaCreateBodySchema,
  areaListSchema,
  areaSchema,
  ugnikAreaDiagnosticDetailSchema,
  ugnikAreaDiagnosticsQuerySchema,
  ugnikAreaDiagnosticsSchema,
} from './areas.js';
import { queueItemSchema } from './queue.js';
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
  taskReferenceSchema,
} from './results.js';
import { idParamSchema } from './user.js';

import { expertProfileSaveBodySchema, expertProfileSchema } from './expert.js';
import { guestProfileSaveBodySchema, guestProfileSchema } from './guest-profile.js';
import {
  generateActivationCodeQuerySchema,
  generatedActivationCodeSchema,
  workerPositionListRequestSchema,
  workerPositionListResponseSchema,
  workerTestListRequestSchema,
  workerTestListResponseSchema,
  workerTestSchema,
} from './worker-test.js';

import { currentUserSchema, parallelSchema } from './account.js';
import {
  createDiagnosticBodySchema,
  diagnosticSchema,
  specificationOptionSchema,
  subjectTestOptionSchema,
  subjectTestOptionsQuerySchema,
} from './diagnostic.js';
import {
  fileInfoSchema,
  fileTextSchema,
  kimTemplateSchema,
  parallelsQuerySchema,
  staffTaskQuerySchema,
  staffTaskSchema,
  subjectListRequestSchema,
  subjectListResponseSchema,
  subjectTestListRequestSchema,
  subjectTestListResponseSchema,
  subjectTestsPathSchema,
  taskSourceSchema,
  uploadUrlBodySchema,
  variantListRequestSchema,
  variantListResponseSchema,
} from './kim.js';
import {
  impersonalCreateBodySchema,
  impersonalCreateResultSchema,
  participantTestListItemSchema,
  participantTestListRequestSchema,
  participantTestListResponseSchema,
} from './participant-test.js';
import { proctoringTokenSchema, proctoringUrlQuerySchema, proctoringUrlSchema } from './proctoring.js';
import { planningQueueQuerySchema, queueListRequestSchema, queueListResponseSchema } from './queue.js';
import {
  ugnikDiagnosticCreateBodySchema,
  ugnikDiagnosticListRequestSchema,
  ugnikDiagnosticListResponseSchema,
  ugnikDiagnosticSchema,
  ugnikParticipantCodesQuerySchema,
  ugnikSurnamesQuerySchema,
  ugnikSurnamesReportSchema,
} from './ugnik.js';
import {
  profileSaveBodySchema,
  roleInfoSchema,
  setUserPasswordBodySchema,
  userDetailsSchema,
  userListRequestSchema,
  userListResponseSchema,
  userSaveBodySchema,
  userSaveQuerySchema,
} from './user.js';

import {
  activationCodeSchema,
  changePasswordBodySchema,
  okSchema,
  registerBodySchema,
  registerResponseSchema,
  resetPasswordBodySchema,
  sendRegistrationEmailBodySchema,
} from './account.js';

export type { CallSchemas, RawAnswer } from './call-schema.js';
export {
  idPathSchema,
  reasonTextSchema,
  registrationQuerySchema,
  workIdListSchema,
} from './calls-participant.js';
import { idPathSchema, PARTICIPANT_CALL_SCHEMAS } from './calls-participant.js';

export const CALL_SCHEMAS = {
  ...PARTICIPANT_CALL_SCHEMAS,
  ...ADMIN_CALL_SCHEMAS,
  ...SCHOOL_CALL_SCHEMAS,
  ...MORE_CALL_SCHEMAS,
  ...NOTIFICATION_CALL_SCHEMAS,
  ...INTEGRATION_CALL_SCHEMAS,
  ...FEEDBACK_INBOX_CALL_SCHEMAS,
  ...SIGNED_INTEGRATION_CALL_SCHEMAS,
  ...OPEN_TEST_CALL_SCHEMAS,
  ...ACCOMMODATION_CALL_SCHEMAS,
  ...SCAN_CALL_SCHEMAS,
  // ------------------------------------------------------------ the exam runner (/api/exam/test)
  // ------------------------------------------------------------ results (/api/examresults)
  'GET /api/examresults/{id}': { params: idPathSchema, response: examResultSchema },
  'GET /api/examresults/variant/{id}': { params: idPathSchema, response: resultVariantSchema },
  'POST /api/examresults/participantTest/list': {
    body: resultListRequestSchema,
    response: resultListResponseSchema,
  },
  'GET /api/examresults/noresult/{id}': { params: idPathSchema, response: noResultSchema },
  'GET /api/examresults/referenceByVariantTaskId/{id}': {
    params: idPathSchema,
    response: taskReferenceSchema,
  },
  'GET /api/examresults/doc/{id}': { params: idPathSchema, raw: 'file' },
  'GET /api/examresults/doc/{id}/preprof': { params: idPathSchema, raw: 'file' },
  'GET /api/examresults/preprof/{id}': { params: idPathSchema, response: preprofResultSchema },
  'GET /api/examresults/preschool/{id}': { params: idPathSchema, response: preschoolResultSchema },
  'GET /api/examresults/changePublish/{diagnosticId}/{publish}': {
    params: z.strictObject({ diagnosticId: idParamSchema, publish: z.enum(['true', 'false']) }),
    query: changePublishQuerySchema,
    response: publishStateSchema,
  },
  'GET /api/examresults/enableChangePublish/{diagnosticId}': {
    params: z.strictObject({ diagnosticId: idParamSchema }),
    response: enableChangePublishSchema,
  },
  'POST /api/ParticipantTest/createresultqueue': { query: resultQueueQuerySchema, response: queueItemSchema },
  'GET /api/ParticipantTest/getResultJson/{id}': { params: idPathSchema, response: resultJsonSchema },
  // ------------------------------------------------------------ content settings (ours)
  'GET /api/admin/subjectTests/{id}/pausePolicy': { params: idPathSchema, response: pausePolicySchema },
  'PUT /api/admin/subjectTests/{id}/pausePolicy': {
    params: idPathSchema,
    body: pausePolicySchema,
    response: pausePolicySchema,
  },
  // ------------------------------------------------------------ expert grading (ours)
  'GET /api/expert/queue': { response: expertQueueResponseSchema },
  'GET /api/expert/next': { query: expertNextQuerySchema, response: expertNextResponseSchema },
  'GET /api/expert/assignment/{id}': {
    params: expertAssignmentParamsSchema,
    response: expertAssignmentSchema,
  },
  'POST /api/expert/assignment/{id}/marks': {
    params: expertAssignmentParamsSchema,
    body: expertMarksBodySchema,
    response: expertAssignmentSchema,
  },
  'GET /api/expert/agreement': { query: expertAgreementQuerySchema, response: expertAgreementResponseSchema },
  'GET /api/expert/coverage': { query: expertCoverageQuerySchema, response: expertCoverageListSchema },
  'GET /api/admin/experts/{id}': { params: idPathSchema, response: expertProfileSchema },
  'PUT /api/admin/experts/{id}': {
    params: idPathSchema,
    body: adminExpertProfileBodySchema,
    response: expertProfileSchema,
  },
  'GET /api/admin/subjectTests/{id}/experts': { params: idPathSchema, response: subjectTestExpertsSchema },
  'POST /api/admin/subjectTests/{id}/experts': {
    params: idPathSchema,
    body: subjectTestExpertsAddBodySchema,
    response: subjectTestExpertsSchema,
  },
  'DELETE /api/admin/subjectTests/{id}/experts/{expertId}': {
    params: z.strictObject({ id: idParamSchema, expertId: idParamSchema }),
    response: subjectTestExpertsSchema,
  },
  'GET /api/ParticipantTest/getExpertAnswersDates': {
    query: z.strictObject({}),
    response: expertDatesResponseSchema,
  },
  // ------------------------------------------------------------ live rooms and room actions
  // ------------------------------------------------------------ areas (docs/ugnik.md)
  'GET /api/admin/areas': { response: areaListSchema },
  'POST /api/admin/areas': { body: areaCreateBodySchema, response: areaSchema },
  'GET /api/ugnik/area/diagnostics': {
    query: ugnikAreaDiagnosticsQuerySchema,
    response: ugnikAreaDiagnosticsSchema,
  },
  'GET /api/ugnik/area/diagnostic/{id}': { params: idPathSchema, response: ugnikAreaDiagnosticDetailSchema },
  'GET /api/monitoring/room': { query: roomQuerySchema, response: roomSnapshotSchema },
  'GET /api/monitoring/room/stream': { query: roomQuerySchema, raw: 'stream' },
  'GET /api/monitoring/participant/stream': { raw: 'stream' },
  'GET /api/exam/test/participantTest/{id}/paper': {
    params: idPathSchema,
    query: paperSittingQuerySchema,
    response: paperSittingSchema,
  },
  'GET /api/monitoring/participantTest/{id}/events': {
    params: idPathSchema,
    response: sittingEventsSchema,
  },
  'POST /api/monitoring/participantTest/{id}/message': {
    params: idPathSchema,
    body: staffMessageBodySchema,
    response: staffMessageSchema,
  },
  'GET /api/ParticipantTest/clearSession/{id}': {
    params: idPathSchema,
    query: clearSessionQuerySchema,
    response: clearSessionResultSchema,
  },
  'POST /api/ParticipantTest/RestoreExamWork': {
    body: restoreExamWorkBodySchema,
    response: restoreExamWorkResultSchema,
  },
  'POST /api/Account/LogoutByActivationCode': {
    body: z.strictObject({
      activationCode: activationCodeSchema,
      reason: z.string().trim().max(500).optional().describe('why (kept in the audit trail)'),
    }),
    response: z.object({ ended: z.number().int() }),
  },
  'GET /api/Profile/expert/get': { response: expertProfileSchema },
  'PUT /api/Profile/expert/saveProfile': { body: expertProfileSaveBodySchema, response: expertProfileSchema },
  'GET /api/Profile/guest/get': { response: guestProfileSchema },
  'PUT /api/Profile/guest/saveProfile': { body: guestProfileSaveBodySchema, response: guestProfileSchema },
  'POST /api/workerPosition/list': {
    body: workerPositionListRequestSchema,
    response: workerPositionListResponseSchema,
  },
  'GET /api/workerTest/{id}': { params: z.object({ id: idParamSchema }), response: workerTestSchema },
  'DELETE /api/workerTest/{id}': { params: z.object({ id: idParamSchema }), response: okSchema },
  'POST /api/workerTest/list': { body: workerTestListRequestSchema, response: workerTestListResponseSchema },
  'GET /api/workerTest/generateActivationCode': {
    query: generateActivationCodeQuerySchema,
    response: generatedActivationCodeSchema,
  },
  'POST /api/createDiagnostic/create': { body: createDiagnosticBodySchema, response: diagnosticSchema },
  'GET /api/createDiagnostic/specifications': { response: z.array(specificationOptionSchema) },
  'GET /api/createDiagnostic/subjectTests': {
    query: subjectTestOptionsQuerySchema,
    response: z.array(subjectTestOptionSchema),
  },
  'GET /api/exam/test/subjecttest/{id}': {
    params: z.object({ id: idParamSchema }),
    response: subjectTestSummarySchema,
  },
  'GET /api/exam/test/subjecttesthtml/{id}': {
    params: z.object({ id: idParamSchema }),
    response: subjectTestHtmlSchema,
  },
  'GET /api/exam/test/subjecttests/{testGroupId}/{parallel}': {
    params: subjectTestsPathSchema,
    response: z.array(subjectTestSummarySchema),
  },
  'GET /api/exam/test/parallels': { query: parallelsQuerySchema, response: z.array(parallelSchema) },
  'GET /api/exam/test/variant/{id}/taskTextHtml': {
    params: z.object({ id: idParamSchema }),
    response: z.string().describe('text/html document'),
  },
  'GET /api/exam/test/getProctoringToken': { response: proctoringTokenSchema },
  'GET /api/exam/test/getProctoringUrl': { query: proctoringUrlQuerySchema, response: proctoringUrlSchema },
  'GET /api/files/byhtmltextid/{id}': {
    params: z.object({ id: idParamSchema }),
    response: z.array(fileInfoSchema),
  },
  'GET /api/files/text/{id}': { params: z.object({ id: idParamSchema }), response: fileTextSchema },
  'DELETE /api/files/delete/{id}': { params: z.object({ id: idParamSchema }), response: okSchema },
  'POST /api/files/upload_url': { body: uploadUrlBodySchema, response: z.array(fileInfoSchema) },
  'POST /api/kim/subject/list': { body: subjectListRequestSchema, response: subjectListResponseSchema },
  'POST /api/kim/subjectTest/list': {
    body: subjectTestListRequestSchema,
    response: subjectTestListResponseSchema,
  },
  'POST /api/kim/test/list': { body: variantListRequestSchema, response: variantListResponseSchema },
  'GET /api/kim/parallels': { response: z.array(parallelSchema) },
  'GET /api/kim/htmlxmltext/{id}': { params: z.object({ id: idParamSchema }), response: taskSourceSchema },
  'GET /api/task/{variantId}/{taskNumber}': {
    params: z.object({ variantId: idParamSchema, taskNumber: idParamSchema }),
    query: staffTaskQuerySchema,
    response: staffTaskSchema,
  },
  'GET /api/kimtemplate/{id}': { params: z.object({ id: idParamSchema }), response: kimTemplateSchema },
  'GET /api/kimtemplate/byvariantid/{id}': {
    params: z.object({ id: idParamSchema }),
    response: kimTemplateSchema,
  },
  'POST /api/ParticipantTest/participantTestCreateImpersonal': {
    body: impersonalCreateBodySchema,
    response: impersonalCreateResultSchema,
  },
  'POST /api/ParticipantTest/list': {
    body: participantTestListRequestSchema,
    response: participantTestListResponseSchema,
  },
  'POST /api/ParticipantTest/queuelist': { body: queueListRequestSchema, response: queueListResponseSchema },
  'POST /api/ParticipantTest/createplanningqueue': {
    query: planningQueueQuerySchema,
    response: queueItemSchema,
  },
  'POST /api/ugnik/diagnostic/create': {
    body: ugnikDiagnosticCreateBodySchema,
    response: ugnikDiagnosticSchema,
  },
  'GET /api/ugnik/diagnostic/{id}': {
    params: z.object({ id: idParamSchema }),
    response: ugnikDiagnosticSchema,
  },
  'DELETE /api/ugnik/diagnostic/{id}': { params: z.object({ id: idParamSchema }), response: okSchema },
  'POST /api/ugnik/diagnostic/list': {
    body: ugnikDiagnosticListRequestSchema,
    response: ugnikDiagnosticListResponseSchema,
  },
  'GET /api/ugnik/participantTest/{id}': {
    params: z.object({ id: idParamSchema }),
    response: participantTestListItemSchema,
  },
  'DELETE /api/ugnik/participantTest/{id}': { params: z.object({ id: idParamSchema }), response: okSchema },
  'POST /api/ugnik/participantTest/list': {
    body: participantTestListRequestSchema,
    response: participantTestListResponseSchema,
  },
  'GET /api/ugnik/reports/participantCodes': { query: ugnikParticipantCodesQuerySchema, raw: 'file' },
  'GET /api/ugnik/reports/surnames': { query: ugnikSurnamesQuerySchema, response: ugnikSurnamesReportSchema },
  'GET /api/user/roles': { response: z.array(roleInfoSchema) },
  'GET /api/user/{id}': { params: z.object({ id: idParamSchema }), response: userDetailsSchema },
  'POST /api/user/list': { body: userListRequestSchema, response: userListResponseSchema },
  'POST /api/User': { query: userSaveQuerySchema, body: userSaveBodySchema, response: userDetailsSchema },
  'POST /api/user/{id}/changepassword': {
    params: z.object({ id: idParamSchema }),
    body: setUserPasswordBodySchema,
    response: okSchema,
  },
  'PUT /api/user/save': { body: profileSaveBodySchema, response: currentUserSchema },
  'POST /api/Account/ChangePassword': { body: changePasswordBodySchema, response: okSchema },
  'POST /api/Account/Register': { body: registerBodySchema, response: registerResponseSchema },
  'POST /api/Account/SendRegistrationEMail': { body: sendRegistrationEmailBodySchema, response: okSchema },
  'POST /api/Account/ResetPassword': { body: resetPasswordBodySchema, response: okSchema },
  'POST /api/Account/LogoutParticipant': { response: okSchema },
} as const satisfies Record<CallKey, CallSchemas>;

export type CallSchemasOf<K extends CallKey> = K extends keyof typeof CALL_SCHEMAS
  ? (typeof CALL_SCHEMAS)[K]
  : Record<never, never>;
