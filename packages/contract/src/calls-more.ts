/** Rows of CALL_SCHEMAS (calls.ts) for results, expert grading, monitoring, the supervision authority, account and session calls. */
import { z } from 'zod';
import { parallelSchema, powChallengeSchema } from './account.js';
import type { CallSchemas } from './call-schema.js';
import type { CallKey } from './endpoints.js';
import { expertAnswersZipQuerySchema } from './expert.js';
import { idParamSchema } from './user.js';
import { listResponseSchema } from './paging.js';
import { resultVerificationSchema, resultVerifyParamsSchema } from './results.js';
import {
  ugnikBuildingListRequestSchema,
  ugnikBuildingSchema,
  ugnikClassListRequestSchema,
  ugnikClassSchema,
  ugnikMainSubjectTestListRequestSchema,
  ugnikMainSubjectTestSchema,
  ugnikOoListRequestSchema,
  ugnikOoSchema,
  ugnikParallelListRequestSchema,
  ugnikParallelSchema,
  ugnikParticipantSaveBodySchema,
  ugnikParticipantSaveResultSchema,
  ugnikSchoolListRequestSchema,
  ugnikSchoolSchema,
} from './ugnik.js';

export const MORE_CALL_SCHEMAS = {
  // ------------------------------------------------------------ account
  'GET /api/Account/Parallels': { response: z.array(parallelSchema) },
  'GET /api/Account/LoginChallenge': { response: powChallengeSchema },
  // ------------------------------------------------------------ files (a download: no JSON answer)
  'GET /api/files/{id}': { params: z.object({ id: idParamSchema }) },
  // ------------------------------------------------------------ results
  'GET /api/results/verify/{code}': { params: resultVerifyParamsSchema, response: resultVerificationSchema },
  // ------------------------------------------------------------ expert grading (a zip download)
  'GET /api/ParticipantTest/getExpertAnswersFileForDownloader': { query: expertAnswersZipQuerySchema },
  // ------------------------------------------------------------ the supervision authority (/api/ugnik)
  'POST /api/ugnik/participantTest/save': {
    body: ugnikParticipantSaveBodySchema,
    response: ugnikParticipantSaveResultSchema,
  },
  'POST /api/ugnik/oo/list': { body: ugnikOoListRequestSchema, response: listResponseSchema(ugnikOoSchema) },
  'POST /api/ugnik/school/list': {
    body: ugnikSchoolListRequestSchema,
    response: listResponseSchema(ugnikSchoolSchema),
  },
  'POST /api/ugnik/building/list': {
    body: ugnikBuildingListRequestSchema,
    response: listResponseSchema(ugnikBuildingSchema),
  },
  'POST /api/ugnik/class/list': {
    body: ugnikClassListRequestSchema,
    response: listResponseSchema(ugnikClassSchema),
  },
  'POST /api/ugnik/parallel/list': {
    body: ugnikParallelListRequestSchema,
    response: listResponseSchema(ugnikParallelSchema),
  },
  'POST /api/ugnik/mainSubjectTest/list': {
    body: ugnikMainSubjectTestListRequestSchema,
    response: listResponseSchema(ugnikMainSubjectTestSchema),
  },
} as const satisfies Partial<Record<CallKey, CallSchemas>>;
