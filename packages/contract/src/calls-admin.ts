/** Rows of CALL_SCHEMAS (calls.ts) for the admin's organisation, diagnostics, users, КИМ and queue calls. */
import { z } from 'zod';
import { okSchema } from './account.js';
import { auditActionsSchema, auditListRequestSchema, auditListResponseSchema } from './audit.js';
import {
  adminHelpListSchema,
  adminHelpSaveBodySchema,
  adminHelpSectionSchema,
  adminHtmlTextListSchema,
  adminHtmlTextSaveBodySchema,
  adminHtmlTextSchema,
} from './help.js';
import {
  adminBuildingSaveBodySchema,
  adminBuildingSchema,
  adminClassSaveBodySchema,
  adminClassSchema,
  adminDiagnosticDetailSchema,
  adminDiagnosticListRequestSchema,
  adminDiagnosticListResponseSchema,
  adminOoListRequestSchema,
  adminOoListResponseSchema,
  adminOoSaveBodySchema,
  adminOoSchema,
  adminSchoolListRequestSchema,
  adminSchoolListResponseSchema,
  adminSchoolSaveBodySchema,
  adminSchoolSchema,
  adminStudentListRequestSchema,
  adminStudentListResponseSchema,
  adminStudentSaveBodySchema,
  adminStudentSchema,
} from './admin-org.js';
import {
  authoringSubjectBodySchema,
  authoringSubjectExamBodySchema,
  authoringSubjectExamSchema,
  authoringSubjectSchema,
  authoringSubjectTestListRequestSchema,
  authoringSubjectTestListResponseSchema,
  authoringSubjectTestDetailSchema,
  authoringTaskListRequestSchema,
  authoringTaskListResponseSchema,
  authoringTaskSchema,
  authoringVariantSchema,
  contentValidationSchema,
  generateVariantsBodySchema,
  specificationBodySchema,
  specificationElementBodySchema,
  specificationImportResultSchema,
  specificationListQuerySchema,
  specificationSchema,
  specificationSummarySchema,
  subjectTestBodySchema,
  taskCreateBodySchema,
  taskElementsBodySchema,
  taskIdPathSchema,
  taskScoreBodySchema,
  taskScoreResultSchema,
  taskUpdateBodySchema,
  taskVersionSchema,
  testGroupBodySchema,
  testGroupSchema,
  variantBodySchema,
  variantUpdateBodySchema,
} from './authoring-calls.js';
import type { CallSchemas } from './call-schema.js';
import {
  contentExportQuerySchema,
  contentImportFullMarksBodySchema,
  contentImportParamsSchema,
  contentImportQueuedSchema,
  contentImportStatusSchema,
} from './content-import.js';
import {
  adminHtmlContainerSchema,
  containerIdPathSchema,
  containerPreviewQuerySchema,
  containerPreviewSchema,
} from './html-containers.js';
import { diagnosticExcelQuerySchema } from './diagnostic.js';
import type { CallKey } from './endpoints.js';
import { participantTestInfoSchema, participantTestInfoUpdateBodySchema } from './participant-test.js';
import { idParamSchema } from './user.js';

/** `{id}` of a path (calls.ts has the same `idPathSchema`; not imported from there, which imports this file). */
const idPath = z.strictObject({ id: idParamSchema });

