/** The calls of the areas area (server/src/modules/areas), each with its roles, meaning and schemas. */
import {
  areaCreateBodySchema,
  areaListSchema,
  areaSchema,
  ugnikAreaDiagnosticDetailSchema,
  ugnikAreaDiagnosticsQuerySchema,
  ugnikAreaDiagnosticsSchema,
} from '../areas.js';
import { idPathSchema } from '../calls-participant.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const AREAS_CALLS = {
  'GET /api/admin/areas': {
    roles: ADMIN,
    meaning: 'the areas of the region, with their school counts',
    ours: true,
    response: areaListSchema,
  },
  'POST /api/admin/areas': {
    roles: ADMIN,
    meaning: 'create an area',
    ours: true,
    body: areaCreateBodySchema,
    response: areaSchema,
  },
  'GET /api/ugnik/area/diagnostics': {
    roles: ['ugnik'],
    meaning: "the school diagnostics of the schools in the ugnik's area (read-only)",
    ours: true,
    query: ugnikAreaDiagnosticsQuerySchema,
    response: ugnikAreaDiagnosticsSchema,
  },
  'GET /api/ugnik/area/diagnostic/{id}': {
    roles: ['ugnik'],
    meaning: "one school diagnostic of the ugnik's area, with its schools there",
    ours: true,
    params: idPathSchema,
    response: ugnikAreaDiagnosticDetailSchema,
  },
} as const satisfies CallTable;
