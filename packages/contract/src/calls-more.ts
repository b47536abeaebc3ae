/**
 * Rows of CALL_SCHEMAS (calls.ts) for results, expert grading, monitoring, the supervision authority,
 * account and session calls, public texts, feedback, uploads, the XML import, the queue by type,
 * saving worker tests, subject exams, test groups, container resources and downloads.
 */
import { z } from 'zod';
import {
  externalLoginQuerySchema,
  hashPasswordQuerySchema,
  hashPasswordResultSchema,
  loginResponseSchema,
  logoutByAppLoginBodySchema,
  obtainLocalAccessTokenQuerySchema,
  parallelSchema,
} from './account.js';
import type { CallSchemas } from './call-schema.js';
import { participantCodesQuerySchema } from './diagnostic.js';
import type { CallKey } from './endpoints.js';
import { itemAnalysisQuerySchema, itemAnalysisSchema } from './item-analysis.js';
import {
  equatingAdoptBodySchema,
  equatingCutScoresBodySchema,
  equatingQuerySchema,
  equatingSchema,
} from './equating.js';
import { expertAnswersZipQuerySchema } from './expert.js';
import {
  analyticsConfigSchema,
  containerBundleParamsSchema,
  containerIndexParamsSchema,
  containerResourceParamsSchema,
  containerResourceQuerySchema,
  feedbackResultSchema,
  fileInfoSchema,
  htmlTextIdParamsSchema,
  idNameSchema,
  publicHtmlTextSchema,
  subjectExamSchema,
  uploadQuerySchema,
} from './kim.js';
import { participantTestImportResultSchema, participantTestImportXmlBodySchema } from './participant-test.js';
import { queueItemSchema, queueOfDiagnosticParamsSchema } from './queue.js';
import {
  reportAttestaSchema,
  reportCommonSchema,
  reportConsQuerySchema,
  reportConsSchema,
  reportControlSchema,
  reportDetailedQuerySchema,
  reportDetailedSchema,
  reportExportQuerySchema,
  reportMrkoSchema,
  reportProtocolQuerySchema,
  reportProtocolSchema,
  reportQueueItemParamsSchema,
  reportQuerySchema,
  reportSpecificationQuerySchema,
  reportSpecificationSchema,
} from './reports.js';
import { rosterImportResultSchema, rosterTemplateQuerySchema, staffImportResultSchema } from './roster.js';
import { idParamSchema } from './user.js';
import { listResponseSchema } from './paging.js';
import { resultVerificationSchema, resultVerifyParamsSchema } from './results.js';
import {
  ugnikBuildingListRequestSchema,
  ugnikBuildingSchema,
  ugnikClassListRequestSchema,
  ugnikClassSchema,
  ugnikMainSubjectTestListRequestSchema,
  ugnikMainSubjectTestSchema,
  ugnikOoListRequestSchema,
  ugnikOoSchema,
  ugnikParallelListRequestSchema,
  ugnikParallelSchema,
  ugnikParticipantSaveBodySchema,
  ugnikParticipantSaveResultSchema,
  ugnikSchoolListRequestSchema,
  ugnikSchoolSchema,
  ugnikStudentListRequestSchema,
  ugnikStudentSchema,
} from './ugnik.js';
import { workerTestSaveBodySchema, workerTestSchema } from './worker-test.js';