/** POST /api/results/regrade: what to score again after a key was corrected. */
export const regradeRequestSchema = z
  .strictObject({
    subjectTestId: z.number().int().positive().optional(),
    variantTaskId: z.number().int().positive().optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .refine((b) => b.subjectTestId !== undefined || b.variantTaskId !== undefined, {
    message: 'name a subjectTestId or a variantTaskId',
  })
  .meta({ id: 'RegradeRequest' });
export type RegradeRequest = z.infer<typeof regradeRequestSchema>;

export const regradeQueuedSchema = z
  .object({
    queueItemId: z.number().int(),
    status: z.string(),
    created: z.boolean().describe('false: an equal regrade was already waiting, and this is it'),
  })
  .meta({ id: 'RegradeQueued' });
export type RegradeQueued = z.infer<typeof regradeQueuedSchema>;

export const ADMIN_CALL_SCHEMAS = {
  // ------------------------------------------------------------ organisation (/api/admin, ours)
  'POST /api/admin/oo/list': { body: adminOoListRequestSchema, response: adminOoListResponseSchema },
  'POST /api/admin/oo': { body: adminOoSaveBodySchema, response: adminOoSchema },
  'POST /api/admin/schools/list': {
    body: adminSchoolListRequestSchema,
    response: adminSchoolListResponseSchema,
  },
  'GET /api/admin/schools/{id}': { params: idPath, response: adminSchoolSchema },
  'POST /api/admin/schools': { body: adminSchoolSaveBodySchema, response: adminSchoolSchema },
  'PUT /api/admin/schools/{id}': {
    params: idPath,
    body: adminSchoolSaveBodySchema,
    response: adminSchoolSchema,
  },
  'GET /api/admin/schools/{id}/buildings': { params: idPath, response: z.array(adminBuildingSchema) },
  'POST /api/admin/schools/{id}/buildings': {
    params: idPath,
    body: adminBuildingSaveBodySchema,
    response: adminBuildingSchema,
  },
  'PUT /api/admin/buildings/{id}': {
    params: idPath,
    body: adminBuildingSaveBodySchema,
    response: adminBuildingSchema,
  },
  'GET /api/admin/schools/{id}/classes': { params: idPath, response: z.array(adminClassSchema) },
  'POST /api/admin/schools/{id}/classes': {
    params: idPath,
    body: adminClassSaveBodySchema,
    response: adminClassSchema,
  },
  'PUT /api/admin/classes/{id}': {
    params: idPath,
    body: adminClassSaveBodySchema,
    response: adminClassSchema,
  },
  'DELETE /api/admin/classes/{id}': { params: idPath, response: okSchema },
  'POST /api/admin/students/list': {
    body: adminStudentListRequestSchema,
    response: adminStudentListResponseSchema,
  },
  'GET /api/admin/students/{id}': { params: idPath, response: adminStudentSchema },
  'POST /api/admin/students': { body: adminStudentSaveBodySchema, response: adminStudentSchema },
  'PUT /api/admin/students/{id}': {
    params: idPath,
    body: adminStudentSaveBodySchema,
    response: adminStudentSchema,
  },
  'DELETE /api/admin/students/{id}': { params: idPath, response: okSchema },
  'POST /api/admin/audit/list': { body: auditListRequestSchema, response: auditListResponseSchema },
  'GET /api/admin/audit/actions': { response: auditActionsSchema },
  // ------------------------------------------------------------ results (ours)
  'POST /api/results/regrade': { body: regradeRequestSchema, response: regradeQueuedSchema },
  'GET /api/admin/help': { response: adminHelpListSchema },
  'POST /api/admin/help': { body: adminHelpSaveBodySchema, response: adminHelpSectionSchema },
  'PUT /api/admin/help/{id}': {
    params: idPath,
    body: adminHelpSaveBodySchema,
    response: adminHelpSectionSchema,
  },
  'DELETE /api/admin/help/{id}': { params: idPath, response: okSchema },
  'GET /api/admin/htmltexts': { response: adminHtmlTextListSchema },
  'POST /api/admin/htmltexts': { body: adminHtmlTextSaveBodySchema, response: adminHtmlTextSchema },
  'PUT /api/admin/htmltexts/{id}': {
    params: idPath,
    body: adminHtmlTextSaveBodySchema,
    response: adminHtmlTextSchema,
  },
  'POST /api/admin/diagnostics/list': {
    body: adminDiagnosticListRequestSchema,
    response: adminDiagnosticListResponseSchema,
  },
  'GET /api/admin/diagnostics/{id}': { params: idPath, response: adminDiagnosticDetailSchema },
  // ------------------------------------------------------------ the participant test card
  'GET /api/ParticipantTest/info/{id}': {
    params: z.object({ id: idParamSchema }),
    response: participantTestInfoSchema,
  },
  'PUT /api/ParticipantTest/info': {
    body: participantTestInfoUpdateBodySchema,
    response: participantTestInfoSchema,
  },
  // ------------------------------------------------------------ a diagnostic's spreadsheet (xlsx, no JSON answer)
  'GET /api/createDiagnostic/excel': { query: diagnosticExcelQuerySchema, raw: 'file' },
  // ------------------------------------------------------------ content authoring (issue 11, /api/admin/content)
  'GET /api/admin/content/subjects': { response: z.array(authoringSubjectSchema) },
  'POST /api/admin/content/subjects': { body: authoringSubjectBodySchema, response: authoringSubjectSchema },
  'PUT /api/admin/content/subjects/{id}': {
    params: idPath,
    body: authoringSubjectBodySchema,
    response: authoringSubjectSchema,
  },
  'GET /api/admin/content/subjects/{id}/exams': {
    params: idPath,
    response: z.array(authoringSubjectExamSchema),
  },
  'POST /api/admin/content/subjects/{id}/exams': {
    params: idPath,
    body: authoringSubjectExamBodySchema,
    response: authoringSubjectExamSchema,
  },
  'PUT /api/admin/content/subjectExams/{id}': {
    params: idPath,
    body: authoringSubjectExamBodySchema,
    response: authoringSubjectExamSchema,
  },
  'GET /api/admin/content/testGroups': { response: z.array(testGroupSchema) },
  'POST /api/admin/content/testGroups': { body: testGroupBodySchema, response: testGroupSchema },
  'POST /api/admin/content/subjectTests/list': {
    body: authoringSubjectTestListRequestSchema,
    response: authoringSubjectTestListResponseSchema,
  },
  'GET /api/admin/content/subjectTests/{id}': { params: idPath, response: authoringSubjectTestDetailSchema },
  'POST /api/admin/content/subjectTests': {
    body: subjectTestBodySchema,
    response: authoringSubjectTestDetailSchema,
  },
  'PUT /api/admin/content/subjectTests/{id}': {
    params: idPath,
    body: subjectTestBodySchema,
    response: authoringSubjectTestDetailSchema,
  },
  'GET /api/admin/content/subjectTests/{id}/validation': {
    params: idPath,
    response: contentValidationSchema,
  },
  'POST /api/admin/content/subjectTests/{id}/publish': {
    params: idPath,
    response: authoringSubjectTestDetailSchema,
  },
  'GET /api/admin/content/subjectTests/{id}/variants': {
    params: idPath,
    response: z.array(authoringVariantSchema),
  },
  'POST /api/admin/content/subjectTests/{id}/variants': {
    params: idPath,
    body: variantBodySchema,
    response: authoringVariantSchema,
  },
  'POST /api/admin/content/subjectTests/{id}/variants/generate': {
    params: idPath,
    body: generateVariantsBodySchema,
    response: z.array(authoringVariantSchema),
  },
  'PUT /api/admin/content/variants/{id}': {
    params: idPath,
    body: variantUpdateBodySchema,
    response: authoringVariantSchema,
  },
  'DELETE /api/admin/content/variants/{id}': { params: idPath, response: okSchema },
  'POST /api/admin/content/tasks/list': {
    body: authoringTaskListRequestSchema,
    response: authoringTaskListResponseSchema,
  },
  'POST /api/admin/content/tasks': { body: taskCreateBodySchema, response: authoringTaskSchema },
  'GET /api/admin/content/tasks/{taskId}': { params: taskIdPathSchema, response: authoringTaskSchema },
  'PUT /api/admin/content/tasks/{taskId}': {
    params: taskIdPathSchema,
    body: taskUpdateBodySchema,
    response: authoringTaskSchema,
  },
  'DELETE /api/admin/content/tasks/{taskId}': { params: taskIdPathSchema, response: okSchema },
  'GET /api/admin/content/tasks/{taskId}/versions': {
    params: taskIdPathSchema,
    response: z.array(taskVersionSchema),
  },
  'POST /api/admin/content/tasks/{taskId}/score': {
    params: taskIdPathSchema,
    body: taskScoreBodySchema,
    response: taskScoreResultSchema,
  },
  'PUT /api/admin/content/tasks/{taskId}/elements': {
    params: taskIdPathSchema,
    body: taskElementsBodySchema,
    response: authoringTaskSchema,
  },
  'GET /api/admin/content/specifications': {
    query: specificationListQuerySchema,
    response: z.array(specificationSummarySchema),
  },
  'POST /api/admin/content/specifications': { body: specificationBodySchema, response: specificationSchema },
  'GET /api/admin/content/specifications/{id}': { params: idPath, response: specificationSchema },
  'PUT /api/admin/content/specifications/{id}': {
    params: idPath,
    body: specificationBodySchema,
    response: specificationSchema,
  },
  'DELETE /api/admin/content/specifications/{id}': { params: idPath, response: okSchema },
  'POST /api/admin/content/specifications/{id}/elements': {
    params: idPath,
    body: specificationElementBodySchema,
    response: specificationSchema,
  },
  'PUT /api/admin/content/specificationElements/{id}': {
    params: idPath,
    body: specificationElementBodySchema,
    response: specificationSchema,
  },
  'DELETE /api/admin/content/specificationElements/{id}': { params: idPath, response: specificationSchema },
  'POST /api/admin/content/specifications/{id}/import': {
    params: idPath,
    response: specificationImportResultSchema,
  },
  // ------------------------------------------------------------ content import/export (issue 11)
  // POST import: a multipart form (contentImportFormSchema documents its fields), no JSON body; it
  // answers 202 contentImportQueuedSchema.
  'POST /api/admin/content/import': { accepted: contentImportQueuedSchema },
  'GET /api/admin/content/import/{importId}': {
    params: contentImportParamsSchema,
    response: contentImportStatusSchema,
  },
  // The fix a person gives on the report (issue 27, Deliver 5): full marks the rules do not say.
  'POST /api/admin/content/import/{importId}/fullMarks': {
    params: contentImportParamsSchema,
    body: contentImportFullMarksBodySchema,
    response: contentImportStatusSchema,
  },
  // A zip (application/zip), no JSON answer.
  'GET /api/admin/content/subjectTests/{id}/export': {
    params: idPath,
    query: contentExportQuerySchema,
    raw: 'file',
  },
  // ------------------------------------------------------------ html containers (issue 11)
  'GET /api/admin/content/containers': { response: z.array(adminHtmlContainerSchema) },
  // The uploads read a multipart form (containerUploadFormSchema documents its fields), no JSON body.
  'POST /api/admin/content/containers': { response: adminHtmlContainerSchema },
  'POST /api/admin/content/containers/{id}/versions': {
    params: containerIdPathSchema,
    response: adminHtmlContainerSchema,
  },
  'GET /api/admin/content/containers/{id}/preview': {
    params: containerIdPathSchema,
    query: containerPreviewQuerySchema,
    response: containerPreviewSchema,
  },
} as const satisfies Partial<Record<CallKey, CallSchemas>>;
