/** The calls of the areas area (server/src/modules/areas), each with its roles, meaning and schemas. */
import { z } from 'zod';
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
  'GET /api/ugnik/area': {
    roles: ['ugnik'],
    meaning: "the ugnik's own area with its school count",
    ours: true,
    response: z.object({
      area: areaSchema.nullable().describe('null: the user is bound to no area'),
    }),
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