export const MORE_CALL_SCHEMAS = {
  // ------------------------------------------------------------ account
  'GET /api/Account/Parallels': { response: z.array(parallelSchema) },
  // ------------------------------------------------------------ files (a download: no JSON answer)
  // ------------------------------------------------------------ results
  'GET /api/results/verify/{code}': { params: resultVerifyParamsSchema, response: resultVerificationSchema },
  // ------------------------------------------------------------ expert grading (a zip download)
  'GET /api/ParticipantTest/getExpertAnswersFileForDownloader': {
    query: expertAnswersZipQuerySchema,
    raw: 'file',
  },
  // ------------------------------------------------------------ the supervision authority (/api/ugnik)
  'POST /api/ugnik/participantTest/save': {
    body: ugnikParticipantSaveBodySchema,
    response: ugnikParticipantSaveResultSchema,
  },
  'POST /api/ugnik/oo/list': { body: ugnikOoListRequestSchema, response: listResponseSchema(ugnikOoSchema) },
  'POST /api/ugnik/school/list': {
    body: ugnikSchoolListRequestSchema,
    response: listResponseSchema(ugnikSchoolSchema),
  },
  'POST /api/ugnik/building/list': {
    body: ugnikBuildingListRequestSchema,
    response: listResponseSchema(ugnikBuildingSchema),
  },
  'POST /api/ugnik/class/list': {
    body: ugnikClassListRequestSchema,
    response: listResponseSchema(ugnikClassSchema),
  },
  'POST /api/ugnik/student/list': {
    body: ugnikStudentListRequestSchema,
    response: listResponseSchema(ugnikStudentSchema),
  },
  'POST /api/ugnik/parallel/list': {
    body: ugnikParallelListRequestSchema,
    response: listResponseSchema(ugnikParallelSchema),
  },
  'POST /api/ugnik/mainSubjectTest/list': {
    body: ugnikMainSubjectTestListRequestSchema,
    response: listResponseSchema(ugnikMainSubjectTestSchema),
  },
  // ------------------------------------------------------------ session, public texts, feedback
  'GET /api/htmltexts/analytics': { response: analyticsConfigSchema },
  'GET /api/htmltexts/{id}': { params: htmlTextIdParamsSchema, response: publicHtmlTextSchema },
  // The body is `{ "text" }` as JSON or a multipart form with at most one file: the route reads it
  // (a multipart body is a stream) and the service checks it, so the row has no body schema.
  'POST /api/feedback/{id}': { params: z.object({ id: idParamSchema }), response: feedbackResultSchema },
  // ------------------------------------------------------------ account
  'GET /api/Account/hashpassword': { query: hashPasswordQuerySchema, response: hashPasswordResultSchema },
  'POST /api/Account/LogoutByAppLogin': {
    body: logoutByAppLoginBodySchema,
    response: z.object({ ended: z.number().int() }),
  },
  // A redirect (302) to the provider, to the app or to the login page: no JSON answer.
  'GET /api/Account/ExternalLogin': { query: externalLoginQuerySchema, raw: 'redirect' },
  'GET /api/Account/ObtainLocalAccessToken': {
    query: obtainLocalAccessTokenQuerySchema,
    response: loginResponseSchema,
  },
  // ------------------------------------------------------------ files
  // Multipart: the files (and a form field `ownerType`) are read as they stream in by the upload
  // helper (readUploadForm in server/src/modules/files), never by a body schema; the row has none.
  'POST /api/files/upload/{id}': {
    params: z.object({ id: idParamSchema }),
    query: uploadQuerySchema,
    response: z.array(fileInfoSchema),
  },
  // ------------------------------------------------------------ participant tests, queue, worker tests
  // The body is the XML file itself (`Content-Type: application/xml` or `text/xml`), read as text:
  // the web sends it with call()'s `raw` option, not as JSON.
  'POST /api/ParticipantTest/participantTestImportFromXml': {
    body: participantTestImportXmlBodySchema,
    response: participantTestImportResultSchema,
  },
  'GET /api/ParticipantTest/getqueuelistbytype/{type}/{diagnosticId}': {
    params: queueOfDiagnosticParamsSchema,
    response: z.array(queueItemSchema),
  },
  'PUT /api/workerTest/save': { body: workerTestSaveBodySchema, response: workerTestSchema },
  // ------------------------------------------------------------ content read side
  'GET /api/kim/subjectexams': { response: z.array(subjectExamSchema) },
  'GET /api/SubjectExams': { response: z.array(subjectExamSchema) },
  'GET /api/exam/test/testgroups': { response: z.array(idNameSchema) },
  // Container resources: the stored bytes with their own MIME type, no JSON answer.
  'GET /api/kim/htmlContainer/{containerId}/{version}/index': {
    params: containerIndexParamsSchema,
    query: containerResourceQuerySchema,
    raw: 'file',
  },
  'GET /api/kim/htmlContainer/{containerId}/{version}/bundles/{bundle}': {
    params: containerBundleParamsSchema,
    query: containerResourceQuerySchema,
    raw: 'file',
  },
  'GET /api/kim/htmlContainer/{containerId}/{version}/{resource}': {
    params: containerResourceParamsSchema,
    query: containerResourceQuerySchema,
    raw: 'file',
  },
  // ------------------------------------------------------------ downloads (PDF or xlsx: no JSON answer)
  'GET /api/reports/coordinator/participantCodes': { query: participantCodesQuerySchema, raw: 'file' },
  'GET /api/reports/organizator/participantCodes': { query: participantCodesQuerySchema, raw: 'file' },
  // reports (issue 12)
  'GET /api/reports/common': { query: reportQuerySchema, response: reportCommonSchema },
  'GET /api/reports/cons': { query: reportConsQuerySchema, response: reportConsSchema },
  'GET /api/reports/control': { query: reportQuerySchema, response: reportControlSchema },
  'GET /api/reports/detailed': { query: reportDetailedQuerySchema, response: reportDetailedSchema },
  'GET /api/reports/specification': {
    query: reportSpecificationQuerySchema,
    response: reportSpecificationSchema,
  },
  'GET /api/reports/diagnostic/protocol': {
    query: reportProtocolQuerySchema,
    response: reportProtocolSchema,
  },
  'GET /api/reports/attesta': { query: reportExportQuerySchema, response: reportAttestaSchema },
  'GET /api/reports/mrko': { query: reportExportQuerySchema, response: reportMrkoSchema },
  // A download too big for the request answers 202 reportQueuedSchema, which each route declares
  // (rows hold 200 answers only); its queue item is read here.
  'GET /api/reports/queue/{queueItemId}': { params: reportQueueItemParamsSchema, response: queueItemSchema },
  // item analysis (issue 12)
  'GET /api/reports/itemAnalysis': { query: itemAnalysisQuerySchema, response: itemAnalysisSchema },
  // equating of variants (issue 28)
  'GET /api/reports/equating': { query: equatingQuerySchema, response: equatingSchema },
  'POST /api/reports/equating/adopt': { body: equatingAdoptBodySchema, response: equatingSchema },
  'PUT /api/reports/equating/cutScores': { body: equatingCutScoresBodySchema, response: equatingSchema },
  // roster import (issue 13): POST import reads a multipart form (rosterImportFormSchema documents
  // its fields); the template is a file, not JSON.
  'POST /api/admin/roster/import': { response: rosterImportResultSchema },
  'GET /api/admin/roster/template': { query: rosterTemplateQuerySchema, raw: 'file' },
  'POST /api/admin/roster/staff/import': { response: staffImportResultSchema },
  'GET /api/admin/roster/staff/template': { query: rosterTemplateQuerySchema, raw: 'file' },
} as const satisfies Partial<Record<CallKey, CallSchemas>>;
