/** Rows of CALL_SCHEMAS (calls.ts) for the school staff's calls (coordinator and organizator work places). */
import { z } from 'zod';
import type { CallSchemas } from './call-schema.js';
import type { CallKey } from './endpoints.js';
import { okSchema } from './account.js';
import { idParamSchema } from './user.js';
import {
  staffBuildingListRequestSchema,
  staffBuildingListResponseSchema,
  staffClassListRequestSchema,
  staffClassListResponseSchema,
  staffDiagnosticByParamBodySchema,
  staffDiagnosticByParamResponseSchema,
  staffDiagnosticListRequestSchema,
  staffDiagnosticListResponseSchema,
  staffOrganizatorBlockBodySchema,
  staffOrganizatorListRequestSchema,
  staffOrganizatorListResponseSchema,
  staffOrganizatorSaveBodySchema,
  staffOrganizatorSaveResultSchema,
  staffOrganizatorSchema,
  staffParallelListRequestSchema,
  staffParallelListResponseSchema,
  staffParticipantTestListRequestSchema,
  staffParticipantTestListResponseSchema,
  staffParticipantTestSaveBodySchema,
  staffParticipantTestSaveResultSchema,
  staffParticipantTestSchema,
  staffStudentListRequestSchema,
  staffStudentListResponseSchema,
  staffStudentSaveBodySchema,
  staffStudentSchema,
} from './staff.js';

/** The two school staff roles whose work places share the school-data calls. */
type SchoolStaffRole = 'coordinator' | 'organizator';

/**
 * The school-data calls (`POST /api/<role>/<path>`): the same schemas for the coordinator (own
 * school) and the organizator (assigned rooms), only the prefix and the scope differ.
 */
const SCHOOL_DATA_CALLS = {
  'student/list': { body: staffStudentListRequestSchema, response: staffStudentListResponseSchema },
  student: { body: staffStudentSaveBodySchema, response: staffStudentSchema },
  'buildings/list': { body: staffBuildingListRequestSchema, response: staffBuildingListResponseSchema },
  'class/list': { body: staffClassListRequestSchema, response: staffClassListResponseSchema },
  'parallel/list': { body: staffParallelListRequestSchema, response: staffParallelListResponseSchema },
  'diagnostic/list': { body: staffDiagnosticListRequestSchema, response: staffDiagnosticListResponseSchema },
  'diagnostic/byParam': {
    body: staffDiagnosticByParamBodySchema,
    response: staffDiagnosticByParamResponseSchema,
  },
  'participantTest/list': {
    body: staffParticipantTestListRequestSchema,
    response: staffParticipantTestListResponseSchema,
  },
  'participantTest/save': {
    body: staffParticipantTestSaveBodySchema,
    response: staffParticipantTestSaveResultSchema,
  },
} as const;

type SchoolDataCalls<R extends SchoolStaffRole> = {
  [P in keyof typeof SCHOOL_DATA_CALLS as `POST /api/${R}/${P}`]: (typeof SCHOOL_DATA_CALLS)[P];
};

/** One role's rows of the school-data calls: the same schema objects under the role's prefix. */
const schoolDataCallsOf = <R extends SchoolStaffRole>(role: R) =>
  Object.fromEntries(
    Object.entries(SCHOOL_DATA_CALLS).map(([path, schemas]) => [`POST /api/${role}/${path}`, schemas]),
  ) as SchoolDataCalls<R>;

const idParams = z.strictObject({ id: idParamSchema });

export const SCHOOL_CALL_SCHEMAS = {
  ...schoolDataCallsOf('coordinator'),
  ...schoolDataCallsOf('organizator'),
  'GET /api/coordinator/student/{id}': { params: idParams, response: staffStudentSchema },
  'DELETE /api/coordinator/student/{id}': { params: idParams, response: okSchema },
  'GET /api/coordinator/participantTest/{id}': { params: idParams, response: staffParticipantTestSchema },
  'POST /api/coordinator/organizator/list': {
    body: staffOrganizatorListRequestSchema,
    response: staffOrganizatorListResponseSchema,
  },
  'POST /api/coordinator/organizator': {
    body: staffOrganizatorSaveBodySchema,
    response: staffOrganizatorSaveResultSchema,
  },
  'POST /api/coordinator/organizator/{id}': {
    params: idParams,
    body: staffOrganizatorBlockBodySchema,
    response: staffOrganizatorSchema,
  },
  /** An xlsx file, no JSON answer. */
  'GET /api/coordinator/organizator/report/workerTest': { query: z.strictObject({}), raw: 'file' },
} as const satisfies Partial<Record<CallKey, CallSchemas>>;
