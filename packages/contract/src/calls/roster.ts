/** The calls of the roster area (server/src/modules/roster), each with its roles, meaning and schemas. */
import { rosterImportResultSchema, rosterTemplateQuerySchema, staffImportResultSchema } from '../roster.js';
import type { CallTable } from '../call-schema.js';

export const ROSTER_CALLS = {
  // roster import (issue 13)
  // roster import (issue 13): POST import reads a multipart form (rosterImportFormSchema documents
  // its fields); the template is a file, not JSON.
  'POST /api/admin/roster/import': {
    roles: ['coordinator', 'admin'],
    meaning: 'import students with their ОО, schools, buildings and classes from an xlsx or csv file',
    ours: true,
    consumes: ['multipart/form-data'],
    response: rosterImportResultSchema,
  },
  'GET /api/admin/roster/template': {
    roles: ['coordinator', 'admin'],
    meaning: 'the roster import template (xlsx or csv)',
    ours: true,
    query: rosterTemplateQuerySchema,
    raw: 'file',
  },
  'POST /api/admin/roster/staff/import': {
    roles: ['coordinator', 'admin'],
    meaning: 'import organizators, coordinators and workers of schools from an xlsx or csv file',
    ours: true,
    consumes: ['multipart/form-data'],
    response: staffImportResultSchema,
  },
  'GET /api/admin/roster/staff/template': {
    roles: ['coordinator', 'admin'],
    meaning: 'the staff import template (xlsx or csv)',
    ours: true,
    query: rosterTemplateQuerySchema,
    raw: 'file',
  },
} as const satisfies CallTable;
