/** The calls of the kim area (server/src/modules/kim), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { parallelSchema } from '../account.js';
import {
  containerBundleParamsSchema,
  containerIndexParamsSchema,
  containerResourceParamsSchema,
  containerResourceQuerySchema,
  kimTemplateSchema,
  staffTaskQuerySchema,
  staffTaskSchema,
  subjectExamSchema,
  subjectListRequestSchema,
  subjectListResponseSchema,
  subjectTestListRequestSchema,
  subjectTestListResponseSchema,
  taskSourceSchema,
  variantListRequestSchema,
  variantListResponseSchema,
} from '../kim.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const KIM_CALLS = {
  'POST /api/kim/subject/list': {
    roles: ['admin', 'coordinator', 'ugnik', 'expert'],
    meaning: 'subjects',
    body: subjectListRequestSchema,
    response: subjectListResponseSchema,
  },
  'POST /api/kim/subjectTest/list': {
    roles: ['admin', 'coordinator', 'ugnik', 'expert'],
    meaning: 'subject tests',
    body: subjectTestListRequestSchema,
    response: subjectTestListResponseSchema,
  },
  'GET /api/kim/parallels': {
    roles: 'any',
    meaning: 'parallels',
    response: z.array(parallelSchema),
  },
  'GET /api/kim/subjectexams': {
    roles: 'any',
    meaning: 'subject exams (subject + kind of exam)',
    response: z.array(subjectExamSchema),
  },
  'POST /api/kim/test/list': {
    roles: ['admin', 'coordinator', 'ugnik', 'expert'],
    meaning: 'tests (variants) with content status',
    body: variantListRequestSchema,
    response: variantListResponseSchema,
  },
  'GET /api/kim/htmlxmltext/{id}': {
    roles: ['admin', 'expert'],
    meaning: 'task source (HTML or QTI XML)',
    params: z.object({ id: idParamSchema }),
    response: taskSourceSchema,
  },
  'GET /api/kim/htmlContainer/{containerId}/{version}/bundles/{bundle}': {
    roles: ['participant', 'admin', 'expert'],
    meaning: 'a script/style bundle of a container (served sandboxed)',
    params: containerBundleParamsSchema,
    query: containerResourceQuerySchema,
    raw: 'file',
  },
  // Container resources: the stored bytes with their own MIME type, no JSON answer.
  'GET /api/kim/htmlContainer/{containerId}/{version}/index': {
    roles: ['participant', 'admin', 'expert'],
    meaning: 'entry page of a container',
    params: containerIndexParamsSchema,
    query: containerResourceQuerySchema,
    raw: 'file',
  },
  'GET /api/kim/htmlContainer/{containerId}/{version}/{resource}': {
    roles: ['participant', 'admin', 'expert'],
    meaning: 'a resource of a container',
    params: containerResourceParamsSchema,
    query: containerResourceQuerySchema,
    raw: 'file',
  },
  'GET /api/kimtemplate/byvariantid/{id}': {
    roles: ['participant', 'admin', 'expert'],
    meaning: 'layout template of a variant',
    params: z.object({ id: idParamSchema }),
    response: kimTemplateSchema,
  },
  'GET /api/kimtemplate/{id}': {
    roles: ['admin', 'expert'],
    meaning: 'a layout template',
    params: z.object({ id: idParamSchema }),
    response: kimTemplateSchema,
  },
  'GET /api/SubjectExams': {
    roles: 'any',
    meaning: 'subject exams',
    response: z.array(subjectExamSchema),
  },
  'GET /api/task/{variantId}/{taskNumber}': {
    roles: ['admin', 'expert'],
    meaning: 'a task of a variant; query withClassifiers',
    params: z.object({ variantId: idParamSchema, taskNumber: idParamSchema }),
    query: staffTaskQuerySchema,
    response: staffTaskSchema,
  },
} as const satisfies CallTable;
