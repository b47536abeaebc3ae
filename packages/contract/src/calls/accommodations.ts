/** The calls of the accommodations area (server/src/modules/accommodations), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  bulkAccommodationsBodySchema,
  bulkAccommodationsResultSchema,
  bulkWorkerAccommodationsBodySchema,
  studentAccommodationsBodySchema,
  studentAccommodationsSchema,
  workerAccommodationsSchema,
  workerListQuerySchema,
  workerListSchema,
} from '../accommodations.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const ACCOMMODATIONS_CALLS = {
  // accommodations per student (issue 14, item 2; docs/accommodations.md)
  'GET /api/accommodations/students/{studentId}': {
    roles: ['coordinator', 'admin'],
    meaning: "a student's accommodations profile (extra time, large text, theme, line reader, speech)",
    ours: true,
    params: z.object({ studentId: idParamSchema }),
    response: studentAccommodationsSchema,
  },
  'PUT /api/accommodations/students/{studentId}': {
    roles: ['coordinator', 'admin'],
    meaning: "set or clear a student's accommodations profile",
    ours: true,
    params: z.object({ studentId: idParamSchema }),
    body: studentAccommodationsBodySchema,
    response: studentAccommodationsSchema,
  },
  'PUT /api/accommodations/students': {
    roles: ['coordinator', 'admin'],
    meaning: 'set or clear the same accommodations profile for many students at once',
    ours: true,
    body: bulkAccommodationsBodySchema,
    response: bulkAccommodationsResultSchema,
  },
  // accommodations per worker: staff taking worker tests (issue 14, item 6; docs/accommodations.md)
  'GET /api/accommodations/workers': {
    roles: ['coordinator', 'admin'],
    meaning: 'a page of workers (own school for a coordinator) with whether each has a profile',
    ours: true,
    query: workerListQuerySchema,
    response: workerListSchema,
  },
  'GET /api/accommodations/workers/{workerId}': {
    roles: ['coordinator', 'admin'],
    meaning: "a worker's accommodations profile",
    ours: true,
    params: z.object({ workerId: idParamSchema }),
    response: workerAccommodationsSchema,
  },
  'PUT /api/accommodations/workers/{workerId}': {
    roles: ['coordinator', 'admin'],
    meaning: "set or clear a worker's accommodations profile",
    ours: true,
    params: z.object({ workerId: idParamSchema }),
    body: studentAccommodationsBodySchema,
    response: workerAccommodationsSchema,
  },
  'PUT /api/accommodations/workers': {
    roles: ['coordinator', 'admin'],
    meaning: 'set or clear the same accommodations profile for many workers at once',
    ours: true,
    body: bulkWorkerAccommodationsBodySchema,
    response: bulkAccommodationsResultSchema,
  },
} as const satisfies CallTable;
