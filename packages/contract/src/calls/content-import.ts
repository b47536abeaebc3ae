/** The calls of the content-import area (server/src/modules/content-import), each with its roles, meaning and schemas. */
import { idPath } from '../calls-admin.js';
import {
  contentImportFullMarksBodySchema,
  contentExportQuerySchema,
  contentImportParamsSchema,
  contentImportQueuedSchema,
  contentImportStatusSchema,
} from '../content-import.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const CONTENT_IMPORT_CALLS = {
  // content import/export (issue 11)
  // POST import: a multipart form (contentImportFormSchema documents its fields), no JSON body; it
  // answers 202 contentImportQueuedSchema.
  'POST /api/admin/content/import': {
    roles: ADMIN,
    meaning: 'import tasks and tests from a QTI package, Moodle XML or GIFT file (a queue item)',
    ours: true,
    consumes: ['multipart/form-data'],
    accepted: contentImportQueuedSchema,
  },
  'GET /api/admin/content/import/{importId}': {
    roles: ADMIN,
    meaning: 'state and per-item report of a content import',
    ours: true,
    params: contentImportParamsSchema,
    response: contentImportStatusSchema,
  },
  // The fix a person gives on the report (issue 27, Deliver 5): full marks the rules do not say.
  'POST /api/admin/content/import/{importId}/fullMarks': {
    roles: ADMIN,
    meaning: 'give the full marks of a task the import held because its rules did not say them',
    ours: true,
    params: contentImportParamsSchema,
    body: contentImportFullMarksBodySchema,
    response: contentImportStatusSchema,
  },
  // A zip (application/zip), no JSON answer.
  'GET /api/admin/content/subjectTests/{id}/export': {
    roles: ADMIN,
    meaning: 'a subject test as a QTI 3.0 package (zip)',
    ours: true,
    params: idPath,
    query: contentExportQuerySchema,
    raw: 'file',
  },
} as const satisfies CallTable;
