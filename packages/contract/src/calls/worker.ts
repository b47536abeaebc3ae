/** The calls of the worker area (server/src/modules/worker), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { okSchema } from '../account.js';
import { idParamSchema } from '../user.js';
import {
  generateActivationCodeQuerySchema,
  generatedActivationCodeSchema,
  workerPositionListRequestSchema,
  workerPositionListResponseSchema,
  workerTestListRequestSchema,
  workerTestListResponseSchema,
  workerTestSaveBodySchema,
  workerTestSchema,
} from '../worker-test.js';
import type { CallTable } from '../call-schema.js';

export const WORKER_CALLS = {
  'POST /api/workerPosition/list': {
    roles: ['coordinator', 'admin'],
    meaning: 'worker positions',
    body: workerPositionListRequestSchema,
    response: workerPositionListResponseSchema,
  },
  'DELETE /api/workerTest/{id}': {
    roles: ['coordinator', 'admin'],
    meaning: 'delete a worker test',
    params: z.object({ id: idParamSchema }),
    response: okSchema,
  },
  'GET /api/workerTest/{id}': {
    roles: ['coordinator', 'admin'],
    meaning: 'one worker test',
    params: z.object({ id: idParamSchema }),
    response: workerTestSchema,
  },
  'GET /api/workerTest/generateActivationCode': {
    roles: ['coordinator', 'admin'],
    meaning: 'new activation code for a worker test',
    stateChanging: true,
    query: generateActivationCodeQuerySchema,
    response: generatedActivationCodeSchema,
  },
  'POST /api/workerTest/list': {
    roles: ['coordinator', 'admin'],
    meaning: 'worker tests',
    body: workerTestListRequestSchema,
    response: workerTestListResponseSchema,
  },
  'PUT /api/workerTest/save': {
    roles: ['coordinator', 'admin'],
    meaning: 'create or update a worker test',
    body: workerTestSaveBodySchema,
    response: workerTestSchema,
  },
} as const satisfies CallTable;
