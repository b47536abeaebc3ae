/** The calls of the coordinator area (server/src/modules/coordinator), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { okSchema } from '../account.js';
import {
  staffOrganizatorBlockBodySchema,
  staffOrganizatorListRequestSchema,
  staffOrganizatorListResponseSchema,
  staffOrganizatorSaveBodySchema,
  staffOrganizatorSaveResultSchema,
  staffOrganizatorSchema,
  staffParticipantTestSchema,
  staffStudentSchema,
} from '../staff.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

const idParams = z.strictObject({ id: idParamSchema });

export const COORDINATOR_CALLS = {
  'DELETE /api/coordinator/student/{id}': {
    roles: ['coordinator'],
    meaning: 'delete a student of own school',
    params: idParams,
    response: okSchema,
  },
  'GET /api/coordinator/student/{id}': {
    roles: ['coordinator'],
    meaning: 'one student',
    params: idParams,
    response: staffStudentSchema,
  },
  'POST /api/coordinator/organizator/{id}': {
    roles: ['coordinator'],
    meaning: 'block or unblock an organizator of own school',
    params: idParams,
    body: staffOrganizatorBlockBodySchema,
    response: staffOrganizatorSchema,
  },
  'POST /api/coordinator/organizator/list': {
    roles: ['coordinator'],
    meaning: 'organizators of own school',
    body: staffOrganizatorListRequestSchema,
    response: staffOrganizatorListResponseSchema,
  },
  'POST /api/coordinator/organizator': {
    roles: ['coordinator'],
    meaning: 'create or update an organizator',
    body: staffOrganizatorSaveBodySchema,
    response: staffOrganizatorSaveResultSchema,
  },
  /** An xlsx file, no JSON answer. */
  'GET /api/coordinator/organizator/report/workerTest': {
    roles: ['coordinator'],
    meaning: "xlsx: organizators' worker-test (training) results",
    query: z.strictObject({}),
    raw: 'file',
  },
  'GET /api/coordinator/participantTest/{id}': {
    roles: ['coordinator'],
    meaning: 'one participant test',
    params: idParams,
    response: staffParticipantTestSchema,
  },
} as const satisfies CallTable;
