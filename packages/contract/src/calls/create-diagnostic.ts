/** The calls of the create-diagnostic area (server/src/modules/create-diagnostic), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  createDiagnosticBodySchema,
  diagnosticExcelQuerySchema,
  diagnosticSchema,
  specificationOptionSchema,
  subjectTestOptionSchema,
  subjectTestOptionsQuerySchema,
} from '../diagnostic.js';
import type { CallTable } from '../call-schema.js';

export const CREATE_DIAGNOSTIC_CALLS = {
  'POST /api/createDiagnostic/create': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'create a diagnostic',
    body: createDiagnosticBodySchema,
    response: diagnosticSchema,
  },
  'GET /api/createDiagnostic/excel': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: "xlsx of a diagnostic's participants and codes; query diagnosticId",
    query: diagnosticExcelQuerySchema,
    raw: 'file',
  },
  'GET /api/createDiagnostic/specifications': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'test specifications to choose from',
    response: z.array(specificationOptionSchema),
  },
  'GET /api/createDiagnostic/subjectTests': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'subject tests to choose from',
    query: subjectTestOptionsQuerySchema,
    response: z.array(subjectTestOptionSchema),
  },
} as const satisfies CallTable;
